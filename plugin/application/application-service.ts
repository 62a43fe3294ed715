/**
 * The application service: the three operations the MCP tools, the CLI and the Nx executors are
 * thin shells over. `catalog` is read-only and zero-spend; `plan` verifies a manifest and produces
 * `agentdef.application-plan/v1`; `execute` replans, rejects drift, and runs ready steps in
 * dependency order through the ledger. Created by `createApplicationHost` (application-host.ts).
 *
 * Nothing here throws on bad input: every problem is a located diagnostic or a typed stop.
 */
import type { Diagnostic } from '../definition/diagnostic';
import type { ApplicationPlan } from '../schema/generated/application-plan.types';
import type { ExecutionMode } from './builtin-components';
import type { JsonValue } from './stable-json';

/** A manifest by workspace-relative path (contained in the workspace), or as text. */
export type ManifestInput =
  | { readonly path: string }
  | { readonly text: string; readonly format: 'json' | 'yaml'; readonly file?: string };

export interface PlanRequest {
  readonly manifest: ManifestInput;
  readonly mode: ExecutionMode;
}

/** One caller-supplied value for an entrypoint port. */
export interface EntrypointValue {
  readonly node: string;
  readonly port: string;
  readonly value: JsonValue;
}

export interface ExecuteRequest extends PlanRequest {
  /** The plan digest the caller planned and accepted: any other digest now is drift. */
  readonly expectedPlanDigest: string;
  /** 1-256 visible ASCII characters; the same key with the same plan, mode and inputs replays. */
  readonly idempotencyKey: string;
  /** A value for every entrypoint port, and nothing else. */
  readonly inputs: readonly EntrypointValue[];
}

export type PlanResponse =
  | { readonly ok: true; readonly plan: ApplicationPlan; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export type StepStatus =
  | 'completed'
  | 'failed'
  | 'approval-required'
  | 'deadline-uncertain'
  | 'cancelled'
  | 'blocked'
  | 'not-run';

export type StopReason = 'failure' | 'approval-required' | 'deadline-uncertain' | 'bound' | 'cancelled' | 'owner-drift';

/** What one execute recorded: the ledger keeps it, a replay returns it unchanged. */
export interface ApplicationRun {
  readonly schemaVersion: 'agentdef.application-run/v1';
  readonly application: { readonly id: string; readonly revision: string };
  readonly mode: ExecutionMode;
  readonly planDigest: string;
  /** SHA-256 of the canonical entrypoint values: a replay must supply the same ones. */
  readonly inputsDigest: string;
  readonly status: 'succeeded' | 'stopped';
  /** Why the run stopped, at which node (absent when it succeeded). */
  readonly stop?: {
    readonly reason: StopReason;
    readonly node?: string;
    readonly code: string;
    readonly message: string;
  };
  /** Every step of the plan, in plan order. */
  readonly steps: readonly { readonly node: string; readonly status: StepStatus; readonly dispatched: boolean }[];
  /** The named outputs (only when the run succeeded). */
  readonly outputs?: Readonly<Record<string, JsonValue>>;
  /** A failure or cancellation after real external dispatch: reconcile with the owner before any retry. */
  readonly reconciliationRequired: boolean;
}

export type ExecuteResponse =
  /** The run happened now (`replayed: false`) or was recorded before under the same key (`replayed: true`). */
  | {
      readonly ok: true;
      readonly replayed: boolean;
      readonly run: ApplicationRun;
      readonly diagnostics: readonly Diagnostic[];
    }
  /**
   * Nothing ran: invalid manifest, drift (`expectedPlanDigest` differs), bad inputs, a key bound to
   * another plan, mode or inputs, a run in progress, a full ledger, or a dispatched run whose
   * outcome must be reconciled first.
   */
  | {
      readonly ok: false;
      readonly refusal: ExecuteRefusal;
      readonly message: string;
      readonly planDigest?: string;
      readonly diagnostics: readonly Diagnostic[];
    };

export type ExecuteRefusal =
  | 'invalid-manifest'
  | 'drift'
  | 'invalid-inputs'
  | 'idempotency-conflict'
  | 'in-progress'
  | 'reconciliation-required'
  | 'ledger-full'
  | 'ledger-error';

export interface ApplicationService {
  /** `agentdef.application.catalog`: plain JSON, read-only, no external connection (owners give evidence digests only). */
  catalog(): Promise<JsonValue>;
  plan(request: PlanRequest): Promise<PlanResponse>;
  execute(request: ExecuteRequest, signal?: AbortSignal): Promise<ExecuteResponse>;
  close(): Promise<void>;
}
