/**
 * Streams, cancels, notifications and receipts of the A2A handler, on the Node host
 * (plugin/hosts/node/http-server serving it on loopback), through the official @a2a-js/sdk client
 * and the exact wire:
 * - SendStreamingMessage: the Task first, a working status update per step of the agent loop, the
 *   answer as artifact chunks, the terminal status, then the stream closes (v1.0 and v0.3);
 * - SubscribeToTask: the Task as it is, then its updates; a terminal or unknown task refused;
 * - CancelTask interrupts the run (the tool sees its signal abort) and the task stays canceled;
 * - a notification (no `id`) is carried out and never answered;
 * - a finished task carries its signed receipt in its metadata.
 */
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveWebHandler } from '../hosts/node/http-server';
import { TEST_KEY, agenticConfig, calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { A2aHandlerDeps } from './a2a-handler';
import { createA2aHandler } from './a2a-handler';
import { ARTIFACT_CHUNK_CHARS } from './a2a-stream-events';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RuntimeConfig } from './runtime-config';
import { until } from './__test-support__/until';

const closers: (() => Promise<unknown>)[] = [];
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A gate a tool waits on, and what the tool saw of its abort signal. */
function toolGate() {
  let release: () => void = () => {};
  let gate: Promise<void> | undefined;
  const seen = { aborted: false, calls: 0 };
  return {
    seen,
    hold() {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    release() {
      gate = undefined;
      release();
    },
    tools: {
      ...calcTools,
      'calc.add': async (args: Record<string, unknown>, ctx: { signal?: AbortSignal }) => {
        seen.calls++;
        if (gate)
          await Promise.race([
            gate,
            new Promise((resolve) => ctx.signal?.addEventListener('abort', resolve, { once: true })),
          ]);
        if (ctx.signal?.aborted) seen.aborted = true;
        return { sum: Number(args['a']) + Number(args['b']) };
      },
    } as A2aHandlerDeps['tools'],
  };
}

async function startHost(config: RuntimeConfig, extra: Partial<A2aHandlerDeps> = {}) {
  const gate = toolGate();
  const sink = memorySink();
  const handler = createA2aHandler(config, {
    secrets: { OPENAI_API_KEY: TEST_KEY },
    tools: gate.tools,
    receipts: { signingKey: keys.privateJwk, sink },
    ...extra,
  });
  const host = await serveWebHandler(handler, { host: '127.0.0.1', port: 0 });
  closers.push(() => host.close(100));
  return { url: host.url, gate, sink };
}

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The JSON-RPC responses of an SSE body, in order. */
const sseEvents = (text: string) =>
  text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map(
      (chunk) =>
        JSON.parse(chunk.slice('data: '.length)) as { jsonrpc: string; id: unknown; result?: any; error?: any },
    );

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: `m-${text}-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
const add = (a: number, b = 1) => JSON.stringify({ a, b });

async function agenticHost(answer = 'The sum is 5.') {
  const stub = await startScriptedProvider({
    wire: 'openai-chat',
    apiKey: TEST_KEY,
    script: [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: answer }],
  });
  closers.push(() => stub.close());
  return startHost(agenticConfig('openai-chat', stub.baseUrl));
}

describe('SendStreamingMessage', () => {
  it('through the SDK client: the Task, a working update per step, the answer, the terminal status; the card declares streaming', async () => {
    const { url } = await agenticHost();
    const client = await new ClientFactory().createFromUrl(url);
    const events: any[] = [];
    for await (const event of client.sendMessageStream({
      message: { messageId: 'm-1', role: 1, parts: [{ content: { $case: 'text', value: 'add 2 and 3' } }] },
    } as any))
      events.push(event);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const progress = events
      .filter((e) => e.payload.$case === 'statusUpdate' && e.payload.value.metadata?.progress)
      .map((e) => e.payload.value.metadata.progress.event);
    expect(progress).toEqual(['model.call', 'tool.call', 'model.call']);
    const artifacts = events.filter((e) => e.payload.$case === 'artifactUpdate').map((e) => e.payload.value);
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0].lastChunk).toBe(true);
    expect(JSON.stringify(artifacts[0].artifact.parts)).toContain('The sum is 5.');
    const final = events.at(-1).payload.value;
    expect(final.status.state).toBe(3); // TASK_STATE_COMPLETED in the SDK's enum
    const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
      capabilities: { streaming: boolean };
    };
    expect(card.capabilities.streaming).toBe(true);
  });

  it('on the wire, v1.0: StreamResponse objects in order, every event echoing the id, then the stream closes', async () => {
    const { url } = await agenticHost();
    const answer = await post(url, {
      jsonrpc: '2.0',
      id: 'stream-7',
      method: 'SendStreamingMessage',
      params: { message: message('add 2 and 3') },
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/event-stream');
    const events = sseEvents(answer.text);
    expect(
      events.every((e) => e.jsonrpc === '2.0' && e.id === 'stream-7' && e.result && Object.keys(e.result).length === 1),
    ).toBe(true);
    const results = events.map((e) => e.result);
    expect(Object.keys(results[0])).toEqual(['task']);
    expect(results[0].task.status.state).toBe('TASK_STATE_WORKING');
    const taskId = results[0].task.id;
    expect(results.slice(1).every((r) => (r.statusUpdate ?? r.artifactUpdate).taskId === taskId)).toBe(true);
    expect(results.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(results.at(-1).statusUpdate.status.message.parts[0].text).toBe('The sum is 5.');
    expect(results.at(-2).artifactUpdate).toMatchObject({
      append: false,
      lastChunk: true,
      artifact: { artifactId: `${taskId}-answer` },
    });
    // Read back, the streamed task is the same task.
    const got = await post(url, { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: taskId } });
    expect(JSON.parse(got.text).result.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('on the wire, v0.3 message/stream: kind task, status-update (final on the last), artifact-update', async () => {
    const { url } = await agenticHost();
    const answer = await post(url, {
      jsonrpc: '2.0',
      id: 3,
      method: 'message/stream',
      params: { message: { kind: 'message', messageId: 'v03', role: 'user', parts: [{ kind: 'text', text: 'add' }] } },
    });
    const results = sseEvents(answer.text).map((e) => e.result);
    expect(results[0]).toMatchObject({ kind: 'task', status: { state: 'working' } });
    expect(results.map((r) => r.kind)).toEqual([
      'task',
      'status-update',
      'status-update',
      'status-update',
      'artifact-update',
      'status-update',
    ]);
    expect(
      results
        .slice(1, -1)
        .filter((r) => r.kind === 'status-update')
        .every((r) => r.final === false),
    ).toBe(true);
    expect(results.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('cuts a long answer into artifact chunks that append to one artifact and rebuild it exactly', async () => {
    const long = `${'€'.repeat(ARTIFACT_CHUNK_CHARS)}${'x'.repeat(ARTIFACT_CHUNK_CHARS + 7)}`;
    const { url } = await agenticHost(long);
    const results = sseEvents(
      (await post(url, { jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: { message: message('long') } }))
        .text,
    ).map((e) => e.result);
    const chunks = results.filter((r) => r.artifactUpdate).map((r) => r.artifactUpdate);
    expect(chunks.length).toBe(3);
    expect(chunks.map((c) => [c.append, c.lastChunk])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
    expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    expect(chunks.map((c) => c.artifact.parts[0].text).join('')).toBe(long);
  });

  it('the run outlives a client that goes away mid-stream; GetTask then reads it completed', async () => {
    const { url, gate } = await startHost(toolOnlyConfig());
    gate.hold();
    const aborter = new AbortController();
    const response = await fetch(`${url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: message(add(40, 2)) },
      }),
      signal: aborter.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const taskId = JSON.parse(first.slice('data: '.length).split('\n')[0]!).result.task.id;
    aborter.abort();
    await reader.cancel().catch(() => undefined);
    gate.release();
    const done = await until(
      async () =>
        JSON.parse((await post(url, { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: taskId } })).text).result,
      (task) => task.status.state !== 'TASK_STATE_WORKING',
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts[1].data).toEqual({ sum: 42 });
  });

  it('bounds the streams open at once: one more is answered 503 with Retry-After before any run starts', async () => {
    const { url, gate } = await startHost(toolOnlyConfig(), { maxOpenStreams: 1 });
    gate.hold();
    const open = fetch(`${url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: message(add(1)) },
      }),
    });
    await until(
      async () => gate.seen.calls,
      (n) => n === 1,
    );
    const refused = await fetch(`${url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'SendStreamingMessage',
        params: { message: message(add(2)) },
      }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(gate.seen.calls).toBe(1);
    gate.release();
    expect(sseEvents(await (await open).text()).at(-1)!.result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

/** A tool-only host and a `returnImmediately` task whose run is held inside its tool (its one step reported). */
async function heldTask() {
  const { url, gate } = await startHost(toolOnlyConfig());
  gate.hold();
  const sent = JSON.parse(
    (
      await post(url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: message(add(1, 2)), configuration: { returnImmediately: true } },
      })
    ).text,
  ).result.task;
  await until(
    async () => gate.seen.calls,
    (n) => n === 1,
  );
  return { url, gate, sent };
}

describe('SubscribeToTask', () => {
  it('through the SDK client: the working Task first, then its ending; terminal and unknown tasks are refused', async () => {
    // Subscribe once the run is inside its tool (its one step already reported), so what follows is its ending.
    const { url, gate, sent } = await heldTask();
    const client = await new ClientFactory().createFromUrl(url);
    const events: any[] = [];
    const reading = (async () => {
      for await (const event of client.resubscribeTask({ tenant: '', id: sent.id })) events.push(event);
    })();
    await until(
      async () => events.length,
      (n) => n >= 1,
    );
    expect(events[0].payload.$case).toBe('task');
    expect(events[0].payload.value.id).toBe(sent.id);
    gate.release();
    await reading;
    // The answer's text part, then its data part appended to the same artifact.
    expect(events.map((e) => e.payload.$case)).toEqual(['task', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(
      events
        .slice(1, 3)
        .map((e) => [
          e.payload.value.artifact.parts[0].content.$case,
          e.payload.value.append,
          e.payload.value.lastChunk,
        ]),
    ).toEqual([
      ['text', false, false],
      ['data', true, true],
    ]);
    expect(events.at(-1).payload.value.status.state).toBe(3);
    const terminal = JSON.parse(
      (await post(url, { jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: sent.id } })).text,
    );
    expect(terminal.error).toMatchObject({ code: -32004, data: [{ reason: 'UNSUPPORTED_OPERATION' }] });
    const unknown = JSON.parse(
      (await post(url, { jsonrpc: '2.0', id: 3, method: 'SubscribeToTask', params: { id: 'no-such-task' } })).text,
    );
    expect(unknown.error.code).toBe(-32001);
    expect(
      JSON.parse((await post(url, { jsonrpc: '2.0', id: 4, method: 'SubscribeToTask', params: {} })).text).error
        .message,
    ).toBe('Invalid parameters: id');
  });
});

describe('CancelTask', () => {
  it('interrupts the run: the tool sees its signal abort, the task is canceled and stays canceled; a second cancel is -32002', async () => {
    const { url, gate, sent } = await heldTask();
    const client = await new ClientFactory().createFromUrl(url);
    const canceled = await client.cancelTask({ tenant: '', id: sent.id, metadata: undefined } as any);
    expect(canceled.status?.state).toBe(5); // TASK_STATE_CANCELED in the SDK's enum
    await until(
      async () => gate.seen.aborted,
      (aborted) => aborted,
    );
    await new Promise((r) => setTimeout(r, 50));
    const read = JSON.parse(
      (await post(url, { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: sent.id } })).text,
    ).result;
    expect(read.status.state).toBe('TASK_STATE_CANCELED');
    expect(read.artifacts).toBeUndefined();
    const again = JSON.parse(
      (await post(url, { jsonrpc: '2.0', id: 3, method: 'CancelTask', params: { id: sent.id } })).text,
    );
    expect(again.error).toMatchObject({ code: -32002, data: [{ reason: 'TASK_NOT_CANCELABLE' }] });
    expect(
      JSON.parse(
        (await post(url, { jsonrpc: '2.0', id: 4, method: 'CancelTask', params: { id: 'no-such-task' } })).text,
      ).error.code,
    ).toBe(-32001);
  });

  it('a blocking SendMessage and a stream of the task both end canceled when another connection cancels it', async () => {
    const { url, gate } = await startHost(toolOnlyConfig());
    gate.hold();
    const blocking = post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message(add(5, 5)) },
    });
    const listed = await until(
      async () =>
        JSON.parse((await post(url, { jsonrpc: '2.0', id: 9, method: 'ListTasks', params: {} })).text).result.tasks as {
          id: string;
        }[],
      (tasks) => tasks.length === 1,
    );
    const taskId = listed[0]!.id;
    const stream = post(url, { jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: taskId } });
    await new Promise((r) => setTimeout(r, 50));
    expect(
      JSON.parse((await post(url, { jsonrpc: '2.0', id: 3, method: 'CancelTask', params: { id: taskId } })).text).result
        .status.state,
    ).toBe('TASK_STATE_CANCELED');
    expect(JSON.parse((await blocking).text).result.task.status.state).toBe('TASK_STATE_CANCELED');
    const streamed = sseEvents((await stream).text).map((e) => e.result);
    expect(Object.keys(streamed[0])).toEqual(['task']);
    expect(streamed.at(-1).statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe('notifications and receipts', () => {
  it('a request without an id is carried out and gets 204 with no body; an invalid one still gets its error', async () => {
    const { url, sink } = await startHost(toolOnlyConfig());
    const notified = await post(url, {
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message: message(add(1, 1)) },
    });
    expect(notified).toEqual({ status: 204, type: null, text: '' });
    expect(sink.receipts).toHaveLength(1);
    expect((await post(url, { jsonrpc: '2.0', method: 'NoSuchMethod' })).status).toBe(204);
    const invalid = await post(url, { jsonrpc: '1.0', method: 'SendMessage' });
    expect(JSON.parse(invalid.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request payload validation error' },
    });
    // `"id": null` is a request, not a notification: it is answered.
    expect(JSON.parse((await post(url, { jsonrpc: '2.0', id: null, method: 'NoSuchMethod' })).text).error.code).toBe(
      -32601,
    );
  });

  it('a finished task carries its signed receipt in its metadata, the same one the sink got, and it verifies', async () => {
    const { url, sink } = await startHost(toolOnlyConfig());
    const task = JSON.parse(
      (await post(url, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message(add(2, 2)) } })).text,
    ).result.task;
    expect(task.metadata.receipt).toEqual(JSON.parse(JSON.stringify(sink.receipts[0])));
    expect(await verifyReceipt(task.metadata.receipt, keys.publicJwk)).toBe(true);
    const tampered = { ...task.metadata.receipt, stopReason: 'error' };
    expect(await verifyReceipt(tampered, keys.publicJwk)).toBe(false);
  });
});
