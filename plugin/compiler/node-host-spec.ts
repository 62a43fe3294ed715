/**
 * Turns a resolved tree into the `NodeHostSpec` a compiled Node host carries (HB3 entrypoint, local
 * launcher): every node's runtime config and what its process needs (secrets by name, native
 * executables, checkpoint folders), the stdio MCP servers the tree uses (from mcp.json), and the
 * tool modules to bundle (from tools.json). Pure; a stdio MCP server missing from mcp.json comes
 * back as a located diagnostic. Shared by the hb3 and local-mac adapters.
 */
import type { AgentDefinition, LlmPin, ToolRef } from '../schema/generated/agent-definition.types';
import type { Diagnostic } from '../definition/diagnostic';
import type {
  NodeHostSpec,
  HostCheckpoint,
  HostKind,
  HostMcpServer,
  HostNativeTool,
  HostNodeSpec,
} from '../host-contract/node-host-spec';
import type { CompilePlan } from './plan';
import type { ResolvedNode } from './resolve';
import { runtimeConfigsForTree } from './runtime-config';
import type { EmitContext } from '../targets/target';
import { bundledToolsOf, type BundledTool } from './bundler';

export interface TreeNodeHostSpec {
  spec: NodeHostSpec;
  /** The bundled tool implementations, by tool id (sorted). */
  toolModules: BundledTool[];
  /** Definitions by node id (for adapters that emit more than the host spec). */
  definitions: Record<string, AgentDefinition>;
  diagnostics: Diagnostic[];
}

/** The executable a native tool runs: its name, reduced to a safe file name. */
export function nativeBinaryName(tool: Pick<ToolRef, 'name' | 'id'>): string {
  const name = (tool.name || tool.id).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[.-]+/, '');
  return name === '' ? 'tool' : name;
}

/** Where a checkpoint sits below the weights root: `ckpt:acme/x/2026-10-02` → `acme/x/2026-10-02`. */
export function checkpointPath(checkpointId: string): string {
  const withoutScheme = checkpointId.replace(/^[a-z][a-z0-9+.-]*:/i, '');
  const segments = withoutScheme
    .split('/')
    .map((s) => s.replace(/[^A-Za-z0-9._-]+/g, '_'))
    .filter((s) => s !== '' && s !== '.' && s !== '..');
  return segments.length > 0 ? segments.join('/') : 'checkpoint';
}

export function tunedPins(definition: AgentDefinition): (LlmPin & { checkpointId: string })[] {
  return definition.modelSet.filter(
    (p): p is LlmPin & { checkpointId: string } => p.tier === 'tuned' && typeof p.checkpointId === 'string',
  );
}

/**
 * `Service` for agents that keep state across requests (lifecycle `mcp-resident`, or a memory
 * ref retained for the session or durably); `Job` for request/response agents.
 */
export function jobKind(definition: AgentDefinition): 'Job' | 'Service' {
  if (definition.lifecycleState === 'mcp-resident') return 'Service';
  return definition.memoryContract.refs.some((r) => r.retention === 'session' || r.retention === 'durable')
    ? 'Service'
    : 'Job';
}

export function isLocalOnly(plan: CompilePlan, root: ResolvedNode): boolean {
  return (
    plan.runtime.chosenClass === 'local-host-required' ||
    root.definition.runtimeRequirements.runtimeCapabilityClass === 'local-host-required'
  );
}

export function nodeHostSpecForTree(
  plan: CompilePlan,
  resolved: ResolvedNode,
  context: EmitContext,
  host: HostKind,
): TreeNodeHostSpec {
  const projected = runtimeConfigsForTree(resolved, {
    workspace: context.workspace,
    // A stdio MCP server the workspace does not declare cannot be started: a compile error. A
    // bundled tool without an implementation only fails when called (`tool_unavailable`), and
    // the host names it when it starts.
    requireImplementations: { bundled: false, mcpStdio: host === 'local', mcpHttp: false },
  });
  const nodes: Record<string, HostNodeSpec> = {};
  const definitions: Record<string, AgentDefinition> = {};
  const servers = new Set<string>();
  for (const { nodeId, node, config } of projected.nodes) {
    const d = node.definition;
    definitions[nodeId] = d;
    const secrets = new Set<string>();
    for (const pin of config.models) if (pin.secretBinding) secrets.add(pin.secretBinding);
    if (config.receipts.mode === 'signed' && config.receipts.keyBinding) secrets.add(config.receipts.keyBinding);
    const native: HostNativeTool[] = d.toolInventory
      .filter((t) => t.provenance === 'native')
      .map((t) => ({ toolId: t.id, binary: nativeBinaryName(t) }));
    const checkpoints: HostCheckpoint[] = tunedPins(d).map((p) => ({
      checkpointId: p.checkpointId,
      path: checkpointPath(p.checkpointId),
    }));
    for (const tool of config.tools) {
      if (tool.kind === 'mcp-stdio' && tool.mcpServer) servers.add(tool.mcpServer);
    }
    const spec: HostNodeSpec = { nodeId, config, secrets: [...secrets].sort(), native, checkpoints };
    if (d.runtimeRequirements.limits.memoryMb !== undefined) spec.memoryMb = d.runtimeRequirements.limits.memoryMb;
    nodes[nodeId] = spec;
  }
  const mcpServers: Record<string, HostMcpServer> = {};
  if (host === 'local') {
    for (const name of [...servers].sort()) {
      const server = context.workspace.mcpServers.get(name);
      if (server?.transport === 'stdio')
        mcpServers[name] = {
          command: server.command,
          args: [...server.args],
          env: Object.fromEntries(
            Object.entries(server.env)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, { ...v }]),
          ),
        };
    }
  }
  return {
    spec: {
      host,
      rootId: resolved.key,
      kind: jobKind(resolved.definition),
      localOnly: isLocalOnly(plan, resolved),
      nodes,
      mcpServers,
    },
    toolModules: bundledToolsOf(
      projected.nodes.map((n) => n.config),
      context.workspace,
    ),
    definitions,
    diagnostics: projected.diagnostics,
  };
}
