/**
 * Telemetry on the Worker (workerd through miniflare, loaded through the Worker Loader as
 * deployed): fallback-writer's runs are exported with `fetch` to a collector only when its origin
 * is on the agent's egress allow-list.
 * - Allowed: a copy of fallback-writer names its collector (`telemetryContract.collector`,
 *   https://collector.example.com) and declares the `session-report` and `experiment` streams; the
 *   compiler puts the collector on the allow-list and the Worker, with no `AGENTDEF_OTLP_ENDPOINT`,
 *   exports to it. The spans reach a loopback OTLP receiver, decode by the official definitions,
 *   and carry the GenAI attributes, the tool taxonomy and the two stream events on the root span;
 *   the collector's header (`AGENTDEF_OTLP_HEADERS`, a secret) reaches the collector and no log.
 * - Not allowed: fallback-writer as shipped names no collector; a collector on another origin
 *   than its model's receives nothing, and the Worker logs `telemetry.blocked` with its host only
 *   (not the token in its URL).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../plugin/compiler/canonical-json';
import { compileAgent } from '../../plugin/compiler/compile';
import {
  startScriptedProvider,
  type ScriptTurn,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import { REPO, a2aAsk, receiptKeys, scratch, type Scratch } from '../local/support/host-harness';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { attributeMap, checkOtlpJson, spansOf } from '../support/otlp-validate';
import { startCompiledWorker } from '../worker/support/start-compiled-worker';

const ANTHROPIC_KEY = 'sk-ant-e2e-wotel-' + 'R5nB2kW8pD3zY7qM';
const COLLECTOR_TOKEN = 'otlp-worker-token-' + 'F6hJ1sV9cX';

function diffingModel(_index: number, ctx: TurnContext): ScriptTurn {
  if (ctx.lastToolResults.length === 0)
    return {
      toolCalls: [{ name: 'apply_unified_diff', arguments: { source: 'a\n', diff: '@@ -1 +1 @@\n-a\n+b\n' } }],
    };
  return { text: 'Applied: b' };
}

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let out: string;
let outWithCollector: string;
let collectorDigest: string;
const COLLECTOR = 'https://collector.example.com';
beforeAll(async () => {
  tmp = scratch('telemetry-worker');
  keys = await receiptKeys();
  out = tmp.path('worker');
  const compiled = await compileAgent({
    file: 'examples/fallback-writer/agent.json',
    workspaceRoot: REPO,
    target: 'cloudflare-dynamic-worker',
    outDir: out,
  });
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

  // The same agent naming its collector and declaring both streams, compiled from a scratch workspace.
  const definition = JSON.parse(readFileSync(join(REPO, 'examples/fallback-writer/agent.json'), 'utf8'));
  definition.telemetryContract.collector = COLLECTOR;
  definition.telemetryContract.telemetryKinds = ['events', 'session-report', 'experiment'];
  collectorDigest = digestOf(definition);
  mkdirSync(tmp.path('ws', 'fallback-writer'), { recursive: true });
  writeFileSync(tmp.path('ws', 'fallback-writer', 'agent.json'), `${JSON.stringify(definition, null, 2)}\n`);
  mkdirSync(tmp.path('ws', 'tools'), { recursive: true });
  for (const file of ['diff-apply.ts', 'tool-context.ts'])
    copyFileSync(join(REPO, 'examples/tools', file), tmp.path('ws', 'tools', file));
  writeFileSync(
    tmp.path('ws', 'tools.json'),
    JSON.stringify({ tools: { 'diff-apply': { module: './tools/diff-apply.ts', export: 'applyUnifiedDiff' } } }),
  );
  outWithCollector = tmp.path('worker-collector');
  const withCollector = await compileAgent({
    file: 'fallback-writer/agent.json',
    workspaceRoot: tmp.path('ws'),
    target: 'cloudflare-dynamic-worker',
    outDir: outWithCollector,
  });
  expect(withCollector.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
});
afterAll(() => tmp.cleanup());

describe('the Worker exports its runs as OTLP through fetch', () => {
  it('to the collector the definition names (on the egress allow-list), with the session-report and experiment events', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: diffingModel,
    });
    const receiver = await startOtlpReceiver();
    const worker = await startCompiledWorker(outWithCollector, {
      secrets: {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        AGENTDEF_RECEIPT_KEY: keys.secret,
        AGENTDEF_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
      },
      upstreams: { 'https://api.anthropic.com': model.url, [COLLECTOR]: receiver.url },
    });
    try {
      const { task } = await a2aAsk(worker.url, 'apply it');
      expect(task.status?.state).toBe(3);
      const [received] = await receiver.waitFor(1);
      expect(received!.headers['authorization']).toBe(`Bearer ${COLLECTOR_TOKEN}`);
      const check = checkOtlpJson('ExportTraceServiceRequest', received!.body);
      expect(check.problems).toEqual([]);
      expect(received!.path).toBe('/v1/traces');
      const spans = spansOf(received!.body);
      const root = spans.find((s) => s.name === 'invoke_agent fallback-writer') as any;
      expect(root?.attrs).toMatchObject({
        'agentdef.card': 'fallback-writer',
        'agentdef.agentic_gate': 'agentic',
        'agentdef.run.stop_reason': 'answer',
      });
      const events = Object.fromEntries(
        (root.events ?? []).map((e: any) => [e.name, attributeMap(e.attributes)] as const),
      ) as Record<string, Record<string, unknown>>;
      expect(Object.keys(events)).toEqual(['agentdef.session_report', 'agentdef.experiment']);
      expect(events['agentdef.session_report']).toMatchObject({
        'agentdef.session.model_calls': '2',
        'agentdef.session.tool_calls': '1',
        'agentdef.session.outcome': 'ok',
        'agentdef.session.stop_reason': 'answer',
      });
      expect(events['agentdef.experiment']?.['agentdef.experiment.model_set']).toMatch(
        /^primary:anthropic\/claude-haiku-4-5[^,]*@2025-10-01$/,
      );
      expect(events['agentdef.experiment']?.['agentdef.experiment.definition_digest']).toBe(collectorDigest);
      expect(events['agentdef.experiment']?.['agentdef.experiment.outcome']).toBe('ok');
      const chats = spans.filter((s) => s.attrs['gen_ai.operation.name'] === 'chat');
      expect(chats).toHaveLength(2);
      for (const chat of chats) expect(chat.attrs['gen_ai.provider.name']).toBe('anthropic');
      expect(spans.find((s) => s.name === 'execute_tool apply_unified_diff')?.attrs).toMatchObject({
        'agentdef.tool.tool': 'diff-apply',
        'agentdef.tool.ok': true,
      });
      expect(received!.text.includes(ANTHROPIC_KEY)).toBe(false);
      expect(worker.logs.join('').includes(COLLECTOR_TOKEN)).toBe(false);
    } finally {
      await worker.dispose();
      await receiver.close();
      await model.close();
    }
  });

  it('to no collector off the allow-list: nothing arrives, telemetry.blocked names the host only', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: diffingModel,
    });
    const receiver = await startOtlpReceiver();
    const worker = await startCompiledWorker(out, {
      secrets: {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        AGENTDEF_RECEIPT_KEY: keys.secret,
        AGENTDEF_OTLP_ENDPOINT: `https://collector.example.com/otlp?token=${COLLECTOR_TOKEN}`,
      },
      upstreams: { 'https://api.anthropic.com': model.url, 'https://collector.example.com': receiver.url },
    });
    try {
      const { task } = await a2aAsk(worker.url, 'apply it');
      expect(task.status?.state).toBe(3);
      // The run's receipt is delivered after the export would have been: once it is there, so would the spans be.
      await worker.receipts(1, 5000);
      const logs = worker.logs.join('');
      expect(logs).toContain('"event":"telemetry.blocked"');
      expect(logs).toContain('"host":"collector.example.com"');
      expect(logs.includes(COLLECTOR_TOKEN)).toBe(false);
      expect(receiver.received).toEqual([]);
      expect(worker.outbound.some((o) => JSON.stringify(o).includes('collector.example.com'))).toBe(false);
    } finally {
      await worker.dispose();
      await receiver.close();
      await model.close();
    }
  });
});
