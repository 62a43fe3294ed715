/**
 * The binding plan of a Worker output: every binding any agent of the tree declares
 * (`runtimeRequirements.bindings`), plus the ones the adapter adds: a secret per model key and for
 * the receipt signing key, the receipt sink (a KV namespace unless the root declares
 * `AGENTDEF_RECEIPTS` as a queue or KV), a service binding per MCP server reached through one,
 * the Worker Loader (`LOADER`, and the loader's isolate service) when a child is quarantined, and
 * the task store (`AGENTDEF_TASKS`, a SQLite-backed Durable Object) always.
 * Secrets are names only; their `ref` never leaves the definition. Two agents that give one
 * name two different kinds is a located error.
 */
import type { Diagnostic } from '../../definition/diagnostic';
import { ERROR_CODES } from '../../definition/diagnostic';
import { joinPointer } from '../../definition/json-pointer';
import { locateFinding } from '../../definition/validate-definition';
import type { BindingRef } from '../../schema/generated/agent-definition.types';
import type { HostBindingKind, HostPlanBinding, LoaderProvision } from '../../host-contract/worker-host-plan';
import type { ReceiptSinkBinding } from '../../host-contract/worker-host-plan';
import { TASK_STORE } from '../../host-contract/worker-host-plan';
import { BINDINGS } from './worker-constants';
import type { LayoutNode, WorkerLayout } from './worker-layout';

export interface BindingPlan {
  bindings: HostPlanBinding[];
  receiptSink?: ReceiptSinkBinding;
  diagnostics: Diagnostic[];
}

const PROVISION: Readonly<Record<HostBindingKind, LoaderProvision>> = {
  'secret-ref': 'copy-secret',
  service: 'pass-through',
  kv: 'kv-proxy',
  queue: 'queue-proxy',
  d1: 'not-provided',
  r2: 'not-provided',
  custom: 'not-provided',
  'worker-loader': 'not-provided',
  'durable-object': 'task-store-proxy',
};

/** A Worker name from any text: lowercase, digits and single hyphens. */
export function workerName(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63) || 'agent'
  );
}

function fromDeclared(binding: BindingRef): Omit<HostPlanBinding, 'purpose' | 'neededBy' | 'loader'> {
  switch (binding.kind) {
    case 'service':
      return { name: binding.name, kind: 'service', service: binding.service };
    case 'kv':
      return { name: binding.name, kind: 'kv', ...(binding.namespaceId ? { namespaceId: binding.namespaceId } : {}) };
    case 'd1':
      return { name: binding.name, kind: 'd1', ...(binding.databaseId ? { databaseId: binding.databaseId } : {}) };
    case 'r2':
      return { name: binding.name, kind: 'r2', ...(binding.bucket ? { bucket: binding.bucket } : {}) };
    case 'queue':
      return { name: binding.name, kind: 'queue', ...(binding.queue ? { queue: binding.queue } : {}) };
    case 'secret-ref':
      return { name: binding.name, kind: 'secret-ref' };
    case 'custom':
      return { name: binding.name, kind: 'custom', type: binding.type };
  }
}

export function planBindings(layout: WorkerLayout): BindingPlan {
  const byName = new Map<string, HostPlanBinding>();
  const diagnostics: Diagnostic[] = [];
  const root = layout.nodes[0]!;

  const add = (entry: Omit<HostPlanBinding, 'neededBy' | 'loader'>, node: LayoutNode, at?: string) => {
    const existing = byName.get(entry.name);
    if (existing) {
      if (existing.kind !== entry.kind) {
        const finding = {
          code: ERROR_CODES.runtimeMismatch,
          rule: 'worker-bindings',
          path: at ?? '/runtimeRequirements/bindings',
          message: `binding "${entry.name}" is a ${entry.kind} here, but ${existing.neededBy.join(', ')} needs it as a ${existing.kind}: one Worker env cannot hold both`,
          suggestion: 'rename one of the two bindings',
        };
        diagnostics.push(locateFinding(node.document, finding));
        return;
      }
      if (!existing.neededBy.includes(node.nodeId)) existing.neededBy.push(node.nodeId);
      if (existing.purpose === 'declared' && entry.purpose !== 'declared') existing.purpose = entry.purpose;
      for (const field of ['service', 'namespaceId', 'databaseId', 'bucket', 'queue', 'type'] as const)
        if (existing[field] === undefined && entry[field] !== undefined) existing[field] = entry[field];
      return;
    }
    byName.set(entry.name, { ...entry, neededBy: [node.nodeId], loader: PROVISION[entry.kind] });
  };

  const reserved = new Set<string>([BINDINGS.loader, BINDINGS.isolates, BINDINGS.tasks]);
  for (const node of layout.nodes) {
    node.definition.runtimeRequirements.bindings.forEach((binding, i) => {
      const at = joinPointer(joinPointer('/runtimeRequirements/bindings', i), 'name');
      if (reserved.has(binding.name) || binding.name === '__proto__') {
        diagnostics.push(
          locateFinding(node.document, {
            code: ERROR_CODES.runtimeMismatch,
            rule: 'worker-bindings',
            path: at,
            message:
              binding.name === '__proto__'
                ? 'binding name "__proto__" cannot be read from a Worker env (it names the object\'s prototype)'
                : `binding name "${binding.name}" is reserved by the Worker output (the Worker Loader, its isolate service and the task store)`,
            suggestion: 'rename the binding',
          }),
        );
        return;
      }
      const modelKey =
        binding.kind === 'secret-ref' && node.config.models.some((m) => m.secretBinding === binding.name);
      add({ ...fromDeclared(binding), purpose: modelKey ? 'model-key' : 'declared' }, node, at);
    });
    for (const pin of node.config.models)
      if (pin.secretBinding) add({ name: pin.secretBinding, kind: 'secret-ref', purpose: 'model-key' }, node);
    if (node.config.receipts.mode === 'signed' && node.config.receipts.keyBinding)
      add({ name: node.config.receipts.keyBinding, kind: 'secret-ref', purpose: 'receipt-key' }, node);
    for (const tool of node.config.tools) {
      if (tool.kind !== 'mcp-http' || !tool.binding) continue;
      // The service the binding points at: a declared service binding of that name, else the MCP server's name.
      add(
        {
          name: tool.binding,
          kind: 'service',
          purpose: 'mcp-service',
          service: workerName(tool.mcpServer ?? tool.binding),
        },
        node,
      );
    }
  }

  let receiptSink: ReceiptSinkBinding | undefined;
  if (layout.nodes.some((n) => n.config.receipts.mode === 'signed')) {
    const declared = byName.get(BINDINGS.receiptSink);
    const kind = declared?.kind === 'queue' ? 'queue' : 'kv';
    if (declared && declared.kind !== 'kv' && declared.kind !== 'queue') {
      diagnostics.push(
        locateFinding(root.document, {
          code: ERROR_CODES.runtimeMismatch,
          rule: 'worker-bindings',
          path: '/runtimeRequirements/bindings',
          message: `binding "${BINDINGS.receiptSink}" is the receipt sink and must be a kv or queue binding, not ${declared.kind}`,
          suggestion: `declare { "kind": "kv", "name": "${BINDINGS.receiptSink}" } or a queue, or rename the binding`,
        }),
      );
    } else {
      add(
        {
          name: BINDINGS.receiptSink,
          kind,
          purpose: 'receipt-sink',
          ...(kind === 'queue' && !declared?.queue ? { queue: `${workerName(root.slug)}-receipts` } : {}),
        },
        root,
      );
      receiptSink = { binding: BINDINGS.receiptSink, kind };
    }
  }
  if (layout.isolates.size > 1) {
    add({ name: BINDINGS.loader, kind: 'worker-loader', purpose: 'isolates' }, root);
    byName.set(BINDINGS.isolates, {
      name: BINDINGS.isolates,
      kind: 'service',
      purpose: 'isolates',
      neededBy: [root.nodeId],
      loader: 'isolate-service',
    });
  }
  // Every Worker keeps its A2A tasks in one Durable Object, so every isolate sees every task.
  byName.set(BINDINGS.tasks, {
    name: BINDINGS.tasks,
    kind: 'durable-object',
    purpose: 'task-store',
    neededBy: [root.nodeId],
    loader: 'task-store-proxy',
    className: TASK_STORE.className,
  });
  const bindings = [...byName.values()]
    .map((b) => ({ ...b, neededBy: [...b.neededBy] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { bindings, ...(receiptSink ? { receiptSink } : {}), diagnostics };
}
