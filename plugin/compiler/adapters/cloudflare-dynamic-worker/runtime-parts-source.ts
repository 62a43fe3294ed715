/**
 * Which parts of the runtime (runtime-parts.ts) an agent module names, decided from its runtime
 * config when the Worker's source is generated: the provider clients of the wires its model pins
 * use and the agentic loop (configs with models), the composition runner (dags), the MCP client
 * (`mcp-http` tools reached by URL, which the module does not implement itself). A part not named
 * is not imported, so esbuild leaves its code out of the bundle: a tool-only leaf carries no
 * provider client, no composition, no MCP client and no agentic loop.
 */
import type { CodeBlockWriter } from 'ts-morph';
import type { ProviderWire, RuntimeConfig } from '../../../runtime/runtime-config';
import { stringLiteral } from './ts-literals';

/** The runtime's client constructor for each wire (exported by `agentdef:runtime`). */
const CLIENT_BY_WIRE: Readonly<Record<ProviderWire, string>> = {
  'openai-chat': 'createOpenAiChatClient',
  'anthropic-messages': 'createAnthropicMessagesClient',
  'ollama-chat': 'createOllamaChatClient',
};

/** Every name the parts may import, reserved so no tool's local name takes one. */
export const RUNTIME_PART_NAMES: readonly string[] = ['modelClientFrom', 'runAgenticLoop', 'runComposition', 'createMcpHttpToolHandler', ...Object.values(CLIENT_BY_WIRE)];

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
    entries.push(['modelClient', `modelClientFrom({ ${wires.map((wire) => `${stringLiteral(wire)}: ${CLIENT_BY_WIRE[wire]}`).join(', ')} })`]);
  }
  if (config.composition.kind === 'dag') {
    imports.add('runComposition');
    entries.push(['runComposition', 'runComposition']);
  } else if (wires.length > 0) {
    imports.add('runAgenticLoop');
    entries.push(['agenticLoop', 'runAgenticLoop']);
  }
  if (config.tools.some((tool) => tool.kind === 'mcp-http' && tool.url && !tool.binding)) {
    imports.add('createMcpHttpToolHandler');
    entries.push(['mcpHttpTool', 'createMcpHttpToolHandler']);
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
