/**
 * The host side of a component: what executes a node, and who owns it.
 *
 * Manifests and packs are data; behaviour lives only here, supplied by the embedding host (or by
 * agentdef for the five built-ins), never through a manifest, a pack or an MCP argument.
 *
 * - A `ComponentAdapter` is the exact descriptor of one component revision (interface, capability,
 *   side effect, replay class, modes, owner) plus a private `execute`. Its descriptor must equal
 *   the component's definition exactly, or start-up rejects it. A mode it does not declare is
 *   rejected at plan time.
 * - An `OwnerResolver` names the owner of one component revision and resolves its current
 *   evidence (plain JSON: a profile digest, an approval index digest…). Plans bind the digest of
 *   that evidence; execute re-resolves it before each step and blocks the step when it changed.
 *
 * An adapter receives its node's `config` as bounded data (already checked against the closed
 * configuration schema), the values of its input ports, an `AbortSignal` (cancellation reaches the
 * owner), a step idempotency key, and `markDispatched`, the write-ahead marker it must call
 * immediately before any real external dispatch (and must not dispatch unless it answered `ok`).
 * Adapters return a typed outcome; a throw is caught and recorded as a failure.
 */
import type { Finding } from '../definition/diagnostic';
import type { BuiltinComponentDefinition, ExecutionMode, ReplayClass, SideEffect } from './builtin-components';
import type { JsonValue } from './stable-json';

export interface ComponentIdentity {
  readonly id: string;
  readonly revision: string;
}

/** What an adapter declares: must equal its component definition's evidence exactly. */
export interface AdapterDescriptor {
  readonly component: ComponentIdentity;
  readonly interface: string;
  readonly capability: string;
  readonly sideEffect: SideEffect;
  readonly replay: ReplayClass;
  readonly modes: readonly ExecutionMode[];
  /** The owner's name, as the component definition's `owner.name`. */
  readonly owner: string;
}

export interface AdapterCall {
  readonly mode: ExecutionMode;
  /** The node's id in the manifest. */
  readonly node: string;
  /** The node's configuration: plain, deep-frozen JSON, already checked against the closed schema. */
  readonly config: JsonValue;
  /** The values of the node's input ports (entrypoint values or upstream outputs), by port name. */
  readonly inputs: Readonly<Record<string, JsonValue>>;
  /** Aborted when the caller cancels or the runtime bound is reached: pass it on to the owner. */
  readonly signal: AbortSignal;
  /** Unique per execute idempotency key and node: the owner's idempotency fence. */
  readonly idempotencyKey: string;
  readonly planDigest: string;
  /** The owner evidence the plan was made with (already re-resolved and equal). */
  readonly ownerEvidence: JsonValue;
  /**
   * The write-ahead dispatch marker: call it immediately BEFORE real external dispatch, and
   * dispatch only when it answers `ok`. Refused in dry-run mode.
   */
  markDispatched(): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;
}

export type AdapterOutcome =
  | { readonly status: 'completed'; readonly outputs: Readonly<Record<string, JsonValue>> }
  | { readonly status: 'failed'; readonly code: string; readonly message: string }
  /** An approval boundary: the owner needs operator authority the caller cannot give over MCP. */
  | { readonly status: 'approval-required'; readonly message: string }
  /** The owner cannot tell whether the external effect happened (timeout after dispatch…). */
  | { readonly status: 'deadline-uncertain'; readonly message: string };

export interface ComponentAdapter extends AdapterDescriptor {
  /**
   * Optional plan-time check of one node's configuration beyond its schema (for example that a
   * registered agent exists), located under `pointer` (`/nodes/<i>/config`), and the node's public
   * evidence (for example the digest of that agent's plan): the plan binds its digest, so a change
   * between plan and execute is drift.
   */
  checkConfig?(config: JsonValue, pointer: string, mode: ExecutionMode): NodeCheck | Promise<NodeCheck>;
  execute(call: AdapterCall): Promise<AdapterOutcome>;
}

export interface NodeCheck {
  readonly findings: readonly Finding[];
  /** Public evidence about this node (plain JSON, digests and metadata only): the plan binds its digest. */
  readonly evidence?: JsonValue;
}

export type OwnerEvidence =
  | { readonly ok: true; readonly evidence: JsonValue }
  | { readonly ok: false; readonly message: string };

export interface OwnerResolver {
  readonly component: ComponentIdentity;
  /** The owner's name, as the component definition's `owner.name`. */
  readonly owner: string;
  resolve(): OwnerEvidence | Promise<OwnerEvidence>;
}

export const identityKey = (component: ComponentIdentity): string => JSON.stringify([component.id, component.revision]);

/** The exact descriptor a component definition asks its adapter to declare. */
export function adapterDescriptorOf(definition: BuiltinComponentDefinition): AdapterDescriptor {
  return {
    component: { id: definition.id, revision: definition.revision },
    interface: definition.interface,
    capability: definition.capability,
    sideEffect: definition.sideEffect,
    replay: definition.replay,
    modes: [...definition.modes],
    owner: definition.owner.name,
  };
}
