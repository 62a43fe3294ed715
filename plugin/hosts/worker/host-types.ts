/**
 * The shapes the Worker host glue works with. Structural on purpose: the glue is type-checked both
 * against the DOM lib (in this repository) and against `@cloudflare/workers-types` (with the
 * generated `src/`), and bundled into Workers, so it names only what it calls.
 */
import type { RunTelemetry } from '../../runtime/telemetry/run-telemetry';
import type { RuntimeLogEvent, ToolHandler } from '../../runtime/agent-loop';
import type { ChildRunner } from '../../runtime/composition';
import type { ReceiptSink } from '../../runtime/receipts';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import type { RuntimeParts } from '../../runtime/runtime-parts';

/** A service binding or a loopback entrypoint stub: something requests can be sent to. */
export interface FetcherLike {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

/** A KV namespace, or the loader's RPC proxy of one (the methods the glue and the proxy share). */
export interface KvLike {
  get(key: string): Promise<string | null>;
  put(
    key: string,
    value: string,
    options?: { expirationTtl?: number; metadata?: Record<string, string> },
  ): Promise<void>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; limit?: number; cursor?: string }): Promise<unknown>;
}

/** A queue producer, or the loader's RPC proxy of one. */
export interface QueueLike {
  send(message: unknown): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: unknown }>): Promise<unknown>;
}

/** What `env.LOADER.get(id, callback)` takes back from the callback (the Worker Loader API). */
export interface WorkerCode {
  compatibilityDate: string;
  compatibilityFlags?: string[];
  limits?: { cpuMs?: number; subRequests?: number };
  mainModule: string;
  modules: Record<string, string>;
  env?: Record<string, unknown>;
  globalOutbound?: FetcherLike | null;
}

export interface WorkerStubLike {
  getEntrypoint(): FetcherLike;
}

/** A Worker Loader binding. */
export interface WorkerLoaderLike {
  get(id: string, getCode: () => WorkerCode | Promise<WorkerCode>): WorkerStubLike;
}

/** The props the egress gateway entrypoint is created with. */
export interface EgressProps {
  /** Origins (`scheme://host[:port]`) the isolate behind the gateway may reach. */
  allow: string[];
}

/** `ctx.exports`: the isolate's own entrypoints as loopback stubs (only the ones the glue uses). */
export interface LoopbackExports {
  AgentdefEgress?: (options: { props: EgressProps }) => FetcherLike;
}

/** What a quarantined child needs to be started in its own isolate. */
export interface IsolateSpec {
  /** The plan node id of the child: `root@1.0.0/child@2.0.0`. */
  nodeId: string;
  /** The child's isolate module, bundled (its code as text). */
  source: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  /** Secret bindings the isolate gets, copied by name from this isolate's secrets. */
  secrets: string[];
  /** Origins the isolate may reach through the egress gateway; empty: no network at all. */
  egress: string[];
  /** `runtimeRequirements.limits.cpuMs` of the child. */
  cpuMs?: number;
}

export type ChildModule<E> = { kind: 'module'; agent: AgentModule<E> } | { kind: 'isolate'; isolate: IsolateSpec };

/** One compiled agent (a plan node): its runtime config, its tools and how its children run. */
export interface AgentModule<E> {
  nodeId: string;
  config: RuntimeConfig;
  /** Tool implementations by tool id (`env` gives MCP service bindings). */
  tools(env: E): Record<string, ToolHandler>;
  /** Children by plan node id. */
  children: Record<string, ChildModule<E>>;
  /**
   * How a dag runs its children (`childRunner` of agent-deps.ts); only dags name it, so a leaf's
   * bundle leaves the child and isolate runners out.
   */
  runChildren?: (agent: AgentModule<E>, host: ChildHost<E>) => ChildRunner;
  /**
   * The parts of the runtime this agent's runs use (model clients, composition, the MCP client,
   * the agentic loop, receipt signing): the generated module names only those, so the bundle
   * leaves the rest out.
   */
  parts?: RuntimeParts;
}

/** What a child runner needs of its Worker (agent-deps.ts's `WorkerHost`). */
export interface ChildHost<E> {
  env: E;
  exports?: LoopbackExports;
  waitUntil: (promise: Promise<unknown>) => void;
  sink?: ReceiptSink;
  log?: (event: RuntimeLogEvent) => void;
  /** The runs' OpenTelemetry export (worker-telemetry.ts), when a collector is configured. */
  telemetry?: RunTelemetry;
}

export type { ReceiptSinkBinding } from '../../host-contract/worker-host-plan';

/** The request a parent sends to a quarantined child's isolate, and what comes back. */
export interface IsolateRunRequest {
  input: { skillId?: string; text: string; data?: unknown };
  runId: string;
  composedIn: { card: string; cardVersion: string };
  /** Milliseconds left on the parent's wall clock. */
  remainingMs: number;
}

export const ISOLATE_SERVICE_BINDING = 'AGENTDEF_ISOLATES';
export const LOADER_BINDING = 'LOADER';
export const ISOLATE_MAIN_MODULE = 'isolate.js';
export const ISOLATE_RUN_URL = 'https://isolate.agentdef.invalid/run';

/** The host's isolate service (loader mode): starts a quarantined child for a dynamically loaded parent. */
export interface IsolateServiceLike {
  run(request: { nodeId: string; isolateId: string; code: WorkerCode; payload: string }): Promise<string>;
}
