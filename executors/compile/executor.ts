/**
 * `compile` executor: plans the definition and writes the chosen (or given) target's output. A thin
 * shell over compile-task.ts, printing to the console; its summary line is `agentdef compile`'s
 * without the plan digest (compile-summary.ts). `nx run-many -t compile --batch` runs batch.ts
 * instead: the same tasks in one process. Pins resolve through the project graph's definitions
 * (graph-pin-lookup.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { compileAgent } from '../../plugin/compiler/compile';
import { runCompileTask, type CompileExecutorOptions, type TaskOutput } from './compile-task';
import { graphPinLookup } from '../graph-pin-lookup';

export type { CompileExecutorOptions } from './compile-task';

const consoleOutput: TaskOutput = {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

export default async function compileExecutor(
  options: CompileExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  return { success: await runCompileTask(options, context.root, compileAgent, consoleOutput, graphPinLookup(context)) };
}
