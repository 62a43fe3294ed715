/**
 * The A2A handler's bounds and request guards, on the handler itself (what every host runs):
 * runs in flight, request bytes (declared and streamed), the task store's byte budget, deep
 * nesting, cross-site requests and the card's URL and cache header.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import type { A2aHandlerDeps } from './a2a-handler';
import { createA2aHandler } from './a2a-handler';
import { AGENT_CARD_PATH } from './agent-card';
import { generateReceiptKeyPair } from './receipts';

const BASE = 'http://127.0.0.1:8787';
let signingKey: JsonWebKey;
beforeAll(async () => {
  signingKey = (await generateReceiptKeyPair()).privateJwk;
});

function handler(deps: Partial<A2aHandlerDeps> = {}, config = toolOnlyConfig()) {
  const sink = memorySink();
  const handle = createA2aHandler(config, { tools: calcTools, receipts: { signingKey, sink }, ...deps });
  return { handle, sink };
}

const sendBody = (id: number, data: unknown = { a: 1, b: 2 }) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'SendMessage',
    params: { message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ data }] } },
  });
const post = (body: BodyInit, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  new Request(`${BASE}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...init,
  });

describe('runs in flight', () => {
  it('answers 503 with Retry-After and a JSON-RPC -32000 beyond the cap, runs nothing for it, and accepts again once a run ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const { handle, sink } = handler({
      maxConcurrentRuns: 2,
      tools: {
        'calc.add': async (args) => {
          started++;
          await gate;
          return { sum: Number(args['a']) + Number(args['b']) };
        },
      },
    });
    const running = [handle(post(sendBody(1))), handle(post(sendBody(2)))];
    await new Promise((r) => setTimeout(r, 20));
    const refused = await handle(post(sendBody(3)));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    // GetTask is refused too while the handler is full: nothing is read past the cap.
    expect(
      (await handle(post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: 'x' } })))).status,
    ).toBe(503);
    release();
    for (const response of await Promise.all(running))
      expect(((await response.json()) as any).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const after = await handle(post(sendBody(5)));
    expect(((await after.json()) as any).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(started).toBe(3);
    expect(sink.receipts).toHaveLength(3);
  });

  it('frees its slot when a request fails (bad JSON, bad params) so errors never fill the handler', async () => {
    const { handle } = handler({ maxConcurrentRuns: 1 });
    for (let i = 0; i < 5; i++) {
      expect(((await (await handle(post('{nope'))).json()) as any).error.code).toBe(-32700);
      expect(
        (
          (await (
            await handle(post(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'SendMessage', params: [] })))
          ).json()) as any
        ).error.code,
      ).toBe(-32602);
    }
    expect(((await (await handle(post(sendBody(9)))).json()) as any).result.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });
});

describe('request bytes', () => {
  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const { handle } = handler({ maxBodyBytes: 1000 });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(100));
      },
    });
    const response = await handle(post(body, { 'content-length': '5000000' }, { duplex: 'half' } as RequestInit));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request payload too large (the limit is 1000 bytes)' },
    });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a body without a declared length once it passes the limit', async () => {
    const { handle, sink } = handler({ maxBodyBytes: 1000 });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"padding":"'.padEnd(300, 'x')));
      },
    });
    const response = await handle(post(endless, {}, { duplex: 'half' } as RequestInit));
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
    expect(sink.receipts).toHaveLength(0);
  });

  it('counts bytes, not characters', async () => {
    const { handle } = handler({ maxBodyBytes: 200 });
    const body = sendBody(1, { a: 1, b: 2, note: '€'.repeat(40) }); // < 200 characters, > 200 bytes
    expect(body.length).toBeLessThan(200);
    expect((await handle(post(body))).status).toBe(413);
  });
});

describe('the task store', () => {
  it('keeps tasks within its byte budget: old large tasks are forgotten, recent ones read back', async () => {
    const { handle } = handler({ taskMemoryBytes: 200_000, maxBodyBytes: 2_000_000 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = (await (await handle(post(sendBody(i, { a: i, b: 1, pad: 'x'.repeat(30_000) })))).json()) as any;
      ids.push(answer.result.task.id);
    }
    const get = async (id: string) =>
      (await (
        await handle(post(JSON.stringify({ jsonrpc: '2.0', id: 'g', method: 'GetTask', params: { id } })))
      ).json()) as any;
    expect((await get(ids[0]!)).error.code).toBe(-32001);
    const last = await get(ids[19]!);
    expect(last.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(last.result.artifacts[0].parts[0].text).toContain('20');
    expect(last.result.history[0].parts[0].data.pad).toHaveLength(30_000);
  });
});

describe('deep nesting', () => {
  it.each([
    [
      'a data part',
      (deep: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":${deep}}]}}}`,
      'params.message.parts[0].data',
    ],
    [
      'message metadata',
      (deep: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}],"metadata":{"k":${deep}}}}}`,
      'params.message.metadata.k',
    ],
    [
      'params metadata',
      (deep: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},"metadata":${deep}}}`,
      'params.metadata',
    ],
    [
      'v0.3 data part',
      (deep: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"k":${deep}}}]}}}`,
      'params.message.parts[0].data.k',
    ],
    [
      'GetTask params',
      (deep: string) => `{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"x","extra":${deep}}}`,
      'params.extra',
    ],
  ])('answers 100,000 levels in %s with a located -32602, never an internal error', async (_what, build, field) => {
    const { handle, sink } = handler({ maxBodyBytes: 1_000_000 });
    for (const deep of ['['.repeat(100_000) + ']'.repeat(100_000), '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)]) {
      const answer = (await (await handle(post(build(deep)))).json()) as any;
      expect(answer.id).toBe(7);
      expect(answer.error.code).toBe(-32602);
      const violation = answer.error.data[0].fieldViolations[0];
      expect(violation.field.startsWith(field)).toBe(true);
      expect(violation.field.length).toBeLessThan(2000);
    }
    expect(sink.receipts).toHaveLength(0);
  });

  it('runs a message nested within the limit', async () => {
    const { handle } = handler();
    const answer = (await (
      await handle(
        post(
          `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"a":1,"b":2,"deep":${'['.repeat(50)}${']'.repeat(50)}}}]}}}`,
        ),
      )
    ).json()) as any;
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

describe('cross-site requests', () => {
  it('refuses a foreign Origin (403) and a body that is not JSON (415) before reading it, and accepts the same origin', async () => {
    const { handle, sink } = handler({ allowedOrigins: () => ['https://console.example.com'] });
    for (const [headers, status] of [
      [{ origin: 'https://evil.example', 'content-type': 'text/plain' }, 403],
      [{ origin: 'https://evil.example' }, 403],
      [{ origin: 'null' }, 403],
      [{ 'content-type': 'text/plain' }, 415],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 415],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, 415],
    ] as [Record<string, string>, number][]) {
      const request = new Request(`${BASE}/a2a/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: sendBody(1),
      });
      const response = await handle(request);
      expect(response.status, JSON.stringify(headers)).toBe(status);
      expect(request.bodyUsed).toBe(false);
    }
    const noType = new Request(`${BASE}/a2a/v1`, { method: 'POST', body: new Blob([sendBody(1)]) });
    expect((await handle(noType)).status).toBe(415);
    expect(sink.receipts).toHaveLength(0);
    for (const origin of [BASE, 'https://console.example.com']) {
      const ok = await handle(post(sendBody(2), { origin }));
      expect(ok.status).toBe(200);
    }
    expect(sink.receipts).toHaveLength(2);
  });
});

describe('the card', () => {
  it("built from the request's origin, it is not publicly cacheable and varies by Host", async () => {
    const { handle } = handler();
    const response = await handle(new Request(`http://localhost:9999${AGENT_CARD_PATH}`));
    expect(((await response.json()) as any).supportedInterfaces[0].url).toBe('http://localhost:9999/');
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    expect(response.headers.get('vary')).toBe('Host');
  });

  it('built from the configured public origin, it ignores the request and may be cached publicly', async () => {
    const { handle } = handler({ publicOrigin: 'https://agents.example.com' });
    const response = await handle(new Request(`http://evil.example${AGENT_CARD_PATH}`));
    const card = (await response.json()) as any;
    expect(card.supportedInterfaces.map((i: { url: string }) => i.url)).toEqual([
      'https://agents.example.com/',
      'https://agents.example.com/',
    ]);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
