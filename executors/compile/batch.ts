/**
 * `compile` as an Nx batch (`batchImplementation` in executors.json): `nx run-many -t compile
 * --batch` (or `NX_BATCH_MODE=true`) hands every compile task of the run to this one process, which
 * compiles them in one compile session (plugin/compiler/compile-session.ts: one workspace index,
 * one set of validated definitions, one bundler). Each task runs exactly as the per-task executor
 * runs it (compile-task.ts) and is reported on its own as it finishes, with the lines that executor
 * would have printed as its terminal output: Nx caches and replays each task as before, and one
 * failing agent fails its own task only. Compile tasks depend on no other compile task, so a few
 * run at once (the bundler works in esbuild's own process meanwhile). Never throws.
 */
import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { openCompileSession } from '../../plugin/compiler/compile-session';
import { runCompileTask, type CompileExecutorOptions } from './compile-task';

/** What Nx expects for each task of a batch (nx's `BatchExecutorTaskResult`). */
export interface BatchTaskResult {
  task: string;
  result: { success: boolean; terminalOutput: string; startTime: number; endTime: number };
}

/** Compiles in flight at once: enough to keep esbuild's process and the file system busy while this one plans and generates. */
const CONCURRENT_COMPILES = 4;

export default async function* compileBatchExecutor(taskGraph: TaskGraph, inputs: Record<string, CompileExecutorOptions>, _overrides: CompileExecutorOptions, context: ExecutorContext): AsyncGenerator<BatchTaskResult> {
  const session = openCompileSession(context.root);
  const compileTask = async (taskId: string): Promise<BatchTaskResult> => {
    const startTime = Date.now();
    let terminalOutput = '';
    const write = (line: string) => {
      terminalOutput += `${line}\n`;
    };
    let success: boolean;
    try {
      success = await runCompileTask(inputs[taskId] ?? ({} as CompileExecutorOptions), context.root, session.compile, { log: write, error: write });
    } catch (error) {
      write(`agentdef:compile: internal error: ${(error as Error).message}`);
      success = false;
    }
    return { task: taskId, result: { success, terminalOutput, startTime, endTime: Date.now() } };
  };

  const waiting = Object.keys(taskGraph.tasks);
  const running = new Map<string, Promise<BatchTaskResult>>();
  const startNext = () => {
    const taskId = waiting.shift();
    if (taskId !== undefined) running.set(taskId, compileTask(taskId));
  };
  while (running.size < CONCURRENT_COMPILES && waiting.length > 0) startNext();
  while (running.size > 0) {
    const finished = await Promise.race(running.values());
    running.delete(finished.task);
    startNext();
    yield finished;
  }
}
