/**
 * `compile` as an Nx batch (`batchImplementation` in executors.json): `nx run-many -t compile
 * --batch` (or `NX_BATCH_MODE=true`) hands every compile task of the run to this one process, which
 * compiles them in one compile session (plugin/compiler/compile-session.ts: one workspace index,
 * built from the project graph as graph-pin-lookup.ts builds it, one set of validated definitions,
 * one bundler). Each task runs exactly as the per-task executor
 * runs it (compile-task.ts) and is reported on its own as it finishes, with the lines that executor
 * would have printed as its terminal output: Nx caches and replays each task as before, and one
 * failing agent fails its own task only. A few compiles run at once (the bundler works in esbuild's
 * own process meanwhile), each after the compiles it depends on in the batch. Never throws.
 */
import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { openCompileSession } from '../../plugin/compiler/compile-session';
import { runCompileTask, type CompileExecutorOptions } from './compile-task';
import { graphPinLookup } from '../graph-pin-lookup';

/** What Nx expects for each task of a batch (nx's `BatchExecutorTaskResult`); `skipped`: a dependency in the batch failed, so it never ran. */
export interface BatchTaskResult {
  task: string;
  result: {
    success: boolean;
    status?: 'success' | 'failure' | 'skipped';
    terminalOutput: string;
    startTime: number;
    endTime: number;
  };
}

/** Compiles in flight at once: enough to keep esbuild's process and the file system busy while this one plans and generates. */
const CONCURRENT_COMPILES = 4;

export default async function* compileBatchExecutor(
  taskGraph: TaskGraph,
  inputs: Record<string, CompileExecutorOptions>,
  _overrides: CompileExecutorOptions,
  context: ExecutorContext,
): AsyncGenerator<BatchTaskResult> {
  const session = openCompileSession(context.root, graphPinLookup(context));
  const compileTask = async (taskId: string): Promise<BatchTaskResult> => {
    const startTime = Date.now();
    let terminalOutput = '';
    const write = (line: string) => {
      terminalOutput += `${line}\n`;
    };
    let success: boolean;
    try {
      success = await runCompileTask(inputs[taskId] ?? ({} as CompileExecutorOptions), context.root, session.compile, {
        log: write,
        error: write,
      });
    } catch (error) {
      write(`agentdef:compile: internal error: ${(error as Error).message}`);
      success = false;
    }
    return {
      task: taskId,
      result: { success, status: success ? 'success' : 'failure', terminalOutput, startTime, endTime: Date.now() },
    };
  };

  try {
    // Nx puts a task and the tasks depending on it (`dependsOn: ['^compile']`) in one batch: a task
    // starts once its dependencies in the batch succeeded, and is skipped, as Nx skips it outside a
    // batch, when one of them did not.
    const dependencies = (taskId: string) =>
      (taskGraph.dependencies?.[taskId] ?? []).filter((dep) => dep !== taskId && Object.hasOwn(taskGraph.tasks, dep));
    const succeeded = new Map<string, boolean>();
    const waiting = Object.keys(taskGraph.tasks);
    const running = new Map<string, Promise<BatchTaskResult>>();
    while (waiting.length > 0 || running.size > 0) {
      for (let i = 0; i < waiting.length; ) {
        const taskId = waiting[i]!;
        if (dependencies(taskId).some((dep) => succeeded.get(dep) === false)) {
          waiting.splice(i, 1);
          succeeded.set(taskId, false);
          const now = Date.now();
          yield {
            task: taskId,
            result: { success: false, status: 'skipped', terminalOutput: '', startTime: now, endTime: now },
          };
          i = 0;
        } else i++;
      }
      for (let i = 0; i < waiting.length && running.size < CONCURRENT_COMPILES; ) {
        const taskId = waiting[i]!;
        if (dependencies(taskId).every((dep) => succeeded.get(dep) === true)) {
          waiting.splice(i, 1);
          running.set(taskId, compileTask(taskId));
        } else i++;
      }
      // Dependencies that can never finish (a cycle Nx let through): run the next task rather than wait forever.
      if (running.size === 0) {
        const taskId = waiting.shift();
        if (taskId === undefined) break;
        running.set(taskId, compileTask(taskId));
      }
      const finished = await Promise.race(running.values());
      running.delete(finished.task);
      succeeded.set(finished.task, finished.result.success);
      yield finished;
    }
  } finally {
    // The session's esbuild contexts keep esbuild's process alive: released even when Nx stops early.
    await session.close();
  }
}
