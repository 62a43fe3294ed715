/**
 * Where an A2A handler keeps its tasks, and the bounded in-memory store every host has by default.
 *
 * The contract (`TaskStore`), which every store honours and `__test-support__/task-store-contract.ts`
 * checks on each of them (this one, the Worker's Durable Object store, the Node hosts' SQLite store):
 * - `put` keeps a task, replacing an earlier version of it and making it the newest; a task whose
 *   kept version is terminal (completed, failed, canceled) is final: putting over it changes
 *   nothing and answers false (so a run finishing after its task was canceled cannot undo the
 *   cancel, whichever instance each happened in);
 * - a version that cannot be kept (too large for the budget or for the store, or not JSON) answers
 *   false and removes the task's kept version when that one is not terminal, so a task that put
 *   `working` and then finished too large reads back as task-not-found rather than `working`
 *   forever (a terminal kept version stays, as above);
 * - `get` reads one back, `list` every kept task, oldest put first (ListTasks filters, orders and
 *   pages them); what is read shares nothing with what was put or with later reads;
 * - the store is bounded: the oldest tasks are evicted first, by count and by bytes;
 * - `shared` is true when other isolates or processes read and write the same tasks (a cancel
 *   may then come through another instance: the handler polls the store for it while it runs),
 *   and such a store keeps one page-token key for all of them (`pageTokenKey`).
 *
 * The in-memory store keeps each task as its JSON text, so what is stored is measured exactly (two
 * bytes a UTF-16 code unit, an upper bound of what the engine holds). A task larger than the whole
 * budget keeps only its answer and status (its history then omits the user's message), and one
 * whose answer alone is too large is not kept (reading it back answers task-not-found).
 */
import type { TaskView } from './a2a-wire';
import { TERMINAL_TASK_STATES } from './a2a-wire';

export interface TaskStoreLimits {
  /** Most tasks kept. */
  maxTasks: number;
  /** Most bytes kept (the sum of the stored tasks' sizes). */
  maxBytes: number;
}

export interface TaskStore {
  /**
   * Keeps `task`; false when it was not kept (the kept version is terminal, or it does not fit; a
   * task that does not fit also loses its kept version unless that one is terminal).
   */
  put(task: TaskView): Promise<boolean>;
  get(id: string): Promise<TaskView | undefined>;
  /** Every kept task, oldest put first. */
  list(): Promise<TaskView[]>;
  /** Other isolates or processes share these tasks. */
  readonly shared: boolean;
  /**
   * A shared store's page-token key: the same 32 random bytes for every instance sharing the store,
   * kept with the tasks, so a ListTasks page token issued by one instance is accepted by all.
   * Absent: each handler makes its own.
   */
  pageTokenKey?(): Promise<Uint8Array>;
}

/** The in-memory store, with its measurements (for tests and health reports). */
export interface MemoryTaskStore extends TaskStore {
  has(id: string): boolean;
  bytes(): number;
  size(): number;
}

export const sizeOfTaskText = (text: string) => text.length * 2;

/**
 * What a store whose storage is away (a shared database in an outage) rejects with, instead of
 * answering as if a task were missing: the A2A handler answers it as "the task store is
 * unavailable; try again". Its message names the cause by code only (never a connection string).
 */
export class TaskStoreUnavailableError extends Error {
  override readonly name = 'TaskStoreUnavailableError';
}

/**
 * The JSON text a store keeps for `task` within `maxBytes`: the whole task, else the task without
 * the user's message, else undefined (too large, or not JSON).
 */
export function taskTextWithin(task: TaskView, maxBytes: number): string | undefined {
  const serialise = (value: unknown) => {
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  };
  let text = serialise(task);
  if (text !== undefined && sizeOfTaskText(text) > maxBytes) {
    const { userMessage: _dropped, ...slim } = task;
    text = serialise(slim);
  }
  return text === undefined || sizeOfTaskText(text) > maxBytes ? undefined : text;
}

export const isTerminalTask = (task: Pick<TaskView, 'state'>) => TERMINAL_TASK_STATES.includes(task.state);

export function createTaskStore(limits: TaskStoreLimits): MemoryTaskStore {
  const entries = new Map<string, string>();
  let held = 0;
  const evictOldest = () => {
    const [id, text] = entries.entries().next().value as [string, string];
    entries.delete(id);
    held -= sizeOfTaskText(text);
  };
  const read = (id: string) => {
    const text = entries.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as TaskView);
  };
  return {
    shared: false,
    async put(task) {
      const kept = read(task.id);
      if (kept && isTerminalTask(kept)) return false;
      const text = taskTextWithin(task, limits.maxBytes);
      const previous = entries.get(task.id);
      if (text === undefined || limits.maxTasks < 1) {
        if (previous !== undefined) {
          entries.delete(task.id); // not terminal (checked above): a stale version must not outlive it
          held -= sizeOfTaskText(previous);
        }
        return false;
      }
      if (previous !== undefined) {
        entries.delete(task.id);
        held -= sizeOfTaskText(previous);
      }
      while (entries.size > 0 && (entries.size >= limits.maxTasks || held + sizeOfTaskText(text) > limits.maxBytes))
        evictOldest();
      entries.set(task.id, text);
      held += sizeOfTaskText(text);
      return true;
    },
    get: async (id) => read(id),
    list: async () => [...entries.values()].map((text) => JSON.parse(text) as TaskView),
    has: (id) => entries.has(id),
    bytes: () => held,
    size: () => entries.size,
  };
}
