/**
 * What every adapter emits today: `plan.json` and a small target descriptor naming the target,
 * the plan digest and the entry file the real emitter will produce. The adapter issues replace
 * the descriptor with full host code; the plan file and the fail-closed check stay.
 */
import { stableJson } from '../canonical-json';
import { PLAN_FILE, serializePlan, type CompilePlan } from '../plan';
import type { ResolvedNode } from '../resolve';
import { checkTarget } from '../runtime-choice';
import type { CompileTarget, EmitResult } from '../targets';

export interface TargetDescriptor {
  target: CompileTarget;
  /** The plan this output was emitted from. */
  planDigest: string;
  /** `slug@version` of the compiled agent. */
  root: string;
  /** The file the target's host starts, relative to the output folder. */
  entry: string;
}

export function emitManifest(target: CompileTarget, descriptorFile: string, entry: string, plan: CompilePlan, resolved: ResolvedNode): EmitResult {
  // Fail closed even when called without the compile step's check.
  const mismatch = checkTarget(resolved, target);
  if (mismatch.length > 0) return { diagnostics: mismatch };
  const descriptor: TargetDescriptor = { target, planDigest: plan.digest, root: `${plan.root.slug}@${plan.root.version}`, entry };
  return {
    files: [
      { path: PLAN_FILE, contents: serializePlan(plan) },
      { path: descriptorFile, contents: stableJson(descriptor) },
    ],
  };
}
