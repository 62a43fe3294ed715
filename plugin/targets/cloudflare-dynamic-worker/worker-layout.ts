/**
 * Where each agent of the resolved tree runs inside the Worker output. Every plan node becomes
 * one generated module (`src/agents/<index>-<slug>.ts`). A node whose parent asks for quarantine
 * starts an isolate of its own (its entry is `src/isolates/<index>-<slug>.ts`, bundled apart and
 * loaded through the Worker Loader); every other node runs as a module in its parent's isolate.
 * Each isolate gets the union of its agents' egress allow-lists and the secrets they read.
 */
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import type { SourceDocument } from '../../definition/source-document';
import { egressAllowList } from '../../runtime/egress';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import type { NodeRuntimeConfig } from '../../compiler/runtime-config';
import { SRC_DIR } from './worker-constants';

export interface LayoutNode {
  index: number;
  nodeId: string;
  slug: string;
  version: string;
  config: RuntimeConfig;
  definition: AgentDefinition;
  document: SourceDocument;
  parent?: number;
  children: number[];
  /** True when the parent asked for quarantine: the node starts an isolate of its own. */
  isolated: boolean;
  /** The entry node of the isolate the node runs in. */
  isolate: number;
  /** `src/agents/<index>-<slug>.ts` */
  modulePath: string;
}

export interface LayoutIsolate {
  /** The node the isolate starts with (0: the root, served over A2A). */
  entry: number;
  /** The nodes that run in it as modules, the entry first. */
  nodes: number[];
  /** `src/index.ts` for the root, `src/isolates/<index>-<slug>.ts` for a quarantined child. */
  entryPath: string;
  egress: string[];
  secrets: string[];
  /** The entries of the isolates started from this one. */
  childIsolates: number[];
  /** The most CPU any of its agents declares (`limits.cpuMs`). */
  cpuMs?: number;
}

export interface WorkerLayout {
  nodes: LayoutNode[];
  /** By entry node index; the root's isolate is `isolates.get(0)`. */
  isolates: Map<number, LayoutIsolate>;
  /** Isolate entries, children before parents (the order they are bundled in). */
  bundleOrder: number[];
}

/** The secret bindings an agent reads: its model keys, its receipt key and the secret-refs it declares. */
export function secretsOf(config: RuntimeConfig, definition: AgentDefinition): string[] {
  const names = new Set<string>();
  for (const pin of config.models) if (pin.secretBinding) names.add(pin.secretBinding);
  if (config.receipts.mode === 'signed' && config.receipts.keyBinding) names.add(config.receipts.keyBinding);
  for (const binding of definition.runtimeRequirements.bindings)
    if (binding.kind === 'secret-ref') names.add(binding.name);
  return [...names].sort();
}

export function planWorkerLayout(configs: readonly NodeRuntimeConfig[]): WorkerLayout {
  const indexById = new Map(configs.map((c, i) => [c.nodeId, i]));
  const nodes: LayoutNode[] = configs.map((c, index) => ({
    index,
    nodeId: c.nodeId,
    slug: c.node.slug,
    version: c.node.version,
    config: c.config,
    definition: c.node.definition,
    document: c.node.document,
    children: [],
    isolated: false,
    isolate: 0,
    modulePath: `${SRC_DIR}/agents/${index}-${c.node.slug}.ts`,
  }));
  for (const node of nodes) {
    const cut = node.nodeId.lastIndexOf('/');
    if (cut < 0) continue;
    const parent = nodes[indexById.get(node.nodeId.slice(0, cut))!]!;
    node.parent = parent.index;
    parent.children.push(node.index);
    node.isolated = parent.config.composition.quarantine;
  }
  // Pre-order: a parent is always placed before its children.
  for (const node of nodes)
    node.isolate = node.parent === undefined || node.isolated ? node.index : nodes[node.parent]!.isolate;

  const isolates = new Map<number, LayoutIsolate>();
  for (const node of nodes) {
    if (node.isolate !== node.index) continue;
    isolates.set(node.index, {
      entry: node.index,
      nodes: [],
      entryPath: node.index === 0 ? `${SRC_DIR}/index.ts` : `${SRC_DIR}/isolates/${node.index}-${node.slug}.ts`,
      egress: [],
      secrets: [],
      childIsolates: [],
    });
  }
  for (const node of nodes) {
    const isolate = isolates.get(node.isolate)!;
    isolate.nodes.push(node.index);
    isolate.egress = [...new Set([...isolate.egress, ...egressAllowList(node.config)])].sort();
    isolate.secrets = [...new Set([...isolate.secrets, ...secretsOf(node.config, node.definition)])].sort();
    const cpuMs = node.definition.runtimeRequirements.limits.cpuMs;
    if (cpuMs !== undefined) isolate.cpuMs = Math.max(isolate.cpuMs ?? 0, cpuMs);
    if (node.isolated && node.parent !== undefined)
      isolates.get(nodes[node.parent]!.isolate)!.childIsolates.push(node.index);
  }
  const bundleOrder: number[] = [];
  const visit = (entry: number) => {
    for (const child of isolates.get(entry)!.childIsolates) visit(child);
    bundleOrder.push(entry);
  };
  visit(0);
  return { nodes, isolates, bundleOrder };
}
