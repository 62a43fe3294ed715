/**
 * Which parts of the runtime (runtime-parts.ts) an agent module names, decided from its runtime
 * config when the Worker's source is generated: the provider clients of the wires its model pins
 * use and the agentic loop with its one compaction policy (configs with models), the composition
 * runner (dags), the MCP client (`mcp-http` tools reached by URL, which the module does not
 * implement itself), receipt signing (`receipts.mode: signed`), the config check (only for a
 * config that fails it), the served card's scrub (only for a config whose card holds something the
 * scrub takes out). A part not named is not imported, so esbuild leaves its code out of the
 * bundle: a tool-only leaf carries no provider client, no composition, no MCP client and no
 * agentic loop, and no receipt code when its receipts are off.
 */
import type CodeBlockWriter from 'code-block-writer';
import { buildAgentCardUnscrubbed } from '../../runtime/agent-card';
import { scrubKeyMaterial } from '../../runtime/card-secrets';
import type { CompactionPolicy, ProviderWire, RuntimeConfig } from '../../runtime/runtime-config';
import { checkRuntimeConfig } from '../../runtime/runtime-config';
import { stringLiteral } from './ts-literals';

/** The runtime's client constructor for each wire (exported by `agentdef:runtime`). */
const CLIENT_BY_WIRE: Readonly<Record<ProviderWire, string>> = {
  'openai-chat': 'createOpenAiChatClient',
  'anthropic-messages': 'createAnthropicMessagesClient',
  'ollama-chat': 'createOllamaChatClient',
};

/** The runtime's step of each compaction policy (compaction.ts). */
const COMPACTION_BY_POLICY: Readonly<Record<CompactionPolicy, string>> = {
  summarise: 'summariseOlderSteps',
  drop: 'dropOlderSteps',
  quarantine: 'quarantineOlderSteps',
};

/** Every name the parts may import, reserved so no tool's local name takes one. */
export const RUNTIME_PART_NAMES: readonly string[] = [
  'modelClientFrom',
  'createAgenticLoop',
  'compactWith',
  'runComposition',
  'createMcpHttpToolHandler',
  'signedReceipts',
  'runHybridLeaf',
  'checkRuntimeConfig',
  'scrubKeyMaterial',
  ...Object.values(CLIENT_BY_WIRE),
  ...Object.values(COMPACTION_BY_POLICY),
];

/** The agentic loop with the compaction policy the config uses (the loop's default: drop), or none without a context budget. */
function agenticLoopSource(config: RuntimeConfig, imports: Set<string>): string {
  imports.add('createAgenticLoop');
  if (config.memory.contextWindowBudget === undefined) return 'createAgenticLoop()';
  const policy = config.memory.compactionPolicy ?? 'drop';
  imports.add('compactWith');
  // A policy the runtime does not know compacts nothing there either.
  if (!Object.hasOwn(COMPACTION_BY_POLICY, policy)) return 'createAgenticLoop(compactWith({}))';
  const step = COMPACTION_BY_POLICY[policy];
  imports.add(step);
  return `createAgenticLoop(compactWith({ ${policy}: ${step} }))`;
}

/** An origin no request has, standing for the one a card without `publicUrl` is served at. */
const PROBE_ORIGIN = 'https://agent.invalid';

/**
 * Whether the card the config makes holds anything the scrub takes out. Its every string comes
 * from the config but the endpoint URL, which without `publicUrl` is the request's own origin.
 */
export function cardNeedsScrub(config: RuntimeConfig): boolean {
  try {
    const card = buildAgentCardUnscrubbed(
      config,
      config.card.publicUrl === undefined ? { requestOrigin: PROBE_ORIGIN } : {},
    );
    return JSON.stringify(scrubKeyMaterial(card)) !== JSON.stringify(card);
  } catch {
    // A card that cannot be built here (an unusable publicUrl) keeps the scrub, whatever it holds.
    return true;
  }
}

export interface RuntimePartsSource {
  /** Names the module imports from `agentdef:runtime`, sorted. */
  imports: string[];
  /** Writes the `parts` object literal; absent when the agent uses no optional part. */
  write?: (writer: CodeBlockWriter) => void;
}

export function runtimePartsSource(config: RuntimeConfig): RuntimePartsSource {
  const wires = [...new Set(config.models.map((pin) => pin.wire))].sort();
  const entries: [string, string][] = [];
  const imports = new Set<string>();
  if (wires.length > 0) {
    imports.add('modelClientFrom');
    for (const wire of wires) imports.add(CLIENT_BY_WIRE[wire]);
    entries.push([
      'modelClient',
      `modelClientFrom({ ${wires.map((wire) => `${stringLiteral(wire)}: ${CLIENT_BY_WIRE[wire]}`).join(', ')} })`,
    ]);
  }
  if (config.composition.kind === 'dag') {
    imports.add('runComposition');
    entries.push(['runComposition', 'runComposition']);
  } else if (wires.length > 0) {
    entries.push(['agenticLoop', agenticLoopSource(config, imports)]);
    if (config.hybrid !== undefined) {
      imports.add('runHybridLeaf');
      entries.push(['hybridLeaf', 'runHybridLeaf']);
    }
  }
  if (config.tools.some((tool) => tool.kind === 'mcp-http' && tool.url && !tool.binding)) {
    imports.add('createMcpHttpToolHandler');
    entries.push(['mcpHttpTool', 'createMcpHttpToolHandler']);
  }
  if (config.receipts.mode === 'signed') {
    imports.add('signedReceipts');
    entries.push(['receiptSigning', 'signedReceipts']);
  }
  // The config is a constant of the module: checked here, the Worker carries the check only to fail it.
  if (checkRuntimeConfig(config).length > 0) {
    imports.add('checkRuntimeConfig');
    entries.push(['configCheck', 'checkRuntimeConfig']);
  }
  // So is the card's text: the Worker carries the scrub only when there is something to take out.
  if (cardNeedsScrub(config)) {
    imports.add('scrubKeyMaterial');
    entries.push(['cardScrub', 'scrubKeyMaterial']);
  }
  if (entries.length === 0) return { imports: [] };
  return {
    imports: [...imports].sort(),
    write: (writer) => {
      writer.write('{').newLine();
      writer.indent(() => {
        for (const [name, value] of entries) writer.write(name === value ? `${name},` : `${name}: ${value},`).newLine();
      });
      writer.write('}');
    },
  };
}
