/**
 * "Open streams are bounded", on real hosts: fallback-writer compiled for the Worker (workerd
 * through miniflare) and for HB3 (a Node process, `agentdef run`), against a stub Anthropic model
 * on loopback that never answers, so a task sent with `returnImmediately` stays working. Then
 * SubscribeToTask streams are opened on it and held open, one after another: each host accepts
 * exactly its bound (4 × its concurrent runs: 4 × 16 on a Worker isolate; 4 × 8 for a 128 MB
 * container's 96 MB heap), the next one is answered 503 with `Retry-After` and a JSON-RPC error
 * before anything streams, and the host still answers other requests meanwhile. Once the held
 * streams are closed by their clients, a new stream is accepted again (on workerd after the
 * keep-alive comment finds the connection gone): the bound counts what is open, not what was
 * ever opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concurrentRunsFor, heapLimitMb } from '../../plugin/host-contract/heap-limit';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { startCompiledWorker } from '../worker/support/start-compiled-worker';
import {
  agentdefRun,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';

const ANTHROPIC_KEY = 'sk-ant-stream-bound-0123456789';
/** A Worker's handler: 16 concurrent runs by default, four streams each. */
const WORKER_STREAM_BOUND = 4 * 16;
/** fallback-writer declares memoryMb 128. */
const HB3_STREAM_BOUND = 4 * concurrentRunsFor(heapLimitMb(128));

let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
beforeAll(async () => {
  tmp = scratch('stream-bound');
  keys = await receiptKeys();
});
afterAll(() => tmp.cleanup());

async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    ...(signal ? { signal } : {}),
  });
}

/** A task whose run waits on the model for good. */
async function heldTask(url: string): Promise<string> {
  const message = { messageId: `m-held-${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'apply it' }] };
  const sent = await (await rpc(url, 'SendMessage', { message, configuration: { returnImmediately: true } })).json();
  const task = sent.result?.task;
  expect(task?.status?.state, JSON.stringify(sent)).toBe('TASK_STATE_WORKING');
  return task.id as string;
}

/**
 * Opens SubscribeToTask streams until one is refused (at most `bound + 1`): the open ones, their
 * controllers and the refusal. Each open stream's Response is kept: undici cancels the body of a
 * Response that is garbage-collected unread, which closes the stream and frees its slot.
 */
async function openUntilRefused(url: string, taskId: string, bound: number) {
  const controllers: AbortController[] = [];
  const held: Response[] = [];
  let refused: Response | undefined;
  for (let i = 0; i <= bound && refused === undefined; i++) {
    const controller = new AbortController();
    const response = await rpc(url, 'SubscribeToTask', { id: taskId }, controller.signal);
    if (response.status === 200) {
      const type = response.headers.get('content-type') ?? '';
      expect(
        type,
        type.includes('json')
          ? `${await response.text()} ${await (await rpc(url, 'GetTask', { id: taskId })).text()}`
          : type,
      ).toContain('text/event-stream');
      controllers.push(controller);
      held.push(response);
    } else refused = response;
  }
  return { open: controllers, held, refused };
}

async function expectBound(url: string, bound: number): Promise<void> {
  const taskId = await heldTask(url);
  const { open, held, refused } = await openUntilRefused(url, taskId, bound);
  expect(open).toHaveLength(bound);
  expect(held.every((response) => !response.bodyUsed)).toBe(true);
  expect(refused?.status).toBe(503);
  expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
  const body = await refused!.json();
  expect(body.error?.code).toBe(-32000);
  // Other requests are still answered while the streams are held.
  const got = await (await rpc(url, 'GetTask', { id: taskId })).json();
  expect(got.result?.status?.state, JSON.stringify(got)).toBe('TASK_STATE_WORKING');
  for (const controller of open) controller.abort();
  // The clients went away: their slots come back. A Node host sees the socket close at once; workerd
  // cancels a stream when its next write fails, at the latest the 15 s keep-alive comment.
  let again: Response | undefined;
  for (let attempt = 0; attempt < 450; attempt++) {
    const controller = new AbortController();
    again = await rpc(url, 'SubscribeToTask', { id: taskId }, controller.signal);
    controller.abort();
    if (again.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(again?.status).toBe(200);
}

describe('streams open at once are bounded on every host', () => {
  it(`on the Worker (workerd): ${WORKER_STREAM_BOUND} streams, then 503`, async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: () => ({ hang: true }),
    });
    const out = tmp.path('worker');
    await compileExample('fallback-writer', 'cloudflare-dynamic-worker', out);
    const worker = await startCompiledWorker(out, {
      secrets: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, AGENTDEF_RECEIPT_KEY: keys.secret },
      upstreams: { 'https://api.anthropic.com': model.url },
    });
    try {
      await expectBound(worker.url, WORKER_STREAM_BOUND);
    } finally {
      await worker.dispose();
      await model.close();
    }
  });

  it(`on the HB3 job (a Node process): ${HB3_STREAM_BOUND} streams, then 503`, async () => {
    const model = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: ANTHROPIC_KEY,
      script: () => ({ hang: true }),
    });
    const out = tmp.path('hb3');
    await compileExample('fallback-writer', 'hb3', out);
    const env = isolatedEnv(tmp.path('home-hb3'), {
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_BASE_URL_ANTHROPIC: model.url,
    });
    const host = agentdefRun(out, ['--receipts', tmp.path('hb3-receipts.jsonl')], env);
    try {
      await expectBound(await host.ready, HB3_STREAM_BOUND);
    } finally {
      await host.stop('SIGKILL');
      await model.close();
    }
  });
});
