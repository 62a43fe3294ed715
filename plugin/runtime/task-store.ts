/**
 * The finished tasks an A2A handler can read back (`GetTask`), bounded by count and by bytes.
 * Each task is kept as its JSON text, so what is stored is measured exactly (two bytes a UTF-16
 * code unit, an upper bound of what the engine holds) and shares nothing with the request that
 * produced it. The oldest tasks are evicted first; a task larger than the whole budget keeps
 * only its answer and status (its history then omits the user's message), and one whose answer
 * alone is too large is not kept (reading it back answers task-not-found). Putting a task again
 * (a `working` task reaching its terminal state) replaces it and makes it the newest.
 */
import type { TaskView } from './a2a-wire';

export interface TaskStoreLimits {
  /** Most tasks kept. */
  maxTasks: number;
  /** Most bytes kept (the sum of the stored tasks' sizes). */
  maxBytes: number;
}

export interface TaskStore {
  put(task: TaskView): void;
  get(id: string): TaskView | undefined;
  has(id: string): boolean;
  /** Every kept task, oldest put first (ListTasks filters, orders and pages them). */
  list(): TaskView[];
  /** Bytes held now (for tests and health reports). */
  bytes(): number;
  size(): number;
}

const sizeOf = (text: string) => text.length * 2;

function serialise(task: TaskView): string | undefined {
  try {
    return JSON.stringify(task);
  } catch {
    return undefined;
  }
}

export function createTaskStore(limits: TaskStoreLimits): TaskStore {
  const entries = new Map<string, string>();
  let held = 0;
  const evictOldest = () => {
    const [id, text] = entries.entries().next().value as [string, string];
    entries.delete(id);
    held -= sizeOf(text);
  };
  return {
    put(task) {
      let text = serialise(task);
      if (text !== undefined && sizeOf(text) > limits.maxBytes) {
        const { userMessage: _dropped, ...slim } = task;
        text = serialise(slim);
      }
      if (text === undefined || sizeOf(text) > limits.maxBytes || limits.maxTasks < 1) return;
      const previous = entries.get(task.id);
      if (previous !== undefined) {
        entries.delete(task.id);
        held -= sizeOf(previous);
      }
      while (entries.size > 0 && (entries.size >= limits.maxTasks || held + sizeOf(text) > limits.maxBytes)) evictOldest();
      entries.set(task.id, text);
      held += sizeOf(text);
    },
    get(id) {
      const text = entries.get(id);
      return text === undefined ? undefined : (JSON.parse(text) as TaskView);
    },
    has: (id) => entries.has(id),
    list: () => [...entries.values()].map((text) => JSON.parse(text) as TaskView),
    bytes: () => held,
    size: () => entries.size,
  };
}
