/**
 * Adversarial review of the handler's hot path, driven in-process:
 * - the slots background runs hold (`inFlight`) come back whether or not the caller passes
 *   `waitUntil` (the per-request deps are optional);
 * - a body whose stream fails, or gives something other than bytes, is refused 400, not an
 *   internal error, and leaves no slot behind;
 * - the deferred working put of a blocking SendMessage, raced against runs that end around
 *   `DEFERRED_WORKING_PUT_MS`, slow and failing stores and cancels from another handler sharing
 *   the store: the store never ends `working` for a finished task nor sees `working` after a final
 *   state, and the answer is what the store keeps;
 * - after many random interleavings of hostile requests (aborted clients, failing runs, failing
 *   stores, refusals, streams dropped before being read, subscriptions racing the run's end), the
 *   handler still accepts exactly `maxConcurrentRuns` background runs and `maxOpenStreams` streams;
 * - a stream following another instance's run through a failing shared store still ends.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import { until } from './__test-support__/until';
import type { A2aHandler, A2aHandlerDeps, PerRequestDeps } from './a2a-handler';
import { DEFERRED_WORKING_PUT_MS, createA2aHandler } from './a2a-handler';
import type { TaskView } from './a2a-wire';
import { generateReceiptKeyPair } from './receipts';
import type { TaskStore } from './task-store';
import { createTaskStore, isTerminalTask } from './task-store';

let signingKey: JsonWebKey;
beforeAll(async () => {
  signingKey = (await generateReceiptKeyPair()).privateJwk;
});

const BASE = 'http://127.0.0.1:8787';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let nextId = 1;
const message = (a: number) => ({ messageId: `m-${nextId++}`, role: 'ROLE_USER', parts: [{ data: { a, b: 1 } }] });
const rpcBody = (method: string, params: Record<string, unknown>, id: number | undefined = nextId++) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });
const post = (body: BodyInit, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request(`${BASE}/a2a/v1`, {
    ...init,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

/** A store over the in-memory one: puts and gets can be slowed, puts can fail; every put is recorded. */
function adjustableStore(shared = false) {
  const inner = createTaskStore({ maxTasks: 1000, maxBytes: 16 * 1024 * 1024 });
  const puts: { id: string; state: TaskView['state'] }[] = [];
  /** Tasks whose run's final put (completed or failed; only CancelTask puts canceled) failed: their run has ended, working in the store. */
  const lostEnds = new Set<string>();
  const settings = { putDelayMs: 0, getDelayMs: 0, failPuts: false, failGets: false };
  const store: TaskStore = {
    shared,
    async put(task) {
      puts.push({ id: task.id, state: task.state });
      if (settings.putDelayMs > 0) await sleep(settings.putDelayMs);
      if (settings.failPuts) {
        if (task.state === 'completed' || task.state === 'failed') lostEnds.add(task.id);
        throw new Error('the store is unavailable');
      }
      return inner.put(task);
    },
    async get(id) {
      if (settings.getDelayMs > 0) await sleep(settings.getDelayMs);
      if (settings.failGets) throw new Error('the store is unavailable');
      return inner.get(id);
    },
    list: () => inner.list(),
  };
  /** Every run whose task is in the store has ended. */
  const allEnded = async () => (await inner.list()).every((task) => isTerminalTask(task) || lostEnds.has(task.id));
  return { store, puts, settings, inner, allEnded };
}

/** `calc.add` that waits while held (released, or its run aborted), waits `delayMs`, or throws for a = 13. */
function controllableTool() {
  let gate: Promise<void> | undefined;
  let open: () => void = () => {};
  const state = { delayMs: 0 };
  const tools: A2aHandlerDeps['tools'] = {
    'calc.add': async (args, ctx) => {
      if (Number(args['a']) === 13) throw new Error('the tool broke');
      const aborted = new Promise((resolve) => ctx.signal?.addEventListener('abort', resolve, { once: true }));
      if (gate) await Promise.race([gate, aborted]);
      if (state.delayMs > 0) await Promise.race([sleep(state.delayMs), aborted]);
      return { sum: Number(args['a']) + Number(args['b']) };
    },
  };
  return {
    tools,
    state,
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = undefined;
      open();
    },
  };
}

async function rpcJson(
  handler: A2aHandler,
  method: string,
  params: Record<string, unknown>,
  perRequest?: PerRequestDeps,
): Promise<{ status: number; body: any }> {
  const response = await handler(post(rpcBody(method, params)), perRequest);
  return { status: response.status, body: await response.json() };
}

/**
 * The handler's slots are all free: with the tool held, exactly `maxRuns` non-blocking runs are
 * accepted and one more is refused; then exactly `maxStreams` streams open and one more is
 * refused. Retried until the hostile requests before it have all ended (a leaked slot never does).
 */
async function expectEverySlotFree(
  handler: A2aHandler,
  tool: ReturnType<typeof controllableTool>,
  allEnded: () => Promise<boolean>,
  maxRuns: number,
  maxStreams: number,
): Promise<void> {
  const attempt = async (): Promise<string | undefined> => {
    await until(allEnded, (ended) => ended, 'every run of the hostile requests ending');
    await sleep(0);
    tool.hold();
    try {
      const runs: number[] = [];
      for (let i = 0; i < maxRuns; i++)
        runs.push(
          (await rpcJson(handler, 'SendMessage', { message: message(1), configuration: { returnImmediately: true } }))
            .status,
        );
      const beyondRuns = await rpcJson(handler, 'SendMessage', {
        message: message(1),
        configuration: { returnImmediately: true },
      });
      if (runs.some((status) => status !== 200)) return `runs accepted: ${runs.join(',')}`;
      if (beyondRuns.status !== 503 || !String(beyondRuns.body.error.message).includes(`(${maxRuns} requests`))
        return `run beyond the cap: ${beyondRuns.status}`;
    } finally {
      tool.release();
    }
    await until(allEnded, (ended) => ended, 'the probe runs ending');
    await sleep(0);
    tool.hold();
    const streams: Response[] = [];
    try {
      for (let i = 0; i < maxStreams; i++)
        streams.push(await handler(post(rpcBody('SendStreamingMessage', { message: message(1) }))));
      const beyond = await handler(post(rpcBody('SendStreamingMessage', { message: message(1) })));
      if (streams.some((s) => s.headers.get('content-type') !== 'text/event-stream'))
        return `streams opened: ${streams.map((s) => s.status).join(',')}`;
      if (
        beyond.status !== 503 ||
        !String(((await beyond.json()) as any).error.message).includes(`(${maxStreams} requests`)
      )
        return `stream beyond the cap: ${beyond.status}`;
    } finally {
      tool.release();
      for (const s of streams) await s.body?.cancel();
    }
    return undefined;
  };
  const problem = await attempt();
  if (problem === undefined) return;
  // A hostile request may still have been ending: one more try once everything settled.
  await sleep(50);
  expect(await attempt()).toBeUndefined();
}

describe('slots come back whether or not the caller passes waitUntil', () => {
  it('non-blocking runs and streams through a handler called with no per-request deps free their slots', async () => {
    const { store, allEnded } = adjustableStore();
    const tool = controllableTool();
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: tool.tools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
      maxConcurrentRuns: 2,
      maxOpenStreams: 1,
    });
    for (let i = 0; i < 6; i++) {
      const stream = await handler(post(rpcBody('SendStreamingMessage', { message: message(i) })));
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      expect(await stream.text()).toContain('TASK_STATE_COMPLETED');
      const background = await rpcJson(handler, 'SendMessage', {
        message: message(i),
        configuration: { returnImmediately: true },
      });
      expect(background.status).toBe(200);
      expect(background.body.result.task.status.state).toBe('TASK_STATE_WORKING');
      await until(
        () => store.get(background.body.result.task.id),
        (task) => task?.state === 'completed',
        'the background run completing',
      );
    }
    await expectEverySlotFree(handler, tool, allEnded, 2, 1);
  });
});

describe('a body that cannot be read', () => {
  it('is refused 400 (not an internal error) when its stream fails mid-body, and the slot is freed', async () => {
    const { store, allEnded } = adjustableStore();
    const tool = controllableTool();
    const logged: string[] = [];
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: tool.tools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
      maxConcurrentRuns: 1,
      maxOpenStreams: 1,
      log: (e) => logged.push(e.event),
    });
    for (let i = 0; i < 3; i++) {
      let sent = 0;
      const failing = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ === 0) controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,'));
          else controller.error(new Error('connection reset'));
        },
      });
      const response = await handler(post(failing));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'The request body could not be read' },
      });
    }
    expect(logged.filter((e) => e.endsWith('internal_error'))).toEqual([]);
    await expectEverySlotFree(handler, tool, allEnded, 1, 1);
  });

  it('is refused 400 when its stream gives strings (which would count no bytes), after one chunk', async () => {
    const { store } = adjustableStore();
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: calcTools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
      maxBodyBytes: 100,
    });
    let pulled = 0;
    const strings = new ReadableStream<string>({
      pull(controller) {
        pulled++;
        controller.enqueue('x'.repeat(1000));
      },
    });
    const response = await handler(post(strings as unknown as ReadableStream<Uint8Array>));
    expect(response.status).toBe(400);
    expect(pulled).toBeLessThanOrEqual(2);
  });
});

describe('the deferred working put against runs ending around the deferral', () => {
  it('never leaves working for a finished task, never puts working after the final state, and answers what is kept', async () => {
    const { store, puts, settings, inner } = adjustableStore(true);
    const tool = controllableTool();
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: tool.tools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
    });
    // Another instance sharing the store, which cancels whatever working task it finds.
    const other = createA2aHandler(toolOnlyConfig(), {
      tools: calcTools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          runMs: fc.integer({ min: DEFERRED_WORKING_PUT_MS - 15, max: DEFERRED_WORKING_PUT_MS + 15 }),
          putDelayMs: fc.constantFrom(0, 0, 3, 20),
          failPuts: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
          cancelAfterMs: fc.option(
            fc.integer({ min: DEFERRED_WORKING_PUT_MS - 5, max: DEFERRED_WORKING_PUT_MS + 40 }),
            { freq: 2 },
          ),
          readDuringWindow: fc.boolean(),
        }),
        async ({ runMs, putDelayMs, failPuts, cancelAfterMs, readDuringWindow }) => {
          const before = puts.length;
          Object.assign(settings, { putDelayMs, failPuts, getDelayMs: 0, failGets: false });
          tool.state.delayMs = runMs;
          const blocking = rpcJson(handler, 'SendMessage', { message: message(2) });
          const side: Promise<unknown>[] = [];
          if (readDuringWindow)
            side.push(sleep(DEFERRED_WORKING_PUT_MS / 2).then(() => rpcJson(other, 'ListTasks', {})));
          if (cancelAfterMs !== null) {
            side.push(
              sleep(cancelAfterMs).then(async () => {
                const working = (await inner.list()).filter((task) => task.state === 'working');
                for (const task of working) await rpcJson(other, 'CancelTask', { id: task.id });
              }),
            );
          }
          const answer = await blocking;
          await Promise.all(side);
          settings.failPuts = false;
          const mine = puts.slice(before).filter((p) => p.id === (answer.body.result?.task?.id ?? puts[before]?.id));
          // Working is never put after a final state.
          const firstFinal = mine.findIndex((p) => p.state !== 'working');
          if (firstFinal >= 0) expect(mine.slice(firstFinal).map((p) => p.state)).not.toContain('working');
          if (answer.body.error) {
            // Only a run whose task reached the store in no put answers an error.
            expect(failPuts).toBe(true);
            expect(answer.body.error.code).toBe(-32603);
            return;
          }
          const taskId = answer.body.result.task.id as string;
          const kept = await inner.get(taskId);
          const answered = answer.body.result.task.status.state as string;
          expect(answered).not.toBe('TASK_STATE_WORKING');
          if (kept) {
            // The store never ends working for a finished task, and the answer is what it keeps.
            expect(kept.state).not.toBe('working');
            expect(`TASK_STATE_${kept.state.toUpperCase()}`).toBe(answered);
          } else expect(failPuts).toBe(true);
        },
      ),
      // The example makes sure a cancel lands whatever the seed: the working put at DEFERRED_WORKING_PUT_MS, the cancel well after it and well before the run ends.
      {
        numRuns: 40,
        examples: [
          [
            {
              runMs: DEFERRED_WORKING_PUT_MS * 3,
              putDelayMs: 0,
              failPuts: false,
              cancelAfterMs: DEFERRED_WORKING_PUT_MS + 40,
              readDuringWindow: true,
            },
          ],
        ],
      },
    );
    expect(puts.some((p) => p.state === 'canceled')).toBe(true);
  });
});

type Hostile =
  | {
      kind: 'send' | 'background' | 'stream' | 'streamDropped' | 'streamUnread' | 'notifyStream';
      failing: boolean;
      aborted: boolean;
      waitUntil: boolean;
    }
  | { kind: 'refusal'; which: 'contentType' | 'declared' | 'streamed' | 'origin' | 'badJson' | 'unreadable' }
  | { kind: 'storeDown'; method: 'send' | 'background' | 'stream' }
  | { kind: 'subscribe' | 'cancel'; delayMs: number };

const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      'send' as const,
      'background' as const,
      'stream' as const,
      'streamDropped' as const,
      'streamUnread' as const,
      'notifyStream' as const,
    ),
    failing: fc.boolean(),
    aborted: fc.boolean(),
    waitUntil: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('refusal' as const),
    which: fc.constantFrom(
      'contentType' as const,
      'declared' as const,
      'streamed' as const,
      'origin' as const,
      'badJson' as const,
      'unreadable' as const,
    ),
  }),
  fc.record({
    kind: fc.constant('storeDown' as const),
    method: fc.constantFrom('send' as const, 'background' as const, 'stream' as const),
  }),
  fc.record({
    kind: fc.constantFrom('subscribe' as const, 'cancel' as const),
    delayMs: fc.integer({ min: 0, max: 15 }),
  }),
);

describe('slots after random interleavings of hostile requests', () => {
  it('the handler still accepts exactly maxConcurrentRuns background runs and maxOpenStreams streams', async () => {
    const MAX_RUNS = 3;
    const MAX_STREAMS = 2;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(hostile, fc.integer({ min: 0, max: 8 })), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 6 }),
        async (actions, getDelayMs) => {
          const { store, settings, inner, allEnded } = adjustableStore();
          settings.getDelayMs = getDelayMs;
          const tool = controllableTool();
          tool.state.delayMs = 5;
          const handler = createA2aHandler(toolOnlyConfig(), {
            tools: tool.tools,
            taskStore: store,
            receipts: { signingKey, sink: memorySink() },
            maxConcurrentRuns: MAX_RUNS,
            maxOpenStreams: MAX_STREAMS,
          });
          const background: Promise<unknown>[] = [];
          const perRequest = (withWaitUntil: boolean): PerRequestDeps | undefined =>
            withWaitUntil ? { waitUntil: (p) => void background.push(p) } : undefined;
          const taskIds = async () => (await inner.list()).map((task) => task.id);
          let storeDown = 0;
          const act = async (action: Hostile, delayMs: number): Promise<void> => {
            await sleep(delayMs);
            switch (action.kind) {
              case 'refusal': {
                const bodies = {
                  contentType: () =>
                    post(rpcBody('SendMessage', { message: message(1) }), {
                      headers: { 'content-type': 'text/plain' },
                    }),
                  declared: () =>
                    post(rpcBody('SendMessage', { message: message(1) }), {
                      headers: { 'content-length': String(10 * 1024 * 1024) },
                    }),
                  streamed: () => post('x'.repeat(2 * 1024 * 1024)),
                  origin: () =>
                    post(rpcBody('SendMessage', { message: message(1) }), {
                      headers: { origin: 'https://evil.example' },
                    }),
                  badJson: () => post('{"jsonrpc":"2.0",'),
                  unreadable: () =>
                    post(
                      new ReadableStream<Uint8Array>({
                        pull: (c) => c.error(new Error('reset')),
                      }),
                    ),
                };
                const response = await handler(bodies[action.which]());
                expect([400, 403, 413, 415, 503, 200]).toContain(response.status);
                await response.body?.cancel();
                return;
              }
              case 'storeDown': {
                storeDown++;
                settings.failPuts = true;
                try {
                  const method = action.method === 'stream' ? 'SendStreamingMessage' : 'SendMessage';
                  const params = {
                    message: message(1),
                    ...(action.method === 'background' ? { configuration: { returnImmediately: true } } : {}),
                  };
                  const response = await handler(post(rpcBody(method, params)));
                  await response.body?.cancel();
                } finally {
                  if (--storeDown === 0) settings.failPuts = false;
                }
                return;
              }
              case 'subscribe':
              case 'cancel': {
                const ids = await taskIds();
                const id = ids.at(-1) ?? 'no-such-task';
                await sleep(action.delayMs);
                const response = await handler(
                  post(rpcBody(action.kind === 'subscribe' ? 'SubscribeToTask' : 'CancelTask', { id })),
                );
                if (response.headers.get('content-type') === 'text/event-stream')
                  expect(await response.text()).toMatch(/TASK_STATE_(COMPLETED|FAILED|CANCELED)/);
                else await response.body?.cancel();
                return;
              }
              default: {
                const client = new AbortController();
                const a = action.failing ? 13 : 1;
                const method =
                  action.kind === 'send' || action.kind === 'background' ? 'SendMessage' : 'SendStreamingMessage';
                const params = {
                  message: message(a),
                  ...(action.kind === 'background' ? { configuration: { returnImmediately: true } } : {}),
                };
                const id = action.kind === 'notifyStream' ? undefined : nextId++;
                const answered = handler(
                  post(rpcBody(method, params, id), { signal: client.signal }),
                  perRequest(action.waitUntil),
                );
                if (action.aborted) client.abort();
                const response = await answered;
                if (action.kind === 'streamDropped') await response.body?.cancel();
                else if (action.kind === 'streamUnread') background.push(sleep(20).then(() => response.body?.cancel()));
                else await response.text();
              }
            }
          };
          await Promise.all(actions.map(([action, delayMs]) => act(action, delayMs)));
          await Promise.all(background);
          settings.getDelayMs = 0;
          await expectEverySlotFree(handler, tool, allEnded, MAX_RUNS, MAX_STREAMS);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('a stream following another instance through a failing shared store', () => {
  it('ends by its deadline even though no read of the store succeeds', async () => {
    const { store, settings, inner } = adjustableStore(true);
    const task: TaskView = {
      id: 'elsewhere-1',
      contextId: 'c',
      state: 'working',
      timestamp: new Date().toISOString(),
      metadata: {},
    };
    await inner.put(task);
    const handler = createA2aHandler(toolOnlyConfig({ limits: { wallClockMs: 100, maxSubrequests: 2, maxSteps: 1 } }), {
      tools: calcTools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
      maxOpenStreams: 1,
    });
    const response = await handler(post(rpcBody('SubscribeToTask', { id: task.id })));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    settings.failGets = true;
    // The stream ends (text() resolves) though the task never leaves working; its slot is free again.
    expect(await response.text()).toContain('TASK_STATE_WORKING');
    settings.failGets = false;
    const again = await handler(post(rpcBody('SubscribeToTask', { id: task.id })));
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    await again.body?.cancel();
  });
});

describe('a final put the store does not keep', () => {
  const finalState = (sse: string) => {
    const events = sse
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)).result);
    return events.at(-1)?.statusUpdate?.status?.state as string | undefined;
  };

  it('a stream and a blocking send still end with the run’s own ending when the store fails the final put', async () => {
    const { store, settings } = adjustableStore();
    const tool = controllableTool();
    tool.state.delayMs = DEFERRED_WORKING_PUT_MS * 2;
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools: tool.tools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
    });
    const stream = await handler(post(rpcBody('SendStreamingMessage', { message: message(1) })));
    const blocking = rpcJson(handler, 'SendMessage', { message: message(1) });
    // Both working tasks are kept; the store then fails every put, the final ones included.
    await until(
      () => store.list(),
      (tasks) => tasks.length === 2,
      'both working tasks kept',
    );
    settings.failPuts = true;
    expect(finalState(await stream.text())).toBe('TASK_STATE_COMPLETED');
    expect((await blocking).body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a stream and a blocking send still end with the run’s own ending when the store refuses a final task too large to keep', async () => {
    const store = createTaskStore({ maxTasks: 10, maxBytes: 8 * 1024 });
    const tool = controllableTool();
    const tools: A2aHandlerDeps['tools'] = {
      'calc.add': async (args, ctx) => ({
        ...((await tool.tools!['calc.add']!(args, ctx)) as object),
        note: 'x'.repeat(8 * 1024),
      }),
    };
    tool.state.delayMs = DEFERRED_WORKING_PUT_MS * 2;
    const handler = createA2aHandler(toolOnlyConfig(), {
      tools,
      taskStore: store,
      receipts: { signingKey, sink: memorySink() },
    });
    const stream = await handler(post(rpcBody('SendStreamingMessage', { message: message(1) })));
    const blocking = rpcJson(handler, 'SendMessage', { message: message(1) });
    expect(finalState(await stream.text())).toBe('TASK_STATE_COMPLETED');
    const answered = (await blocking).body.result.task;
    expect(answered.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(answered.artifacts)).toContain('xxxx');
  });
});
