/**
 * What a compiled Node host (the HB3 container entrypoint, the local launcher) carries inside its
 * bundle: every node of the resolved tree with its runtime config and what its process needs
 * (secrets, native binaries, checkpoint folders, MCP servers), plus the bundled tool functions.
 * The compiler writes it as a JSON literal into the generated entry; the host reads nothing else
 * from the compiler. Plain data, no absolute paths.
 */
import type { ToolHandler } from '../runtime/agent-loop';
import type { RuntimeConfig } from '../runtime/runtime-config';
import type { hb3Target } from '../targets/hb3/target';

/** Which host runs the spec: the HB3 target's container entrypoint, or the local launcher. */
export type HostKind = (typeof hb3Target)['id'] | 'local';

/** `secret:NAME` or `env:NAME`, as in the workspace's mcp.json. */
export interface HostEnvReference {
  from: 'secret' | 'env';
  name: string;
}

export interface HostMcpServer {
  command: string;
  args: string[];
  env: Record<string, HostEnvReference>;
}

export interface HostNativeTool {
  toolId: string;
  /** The executable's file name (looked up on PATH, AGENTDEF_NATIVE_BIN and the image's tool folder). */
  binary: string;
}

export interface HostCheckpoint {
  checkpointId: string;
  /** Where the checkpoint sits below the weights root (`/weights` in the container), posix. */
  path: string;
}

export interface HostNodeSpec {
  /** The plan node id: `root@1.0.0/child@2.0.0`. */
  nodeId: string;
  config: RuntimeConfig;
  /** `runtimeRequirements.limits.memoryMb`: the heap limit of the node's own process. */
  memoryMb?: number;
  /** Binding names of the secrets this node reads (model keys, the receipt key), sorted. */
  secrets: string[];
  native: HostNativeTool[];
  checkpoints: HostCheckpoint[];
}

export interface NodeHostSpec {
  host: HostKind;
  rootId: string;
  /** `Job`: serve one task, then exit; `Service`: serve until stopped. */
  kind: 'Job' | 'Service';
  /** The agent must not reach anything off this machine (local-host-required). */
  localOnly: boolean;
  nodes: Record<string, HostNodeSpec>;
  /** Stdio MCP servers by name (local hosts). */
  mcpServers: Record<string, HostMcpServer>;
}

/** The bundle plus the tool functions the entry imports (by tool id). */
export interface HostProgram extends NodeHostSpec {
  tools: Record<string, ToolHandler>;
}

/** The ids of a node's children in the tree (from its config). */
export function childIds(spec: HostNodeSpec): string[] {
  return spec.config.composition.children.map((c) => c.nodeId).filter((id): id is string => typeof id === 'string');
}

/**
 * The nodes one process hosts: `nodeId` and every descendant reached without crossing a
 * quarantine boundary (a quarantined child runs in its own process).
 */
export function hostedNodes(bundle: Pick<NodeHostSpec, 'nodes'>, nodeId: string): HostNodeSpec[] {
  const out: HostNodeSpec[] = [];
  const visit = (id: string) => {
    const spec = bundle.nodes[id];
    if (!spec) return;
    out.push(spec);
    if (spec.config.composition.quarantine) return;
    for (const child of childIds(spec)) visit(child);
  };
  visit(nodeId);
  return out;
}

/** Every node at or below `nodeId`, whatever process it runs in. */
export function subtreeNodes(bundle: Pick<NodeHostSpec, 'nodes'>, nodeId: string): HostNodeSpec[] {
  const out: HostNodeSpec[] = [];
  const visit = (id: string) => {
    const spec = bundle.nodes[id];
    if (!spec) return;
    out.push(spec);
    for (const child of childIds(spec)) visit(child);
  };
  visit(nodeId);
  return out;
}

/** The MCP server names the tools of `nodes` use. */
export function mcpServersOf(nodes: readonly HostNodeSpec[]): string[] {
  const names = new Set<string>();
  for (const node of nodes)
    for (const tool of node.config.tools) if (tool.kind === 'mcp-stdio' && tool.mcpServer) names.add(tool.mcpServer);
  return [...names].sort();
}

/** Every secret a set of nodes needs, their MCP servers' `secret:` references included, sorted. */
export function secretsOf(bundle: Pick<NodeHostSpec, 'mcpServers'>, nodes: readonly HostNodeSpec[]): string[] {
  const names = new Set<string>();
  for (const node of nodes) for (const name of node.secrets) names.add(name);
  for (const server of mcpServersOf(nodes)) {
    for (const ref of Object.values(bundle.mcpServers[server]?.env ?? {}))
      if (ref.from === 'secret') names.add(ref.name);
  }
  return [...names].sort();
}

/** `slug@version` of a node. */
export function agentKey(spec: HostNodeSpec): string {
  return `${spec.config.agent.slug}@${spec.config.agent.version}`;
}
