/**
 * One compile task, as both shells of the `compile` executor run it: the per-task executor
 * (executor.ts, printing to the console) and the batch executor (batch.ts, collecting each task's
 * output and sharing one compile session). Checks the options, compiles, and writes exactly the
 * lines the executor has always printed: diagnostics and problems to `error`, the summary to `log`.
 */
import { resolve } from 'node:path';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import type { CompileAgentOptions, CompileAgentResult } from '../../plugin/compiler/compile';
import { formatCompileSummary, hasCompiledOutput } from '../../plugin/compiler/compile-summary';
import { isTargetOption, type TargetOption } from '../../plugin/compiler/targets';
import { COMPILE_TARGET_ENV } from '../../plugin/graph/compile-target-flag';
import { folderPath } from '../../plugin/definition/scaffold';
import { terminalSafe } from '../../plugin/definition/terminal-text';

/** An `outputPath` option's problem (outside the workspace: absolute or through ".."), or undefined. */
export function outputPathProblem(outputPath: unknown): string | undefined {
  if (outputPath === undefined) return undefined;
  const folder = folderPath(String(outputPath), 'outputPath');
  return folder.ok ? undefined : `${folder.problem}: Nx caches and restores only the workspace's folders; choose a folder such as dist/agents/<project>`;
}

export interface CompileExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  /** `auto` (default) compiles for the plan's choice. */
  target?: TargetOption;
  /** Output folder, relative to the workspace root (default `dist/agents/<slug>`). */
  outputPath?: string;
  registryRoot?: string;
  maxDepth?: number;
  maxNodes?: number;
}

/** Where a task's lines go; each call is one line, without its newline. */
export interface TaskOutput {
  log(line: string): void;
  error(line: string): void;
}

/** The compiler call a task makes: `compileAgent` alone, or a compile session's. */
export type CompileFunction = (options: CompileAgentOptions) => Promise<CompileAgentResult>;

/** Runs one compile task; true when it succeeded. */
export async function runCompileTask(options: CompileExecutorOptions, workspaceRoot: string, compile: CompileFunction, output: TaskOutput): Promise<boolean> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    output.error('agentdef:compile: the "definition" option is required');
    return false;
  }
  // `nx run <agent>:compile --target=hb3`: Nx keeps `--target` for itself, so the plugin's
  // preTasksExecution hook hands it over in the environment (see compile-target-flag.ts).
  const target = process.env[COMPILE_TARGET_ENV] || options.target || 'auto';
  if (!isTargetOption(target)) {
    output.error(terminalSafe(`agentdef:compile: unknown target "${target}": use auto, cloudflare-dynamic-worker, hb3 or local-mac`));
    return false;
  }
  const badOutput = outputPathProblem(options.outputPath);
  if (badOutput !== undefined) {
    output.error(terminalSafe(`agentdef:compile: ${badOutput}`));
    return false;
  }
  const result = await compile({
    file: resolve(workspaceRoot, options.definition),
    workspaceRoot,
    target,
    ...(options.outputPath !== undefined ? { outDir: resolve(workspaceRoot, options.outputPath) } : {}),
    ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxNodes !== undefined ? { maxNodes: options.maxNodes } : {}),
  });
  if (result.diagnostics.length > 0) output.error(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }));
  if (result.ioError !== undefined) {
    output.error(terminalSafe(`agentdef:compile: ${result.ioError}`));
    return false;
  }
  if (hasErrors(result.diagnostics) || !hasCompiledOutput(result)) return false;
  output.log(terminalSafe(formatCompileSummary(result)));
  return true;
}
