/**
 * The runs one A2A handler instance has going, by task id: each run's abort controller (CancelTask
 * interrupts it) and its listeners (the streams watching it). A run tells its listeners of each
 * step as it happens (`progress`) and of its end (`final`, with the task as kept); after `final` it
 * has no listeners left. Runs of other instances sharing the task store are not here: streams and
 * cancels reach those through the store (a2a-handler.ts polls it).
 */
import type { TaskView } from './a2a-wire';

export type TaskRunEvent =
  | { type: 'progress'; task: TaskView; progress: Record<string, unknown> }
  | { type: 'final'; task: TaskView };

export type TaskRunListener = (event: TaskRunEvent) => void;

interface RunEntry {
  controller: AbortController;
  listeners: Set<TaskRunListener>;
}

export interface TaskRuns {
  begin(taskId: string, controller: AbortController): void;
  has(taskId: string): boolean;
  /** Interrupts a run of this instance; false when it has none by that id, or it cannot be interrupted from here. */
  abort(taskId: string): boolean;
  /** Listens to a run of this instance; undefined when it has none by that id. The result stops listening. */
  listen(taskId: string, listener: TaskRunListener): (() => void) | undefined;
  emit(taskId: string, event: TaskRunEvent): void;
  /** Whether anyone listens to run `taskId` now (an event nobody hears need not be built). */
  heard(taskId: string): boolean;
  end(taskId: string): void;
  /** Streams open on this instance (for the open-stream bound). */
  listeners(): number;
}

export function createTaskRuns(): TaskRuns {
  const runs = new Map<string, RunEntry>();
  return {
    begin(taskId, controller) {
      runs.set(taskId, { controller, listeners: new Set() });
    },
    has: (taskId) => runs.has(taskId),
    abort(taskId) {
      const entry = runs.get(taskId);
      if (!entry) return false;
      try {
        entry.controller.abort();
        return true;
      } catch {
        // workerd refuses to abort, from one request, I/O another request started: the run's own
        // poll of the store sees the cancel instead.
        return false;
      }
    },
    listen(taskId, listener) {
      const entry = runs.get(taskId);
      if (!entry) return undefined;
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
    heard: (taskId) => (runs.get(taskId)?.listeners.size ?? 0) > 0,
    emit(taskId, event) {
      const entry = runs.get(taskId);
      if (!entry) return;
      for (const listener of [...entry.listeners]) {
        try {
          listener(event);
        } catch {
          // A listener that fails (a closed stream) does not stop the others.
        }
      }
      if (event.type === 'final') entry.listeners.clear();
    },
    end(taskId) {
      runs.delete(taskId);
    },
    listeners: () => [...runs.values()].reduce((n, entry) => n + entry.listeners.size, 0),
  };
}
