/**
 * What compile stamps into `plan.json` beside the plan: the commit the output comes from
 * (source-stamp.ts) and what deploy checks in the registry (`registration`: whether the tree is
 * agentic, and the digest of the root definition as publish compares it). Both stay out of the
 * plan's digest (plan.ts).
 */
import { withoutPublishStamps } from '../definition/publish-stamps';
import { digestOf } from './canonical-json';
import type { CompilePlan, PlanRegistration } from './plan';
import type { ResolvedNode } from './resolve';
import type { SourceStamp } from './source-stamp';

/** Whether any node of the tree has a model: the seed's agentic gate (modelSet ≥ 1 ⇒ agentic, registered). */
export function treeIsAgentic(node: ResolvedNode): boolean {
  return node.definition.modelSet.length > 0 || node.children.some(treeIsAgentic);
}

/** The registration facts of a resolved tree. Pure. */
export function registrationOf(root: ResolvedNode): PlanRegistration {
  return { required: treeIsAgentic(root), definitionDigest: digestOf(withoutPublishStamps(root.definition)) };
}

/** The plan with its provenance and registration; the digest is unchanged (they are not part of it). */
export function stampPlan(plan: CompilePlan, root: ResolvedNode, source: SourceStamp): CompilePlan {
  return { ...plan, provenance: source, registration: registrationOf(root) };
}
