/**
 * Telemetry on real hosts: fallback-writer compiled for HB3 and for the local launcher (Node
 * processes started with `agentdef run`), against a scripted Anthropic-wire model on loopback that
 * calls the diff tool once and then answers. With `OTEL_EXPORTER_OTLP_ENDPOINT` set to a loopback
 * OTLP/HTTP receiver, each run's spans arrive there as an `ExportTraceServiceRequest` that decodes
 * by the official protocol definitions, with the GenAI attributes and the tool taxonomy, and the
 * collector's header (a secret) reaches the collector but no output of the host. Without an
 * endpoint, the same document is one line of `telemetry.jsonl` beside the receipts file. The root
 * span carries the `agentdef.session_report` event fallback-writer's `telemetryKinds` asks for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedProvider,
  type ScriptTurn,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import {
  a2aAsk,
  agentdefRun,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { attributeMap, checkOtlpJson, spansOf } from '../support/otlp-validate';

const ANTHROPIC_KEY = 'sk-ant-e2e-otel-' + 'H3mV8qZ1xN6rT4wB';
const COLLECTOR_TOKEN = 'otlp-collector-token-' + 'p9Q2vL7kX4';

function diffingModel(_index: number, ctx: TurnContext): ScriptTurn {
  if (ctx.lastToolResults.length === 0)
    return {
      toolCalls: [{ name: 'apply_unified_diff', arguments: { source: 'a\n', diff: '@@ -1 +1 @@\n-a\n+b\n' } }],
    };
  return { text: 'Applied: b' };
}

function expectRunSpans(body: unknown, target: string): void {
  const check = checkOtlpJson('ExportTraceServiceRequest', body);
  expect(check.problems, target).toEqual([]);
  const spans = spansOf(body);
  const root = spans.find((s) => s.name === 'invoke_agent fallback-writer');
  expect(root?.attrs).toMatchObject({
    'agentdef.card': 'fallback-writer',
    'agentdef.lifecycle_state': 'mcp-resident',
    'agentdef.agentic_gate': 'agentic',
    'agentdef.run.stop_reason': 'answer',
  });
  const chats = spans.filter((s) => s.attrs['gen_ai.operation.name'] === 'chat');
  expect(chats).toHaveLength(2);
  for (const chat of chats) {
    expect(chat.parentSpanId).toBe(root!.spanId);
    expect(chat.attrs).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'agentdef.model.role': 'primary' });
    expect(String(chat.attrs['gen_ai.request.model'])).toMatch(/claude/);
    expect(Number(chat.attrs['gen_ai.usage.input_tokens'])).toBeGreaterThan(0);
  }
  const tool = spans.find((s) => s.name === 'execute_tool apply_unified_diff');
  expect(tool?.attrs).toMatchObject({
    'gen_ai.tool.name': 'apply_unified_diff',
    'agentdef.tool.tool': 'diff-apply',
    'agentdef.tool.operation': 'apply_unified_diff',
    'agentdef.tool.ok': true,
  });
  expect(typeof tool?.attrs['agentdef.tool.category']).toBe('string');
  expect(Number(tool?.attrs['agentdef.tool.latency_ms'])).toBeGreaterThanOrEqual(0);
  // fallback-writer's telemetryKinds lists session-report (not experiment): one event on the root span.
  const events = ((root as any).events ?? []) as { name: string; attributes: any[] }[];
  expect(events.map((e) => e.name)).toEqual(['agentdef.session_report']);
  expect(attributeMap(events[0]!.attributes)).toMatchObject({
    'agentdef.run.id': root!.attrs['agentdef.run.id'],
    'agentdef.session.model_calls': '2',
    'agentdef.session.tool_calls': '1',
    'agentdef.session.outcome': 'ok',
    'agentdef.session.stop_reason': 'answer',
  });
}

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
beforeAll(async () => {
  tmp = scratch('telemetry-otlp');
  keys = await receiptKeys();
});
afterAll(() => tmp.cleanup());

describe.each([
  ['the HB3 job', 'hb3'],
  ['the local launcher', 'local-mac'],
] as const)('%s exports its runs as OTLP', (_host, target) => {
  it('to the OTLP/HTTP collector OTEL_EXPORTER_OTLP_ENDPOINT names, with its headers', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: diffingModel,
    });
    const receiver = await startOtlpReceiver();
    const out = tmp.path(`${target}-otlp`);
    await compileExample('fallback-writer', target, out);
    const receipts = tmp.path(`${target}-otlp-receipts.jsonl`);
    const env = isolatedEnv(tmp.path(`home-${target}-otlp`), {
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
    });
    const host = agentdefRun(out, ['--receipts', receipts], env);
    try {
      const { task } = await a2aAsk(await host.ready, 'apply it');
      expect(task.status?.state).toBe(3);
      // The host flushes its background work (receipts, spans) before it exits.
      expect(await host.stop('SIGTERM')).toBe(0);
      expect(receiver.received).toHaveLength(1);
      const [received] = receiver.received;
      expect(received!.path).toBe('/v1/traces');
      expect(received!.headers['authorization']).toBe(`Bearer ${COLLECTOR_TOKEN}`);
      expectRunSpans(received!.body, target);
      for (const text of [host.stdout(), host.stderr(), readFileSync(receipts, 'utf8')])
        expect(text.includes(COLLECTOR_TOKEN)).toBe(false);
      // With a collector named, nothing goes to the file beside the receipts.
      expect(existsSync(tmp.path('telemetry.jsonl'))).toBe(false);
    } finally {
      await host.stop('SIGKILL');
      await model.close();
      await receiver.close();
    }
  });

  it('to telemetry.jsonl beside the receipts file when no collector is named', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: diffingModel,
    });
    const out = tmp.path(`${target}-file`);
    await compileExample('fallback-writer', target, out);
    const dir = tmp.path(`${target}-state`);
    const receipts = join(dir, 'receipts.jsonl');
    const env = isolatedEnv(tmp.path(`home-${target}-file`), {
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
    });
    const host = agentdefRun(out, ['--receipts', receipts], env);
    try {
      const { task } = await a2aAsk(await host.ready, 'apply it');
      expect(task.status?.state).toBe(3);
      expect(await host.stop('SIGTERM')).toBe(0);
      const lines = readFileSync(join(dir, 'telemetry.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expectRunSpans(JSON.parse(lines[0]!), target);
      expect(lines[0]!.includes(ANTHROPIC_KEY)).toBe(false);
    } finally {
      await host.stop('SIGKILL');
      await model.close();
    }
  });
});
