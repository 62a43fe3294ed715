/**
 * The Worker's task store, a SQLite-backed Durable Object, tested against the real object of a
 * compiled agent (text-stats) in workerd through miniflare:
 * - the TaskStore contract, through the object's binding;
 * - ids an attacker picks (quotes, SQL, LIKE wildcards, 10 KB) are data, never SQL;
 * - two isolates (two Workers serving the same compiled agent, one task-store namespace, each on
 *   its own loopback socket), in both deployment modes (worker.js as wrangler.jsonc deploys it, and
 *   loader.js with the agent loaded through the Worker Loader): a task sent through one is read
 *   and listed through the other, with the other's page token; a terminal put racing from both
 *   ends wins exactly once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_STORE } from '../../plugin/host-contract/worker-host-plan';
import type { HostPlan } from '../../plugin/host-contract/worker-host-plan';
import {
  createDurableObjectTaskStore,
  type DurableObjectNamespaceLike,
} from '../../plugin/hosts/worker/task-store-client';
import {
  contractTask,
  describeTaskStoreContract,
  workingTask,
} from '../../plugin/runtime/__test-support__/task-store-contract';
import { createTaskStore } from '../../plugin/runtime/task-store';
import { durableObjectsOf } from '../../plugin/targets/cloudflare-dynamic-worker/dev-worker-host';
import { rawRpc, sendMessageBody } from './support/a2a-client';
import { compileWorker, exampleWorkspace, type ExampleWorkspace } from './support/example-workspace';
import { bundleLoader } from './support/start-compiled-worker';

let ws: ExampleWorkspace;
let outDir: string;
let hostPlan: HostPlan;
const disposers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ws = exampleWorkspace('task-store');
  const compiled = await compileWorker(ws.root, 'text-stats');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  outDir = compiled.outDir;
  hostPlan = JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')) as HostPlan;
});
afterAll(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
  ws?.remove();
});

/** Two Workers serving the compiled agent, sharing the first one's task-store namespace, each on its own loopback socket. */
async function twoIsolates(mode: 'direct' | 'loader') {
  const script = mode === 'loader' ? await bundleLoader(outDir) : readFileSync(join(outDir, 'worker.js'), 'utf8');
  const objects = durableObjectsOf(hostPlan);
  const worker = (name: string, shared: boolean) => ({
    name,
    modules: true,
    script,
    compatibilityDate: hostPlan.workerCode.compatibilityDate,
    compatibilityFlags: hostPlan.workerCode.compatibilityFlags,
    ...(mode === 'loader' ? { workerLoaders: { LOADER: {} } } : {}),
    durableObjects: Object.fromEntries(
      Object.entries(objects).map(([binding, object]) => [binding, shared ? { ...object, scriptName: 'one' } : object]),
    ),
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
  });
  const mf = new Miniflare({ workers: [worker('one', false), worker('two', true)] });
  disposers.push(() => mf.dispose());
  await mf.ready;
  const url = async (name: string) => (await mf.unsafeGetDirectURL(name)).toString().replace(/\/$/, '');
  return { mf, one: await url('one'), two: await url('two') };
}

let contractWorkers: Awaited<ReturnType<typeof twoIsolates>> | undefined;
let storeCount = 0;
const contractNamespace = async () => {
  contractWorkers ??= await twoIsolates('direct');
  return (await contractWorkers.mf.getDurableObjectNamespace(
    TASK_STORE.binding,
    'one',
  )) as unknown as DurableObjectNamespaceLike;
};

describeTaskStoreContract('Durable Object (SQLite, in workerd)', async (limits) =>
  createDurableObjectTaskStore(await contractNamespace(), `contract-${storeCount++}`, limits),
);

describe('the task-store object under attack', () => {
  it('keeps ids with quotes, SQL and wildcards as data, and finds exactly the id asked for', async () => {
    const store = createDurableObjectTaskStore(await contractNamespace(), 'hostile-ids', {
      maxTasks: 100,
      maxBytes: 4e6,
    });
    const ids = [
      "it's",
      'say "hi"',
      "x'); DROP TABLE agentdef_tasks; --",
      '1 OR 1=1',
      '%',
      '_',
      'a\u0000b',
      '\u{1F600} émoji',
      '',
      `long-${'k'.repeat(10_240)}`,
    ];
    for (const id of ids) expect(await store.put(contractTask(id, `question for ${id.slice(0, 20)}`))).toBe(true);
    for (const id of ids) expect((await store.get(id))?.id).toBe(id);
    for (const lookalike of [
      "it''s",
      'x',
      '1',
      'a',
      'ab',
      '%%',
      '__',
      `long-${'k'.repeat(10_239)}`,
      `long-${'k'.repeat(10_241)}`,
      "' OR '1'='1",
    ]) {
      expect(await store.get(lookalike)).toBeUndefined();
    }
    expect((await store.list()).map((t) => t.id)).toEqual(ids);
    // The table survived the DROP TABLE id: a new task still goes in.
    expect(await store.put(contractTask('after', 'still here'))).toBe(true);
    expect((await store.list()).map((t) => t.id).at(-1)).toBe('after');
  });

  it('refuses limits and values a caller of the object should never send, changing nothing', async () => {
    const namespace = await contractNamespace();
    const object = namespace.get(namespace.idFromName('bad-calls') as never) as {
      putTask(id: unknown, text: unknown, terminal: unknown, limits: unknown): Promise<boolean>;
      listTasks(): Promise<string[]>;
    };
    const text = JSON.stringify(contractTask('a', 'hi'));
    expect(await object.putTask('a', text, false, { maxTasks: 0, maxBytes: 1e6 })).toBe(false);
    expect(await object.putTask('a', text, false, { maxTasks: 10, maxBytes: Number.NaN })).toBe(false);
    expect(await object.putTask('a', text, false, null)).toBe(false);
    expect(await object.putTask(42, text, false, { maxTasks: 10, maxBytes: 1e6 })).toBe(false);
    expect(await object.putTask('a', { text }, false, { maxTasks: 10, maxBytes: 1e6 })).toBe(false);
    expect(await object.putTask('a', 'x'.repeat(700_000), false, { maxTasks: 10, maxBytes: 1e9 })).toBe(false);
    expect(await object.listTasks()).toEqual([]);
  });
});

describe('the task-store object against the in-memory store, put after put', () => {
  it('answers every put, keeps every version and evicts the same tasks as the in-memory store, at and past its limits', async () => {
    const limits = { maxTasks: 4, maxBytes: 6_000 };
    const durable = createDurableObjectTaskStore(await contractNamespace(), 'against-memory', limits);
    const memory = createTaskStore(limits);
    // A fresh object, asked before anything was put (its table not made yet): nothing.
    expect(await durable.get('t0')).toBeUndefined();
    expect(await durable.list()).toEqual([]);
    let seed = 27;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const ids: string[] = [];
    for (let step = 0; step < 80; step++) {
      // New tasks (working or done), a working one finished, a terminal one put over, and tasks
      // large enough to evict several at once or to be kept without their user message.
      const kind = next(6);
      const id = kind < 2 || ids.length === 0 ? `t${ids.push(`t${ids.length}`) - 1}` : ids[next(ids.length)]!;
      const userText = kind === 5 ? 'u'.repeat(600 + next(2_400)) : `step ${step}`;
      const task = kind === 0 ? workingTask(id) : contractTask(id, userText, `answer ${step}`);
      const put = [await durable.put(task), await memory.put(task)];
      expect(put[0], `step ${step}: put ${id}`).toBe(put[1]);
      expect(await durable.list(), `step ${step}`).toEqual(await memory.list());
    }
    for (const id of ids) expect(await durable.get(id)).toEqual(await memory.get(id));
    const key = await durable.pageTokenKey!();
    expect(key.byteLength).toBe(32);
    expect(await durable.pageTokenKey!()).toEqual(key);
  });
});

describe('the task-store object forgetting a version it cannot keep', () => {
  it('drops a non-terminal task on a put too large for a row or on dropTask, and never a terminal one', async () => {
    const namespace = await contractNamespace();
    const object = namespace.get(namespace.idFromName('too-large') as never) as {
      putTask(id: string, text: string, terminal: boolean, limits: unknown): Promise<boolean>;
      dropTask(id: unknown): Promise<boolean>;
      getTask(id: string): Promise<string | null>;
      listTasks(): Promise<string[]>;
    };
    const limits = { maxTasks: 10, maxBytes: 1e9 };
    const working = (id: string) => JSON.stringify(workingTask(id));
    const done = JSON.stringify(contractTask('done', 'hi'));
    const tooLarge = 'x'.repeat(700_000); // over MAX_TASK_SIZE, within the budget: the object's own refusal
    expect(await object.putTask('run', working('run'), false, limits)).toBe(true);
    expect(await object.putTask('run', tooLarge, true, limits)).toBe(false);
    expect(await object.getTask('run')).toBeNull();
    expect(await object.putTask('done', done, true, limits)).toBe(true);
    expect(await object.putTask('done', tooLarge, true, limits)).toBe(false);
    expect(await object.getTask('done')).toBe(done);
    expect(await object.putTask('other', working('other'), false, limits)).toBe(true);
    expect(await object.dropTask('done')).toBe(false);
    expect(await object.dropTask('nope')).toBe(false);
    expect(await object.dropTask(42)).toBe(false);
    expect(await object.dropTask('other')).toBe(true);
    expect(await object.dropTask('other')).toBe(false);
    expect(await object.listTasks()).toEqual([done]);
  });
});

describe.each(['direct', 'loader'] as const)('two isolates sharing one task store (%s)', (mode) => {
  it('a task sent through one is read and listed through the other, with the first one page token', async () => {
    const { one, two } = await twoIsolates(mode);
    const sent: string[] = [];
    for (const text of ['One two three.', 'Four five.', 'Six!']) {
      const { json } = await rawRpc(one, sendMessageBody(text));
      expect(json.result?.task?.status?.state ?? json.result?.status?.state).toBe('TASK_STATE_COMPLETED');
      sent.push(json.result?.task?.id ?? json.result?.id);
    }
    const got = await rawRpc(
      two,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: sent[0] } }),
    );
    expect(got.json.result?.id).toBe(sent[0]);
    expect(got.json.result?.status?.state).toBe('TASK_STATE_COMPLETED');
    const unknown = await rawRpc(
      two,
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: `${sent[0]}x` } }),
    );
    expect(unknown.json.error?.code).toBe(-32001);
    // A page token issued by one isolate is accepted by the other: the key is kept with the tasks.
    const first = await rawRpc(
      one,
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ListTasks', params: { pageSize: 1 } }),
    );
    expect(first.json.result?.tasks).toHaveLength(1);
    expect(first.json.result?.totalSize).toBe(3);
    const token = first.json.result?.nextPageToken as string;
    expect(token).toEqual(expect.any(String));
    const rest = await rawRpc(
      two,
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ListTasks', params: { pageSize: 10, pageToken: token } }),
    );
    expect(rest.json.error).toBeUndefined();
    const listed = [...first.json.result.tasks, ...rest.json.result.tasks].map((t: { id: string }) => t.id);
    expect(listed.sort()).toEqual([...sent].sort());
  });

  it('a working task put through one, then terminal puts racing from both ends: terminal exactly once', async () => {
    const { mf } = await twoIsolates(mode);
    const through = async (name: string) =>
      createDurableObjectTaskStore(
        (await mf.getDurableObjectNamespace(TASK_STORE.binding, name)) as unknown as DurableObjectNamespaceLike,
        hostPlan.agent.slug,
      );
    const [one, two] = [await through('one'), await through('two')];
    for (let round = 0; round < 10; round++) {
      const id = `race-${round}`;
      expect(await one.put(workingTask(id))).toBe(true);
      const canceled = { ...workingTask(id), state: 'canceled' as const };
      const completed = contractTask(id, 'hi', `answer ${round}`);
      const [fromOne, fromTwo] = await Promise.all([one.put(canceled), two.put(completed)]);
      expect([fromOne, fromTwo].filter(Boolean)).toHaveLength(1);
      const kept = await two.get(id);
      expect(kept?.state).toBe(fromOne ? 'canceled' : 'completed');
      expect(await one.put(workingTask(id))).toBe(false);
      expect((await one.get(id))?.state).toBe(kept?.state);
    }
  });
});
