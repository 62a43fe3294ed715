/**
 * Workers carry only the runtime parts their agents use: the bundled worker.js of the examples,
 * searched for strings only a part's code holds. A tool-only leaf (text-stats) has no provider
 * client, no composition, no MCP client, no agentic loop and no compaction; an agentic leaf
 * (web-summarizer, OpenAI) has its own provider client and the agentic loop, and nothing else; a
 * dag (text-digest) has the composition runner; compaction comes with its agent's policy only
 * (web-summarizer: summarise). Receipt signing comes only with signed receipts
 * (text-stats has them off), the config check only for a config that fails it, and the card's
 * proto presence table never (the served card's payload needs none). That the bundles still
 * serve A2A is e2e/worker/'s job.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agenticConfig, toolOnlyConfig } from '../../runtime/__test-support__/configs';
import type { RuntimeConfig, RuntimeTool } from '../../runtime/runtime-config';
import { emitAgent, planAgent } from '../../compiler/compile';
import { loadWorkspaceConfig } from '../../compiler/workspace-config';
import { runtimePartsSource } from './runtime-parts-source';

const ROOT = join(__dirname, '..', '..', '..');

/** A string only the named part's code holds (messages, header names, URL paths survive minification). */
const MARKERS = {
  openAiClient: '/chat/completions',
  anthropicClient: 'anthropic-version',
  ollamaClient: '/api/chat',
  composition: 'the composition edges form a cycle',
  mcpClient: 'mcp-session-id',
  agenticLoop: 'You compress the working notes',
  compaction: 'compaction; the budget is',
  dropCompaction: 'earlier step(s) to fit the context budget',
  quarantineCompaction: 'quarantined out of context',
  receipts: 'the receipt signing key is not set',
  configCheck: 'receipts.mode: must be signed or off',
  cardPresenceTable: 'AuthorizationCodeOAuthFlow',
} as const;

type Part = keyof typeof MARKERS;

async function workerJs(example: string): Promise<string> {
  const planned = await planAgent({
    file: `examples/${example}/agent.json`,
    workspaceRoot: ROOT,
    target: 'cloudflare-dynamic-worker',
  });
  expect(planned.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const emitted = await emitAgent(
    { plan: planned.plan!, resolved: planned.resolved! },
    { workspaceRoot: ROOT, workspace: loadWorkspaceConfig(ROOT).config },
  );
  return emitted.files!.find((f) => f.path === 'worker.js')!.contents;
}

function partsIn(code: string): Part[] {
  return (Object.keys(MARKERS) as Part[]).filter((part) => code.includes(MARKERS[part]));
}

describe('the runtime parts a Worker bundles', () => {
  it('a tool-only leaf bundles no provider client, composition, MCP client, agentic loop or compaction', async () => {
    expect(partsIn(await workerJs('text-stats'))).toEqual([]);
  });

  it('an agentic leaf bundles its own provider client, the agentic loop and compaction, nothing else', async () => {
    expect(partsIn(await workerJs('web-summarizer'))).toEqual([
      'openAiClient',
      'agenticLoop',
      'compaction',
      'receipts',
    ]);
  });

  it('a tool-only dag bundles the composition runner, no provider client or agentic loop', async () => {
    expect(partsIn(await workerJs('text-digest'))).toEqual(['composition', 'receipts']);
  });

  it('names the MCP client only for mcp-http tools reached by URL, not through a service binding', () => {
    const config = (tools: Omit<RuntimeTool, 'version' | 'risk'>[]) =>
      toolOnlyConfig({
        tools: tools.map((tool) => ({ version: '1.0.0', risk: 'low', ...tool })),
        receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null },
      });
    expect(
      runtimePartsSource(config([{ id: 't', name: 't', kind: 'mcp-http', url: 'https://tools.example/mcp' }])).imports,
    ).toEqual(['createMcpHttpToolHandler']);
    expect(
      runtimePartsSource(
        config([{ id: 't', name: 't', kind: 'mcp-http', url: 'https://tools.example/mcp', binding: 'TOOLS' }]),
      ).imports,
    ).toEqual([]);
    expect(runtimePartsSource(config([{ id: 't', name: 't', kind: 'bundled' }])).write).toBeUndefined();
  });

  it('names the agentic loop with the compaction policy the config uses, none without a context budget', () => {
    const agentic = (memory: RuntimeConfig['memory']) =>
      runtimePartsSource(agenticConfig('openai-chat', 'https://llm.example', { memory })).imports;
    expect(agentic({})).toEqual(['createAgenticLoop', 'createOpenAiChatClient', 'modelClientFrom', 'signedReceipts']);
    expect(agentic({ contextWindowBudget: 1000 })).toEqual([
      'compactWith',
      'createAgenticLoop',
      'createOpenAiChatClient',
      'dropOlderSteps',
      'modelClientFrom',
      'signedReceipts',
    ]);
    expect(agentic({ contextWindowBudget: 1000, compactionPolicy: 'quarantine' })).toContain('quarantineOlderSteps');
  });

  it('names receipt signing for signed receipts, and the config check only for a config that fails it', () => {
    expect(runtimePartsSource(toolOnlyConfig()).imports).toEqual(['signedReceipts']);
    const failing = { ...toolOnlyConfig(), skills: [] } as RuntimeConfig;
    expect(runtimePartsSource(failing).imports).toEqual(['checkRuntimeConfig', 'signedReceipts']);
  });
});
