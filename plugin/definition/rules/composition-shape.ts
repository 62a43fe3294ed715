/**
 * The shape of the composition: a leaf has no children; a DAG has uniquely named children, never
 * itself, typed edges only between its children, no duplicate edges and no cycles.
 */
import type { Edge } from '../../schema/generated/agent-definition.types';
import type { Finding } from '../diagnostic';
import type { SemanticRule } from './rule';

const RULE = 'composition-shape';

/**
 * Finds one cycle: the slugs along it (the first repeated at the end) and the index of the edge
 * that closes it. Depth-first from each declared node in order, edges in declaration order;
 * iterative, so long chains cannot overflow the stack.
 */
function findCycle(
  nodes: readonly string[],
  edges: readonly Edge[],
): { slugs: string[]; edgeIndex: number } | undefined {
  const outgoing = new Map<string, { to: string; index: number }[]>();
  edges.forEach((edge, index) => {
    const list = outgoing.get(edge.from) ?? [];
    list.push({ to: edge.to, index });
    outgoing.set(edge.from, list);
  });
  const done = new Set<string>();
  const onStack = new Set<string>();
  // Start from the declared nodes in order, then from any edge source not declared as a node.
  for (const start of [...nodes, ...edges.map((e) => e.from)]) {
    if (done.has(start)) continue;
    const stack: { slug: string; next: number }[] = [{ slug: start, next: 0 }];
    onStack.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const out = outgoing.get(top.slug) ?? [];
      const edge = out[top.next++];
      if (edge === undefined) {
        stack.pop();
        onStack.delete(top.slug);
        done.add(top.slug);
        continue;
      }
      if (onStack.has(edge.to)) {
        const from = stack.findIndex((frame) => frame.slug === edge.to);
        return { slugs: [...stack.slice(from).map((frame) => frame.slug), edge.to], edgeIndex: edge.index };
      }
      if (!done.has(edge.to)) {
        stack.push({ slug: edge.to, next: 0 });
        onStack.add(edge.to);
      }
    }
  }
  return undefined;
}

export const compositionShapeRule: SemanticRule = {
  name: RULE,
  description:
    'A leaf has no nodes or edges; a DAG has at least one uniquely named child that is not itself, edges only between its children, no duplicate edges, no cycles, and conditions only on conditional edges.',
  check(definition) {
    const findings: Finding[] = [];
    const composition = definition.composition;
    const nodes = composition.nodes ?? [];
    const edges = composition.edges ?? [];

    if (composition.kind === 'leaf') {
      if (nodes.length > 0) {
        findings.push({
          rule: RULE,
          path: '/composition/nodes',
          message: `composition.kind is "leaf" but composition.nodes lists ${nodes.length} child agent${nodes.length === 1 ? '' : 's'}: a leaf runs its own models and tools.`,
          suggestion: 'Set composition.kind to "dag" to compose the children, or remove composition.nodes.',
        });
      }
      if (edges.length > 0) {
        findings.push({
          rule: RULE,
          path: '/composition/edges',
          message: `composition.kind is "leaf" but composition.edges lists ${edges.length} edge${edges.length === 1 ? '' : 's'}: a leaf has no nodes to connect.`,
          suggestion: 'Set composition.kind to "dag", or remove composition.edges.',
        });
      }
      if (composition.quarantine !== undefined) {
        findings.push({
          rule: RULE,
          severity: 'warning',
          path: '/composition/quarantine',
          at: 'key',
          message:
            'composition.quarantine has no effect on a leaf: it isolates the contexts of composed children, and a leaf has none.',
          suggestion: 'Remove composition.quarantine, or set composition.kind to "dag" if the agent composes children.',
        });
      }
      return findings;
    }

    // kind === 'dag'
    const self = definition.identity.slug;
    if (nodes.length === 0) {
      findings.push({
        rule: RULE,
        path: '/composition/nodes',
        message: 'composition.kind is "dag" but it has no nodes: a DAG composes at least one pinned child agent.',
        suggestion:
          'List the children in composition.nodes as { "slug": "...", "version": "x.y.z" }, or set composition.kind to "leaf".',
      });
    }

    const seen = new Map<string, number>();
    nodes.forEach((node, index) => {
      const path = `/composition/nodes/${index}/slug`;
      if (node.slug === self) {
        findings.push({
          rule: RULE,
          path,
          message: `composition.nodes[${index}] is "${node.slug}@${node.version}", the definition itself: an agent cannot be its own child.`,
          suggestion:
            'Remove the self-reference; to run the agent repeatedly, give it a loop budget in runtimeRequirements.limits instead.',
        });
      }
      const first = seen.get(node.slug);
      if (first !== undefined) {
        findings.push({
          rule: RULE,
          path,
          message: `composition.nodes[${index}] repeats the slug "${node.slug}" of composition.nodes[${first}]: edges name nodes by slug, so slugs must be unique.`,
          suggestion: `Remove composition.nodes[${index}], or keep one pinned version of "${node.slug}".`,
        });
      } else {
        seen.set(node.slug, index);
      }
    });

    const edgeKeys = new Map<string, number>();
    edges.forEach((edge, index) => {
      const base = `/composition/edges/${index}`;
      for (const end of ['from', 'to'] as const) {
        const slug = edge[end];
        if (!seen.has(slug)) {
          findings.push({
            rule: RULE,
            path: `${base}/${end}`,
            message: `composition.edges[${index}].${end} is "${slug}", which is not one of composition.nodes.`,
            suggestion:
              seen.size > 0
                ? `Use one of the node slugs (${[...seen.keys()].map((s) => `"${s}"`).join(', ')}), or add "${slug}" to composition.nodes with a pinned version.`
                : `Add "${slug}" to composition.nodes with a pinned version.`,
          });
        }
      }
      const key = `${edge.from}\u0000${edge.to}`;
      const first = edgeKeys.get(key);
      if (first !== undefined) {
        findings.push({
          rule: RULE,
          path: base,
          message: `composition.edges[${index}] duplicates composition.edges[${first}] (${edge.from} -> ${edge.to}).`,
          suggestion: `Remove composition.edges[${index}]; one edge per pair of nodes.`,
        });
      } else {
        edgeKeys.set(key, index);
      }
      if (edge.condition !== undefined && edge.gate !== 'conditional') {
        findings.push({
          rule: RULE,
          path: `${base}/condition`,
          at: 'key',
          message: `composition.edges[${index}] has a condition but its gate is ${edge.gate === undefined ? 'not set' : `"${edge.gate}"`}: only "conditional" edges evaluate a condition.`,
          suggestion: `Set composition.edges[${index}].gate to "conditional", or remove the condition.`,
        });
      }
      if (edge.gate === 'conditional' && edge.condition === undefined) {
        // A warning, not an error: a conditional edge whose rule lives in code still runs (it is
        // never taken). The compiler cannot generate the check without the condition.
        findings.push({
          rule: RULE,
          severity: 'warning',
          path: `${base}/gate`,
          message: `composition.edges[${index}] (${edge.from} -> ${edge.to}) is "conditional" but declares no condition, so the rule that selects it is not part of the definition.`,
          suggestion: `Add composition.edges[${index}].condition, e.g. { "pointer": "/status", "equals": "declined" }, or use gate "llm-decides" if the router model decides.`,
        });
      }
    });

    const cycle = findCycle(
      nodes.map((n) => n.slug),
      edges,
    );
    if (cycle) {
      const slugs = cycle.slugs;
      const text =
        slugs.length <= 16
          ? slugs.join(' -> ')
          : [...slugs.slice(0, 6), `... (${slugs.length - 12} more)`, ...slugs.slice(-6)].join(' -> ');
      findings.push({
        rule: RULE,
        path: `/composition/edges/${cycle.edgeIndex}`,
        message: `composition.edges form a cycle: ${text}. A composition must be acyclic.`,
        suggestion: `Remove or reverse composition.edges[${cycle.edgeIndex}] (${cycle.slugs.at(-2) ?? ''} -> ${cycle.slugs.at(-1) ?? ''}), which closes the cycle.`,
      });
    }
    return findings;
  },
};
