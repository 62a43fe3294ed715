/**
 * The runtime truly runs in a Worker: the A2A handler is bundled (esbuild, neutral platform, nothing
 * external) into an ES-module Worker and run in workerd through miniflare. Its model provider is a
 * loopback stub that workerd reaches over the network; receipts leave through a service binding
 * under `ctx.waitUntil`; the @a2a-js/sdk client talks to the Worker over real HTTP.
 */
import { join } from 'node:path';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { build } from 'esbuild';
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import type { Request as MiniflareRequest } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeTool } from './runtime-config';
import { ADD_TOOL, MUL_TOOL, TEST_KEY, agenticConfig, dagConfig, toolChildConfig } from './__test-support__/configs';
import type { StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { Receipt } from './receipts';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RuntimeConfig } from './runtime-config';
import { COMPATIBILITY_DATE } from '../targets/cloudflare-dynamic-worker/worker-constants';

let workerCode: string;
let dagCode: string;
let childCode: string;
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  const bundle = async (entry: string) =>
    (
      await build({
        entryPoints: [join(__dirname, '__test-support__', entry)],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'neutral',
        target: 'es2022',
        logLevel: 'silent',
      })
    ).outputFiles[0]!.text;
  [workerCode, dagCode, childCode] = await Promise.all([
    bundle('worker-entry.ts'),
    bundle('worker-dag-entry.ts'),
    bundle('worker-child-entry.ts'),
  ]);
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWorker(config: RuntimeConfig) {
  const receipts: Receipt[] = [];
  const stdout: string[] = [];
  const mf = new Miniflare({
    modules: true,
    script: workerCode,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: {
      AGENT_CONFIG: JSON.stringify(config),
      OPENAI_API_KEY: TEST_KEY,
      RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk),
    },
    serviceBindings: {
      RECEIPTS: async (request: MiniflareRequest) => {
        receipts.push((await request.json()) as Receipt);
        return new Response('stored');
      },
    },
    handleRuntimeStdio: (out: Readable, err: Readable) => {
      out.on('data', (d: Buffer) => stdout.push(d.toString()));
      err.on('data', (d: Buffer) => stdout.push(d.toString()));
    },
  });
  cleanups.push(() => mf.dispose());
  const url = (await mf.ready).toString().replace(/\/$/, '');
  /** Receipts arrive after the response (waitUntil); wait for them. */
  const receiptsAfter = async (n: number) => {
    for (let i = 0; i < 100 && receipts.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    return receipts;
  };
  return { mf, url, receiptsAfter, stdout };
}

async function stub(
  script: Parameters<typeof startScriptedProvider>[0]['script'],
): Promise<StubServer & { baseUrl: string }> {
  const s = await startScriptedProvider({ wire: 'openai-chat', apiKey: TEST_KEY, script });
  cleanups.push(() => s.close());
  return s;
}

const userMessage = (messageId: string, text: string) => ({
  tenant: '',
  message: {
    messageId,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

describe('the runtime inside workerd (miniflare)', () => {
  it('bundles with no Node built-ins', () => {
    expect(workerCode).not.toMatch(/from\s*["']node:/);
    expect(workerCode).not.toMatch(/require\(["']/);
  });

  it('serves the card and answers the @a2a-js/sdk client, calling the loopback provider and a tool from inside the Worker', async () => {
    const provider = await stub([
      { toolCalls: [{ name: 'mul', arguments: { a: 6, b: 7 } }] },
      { text: (ctx) => `Worker says ${JSON.parse(ctx.lastToolResults[0]!).product}` },
    ]);
    const { url, receiptsAfter, stdout } = await startWorker(
      agenticConfig('openai-chat', provider.baseUrl, { tools: [ADD_TOOL, MUL_TOOL] }),
    );
    const client = await new ClientFactory().createFromUrl(url);
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]!.url).toBe(`${url}/`);
    const result = await client.sendMessage(userMessage('w-1', 'What is 6 * 7?'));
    const task = result as Extract<typeof result, { status: unknown }>;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]!.parts[0]!.content).toEqual({ $case: 'text', value: 'Worker says 42' });
    // the provider really was called by workerd, with the key from the secret binding
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[0]!.headers['authorization']).toBe(`Bearer ${TEST_KEY}`);

    const receipts = await receiptsAfter(1);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.runId).toBe(task.id);
    expect(receipts[0]!.toolCalls.map((c) => c.name)).toEqual(['mul']);
    expect(await verifyReceipt(receipts[0], keys.publicJwk)).toBe(true);
    const logs = stdout.join('');
    expect(logs).toContain('"event":"run.end"');
    expect(logs + JSON.stringify(receipts)).not.toContain(TEST_KEY);
  });

  it('enforces the wall clock and the egress allow-list inside the Worker', async () => {
    const hanging = await stub([{ hang: true }]);
    const limited = await startWorker(agenticConfig('openai-chat', hanging.baseUrl, { limits: { wallClockMs: 300 } }));
    const rpc = async (url: string, text: string) =>
      (await (
        await fetch(`${url}/a2a/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } },
          }),
        })
      ).json()) as any;
    const timedOut = await rpc(limited.url, 'hi');
    expect(timedOut.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(timedOut.result.task.metadata.stopReason).toBe('limit:wallClock');
    expect((await limited.receiptsAfter(1))[0]!.outcome.stopReason).toBe('limit:wallClock');

    const getTool: RuntimeTool = { id: 'web.get', name: 'get', version: '1.0.0', kind: 'bundled', risk: 'low' };
    const provider = await stub([
      { toolCalls: [{ name: 'get', arguments: { url: 'https://undeclared.example.net/x?token=1' } }] },
      { text: (ctx) => ctx.lastToolResults[0]! },
    ]);
    const egress = await startWorker(agenticConfig('openai-chat', provider.baseUrl, { tools: [getTool] }));
    const blocked = await rpc(egress.url, 'fetch it');
    const answer = blocked.result.task.artifacts[0].parts[0].text as string;
    expect(answer).toContain('egress_blocked');
    expect(answer).toContain('undeclared.example.net');
    expect(answer).not.toContain('token');
    const receipts = await egress.receiptsAfter(1);
    expect(receipts[0]!.toolCalls).toEqual([{ seq: 1, name: 'get', ok: false, errorCode: 'egress_blocked' }]);
  });

  it('answers malformed JSON with -32700 from inside the Worker', async () => {
    const provider = await stub([{ text: 'unused' }]);
    const { url } = await startWorker(agenticConfig('openai-chat', provider.baseUrl));
    const response = await fetch(`${url}/a2a/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Invalid JSON payload' },
    });
  });
});

describe('composition with quarantine on Workers (Worker Loader isolates)', () => {
  it('runs each quarantined child in a fresh, network-less isolate and groups the receipts by the parent run id', async () => {
    const children = {
      'classify@1.0.0': toolChildConfig('classify'),
      'upper@1.0.0': toolChildConfig('upper'),
      'net@1.0.0': toolChildConfig('net', { endpoints: ['https://allowed.example.com'] }),
    };
    const start = async (quarantine: boolean, slugs: string[], edges: RuntimeConfig['composition']['edges']) => {
      const config = dagConfig(slugs, edges);
      config.composition.quarantine = quarantine;
      const receipts: Receipt[] = [];
      const mf = new Miniflare({
        modules: true,
        script: dagCode,
        compatibilityDate: COMPATIBILITY_DATE,
        workerLoaders: { LOADER: {} },
        bindings: {
          AGENT_CONFIG: JSON.stringify(config),
          CHILD_CONFIGS: JSON.stringify(children),
          CHILD_CODE: childCode,
          RECEIPT_SIGNING_JWK: JSON.stringify(keys.privateJwk),
        },
        serviceBindings: {
          RECEIPTS: async (request: MiniflareRequest) => {
            receipts.push((await request.json()) as Receipt);
            return new Response('stored');
          },
        },
      });
      cleanups.push(() => mf.dispose());
      const url = (await mf.ready).toString().replace(/\/$/, '');
      const send = async (text: string) =>
        (await (
          await fetch(`${url}/a2a/v1`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'SendMessage',
              params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] } },
            }),
          })
        ).json()) as any;
      return { send, receipts };
    };

    const chain: RuntimeConfig['composition']['edges'] = [{ from: 'classify', to: 'upper', gate: 'deterministic' }];
    const quarantined = await start(true, ['classify', 'upper'], chain);
    const first = await quarantined.send('a sum please');
    const second = await quarantined.send('a sum please');
    expect(first.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // a fresh isolate per parent run: module state never carries over
    expect(first.result.task.artifacts[0].parts[0].text).toBe('A SUM PLEASE (isolate run 1)');
    expect(second.result.task.artifacts[0].parts[0].text).toBe('A SUM PLEASE (isolate run 1)');
    for (let i = 0; i < 100 && quarantined.receipts.length < 6; i++) await new Promise((r) => setTimeout(r, 20));
    expect(quarantined.receipts).toHaveLength(6);
    const runId = first.result.task.id;
    const ofFirst = quarantined.receipts.filter((r) => r.runId === runId);
    expect(ofFirst.map((r) => r.pinning.card).sort()).toEqual(['classify', 'pipeline', 'upper']);
    expect(ofFirst.filter((r) => r.composedIn).map((r) => r.composedIn)).toEqual([
      { card: 'pipeline', cardVersion: '3.0.0' },
      { card: 'pipeline', cardVersion: '3.0.0' },
    ]);
    for (const r of quarantined.receipts) expect(await verifyReceipt(r, keys.publicJwk)).toBe(true);

    // without quarantine the host reuses the child's isolate across runs
    const shared = await start(false, ['classify', 'upper'], chain);
    await shared.send('a sum please');
    expect((await shared.send('a sum please')).result.task.artifacts[0].parts[0].text).toBe(
      'A SUM PLEASE (isolate run 2)',
    );

    // a quarantined isolate has no network, even for an origin its egress list allows
    const offline = await start(true, ['net'], []);
    const failed = await offline.send('go');
    expect(failed.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.result.task.metadata.errorCode).toBe('composition_failed');
    expect(failed.result.task.status.message.parts[0].text).toContain('child net@1.0.0 stopped: error (tool_failed)');
  });
});
