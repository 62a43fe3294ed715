/**
 * The A2A handler's `TaskStore` on a Worker: every call goes to the agent's task-store Durable
 * Object (task-store-object.ts), so GetTask and ListTasks see the tasks every isolate served.
 *
 * How the object is reached depends on how the Worker runs:
 * - deployed with `wrangler.jsonc` (worker.js as an ordinary Worker): `env.AGENTDEF_TASKS` is the
 *   Durable Object namespace, and the store talks to the object named after the agent;
 * - behind `loader.js`: a dynamically loaded Worker gets no Durable Object binding of its own, so
 *   `env.AGENTDEF_TASKS` is the loader's `AgentdefTasks` entrypoint, which forwards each call to
 *   the same object (`plannedTaskObject`).
 * The store chooses what it keeps with `taskTextWithin` (within the budget and within what one
 * SQLite row holds), sends the JSON text, and parses what it reads back, so nothing read shares
 * anything with what was put. A version it cannot keep is not sent: it asks the object to drop the
 * task's kept version instead (`dropTask`, which leaves a terminal one), and answers false.
 */
import type { TaskView } from '../../runtime/a2a-wire';
import type { TaskStore, TaskStoreLimits } from '../../runtime/task-store';
import { isTerminalTask, taskTextWithin } from '../../runtime/task-store';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { TASK_STORE } from '../../host-contract/worker-host-plan';
import { MAX_TASK_SIZE } from './task-store-object';

/** What the agent's tasks are kept within, across every isolate (the in-memory store's defaults). */
export const DURABLE_TASK_LIMITS: TaskStoreLimits = { maxTasks: 100, maxBytes: 8 * 1024 * 1024 };

/** The task-store object's RPC methods (an object stub, or the loader's entrypoint forwarding to one). */
export interface TaskObjectLike {
  putTask(id: string, text: string, terminal: boolean, limits: TaskStoreLimits): Promise<boolean> | boolean;
  /** Forgets task `id` unless its kept version is terminal; true when one was removed. */
  dropTask(id: string): Promise<boolean> | boolean;
  getTask(id: string): Promise<string | null> | string | null;
  listTasks(): Promise<string[]> | string[];
  pageTokenKey(): Promise<Uint8Array> | Uint8Array;
}

/** A Durable Object namespace binding (the methods the store uses). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): unknown;
}

/** True for a Durable Object namespace binding (an RPC stub answers every property, so ask its type tag). */
export function isDurableObjectNamespace(binding: unknown): binding is DurableObjectNamespaceLike {
  return (
    binding !== null &&
    typeof binding === 'object' &&
    Object.prototype.toString.call(binding) === '[object DurableObjectNamespace]'
  );
}

/**
 * A `TaskStore` over the task-store object (or the loader's entrypoint forwarding to it). `object`
 * is asked for on every call: a Durable Object stub belongs to the request it was made in, and the
 * handler outlives requests.
 */
export function taskStoreOver(object: () => TaskObjectLike, limits: TaskStoreLimits = DURABLE_TASK_LIMITS): TaskStore {
  const parse = (text: unknown) => (typeof text === 'string' ? (JSON.parse(text) as TaskView) : undefined);
  return {
    shared: true,
    async put(task) {
      const text = taskTextWithin(task, Math.min(limits.maxBytes, MAX_TASK_SIZE));
      if (text === undefined || limits.maxTasks < 1) {
        // Not kept: an earlier non-terminal version must not outlive it. A failed drop still answers false.
        await (async () => object().dropTask(task.id))().catch(() => undefined);
        return false;
      }
      return (
        (await object().putTask(task.id, text, isTerminalTask(task), {
          maxTasks: limits.maxTasks,
          maxBytes: limits.maxBytes,
        })) === true
      );
    },
    get: async (id) => parse(await object().getTask(id)),
    list: async () => (await object().listTasks()).map((text) => parse(text)!),
    async pageTokenKey() {
      const key = await object().pageTokenKey();
      return new Uint8Array(key);
    },
  };
}

/**
 * The ids already derived, by namespace and name: an id is a plain value (unlike a stub, which
 * belongs to its request), so an isolate derives each once.
 */
const objectIds = new WeakMap<DurableObjectNamespaceLike, Map<string, unknown>>();

/** The agent's task-store object of `namespace`: the one named `name` (the agent's slug). */
export function taskObjectOf(namespace: DurableObjectNamespaceLike, name: string): TaskObjectLike {
  let ids = objectIds.get(namespace);
  if (!ids) objectIds.set(namespace, (ids = new Map()));
  let id = ids.get(name);
  if (id === undefined) ids.set(name, (id = namespace.idFromName(name)));
  return namespace.get(id as never) as TaskObjectLike;
}

export function createDurableObjectTaskStore(
  namespace: DurableObjectNamespaceLike,
  name: string,
  limits: TaskStoreLimits = DURABLE_TASK_LIMITS,
): TaskStore {
  return taskStoreOver(() => taskObjectOf(namespace, name), limits);
}

/**
 * The handler's `taskStore` from the Worker's env: the Durable Object namespace (ordinary Worker)
 * or the loader's entrypoint (loaded Worker); none configured: no store (the handler keeps tasks
 * in this isolate's memory).
 */
export function taskStoreDeps(env: Record<string, unknown>, name: string): { taskStore?: TaskStore } {
  const binding = env[TASK_STORE.binding];
  if (binding === undefined || binding === null) return {};
  if (isDurableObjectNamespace(binding)) return { taskStore: createDurableObjectTaskStore(binding, name) };
  return { taskStore: taskStoreOver(() => binding as TaskObjectLike) };
}

/** The loader's side: the agent's task-store object, when the host plan provides one and the loader has its namespace. */
export function plannedTaskObject(plan: HostPlan, env: Record<string, unknown>): TaskObjectLike {
  const binding = plan.bindings.find((b) => b.loader === 'task-store-proxy');
  if (!binding) throw new Error('this host plan keeps no task store');
  const namespace = env[binding.name];
  if (!isDurableObjectNamespace(namespace))
    throw new Error(`binding ${binding.name} is not a Durable Object namespace on the host Worker`);
  return taskObjectOf(namespace, plan.agent.slug);
}
