/**
 * `compile` executor: plans the definition and writes the chosen (or given) target's output. A thin
 * shell; its summary line is `agentdef compile`'s without the plan digest (compile-summary.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { compileAgent } from '../../plugin/compiler/compile';
import { formatCompileSummary, hasCompiledOutput } from '../../plugin/compiler/compile-summary';
import { isTargetOption, type TargetOption } from '../../plugin/compiler/targets';
import { COMPILE_TARGET_ENV } from '../../plugin/graph/compile-target-flag';
import { terminalSafe } from '../../plugin/definition/terminal-text';

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

export default async function compileExecutor(options: CompileExecutorOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:compile: the "definition" option is required');
    return { success: false };
  }
  // `nx run <agent>:compile --target=hb3`: Nx keeps `--target` for itself, so the plugin's
  // preTasksExecution hook hands it over in the environment (see compile-target-flag.ts).
  const target = process.env[COMPILE_TARGET_ENV] || options.target || 'auto';
  if (!isTargetOption(target)) {
    console.error(terminalSafe(`agentdef:compile: unknown target "${target}": use auto, cloudflare-dynamic-worker, hb3 or local-mac`));
    return { success: false };
  }
  const result = await compileAgent({
    file: resolve(context.root, options.definition),
    workspaceRoot: context.root,
    target,
    ...(options.outputPath !== undefined ? { outDir: resolve(context.root, options.outputPath) } : {}),
    ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxNodes !== undefined ? { maxNodes: options.maxNodes } : {}),
  });
  if (result.diagnostics.length > 0) console.error(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }));
  if (result.ioError !== undefined) {
    console.error(terminalSafe(`agentdef:compile: ${result.ioError}`));
    return { success: false };
  }
  if (hasErrors(result.diagnostics) || !hasCompiledOutput(result)) return { success: false };
  console.log(terminalSafe(formatCompileSummary(result)));
  return { success: true };
}
