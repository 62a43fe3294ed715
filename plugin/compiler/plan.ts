/**
 * The compile plan: the resolved tree flattened into deterministic JSON, with the runtime choice
 * and a digest. Pure: the same tree gives the same bytes (no clock, no absolute paths, keys
 * sorted when serialised). `digest` is SHA-256 over the RFC 8785 canonical JSON of the plan
 * without its `digest`, `provenance` and `registration` fields.
 *
 * `provenance` and `registration` are stamped by compile (provenance.ts), never by planning alone:
 * they say where the output comes from (the commit, whether the tree was dirty) and what deploy must
 * find in the registry. They stay out of the digest, so the digest (and everything keyed on it:
 * image tags, isolate ids) names what was compiled, not when or from which checkout.
 */
import type { RuntimeCapabilityClass } from '../definition/runtime-hosts';
import type { Edge } from '../schema/generated/agent-definition.types';
import { digestOf, stableJson } from './canonical-json';
import type { NodeSource, ResolvedNode } from './resolve';
import type { RuntimeChoice } from './runtime-choice';
import type { CompileTarget } from '../targets/targets';
import type { SourceStamp } from './source-stamp';

export const PLAN_VERSION = 'compile-plan/v1';
export { PLAN_FILE } from '../host-contract/output-files';

export interface PlanNode {
  /** The node's path from the root: `root@1.0.0/child@2.0.0/…`; unique even when a child is pinned twice. */
  id: string;
  slug: string;
  version: string;
  /** Workspace-relative posix path, or the registry's name for the snapshot. */
  file: string;
  source: NodeSource;
  /** SHA-256 of the canonical JSON of the node's definition. */
  digest: string;
  depth: number;
  /** The parent's `id`; absent on the root. */
  parent?: string;
  runtimeCapabilityClass: RuntimeCapabilityClass;
  /** True when the parent asks for context quarantine: the node runs in a fresh runtime instance. */
  quarantine: boolean;
}

export type PlanEdge =
  /** The parent pins the child. */
  | { kind: 'pin'; from: string; to: string }
  /** A typed composition edge between two children of `within`. */
  | {
      kind: 'flow';
      within: string;
      from: string;
      to: string;
      gate?: NonNullable<Edge['gate']>;
      condition?: NonNullable<Edge['condition']>;
    };

export interface CompilePlan {
  planVersion: typeof PLAN_VERSION;
  root: { slug: string; version: string };
  nodes: PlanNode[];
  edges: PlanEdge[];
  runtime: RuntimeChoice;
  /** The target this plan compiles for: the runtime's choice, or the explicit target asked for (which the tree allows). */
  target: CompileTarget;
  digest: string;
  /** Compile only: the commit the output comes from and whether the worktree was dirty (source-stamp.ts). */
  provenance?: SourceStamp;
  /** Compile only: what `agentdef deploy` checks in the registry (provenance.ts). */
  registration?: PlanRegistration;
}

export interface PlanRegistration {
  /** True when a node of the tree has a model (modelSet ≥ 1): the agent must be published before it deploys. */
  required: boolean;
  /** SHA-256 of the canonical JSON of the root definition without what publish stamps (publish-stamps.ts). */
  definitionDigest: string;
}

export type UnsignedPlan = Omit<CompilePlan, 'digest' | 'provenance' | 'registration'>;

export function computePlanDigest(plan: UnsignedPlan | CompilePlan): string {
  const { digest: _digest, provenance: _provenance, registration: _registration, ...rest } = plan as CompilePlan;
  return digestOf(rest);
}

/** `target` defaults to the runtime's choice; the caller checks an explicit one first (`checkTarget`). */
export function buildPlan(
  root: ResolvedNode,
  runtime: RuntimeChoice,
  target: CompileTarget = runtime.target,
): CompilePlan {
  const nodes: PlanNode[] = [];
  const edges: PlanEdge[] = [];
  const visit = (node: ResolvedNode, id: string, parent: { id: string; quarantine: boolean } | undefined) => {
    const entry: PlanNode = {
      id,
      slug: node.slug,
      version: node.version,
      file: node.file,
      source: node.source,
      digest: node.digest,
      depth: node.depth,
      runtimeCapabilityClass: node.definition.runtimeRequirements.runtimeCapabilityClass,
      quarantine: parent?.quarantine ?? false,
    };
    if (parent) entry.parent = parent.id;
    nodes.push(entry);
    const composition = node.definition.composition;
    const childIds = new Map<string, string>();
    for (const child of node.children) {
      const childId = `${id}/${child.key}`;
      childIds.set(child.slug, childId);
      edges.push({ kind: 'pin', from: id, to: childId });
    }
    for (const edge of composition.edges ?? []) {
      const from = childIds.get(edge.from);
      const to = childIds.get(edge.to);
      if (from === undefined || to === undefined) continue; // the definition's own rules report dangling edges
      const flow: PlanEdge = { kind: 'flow', within: id, from, to };
      if (edge.gate !== undefined) flow.gate = edge.gate;
      if (edge.condition !== undefined) flow.condition = edge.condition;
      edges.push(flow);
    }
    const quarantine = composition.quarantine === true;
    for (const child of node.children) visit(child, `${id}/${child.key}`, { id, quarantine });
  };
  visit(root, root.key, undefined);
  const unsigned: UnsignedPlan = {
    planVersion: PLAN_VERSION,
    root: { slug: root.slug, version: root.version },
    nodes,
    edges,
    runtime,
    target,
  };
  return { ...unsigned, digest: computePlanDigest(unsigned) };
}

/** `plan.json`: sorted keys, two-space indentation, final newline. */
export function serializePlan(plan: CompilePlan): string {
  return stableJson(plan);
}
