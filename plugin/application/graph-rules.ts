/**
 * The graph rules of an application manifest, as findings located by JSON Pointer:
 *
 * Without a catalog (node level):
 * - every edge, entrypoint and output names a node of the manifest (`unknown-node`);
 * - an input port has at most one producing edge (`two-producers`), and an entrypoint port has
 *   none: the caller is its only producer (`entrypoint-has-producer`);
 * - the graph is acyclic; one cycle is reported, at the edge that closes it (`cycle`);
 * - every node lies on an entrypoint-to-output path: reachable from an entrypoint node
 *   (`unreachable-node`) and reaching an output node (`dead-end-node`).
 *
 * With a catalog view (port level), in addition:
 * - every node's component id and revision is in the catalog, exactly: no range, no `latest`, no
 *   nearest revision (`unknown-component`);
 * - edges start at output ports and end at input ports; entrypoints are input ports; outputs are
 *   output ports (`unknown-port`);
 * - every required input has exactly one producer, an edge or an entrypoint (`dangling-input`);
 * - an edge's output kind is assignable to its input kind (`kind-mismatch`, see port-kinds.ts).
 *
 * Repeated members (a second node with the same id, the same edge twice) are reported by the
 * manifest validator; here the first occurrence stands for each identity, so nothing is reported
 * twice. The order of nodes and edges never changes which cycle is reported. Pure; never throws
 * on a manifest that passed the JSON Schema.
 */
import { ERROR_CODES, type Finding } from '../definition/diagnostic';
import type { ApplicationManifest, PortRef } from '../schema/generated/application-manifest.types';
import { isAssignableKind, isPortKind } from './port-kinds';

/** The ports one exact component revision declares, as the catalog reports them. */
export interface ComponentPorts {
  inputs: Record<string, { kind: string; required: boolean }>;
  outputs: Record<string, { kind: string }>;
}

/** What the graph rules need from the catalog: exact lookup by id and revision, nothing else. */
export interface ComponentCatalogView {
  lookup(id: string, revision: string): ComponentPorts | undefined;
}

const KIND_HELP =
  'every kind flows into `json`; `text`, `artifact` and `agent-plan` flow only into themselves (plugin/application/port-kinds.ts)';

/** A port declaration read as own data only: a port named `constructor` or `toString` is not found on a prototype. */
function ownPort<T>(ports: Record<string, T> | undefined, name: string): T | undefined {
  if (ports === null || typeof ports !== 'object' || !Object.hasOwn(ports, name)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(ports, name);
  return descriptor && 'value' in descriptor ? (descriptor.value as T) : undefined;
}

function portNames(ports: Record<string, unknown> | undefined): string[] {
  return ports !== null && typeof ports === 'object' ? Object.keys(ports).sort() : [];
}

const label = (ref: PortRef): string => `${ref.node}.${ref.port}`;
const portKey = (ref: PortRef): string => JSON.stringify([ref.node, ref.port]);

function finding(rule: string, path: string, message: string, suggestion: string): Finding {
  return { code: ERROR_CODES.applicationInvalid, rule, path, message, suggestion };
}

interface IndexedEdge {
  index: number;
  from: PortRef;
  to: PortRef;
}

/** Every graph finding of `manifest`; port-level rules only when `catalog` is given. */
export function graphFindings(manifest: ApplicationManifest, catalog?: ComponentCatalogView): Finding[] {
  const findings: Finding[] = [];

  const nodeAt = new Map<string, number>();
  manifest.nodes.forEach((node, index) => {
    if (!nodeAt.has(node.id)) nodeAt.set(node.id, index);
  });

  // The ports of each node's component (only with a catalog, and only for components it holds).
  const ports = new Map<string, ComponentPorts>();
  if (catalog !== undefined) {
    for (const [id, index] of nodeAt) {
      const component = manifest.nodes[index]!.component;
      const found = catalog.lookup(component.id, component.revision);
      if (found === undefined) {
        findings.push(
          finding(
            'unknown-component',
            `/nodes/${index}/component`,
            `node \`${id}\` uses component \`${component.id}@${component.revision}\`, which the catalog does not hold; revisions are exact (no range, no \`latest\`, no nearest revision)`,
            'use a component id and revision listed by `agentdef.application.catalog`',
          ),
        );
      } else {
        ports.set(id, found);
      }
    }
  }

  const componentLabel = (node: string): string => {
    const component = manifest.nodes[nodeAt.get(node)!]!.component;
    return `\`${node}\` (component \`${component.id}@${component.revision}\`)`;
  };

  /** An `unknown-port` finding when `ref`'s node's component lacks the port on `side`; true when the port is known. */
  const checkPort = (ref: PortRef, side: 'input' | 'output', pointer: string, role: string): boolean => {
    const declared = ports.get(ref.node);
    if (declared === undefined) return false;
    const own = side === 'input' ? declared.inputs : declared.outputs;
    const other = side === 'input' ? declared.outputs : declared.inputs;
    if (ownPort(own, ref.port) !== undefined) return true;
    const names = portNames(own);
    const wrongSide = ownPort(other, ref.port) !== undefined;
    findings.push(
      finding(
        'unknown-port',
        `${pointer}/port`,
        wrongSide
          ? `\`${ref.port}\` is ${side === 'input' ? 'an output' : 'an input'} port of node ${componentLabel(ref.node)}; ${role} must be ${side === 'input' ? 'an input' : 'an output'} port`
          : `node ${componentLabel(ref.node)} has no ${side} port \`${ref.port}\``,
        names.length > 0
          ? `its ${side} ports: ${names.map((n) => `\`${n}\``).join(', ')}`
          : `its component has no ${side} ports`,
      ),
    );
    return false;
  };

  const checkNode = (ref: PortRef, pointer: string, role: string): boolean => {
    if (nodeAt.has(ref.node)) return true;
    findings.push(
      finding(
        'unknown-node',
        `${pointer}/node`,
        `${role} names the node \`${ref.node}\`, which the manifest does not declare`,
        "name the `id` of one of the manifest's nodes",
      ),
    );
    return false;
  };

  // Edges: known nodes and ports, assignable kinds, and who produces each input.
  const edges: IndexedEdge[] = [];
  const seenEdges = new Set<string>();
  const producers = new Map<string, IndexedEdge[]>();
  manifest.edges.forEach((edge, index) => {
    const key = JSON.stringify([portKey(edge.from), portKey(edge.to)]);
    if (seenEdges.has(key)) return;
    seenEdges.add(key);
    const pointer = `/edges/${index}`;
    const fromKnown = checkNode(edge.from, `${pointer}/from`, "the edge's `from`");
    const toKnown = checkNode(edge.to, `${pointer}/to`, "the edge's `to`");
    if (!fromKnown || !toKnown) return;
    const indexed = { index, from: edge.from, to: edge.to };
    edges.push(indexed);
    producers.set(portKey(edge.to), [...(producers.get(portKey(edge.to)) ?? []), indexed]);
    const fromPort = checkPort(edge.from, 'output', `${pointer}/from`, "an edge's `from`");
    const toPort = checkPort(edge.to, 'input', `${pointer}/to`, "an edge's `to`");
    if (!fromPort || !toPort) return;
    const produced = ownPort(ports.get(edge.from.node)!.outputs, edge.from.port)!.kind;
    const accepted = ownPort(ports.get(edge.to.node)!.inputs, edge.to.port)!.kind;
    if (!isAssignableKind(produced, accepted)) {
      const unknown = [produced, accepted].filter((k) => !isPortKind(k));
      findings.push(
        finding(
          'kind-mismatch',
          pointer,
          unknown.length > 0
            ? `edge ${label(edge.from)} → ${label(edge.to)} carries a port kind outside the kind lattice (${unknown.map((k) => JSON.stringify(k)).join(', ')}); unknown kinds connect to nothing`
            : `edge ${label(edge.from)} → ${label(edge.to)}: \`${label(edge.from)}\` produces \`${produced}\`, which \`${label(edge.to)}\` (accepting \`${accepted}\`) cannot take`,
          `connect ports whose kinds are assignable: ${KIND_HELP}`,
        ),
      );
    }
  });

  for (const [, list] of producers) {
    const [first, ...rest] = list;
    for (const extra of rest) {
      findings.push(
        finding(
          'two-producers',
          `/edges/${extra.index}`,
          `input \`${label(extra.to)}\` already has a producer (the edge at /edges/${first!.index} from \`${label(first!.from)}\`); an input takes exactly one`,
          'remove one of the edges, or add a component that combines the values',
        ),
      );
    }
  }

  // Entrypoints: input ports of known nodes that nothing inside the graph produces.
  const entrypointNodes = new Set<string>();
  const entered = new Set<string>();
  manifest.entrypoints.forEach((entrypoint, index) => {
    const key = portKey(entrypoint);
    if (entered.has(key)) return;
    entered.add(key);
    const pointer = `/entrypoints/${index}`;
    if (!checkNode(entrypoint, pointer, 'the entrypoint')) return;
    entrypointNodes.add(entrypoint.node);
    checkPort(entrypoint, 'input', pointer, 'an entrypoint');
    const inside = producers.get(key);
    if (inside !== undefined && inside.length > 0) {
      findings.push(
        finding(
          'entrypoint-has-producer',
          pointer,
          `entrypoint \`${label(entrypoint)}\` is also produced inside the graph (the edge at /edges/${inside[0]!.index} from \`${label(inside[0]!.from)}\`); an entrypoint is an input port with no producer`,
          'remove the edge or the entrypoint: the caller and an edge cannot both supply one input',
        ),
      );
    }
  });

  // Outputs: output ports of known nodes.
  const outputNodes = new Set<string>();
  const named = new Set<string>();
  manifest.outputs.forEach((output, index) => {
    if (named.has(output.name)) return;
    named.add(output.name);
    const pointer = `/outputs/${index}`;
    if (!checkNode(output, pointer, `the output \`${output.name}\``)) return;
    outputNodes.add(output.node);
    checkPort(output, 'output', pointer, 'an application output');
  });

  // Required inputs: exactly one producer.
  for (const [id, index] of nodeAt) {
    const declared = ports.get(id);
    if (declared === undefined) continue;
    for (const port of portNames(declared.inputs)) {
      const input = ownPort(declared.inputs, port);
      if (input?.required !== true) continue;
      const key = portKey({ node: id, port });
      if ((producers.get(key)?.length ?? 0) > 0 || entered.has(key)) continue;
      findings.push(
        finding(
          'dangling-input',
          `/nodes/${index}/id`,
          `the required input \`${port}\` of node ${componentLabel(id)} has no producer`,
          `connect an edge to \`${id}.${port}\` or declare it an entrypoint`,
        ),
      );
    }
  }

  const cycle = findCycle([...nodeAt.keys()], edges);
  if (cycle !== undefined) {
    findings.push(
      finding(
        'cycle',
        `/edges/${cycle.closing}`,
        `the graph has a cycle: ${cycle.nodes.map((n) => `\`${n}\``).join(' → ')}; an application is acyclic`,
        'remove or redirect one edge of the cycle',
      ),
    );
  }

  const reached = reachable(entrypointNodes, edges, 'forward');
  const reaching = reachable(outputNodes, edges, 'backward');
  for (const [id, index] of nodeAt) {
    if (!reached.has(id)) {
      findings.push(
        finding(
          'unreachable-node',
          `/nodes/${index}/id`,
          `node \`${id}\` is not reachable from any entrypoint`,
          'connect it to the graph downstream of an entrypoint, declare one of its inputs an entrypoint, or remove it',
        ),
      );
    }
    if (!reaching.has(id)) {
      findings.push(
        finding(
          'dead-end-node',
          `/nodes/${index}/id`,
          `node \`${id}\` reaches no output`,
          'connect it to a node that leads to an output, declare one of its output ports an output, or remove it',
        ),
      );
    }
  }

  return findings;
}

/** The nodes reachable from `start` along edges (`forward`) or against them (`backward`). */
function reachable(
  start: ReadonlySet<string>,
  edges: readonly IndexedEdge[],
  direction: 'forward' | 'backward',
): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [a, b] = direction === 'forward' ? [edge.from.node, edge.to.node] : [edge.to.node, edge.from.node];
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length > 0) {
    for (const b of next.get(queue.pop()!) ?? []) {
      if (!seen.has(b)) {
        seen.add(b);
        queue.push(b);
      }
    }
  }
  return seen;
}

/**
 * One cycle, or undefined: an iterative depth-first search over nodes and successors in code-unit
 * order of their ids, so the cycle found does not depend on the order of the manifest's members.
 * `closing` is the index of the first edge (in the manifest) from the cycle's last node to its first.
 */
export function findCycle(
  nodeIds: readonly string[],
  edges: readonly IndexedEdge[],
): { nodes: string[]; closing: number } | undefined {
  const successors = new Map<string, string[]>();
  for (const edge of edges) successors.set(edge.from.node, [...(successors.get(edge.from.node) ?? []), edge.to.node]);
  for (const [node, list] of successors) successors.set(node, [...new Set(list)].sort(codeUnitOrder));

  const state = new Map<string, 'open' | 'done'>();
  for (const root of [...nodeIds].sort(codeUnitOrder)) {
    if (state.has(root)) continue;
    const stack: { node: string; next: number }[] = [{ node: root, next: 0 }];
    state.set(root, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const list = successors.get(top.node) ?? [];
      if (top.next >= list.length) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const successor = list[top.next++]!;
      const seen = state.get(successor);
      if (seen === 'open') {
        const from = stack.findIndex((frame) => frame.node === successor);
        const nodes = [...stack.slice(from).map((frame) => frame.node), successor];
        const closing = edges.find((edge) => edge.from.node === top.node && edge.to.node === successor)!.index;
        return { nodes, closing };
      }
      if (seen === undefined) {
        state.set(successor, 'open');
        stack.push({ node: successor, next: 0 });
      }
    }
  }
  return undefined;
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
