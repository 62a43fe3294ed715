/**
 * `host-plan.json`, the DynamicWorkerHostPlan: what `loader.js` needs to run a compiled agent
 * as a dynamically loaded Worker. `workerCode` is exactly the `WorkerCode` that
 * `env.LOADER.get(id, callback)` takes (minus `globalOutbound`, which is a live binding the
 * loader makes from `egress`); `bindings` says how each binding reaches the loaded Worker; the
 * `isolates` are the quarantined children the loaded Worker may ask the loader to start.
 */

export const HOST_PLAN_VERSION = 'agentdef-host-plan/v1';
import { HOST_PLAN_TARGET } from '../targets/cloudflare-dynamic-worker/contract';

export { HOST_PLAN_TARGET };

/**
 * The agent's task store: a SQLite-backed Durable Object class every Worker output exports (the
 * generated entry and `loader.js`), bound as `binding`, declared by the wrangler migration `migrationTag`.
 */
export const TASK_STORE = {
  binding: 'AGENTDEF_TASKS',
  className: 'AgentTaskStore',
  migrationTag: 'agentdef-task-store-v1',
} as const;

export type HostBindingKind =
  | 'secret-ref'
  | 'service'
  | 'kv'
  | 'd1'
  | 'r2'
  | 'queue'
  | 'custom'
  | 'worker-loader'
  | 'durable-object';

/**
 * How `loader.js` gives a binding to the loaded Worker:
 * - `copy-secret`: the loader's secret of the same name, copied into the loaded Worker's `env`;
 * - `pass-through`: the loader's own binding object (service bindings serialise);
 * - `kv-proxy` / `queue-proxy`: an RPC entrypoint of the loader that forwards to its binding
 *   (KV and queue bindings cannot be handed to a loaded Worker directly);
 * - `isolate-service`: the loader's entrypoint that starts quarantined children;
 * - `task-store-proxy`: the loader's entrypoint that forwards to the agent's task-store Durable
 *   Object (the loader's own namespace binding of that name; a loaded Worker cannot hold one);
 * - `not-provided`: available only when the agent is deployed as an ordinary Worker (wrangler.jsonc).
 */
export type LoaderProvision =
  | 'copy-secret'
  | 'pass-through'
  | 'kv-proxy'
  | 'queue-proxy'
  | 'isolate-service'
  | 'task-store-proxy'
  | 'not-provided';

export type BindingPurpose =
  | 'declared'
  | 'model-key'
  | 'receipt-key'
  | 'receipt-sink'
  | 'mcp-service'
  | 'isolates'
  | 'task-store';

export interface HostPlanBinding {
  /** The name in `env` (any string the definition allows, not only JS identifiers). */
  name: string;
  kind: HostBindingKind;
  purpose: BindingPurpose;
  /** Plan node ids whose definitions need the binding. */
  neededBy: string[];
  loader: LoaderProvision;
  service?: string;
  namespaceId?: string;
  databaseId?: string;
  bucket?: string;
  queue?: string;
  /** For `custom` bindings: the host's binding type. */
  type?: string;
  /** For `durable-object` bindings: the exported class the namespace holds (SQLite-backed). */
  className?: string;
}

export interface HostWorkerCode {
  compatibilityDate: string;
  compatibilityFlags: string[];
  limits?: { cpuMs?: number };
  mainModule: string;
  modules: Record<string, string>;
  /** Plain values only; bindings are added by the loader from `bindings`. */
  env: Record<string, string>;
}

export interface HostPlanIsolate {
  /** The quarantined child's plan node id. */
  nodeId: string;
  /** `sha-256:<hex>` of the child's isolate module: the loader refuses any other code. */
  codeDigest: string;
  egress: { allow: string[] };
  secrets: string[];
  cpuMs?: number;
}

export interface HostPlan {
  hostPlanVersion: typeof HOST_PLAN_VERSION;
  target: typeof HOST_PLAN_TARGET;
  agent: { slug: string; version: string };
  /** The compile plan's digest. */
  planDigest: string;
  /** The Worker Loader id: `<slug>@<version>:<plan digest prefix>:<code digest prefix>`; a changed agent or bundle is a new isolate. */
  id: string;
  workerCode: HostWorkerCode;
  bindings: HostPlanBinding[];
  /** The loaded Worker's `globalOutbound`: the loader's egress gateway with this allow-list, or no network at all. */
  egress: { globalOutbound: 'egress-gateway' | 'blocked'; allow: string[] };
  isolates: HostPlanIsolate[];
  receiptSink?: ReceiptSinkBinding;
}

/** Where receipts go: a KV namespace or a queue, by binding name. */
export interface ReceiptSinkBinding {
  binding: string;
  kind: 'kv' | 'queue';
}
