/**
 * The line both compile shells (`agentdef compile`, the `compile` executor) print after a
 * successful compile:
 *   compiled <slug>@<version> for <target> (<runtime class>) into <outDir>: <files>[ (plan <12 hex>)][; <adapter note>]
 * Pure; no trailing newline (each shell ends the line its own way).
 */
import type { CompilePlan } from './plan';
import type { EmittedFile } from '../targets/target';
import type { CompileTarget } from '../targets/targets';

/** What the summary needs of a compile result that produced output. */
export interface CompiledOutput {
  plan: { root: CompilePlan['root']; runtime: Pick<CompilePlan['runtime'], 'chosenClass'>; digest: string };
  target: CompileTarget;
  files: readonly Pick<EmittedFile, 'path'>[];
  /** Workspace-relative output folder; `?` is printed when it is missing. */
  outDir?: string | undefined;
  /** The adapter's one-line note (e.g. the bundle size). */
  summary?: string | undefined;
}

export interface CompileSummaryOptions {
  /** Append `(plan <first 12 hex digits of the plan digest>)` after the files. */
  planDigest?: boolean;
}

/** Narrows a compile result to one that holds a plan, a target and files. */
export function hasCompiledOutput<
  T extends { plan?: CompilePlan | undefined; target?: CompileTarget | undefined; files?: EmittedFile[] | undefined },
>(result: T): result is T & { plan: CompilePlan; target: CompileTarget; files: EmittedFile[] } {
  return result.plan !== undefined && result.target !== undefined && result.files !== undefined;
}

export function formatCompileSummary(result: CompiledOutput, options: CompileSummaryOptions = {}): string {
  const { plan } = result;
  const files = result.files.map((f) => f.path).join(', ');
  const digest = options.planDigest ? ` (plan ${plan.digest.slice(0, 12)})` : '';
  const note = result.summary !== undefined ? `; ${result.summary}` : '';
  return `compiled ${plan.root.slug}@${plan.root.version} for ${result.target} (${plan.runtime.chosenClass}) into ${result.outDir ?? '?'}: ${files}${digest}${note}`;
}
