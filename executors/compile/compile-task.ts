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
import type { PinLookup } from '../../plugin/compiler/workspace-index';
import { formatCompileSummary, hasCompiledOutput } from '../../plugin/compiler/compile-summary';
import {
  isTargetOption,
  listText,
  TARGET_OPTIONS,
  type TargetOption,
  unknownTargetProblem,
} from '../../plugin/targets/targets';
import { COMPILE_TARGET_ENV } from '../../plugin/graph/compile-target-env';
import { folderPath } from '../../plugin/definition/scaffold';
import { terminalSafe } from '../../plugin/definition/terminal-text';

/** An `outputPath` option's problem (outside the workspace: absolute or through ".."), or undefined. */
export function outputPathProblem(outputPath: unknown): string | undefined {
  if (outputPath === undefined) return undefined;
  const folder = folderPath(String(outputPath), 'outputPath');
  return folder.ok
    ? undefined
    : `${folder.problem}: Nx caches and restores only the workspace's folders; choose a folder such as dist/agents/<project>`;
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

const OPTION_NAMES = ['definition', 'target', 'outputPath', 'registryRoot', 'maxDepth', 'maxNodes'];

const kindOf = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * The first problem of a task's options, or undefined. schema.json states the options without
 * types, enums or a required list, because Nx checks every task of a batch against it before the
 * batch starts and, on one task's mismatch, ends the batch process and fails every task: each
 * task's options are checked here instead, failing that task alone. Values are not echoed (an
 * option may hold anything), only their kind.
 */
export function optionsProblem(options: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) return `unknown option "${unknown}": the options are ${OPTION_NAMES.join(', ')}`;
  if (typeof options['definition'] !== 'string' || options['definition'] === '')
    return options['definition'] === undefined
      ? 'the "definition" option is required'
      : `the "definition" option must be a file path, not ${kindOf(options['definition'])}`;
  for (const name of ['outputPath', 'registryRoot']) {
    if (options[name] !== undefined && typeof options[name] !== 'string')
      return `the "${name}" option must be a folder path, not ${kindOf(options[name])}`;
  }
  for (const name of ['maxDepth', 'maxNodes']) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1))
      return `the "${name}" option must be a whole number of at least 1, not ${typeof value === 'number' ? String(value) : kindOf(value)}`;
  }
  if (options['target'] !== undefined && typeof options['target'] !== 'string')
    return `the "target" option must be ${listText(TARGET_OPTIONS)}, not ${kindOf(options['target'])}`;
  return undefined;
}

/**
 * Runs one compile task; true when it succeeded. `index`: the workspace's definitions when the
 * shell has them (the per-task executor: from the project graph, graph-pin-lookup.ts).
 */
export async function runCompileTask(
  options: CompileExecutorOptions,
  workspaceRoot: string,
  compile: CompileFunction,
  output: TaskOutput,
  index?: PinLookup,
): Promise<boolean> {
  const badOption = optionsProblem(
    (typeof options === 'object' && options !== null ? options : {}) as unknown as Record<string, unknown>,
  );
  if (badOption !== undefined) {
    output.error(terminalSafe(`agentdef:compile: ${badOption}`));
    return false;
  }
  // `nx run <agent>:compile --target=hb3`: Nx keeps `--target` for itself, so the plugin's
  // preTasksExecution hook hands it over in the environment (see compile-target-flag.ts).
  const target = process.env[COMPILE_TARGET_ENV] || options.target || 'auto';
  if (!isTargetOption(target)) {
    output.error(terminalSafe(`agentdef:compile: ${unknownTargetProblem(target)}`));
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
    ...(index !== undefined ? { index } : {}),
    ...(options.outputPath !== undefined ? { outDir: resolve(workspaceRoot, options.outputPath) } : {}),
    ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxNodes !== undefined ? { maxNodes: options.maxNodes } : {}),
  });
  if (result.diagnostics.length > 0)
    output.error(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }));
  if (result.ioError !== undefined) {
    output.error(terminalSafe(`agentdef:compile: ${result.ioError}`));
    return false;
  }
  if (hasErrors(result.diagnostics) || !hasCompiledOutput(result)) return false;
  output.log(terminalSafe(formatCompileSummary(result)));
  return true;
}
