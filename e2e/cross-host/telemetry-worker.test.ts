/**
 * Telemetry on the Worker (workerd through miniflare, loaded through the Worker Loader as
 * deployed): fallback-writer's runs are exported with `fetch` to the collector the Worker's
 * `AGENTDEF_OTLP_ENDPOINT` names, only when its origin is on the agent's egress allow-list.
 * - Allowed: the collector shares the model's origin (https://api.anthropic.com, the only origin
 *   fallback-writer may reach); the spans reach a loopback OTLP receiver, decode by the official
 *   definitions, and carry the GenAI attributes and the tool taxonomy; the collector's header
 *   (`AGENTDEF_OTLP_HEADERS`, a secret) reaches the collector and no log.
 * - Not allowed: a collector on another origin receives nothing, and the Worker logs
 *   `telemetry.blocked` with its host only (not the token in its URL).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAgent } from '../../plugin/compiler/compile';
import {
  startScriptedProvider,
  type ScriptTurn,
  type TurnContext,
} from '../../plugin/runtime/__test-support__/stub-provider';
import { REPO, a2aAsk, receiptKeys, scratch, type Scratch } from '../local/support/host-harness';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { checkOtlpJson, spansOf } from '../support/otlp-validate';
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

/** One loopback origin for two services: `/v1/traces` to the OTLP receiver, everything else to the model. */
async function sharedOrigin(modelUrl: string, receiverUrl: string) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const target = req.url === '/v1/traces' ? receiverUrl : modelUrl;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let out: string;
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
});
afterAll(() => tmp.cleanup());

describe('the Worker exports its runs as OTLP through fetch', () => {
  it('to a collector on the egress allow-list', async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: diffingModel,
    });
    const receiver = await startOtlpReceiver();
    const shared = await sharedOrigin(model.url, receiver.url);
    const worker = await startCompiledWorker(out, {
      secrets: {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        AGENTDEF_RECEIPT_KEY: keys.secret,
        AGENTDEF_OTLP_ENDPOINT: 'https://api.anthropic.com',
        AGENTDEF_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
      },
      upstreams: { 'https://api.anthropic.com': shared.url },
    });
    try {
      const { task } = await a2aAsk(worker.url, 'apply it');
      expect(task.status?.state).toBe(3);
      const [received] = await receiver.waitFor(1);
      expect(received!.headers['authorization']).toBe(`Bearer ${COLLECTOR_TOKEN}`);
      const check = checkOtlpJson('ExportTraceServiceRequest', received!.body);
      expect(check.problems).toEqual([]);
      const spans = spansOf(received!.body);
      expect(spans.find((s) => s.name === 'invoke_agent fallback-writer')?.attrs).toMatchObject({
        'agentdef.card': 'fallback-writer',
        'agentdef.agentic_gate': 'agentic',
        'agentdef.run.stop_reason': 'answer',
      });
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
      await shared.close();
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
