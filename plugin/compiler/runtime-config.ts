/**
 * Projects resolved definitions onto the portable runtime's `RuntimeConfig`: the one JSON input
 * every host (Worker, container job, local launcher) hands to the runtime. Pure; problems that
 * stop a host from running the agent (a skill-package tool with no implementation, an MCP
 * server the workspace does not declare) come back as located diagnostics.
 */
import type { AgentDefinition, BindingRef, LlmPin, ToolRef } from '../schema/generated/agent-definition.types';
import type { Diagnostic, Finding } from '../definition/diagnostic';
import { locateFinding } from '../definition/validate-definition';
import {
  RUNTIME_CONFIG_VERSION,
  defaultWireFor,
  type ProviderWire,
  type RuntimeConfig,
  type RuntimeHybrid,
  type RuntimeModelPin,
  type RuntimeTool,
} from '../runtime/runtime-config';
import { resolveModelRoles } from '../definition/model-roles';
import type { ResolvedNode } from './resolve';
import { providerKeyName } from '../definition/provider-keys';
import { wireModelId } from '../definition/rules/exact-models';
import { unmappedToolFinding } from '../definition/tool-mapping';
import { MCP_FILE } from '../definition/workspace-definitions';
import type { WorkspaceConfig } from './workspace-config';
import { LOCAL_INFERENCE_BASE_URL } from '../host-contract/container-contract';

/** Where the A2A JSON-RPC endpoint is served on every host. */
export const RPC_PATH = '/a2a/v1';
/** The secret binding that holds the Ed25519 private key (JWK JSON) receipts are signed with. */
export const RECEIPT_KEY_BINDING = 'AGENTDEF_RECEIPT_KEY';
/** Where a tuned checkpoint is served inside its container (an OpenAI-compatible server, e.g. vLLM): the host contract's. */
export { LOCAL_INFERENCE_BASE_URL };

export interface NodeRuntimeConfig {
  /** The plan node id: `root@1.0.0/child@2.0.0`. */
  nodeId: string;
  node: ResolvedNode;
  config: RuntimeConfig;
}

export interface ProjectionOptions {
  workspace: WorkspaceConfig;
  /** Which tool kinds must have an implementation the host can load (adapters differ). */
  requireImplementations?: { bundled?: boolean; mcpStdio?: boolean; mcpHttp?: boolean };
}

export { providerKeyName };

function wireFor(pin: LlmPin): ProviderWire {
  // Custom and tuned providers are served behind an OpenAI-compatible API (vLLM, TGI, gateways).
  return defaultWireFor(pin.providerId) ?? 'openai-chat';
}

function secretBindingFor(pin: LlmPin, bindings: readonly BindingRef[]): string | undefined {
  if (pin.providerId === 'local-ollama' || pin.tier === 'local') return undefined;
  const secrets = bindings.filter((b) => b.kind === 'secret-ref').map((b) => b.name);
  const conventional = providerKeyName(pin.providerId);
  if (secrets.includes(conventional)) return conventional;
  const prefix = conventional.split('_')[0]!;
  if (pin.tier === 'tuned') return secrets.find((name) => name.startsWith(prefix));
  return secrets.find((name) => name.startsWith(prefix)) ?? conventional;
}

function modelPin(pin: LlmPin, definition: AgentDefinition): RuntimeModelPin {
  const secretBinding = secretBindingFor(pin, definition.runtimeRequirements.bindings);
  return {
    role: pin.role,
    ...(pin.name !== undefined ? { name: pin.name } : {}),
    providerId: pin.providerId,
    wire: wireFor(pin),
    // The exact provider model (dated snapshot, Ollama tag, checkpoint): docs/models.md.
    model: wireModelId(pin).id,
    modelVersion: pin.modelVersion,
    ...(pin.tier ? { tier: pin.tier } : {}),
    sampling: { ...pin.samplingParams },
    ...(secretBinding ? { secretBinding } : {}),
    ...(pin.tier === 'tuned' && defaultWireFor(pin.providerId) === undefined
      ? { baseUrl: LOCAL_INFERENCE_BASE_URL }
      : {}),
  };
}

function runtimeTool(
  tool: ToolRef,
  index: number,
  _node: ResolvedNode,
  options: ProjectionOptions,
  findings: Finding[],
): RuntimeTool {
  const base = {
    id: tool.id,
    name: tool.name,
    version: tool.version,
    risk: tool.risk,
    ...(tool.description ? { description: tool.description } : {}),
    ...(tool.inputSchema ? { inputSchema: tool.inputSchema as Record<string, unknown> } : {}),
    ...(tool.endpoints ? { endpoints: [...tool.endpoints] } : {}),
  };
  const at = `/toolInventory/${index}`;
  const require = options.requireImplementations ?? {};
  if (tool.provenance === 'mcp') {
    const server = tool.mcpServer ? options.workspace.mcpServers.get(tool.mcpServer) : undefined;
    const kind = tool.mcpTransport === 'stdio' ? 'mcp-stdio' : 'mcp-http';
    const needed = kind === 'mcp-stdio' ? require.mcpStdio : require.mcpHttp;
    if (!server && needed) {
      findings.push({
        rule: 'tool-implementation',
        path: `${at}/mcpServer`,
        message: `MCP server "${tool.mcpServer ?? ''}" of tool "${tool.id}" is not declared in the workspace's ${MCP_FILE}`,
        suggestion:
          kind === 'mcp-stdio'
            ? `add "servers": { "${tool.mcpServer ?? 'name'}": { "command": "node", "args": ["path/to/server.mjs"] } } to ${MCP_FILE}`
            : `add "servers": { "${tool.mcpServer ?? 'name'}": { "url": "https://..." } } to ${MCP_FILE}`,
      });
    }
    if (server?.transport === 'http')
      return {
        ...base,
        kind: 'mcp-http',
        mcpServer: tool.mcpServer!,
        url: server.url,
        ...(server.binding ? { binding: server.binding } : {}),
      };
    return { ...base, kind, ...(tool.mcpServer ? { mcpServer: tool.mcpServer } : {}) };
  }
  if (tool.provenance === 'native') return { ...base, kind: 'native' };
  // The same finding `agentdef validate` reports (definition/tool-mapping.ts).
  const unmapped = require.bundled ? unmappedToolFinding(tool, index, options.workspace.tools) : undefined;
  if (unmapped) findings.push(unmapped);
  return { ...base, kind: 'bundled' };
}

/** The receipt schema versions the runtime emits (`telemetryContract.receiptSchemaVersion` must name one). */
export const EMITTED_RECEIPT_SCHEMAS: readonly string[] = ['receipt/v1'];

/**
 * Whether and how the agent's runs are receipted; the lifecycle stage decides: at
 * `tool-prototype` no signed receipt is emitted (the seed), whatever signer is set; from
 * `tool-shipped` on, every run is signed by `receiptSigner`. A `receiptSchemaVersion` the runtime
 * does not emit is a located finding, never a silent downgrade.
 */
export function receiptSettingsFor(d: AgentDefinition, findings: Finding[]): RuntimeConfig['receipts'] {
  const version = d.telemetryContract.receiptSchemaVersion;
  if (!EMITTED_RECEIPT_SCHEMAS.includes(version)) {
    findings.push({
      rule: 'receipt-schema',
      path: '/telemetryContract/receiptSchemaVersion',
      message: `receiptSchemaVersion "${version}" is not a receipt schema this runtime emits (${EMITTED_RECEIPT_SCHEMAS.join(', ')})`,
      suggestion: `set receiptSchemaVersion to "${EMITTED_RECEIPT_SCHEMAS[0]}"`,
    });
  }
  const signer = d.telemetryContract.receiptSigner;
  if (signer === null || d.lifecycleState === 'tool-prototype')
    return { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null };
  return { mode: 'signed', schemaVersion: 'receipt/v1', signerRef: signer, keyBinding: RECEIPT_KEY_BINDING };
}

export function runtimeConfigFor(
  node: ResolvedNode,
  nodeId: string,
  options: ProjectionOptions,
): { config: RuntimeConfig; diagnostics: Diagnostic[] } {
  const d = node.definition;
  const findings: Finding[] = [];
  const unique = (values: string[]) => [...new Set(values)];
  const tools = d.toolInventory.map((tool, i) => runtimeTool(tool, i, node, options, findings));
  const receipts = receiptSettingsFor(d, findings);
  const config: RuntimeConfig = {
    configVersion: RUNTIME_CONFIG_VERSION,
    agent: {
      id: d.identity.id,
      slug: d.identity.slug,
      name: d.identity.name,
      version: d.identity.versionSemver,
      versionId: d.identity.versionId,
      description: d.metadata.description,
      owner: { kind: d.identity.owner.kind, id: d.identity.owner.id },
      ...(d.identity.kymRef ? { kymRef: d.identity.kymRef } : {}),
    },
    card: {
      rpcPath: RPC_PATH,
      provider: { organization: d.identity.owner.id, url: d.metadata.provenance.repo },
      defaultInputModes: unique(d.capabilityContract.inputs.map((p) => p.mediaType)),
      defaultOutputModes: unique(d.capabilityContract.outputs.map((p) => p.mediaType)),
      signerRef: d.identity.signingKeyRef,
    },
    skills: d.capabilityContract.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      version: s.version,
      tags: [...s.tags],
      ...(s.examples ? { examples: [...s.examples] } : {}),
      ...(s.inputModes ? { inputModes: [...s.inputModes] } : {}),
      ...(s.outputModes ? { outputModes: [...s.outputModes] } : {}),
    })),
    agenticGate: d.telemetryContract.agenticGate,
    models: d.modelSet.map((pin) => modelPin(pin, d)),
    tools,
    limits: {
      ...(d.runtimeRequirements.limits.wallClockMs !== undefined
        ? { wallClockMs: d.runtimeRequirements.limits.wallClockMs }
        : {}),
      ...(d.runtimeRequirements.limits.maxSubrequests !== undefined
        ? { maxSubrequests: d.runtimeRequirements.limits.maxSubrequests }
        : {}),
    },
    memory: {
      ...(d.memoryContract.workingSetTokens !== undefined
        ? { workingSetTokens: d.memoryContract.workingSetTokens }
        : {}),
      ...(d.memoryContract.contextWindowBudget !== undefined
        ? { contextWindowBudget: d.memoryContract.contextWindowBudget }
        : {}),
      ...(d.memoryContract.compactionPolicy !== undefined
        ? { compactionPolicy: d.memoryContract.compactionPolicy }
        : {}),
    },
    composition: {
      kind: d.composition.kind,
      children: node.children.map((child) => ({
        slug: child.slug,
        version: child.version,
        nodeId: `${nodeId}/${child.key}`,
      })),
      edges: (d.composition.edges ?? []).map((e) => ({
        from: e.from,
        to: e.to,
        gate: e.gate ?? 'deterministic',
        ...(e.condition ? { condition: { ...e.condition } } : {}),
      })),
      quarantine: d.composition.quarantine === true,
    },
    egress: { allow: d.telemetryContract.collector !== undefined ? [d.telemetryContract.collector] : [] },
    lifecycleState: d.lifecycleState,
    receipts,
  };
  const hybrid = hybridFor(d);
  if (hybrid) config.hybrid = hybrid;
  const telemetry = telemetryFor(d, node.digest);
  if (telemetry) config.telemetry = telemetry;
  return { config, diagnostics: findings.map((f) => locateFinding(node.document, f)) };
}

/** Every node of the resolved tree with its config, the root first, children in pin order. */
export function runtimeConfigsForTree(
  root: ResolvedNode,
  options: ProjectionOptions,
): { nodes: NodeRuntimeConfig[]; diagnostics: Diagnostic[] } {
  const nodes: NodeRuntimeConfig[] = [];
  const diagnostics: Diagnostic[] = [];
  const visit = (node: ResolvedNode, nodeId: string) => {
    const projected = runtimeConfigFor(node, nodeId, options);
    nodes.push({ nodeId, node, config: projected.config });
    diagnostics.push(...projected.diagnostics);
    for (const child of node.children) visit(child, `${nodeId}/${child.key}`);
  };
  visit(root, root.key);
  return { nodes, diagnostics };
}

/**
 * A leaf's routing and evaluation as the runtime runs them, from the same resolution the
 * `model-roles` rule checks; absent when one pin answers alone (the runtime's `primaryPin`).
 */
function hybridFor(d: AgentDefinition): RuntimeHybrid | undefined {
  if (d.composition.kind !== 'leaf') return undefined;
  const { plan } = resolveModelRoles(d);
  if (plan.route === undefined && plan.evaluate === undefined) return undefined;
  return {
    ...(plan.answer !== undefined ? { answer: plan.answer } : {}),
    ...(plan.route !== undefined ? { route: structuredClone(plan.route) } : {}),
    ...(plan.evaluate !== undefined
      ? { evaluate: { ...plan.evaluate, invariants: [...d.capabilityContract.invariants] } }
      : {}),
  };
}

/**
 * The run telemetry the definition asks for beyond spans: the `session-report` and `experiment`
 * streams (keyed on the definition's digest) and its collector. Absent when it lists neither
 * stream and names no collector, so the configs of agents that ask for nothing stay as they were.
 */
function telemetryFor(d: AgentDefinition, definitionDigest: string): RuntimeConfig['telemetry'] {
  const kinds = [...d.telemetryContract.telemetryKinds];
  const collector = d.telemetryContract.collector;
  const streams = kinds.includes('session-report') || kinds.includes('experiment');
  if (!streams && collector === undefined) return undefined;
  return { kinds, definitionDigest, ...(collector !== undefined ? { collector } : {}) };
}
