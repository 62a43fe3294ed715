/**
 * The Worker task store's glue on its own (no workerd; the real object runs in
 * e2e/worker/durable-task-store.test.ts): which binding becomes which store, what the loader hands
 * the loaded Worker, and that an RPC stub (which answers every property) is never taken for a
 * Durable Object namespace.
 */
import { describe, expect, it } from 'vitest';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { contractTask } from '../../runtime/__test-support__/task-store-contract';
import { isDurableObjectNamespace, loadedEnv, plannedTaskObject, taskStoreDeps, taskStoreOver } from './index';

const plan = (bindings: HostPlan['bindings']): HostPlan => ({
  hostPlanVersion: 'agentdef-host-plan/v1',
  target: 'cloudflare-dynamic-worker',
  agent: { slug: 'a', version: '1.0.0' },
  planDigest: 'd',
  id: 'a@1.0.0:d:c',
  workerCode: {
    compatibilityDate: '2026-04-26',
    compatibilityFlags: [],
    mainModule: 'worker.js',
    modules: { 'worker.js': '' },
    env: {},
  },
  bindings,
  egress: { globalOutbound: 'blocked', allow: [] },
  isolates: [],
});
const taskBinding: HostPlan['bindings'][number] = {
  name: 'AGENTDEF_TASKS',
  kind: 'durable-object',
  purpose: 'task-store',
  neededBy: ['a@1.0.0'],
  loader: 'task-store-proxy',
  className: 'AgentTaskStore',
};

/** What an RPC stub looks like to JavaScript: every property is a callable. */
const anyPropertyStub = () => new Proxy({}, { get: () => () => Promise.resolve(null), has: () => true });

/** A namespace as workerd tags it. */
const namespace = (objects: string[]) => ({
  [Symbol.toStringTag]: 'DurableObjectNamespace',
  idFromName: (name: string) => `id:${name}`,
  get: (id: string) => {
    objects.push(id);
    return { marker: id };
  },
});

describe('the Worker task store glue', () => {
  it('tells a Durable Object namespace from an RPC stub that answers every property', () => {
    expect(isDurableObjectNamespace(namespace([]))).toBe(true);
    expect(isDurableObjectNamespace(anyPropertyStub())).toBe(false);
    expect(isDurableObjectNamespace({ idFromName: () => 1, get: () => 1 })).toBe(false);
    expect(isDurableObjectNamespace(null)).toBe(false);
    expect(isDurableObjectNamespace('DurableObjectNamespace')).toBe(false);
  });

  it('gives the handler a shared store when the binding is there, and none when it is not', () => {
    expect(taskStoreDeps({}, 'a')).toEqual({});
    expect(taskStoreDeps({ AGENTDEF_TASKS: null }, 'a')).toEqual({});
    expect(taskStoreDeps({ AGENTDEF_TASKS: namespace([]) }, 'a').taskStore?.shared).toBe(true);
    expect(taskStoreDeps({ AGENTDEF_TASKS: anyPropertyStub() }, 'a').taskStore?.shared).toBe(true);
  });

  it('asks the namespace for the object on every call (a stub belongs to one request)', async () => {
    const asked: string[] = [];
    const ns = namespace(asked);
    (ns as unknown as { get: (id: string) => unknown }).get = (id: string) => {
      asked.push(id);
      return {
        getTask: async () => null,
        listTasks: async () => [],
        putTask: async () => true,
        dropTask: async () => false,
        pageTokenKey: async () => new Uint8Array(32),
      };
    };
    const store = taskStoreDeps({ AGENTDEF_TASKS: ns }, 'my-agent').taskStore!;
    await store.get('x');
    await store.list();
    expect(asked).toEqual(['id:my-agent', 'id:my-agent']);
  });

  it('sends only what fits and never a task JSON cannot hold (asking the object to drop it instead); reads back fresh objects', async () => {
    const sent: [string, string, boolean][] = [];
    const dropped: string[] = [];
    const kept = new Map<string, string>();
    const store = taskStoreOver(
      () => ({
        putTask: async (id, text, terminal) => {
          sent.push([id, text, terminal]);
          kept.set(id, text);
          return true;
        },
        dropTask: async (id) => {
          dropped.push(id);
          return kept.delete(id);
        },
        getTask: async (id) => kept.get(id) ?? null,
        listTasks: async () => [...kept.values()],
        pageTokenKey: async () => new Uint8Array(32).fill(7),
      }),
      { maxTasks: 10, maxBytes: 2000 },
    );
    expect(await store.put(contractTask('a', 'q'.repeat(5000)))).toBe(true);
    expect(JSON.parse(sent[0]![1]).userMessage).toBeUndefined();
    expect(sent[0]![2]).toBe(true);
    expect(await store.put(contractTask('b', 'q', 'a'.repeat(5000)))).toBe(false);
    const cyclic = contractTask('c', 'q') as ReturnType<typeof contractTask> & { metadata: Record<string, unknown> };
    cyclic.metadata['self'] = cyclic;
    expect(await store.put(cyclic)).toBe(false);
    expect(sent).toHaveLength(1);
    expect(dropped).toEqual(['b', 'c']);
    const first = await store.get('a');
    first!.contextId = 'changed';
    expect((await store.get('a'))!.contextId).toBe('ctx');
    expect([...(await store.pageTokenKey!())]).toEqual(new Array(32).fill(7));
  });

  it('hands the loaded Worker the loader entrypoint only when the loader has the namespace', () => {
    const exports = {
      AgentdefEgress: () => ({}),
      AgentdefIsolates: () => 'i',
      AgentdefKv: () => 'kv',
      AgentdefQueue: () => 'q',
      AgentdefTasks: () => 'tasks-proxy',
    } as never;
    expect(loadedEnv(plan([taskBinding]), { AGENTDEF_TASKS: namespace([]) }, exports)).toEqual({
      AGENTDEF_TASKS: 'tasks-proxy',
    });
    expect(loadedEnv(plan([taskBinding]), {}, exports)).toEqual({});
  });

  it('the loader reaches the object named after the planned agent, and refuses plans and hosts without a task store', () => {
    const asked: string[] = [];
    expect(plannedTaskObject(plan([taskBinding]), { AGENTDEF_TASKS: namespace(asked) })).toEqual({ marker: 'id:a' });
    expect(() => plannedTaskObject(plan([]), { AGENTDEF_TASKS: namespace(asked) })).toThrow(
      'this host plan keeps no task store',
    );
    expect(() => plannedTaskObject(plan([taskBinding]), { AGENTDEF_TASKS: anyPropertyStub() })).toThrow(
      'binding AGENTDEF_TASKS is not a Durable Object namespace on the host Worker',
    );
  });
});
