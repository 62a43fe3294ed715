/**
 * The deferred working put of a blocking SendMessage (a2a-handler.ts, `startRun`): the caller
 * learns the task id only from the answer, so the `working` task is put only when the run is still
 * going after `DEFERRED_WORKING_PUT_MS`:
 * - a short run makes one put, its final one;
 * - a long run is in the store as working (GetTask, ListTasks) before it ends, and its final put
 *   comes after its working put;
 * - a cancel of such a run wins, made through the same handler or through another one sharing the
 *   store (the run polls the store from its working put on);
 * - a non-blocking send and a stream still keep the working task before they answer;
 * - a run whose task reaches the store in no put answers -32603, as a failed working put did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import { until } from './__test-support__/until';
import type { A2aHandler, A2aHandlerDeps } from './a2a-handler';
import { DEFERRED_WORKING_PUT_MS, createA2aHandler } from './a2a-handler';
import type { TaskView } from './a2a-wire';
import type { TaskStore } from './task-store';
import { createTaskStore } from './task-store';
import { generateReceiptKeyPair } from './receipts';

let signingKey: JsonWebKey;
beforeAll(async () => {
  signingKey = (await generateReceiptKeyPair()).privateJwk;
});

/** An in-memory store that records every put (the task's id and state), optionally shared or failing. */
function recordingStore(options: { shared?: boolean; failPuts?: boolean } = {}) {
  const inner = createTaskStore({ maxTasks: 100, maxBytes: 1024 * 1024 });
  const puts: { id: string; state: TaskView['state'] }[] = [];
  const store: TaskStore = {
    shared: options.shared ?? false,
    async put(task) {
      puts.push({ id: task.id, state: task.state });
      if (options.failPuts) throw new Error('the store is unavailable');
      return inner.put(task);
    },
    get: (id) => inner.get(id),
    list: () => inner.list(),
  };
  return { store, puts };
}

/** A tool that waits, while held, until released or aborted. */
function heldTool() {
  let release: () => void = () => {};
  let gate: Promise<void> | undefined;
  const seen = { calls: 0, aborted: false };
  const tools: A2aHandlerDeps['tools'] = {
    ...calcTools,
    'calc.add': async (args, ctx) => {
      seen.calls++;
      if (gate)
        await Promise.race([
          gate,
          new Promise((resolve) => ctx.signal?.addEventListener('abort', resolve, { once: true })),
        ]);
      if (ctx.signal?.aborted) seen.aborted = true;
      return { sum: Number(args['a']) + Number(args['b']) };
    },
  };
  return {
    tools,
    seen,
    hold: () => void (gate = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
  };
}

let nextId = 1;
/** A JSON-RPC call straight to the handler: the answer, or the stream it opened. */
async function rpc(
  handler: A2aHandler,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ result?: any; error?: any; stream?: Response }> {
  const response = await handler(
    new Request('https://agent.example/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      ...(signal ? { signal } : {}),
    }),
  );
  return response.headers.get('content-type') === 'text/event-stream'
    ? { stream: response }
    : ((await response.json()) as { result?: any; error?: any });
}

const send = (a: number, configuration?: Record<string, unknown>) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: JSON.stringify({ a, b: 1 }) }] },
  ...(configuration ? { configuration } : {}),
});

function handlerOver(
  store: TaskStore,
  tools: A2aHandlerDeps['tools'] = calcTools,
  extra: Partial<A2aHandlerDeps> = {},
): A2aHandler {
  return createA2aHandler(toolOnlyConfig(), {
    tools,
    taskStore: store,
    receipts: { signingKey, sink: memorySink() },
    ...extra,
  });
}

describe('a blocking SendMessage defers its working put', () => {
  it('a short run makes one put, the completed task', async () => {
    const { store, puts } = recordingStore();
    // Short by the handler's own measure, however loaded the machine: a window of ten minutes (at
    // the default 100 ms, a run that took 222 ms on a loaded machine made its working put too).
    const answer = await rpc(handlerOver(store, calcTools, { deferredWorkingPutMs: 600_000 }), 'SendMessage', send(1));
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(puts).toEqual([{ id: answer.result.task.id, state: 'completed' }]);
    expect((await store.get(answer.result.task.id))?.state).toBe('completed');
  });

  it('a long run is kept as working before it ends, then completed', async () => {
    const { store, puts } = recordingStore();
    const tool = heldTool();
    tool.hold();
    const handler = handlerOver(store, tool.tools);
    const started = Date.now();
    const blocking = rpc(handler, 'SendMessage', send(2));
    const listed = await until(
      async () => (await rpc(handler, 'ListTasks', {})).result.tasks as { id: string; status: { state: string } }[],
      (tasks) => tasks.length === 1,
      'the working task in ListTasks',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEFERRED_WORKING_PUT_MS - 5);
    expect(listed[0]!.status.state).toBe('TASK_STATE_WORKING');
    expect((await rpc(handler, 'GetTask', { id: listed[0]!.id })).result.status.state).toBe('TASK_STATE_WORKING');
    tool.release();
    const answer = await blocking;
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(puts).toEqual([
      { id: listed[0]!.id, state: 'working' },
      { id: listed[0]!.id, state: 'completed' },
    ]);
  });

  it('a cancel through the same handler wins: the run is interrupted and stays canceled', async () => {
    const { store } = recordingStore();
    const tool = heldTool();
    tool.hold();
    const handler = handlerOver(store, tool.tools);
    const blocking = rpc(handler, 'SendMessage', send(3));
    const [task] = await until(
      async () => (await store.list()) as TaskView[],
      (tasks) => tasks.length === 1,
    );
    expect((await rpc(handler, 'CancelTask', { id: task!.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    expect((await blocking).result.task.status.state).toBe('TASK_STATE_CANCELED');
    expect(tool.seen.aborted).toBe(true);
    expect((await store.get(task!.id))?.state).toBe('canceled');
  });

  it('a caller that goes away while the run waits stops the run (its signal is heard from the first wait on)', async () => {
    const { store } = recordingStore();
    const tool = heldTool();
    tool.hold();
    // A budget no test reaches: only the caller's going away can stop this run.
    const handler = createA2aHandler(
      toolOnlyConfig({ limits: { wallClockMs: 3_600_000, maxSubrequests: 20, maxSteps: 8 } }),
      { tools: tool.tools, taskStore: store, receipts: { signingKey, sink: memorySink() } },
    );
    const caller = new AbortController();
    const blocking = rpc(handler, 'SendMessage', send(5), caller.signal).catch((error: unknown) => ({ error }));
    await until(
      async () => tool.seen.calls,
      (calls) => calls === 1,
    );
    caller.abort();
    await until(
      async () => tool.seen.aborted,
      (aborted) => aborted,
      "the run's abort",
    );
    await blocking;
    expect(tool.seen.aborted).toBe(true);
  });

  it('a cancel through another handler sharing the store wins: the run sees it by polling the store', async () => {
    const { store } = recordingStore({ shared: true });
    const tool = heldTool();
    tool.hold();
    const runner = handlerOver(store, tool.tools);
    const other = handlerOver(store);
    const blocking = rpc(runner, 'SendMessage', send(4));
    const [task] = await until(
      async () => (await rpc(other, 'ListTasks', {})).result.tasks as { id: string }[],
      (tasks) => tasks.length === 1,
    );
    expect((await rpc(other, 'CancelTask', { id: task!.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    expect((await blocking).result.task.status.state).toBe('TASK_STATE_CANCELED');
    expect(tool.seen.aborted).toBe(true);
    expect((await store.get(task!.id))?.state).toBe('canceled');
  });

  it('a run whose task reaches the store in no put answers -32603', async () => {
    const { store, puts } = recordingStore({ failPuts: true });
    // A short run whatever the machine's load: the deferred working put never comes due.
    const answer = await rpc(handlerOver(store, calcTools, { deferredWorkingPutMs: 600_000 }), 'SendMessage', send(5));
    expect(answer.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(puts.map((p) => p.state)).toEqual(['completed']);
  });
});

describe('sends that answer before the run ends keep their working put first', () => {
  it('returnImmediately: the working task is in the store when the answer arrives', async () => {
    const { store, puts } = recordingStore();
    const tool = heldTool();
    tool.hold();
    const answer = await rpc(handlerOver(store, tool.tools), 'SendMessage', send(6, { returnImmediately: true }));
    expect(answer.result.task.status.state).toBe('TASK_STATE_WORKING');
    expect(puts).toEqual([{ id: answer.result.task.id, state: 'working' }]);
    expect((await store.get(answer.result.task.id))?.state).toBe('working');
    tool.release();
    await until(
      async () => (await store.get(answer.result.task.id))?.state,
      (state) => state === 'completed',
    );
  });

  it('SendStreamingMessage: the working task is in the store when the stream opens', async () => {
    const { store, puts } = recordingStore();
    const tool = heldTool();
    tool.hold();
    const answer = await rpc(handlerOver(store, tool.tools), 'SendStreamingMessage', send(7));
    expect(answer.stream).toBeDefined();
    expect(puts.map((p) => p.state)).toEqual(['working']);
    expect((await store.get(puts[0]!.id))?.state).toBe('working');
    tool.release();
    await answer.stream!.text();
    expect(puts.map((p) => p.state)).toEqual(['working', 'completed']);
  });
});
