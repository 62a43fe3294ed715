/**
 * The gateway owner: who the `agentdef.approved-artifact` component delegates to. The embedding
 * host injects it (agentdef ships a reference one, local-gateway-owner.ts); a manifest never
 * can. The component cannot authorise itself: approval is the owner's alone, and operator
 * authority never travels in a manifest or an MCP argument.
 *
 * - `evidence()` is the owner's current public evidence (plain JSON: its profile and the digest of
 *   its approvals). Plans bind its digest; execute re-resolves it before the step.
 * - `check()` says at plan time whether an artifact is approved for a capability.
 * - `invoke()` is called exactly once per step idempotency key. In `live` mode it calls
 *   `markDispatched` immediately before real dispatch and dispatches only when that answered `ok`;
 *   a repeat of the same key returns the owner's recorded result without dispatching again
 *   (its idempotency fence). In `dry-run` mode it dispatches nothing.
 */
import type { Finding } from '../definition/diagnostic';
import type { AdapterOutcome, OwnerEvidence } from './component-adapter';
import type { ExecutionMode } from './builtin-components';
import type { JsonValue } from './stable-json';

/** The owner name the `agentdef.approved-artifact` component definition names. */
export const GATEWAY_OWNER_NAME = 'agentdef.gateway';

export interface GatewayInvocation {
  readonly mode: ExecutionMode;
  readonly artifactDigest: string;
  readonly capability: string;
  /** The node's `request` input (bounded data; never a URL the owner follows on the caller's word). */
  readonly request: JsonValue;
  readonly idempotencyKey: string;
  readonly signal: AbortSignal;
  markDispatched(): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;
}

export interface GatewayOwner {
  readonly name: typeof GATEWAY_OWNER_NAME;
  evidence(): OwnerEvidence | Promise<OwnerEvidence>;
  /** Plan-time: findings (located under `pointer`) when the artifact is not approved for the capability. */
  check(artifactDigest: string, capability: string, pointer: string): Finding[] | Promise<Finding[]>;
  invoke(invocation: GatewayInvocation): Promise<AdapterOutcome>;
}
