/**
 * `plan` executor: resolves the composition and prints the compile plan; optionally writes
 * plan.json. A thin shell; the workspace index comes from the project graph (graph-pin-lookup.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { workspacePath } from '../../plugin/definition/workspace-path';
import { planAgent } from '../../plugin/compiler/compile';
import { PLAN_FILE, serializePlan } from '../../plugin/compiler/plan';
import { formatPlanText } from '../../plugin/compiler/plan-text';
import { writeOutputAtomic } from '../../plugin/compiler/write-output';
import { terminalSafe } from '../../plugin/definition/terminal-text';
import { outputPathProblem } from '../compile/compile-task';
import { graphPinLookup, validatedDefinitionStoreFor } from '../graph-pin-lookup';

export interface PlanExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  /** When set, a folder (relative to the workspace root) that receives plan.json, replaced atomically (only if agentdef wrote it, or it is empty). */
  outputPath?: string;
  registryRoot?: string;
  maxDepth?: number;
  maxNodes?: number;
}

export default async function planExecutor(
  options: PlanExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:plan: the "definition" option is required');
    return { success: false };
  }
  const badOutput = outputPathProblem(options.outputPath);
  if (badOutput !== undefined) {
    console.error(terminalSafe(`agentdef:plan: ${badOutput}`));
    return { success: false };
  }
  // Pins resolve through the project graph's definitions (and those Nx cannot see), as `agentdef plan` resolves them.
  const index = graphPinLookup(context);
  // Clean validations kept by earlier tasks: an unchanged definition is not validated again.
  const validatedDefinitions = validatedDefinitionStoreFor(context.root);
  const result = await planAgent({
    file: resolve(context.root, options.definition),
    workspaceRoot: context.root,
    validatedDefinitions,
    ...(index !== undefined ? { index } : {}),
    ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxNodes !== undefined ? { maxNodes: options.maxNodes } : {}),
  });
  if (result.ioError !== undefined) {
    console.error(terminalSafe(`agentdef:plan: ${result.ioError}`));
    return { success: false };
  }
  if (result.diagnostics.length > 0)
    console.error(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }));
  if (hasErrors(result.diagnostics) || !result.plan) return { success: false };
  console.log(terminalSafe(formatPlanText(result.plan)));
  if (options.outputPath !== undefined) {
    const destination = resolve(context.root, options.outputPath);
    const display = workspacePath(context.root, destination);
    const written = await writeOutputAtomic(destination, [{ path: PLAN_FILE, contents: serializePlan(result.plan) }], {
      workspaceRoot: context.root,
      displayName: display,
    });
    if (!written.ok) {
      console.error(terminalSafe(`agentdef:plan: ${written.error}`));
      return { success: false };
    }
    console.log(terminalSafe(`wrote ${display}/${PLAN_FILE}`));
  }
  // Kept for the next task only when this one succeeded: a refused task changes nothing on disk.
  validatedDefinitions.save();
  return { success: true };
}
