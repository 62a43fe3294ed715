/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * A SHA-256 digest: exactly 64 lowercase hexadecimal characters.
 */
export type Sha256 = string;
/**
 * `dry-run` runs every step without external dispatch; `live` lets owners dispatch.
 */
export type ExecutionMode = 'dry-run' | 'live';

/**
 * The exact, provider-neutral plan of one application manifest in one mode, as `agentdef.application.plan` returns it: digests and public metadata only, never node configuration, template bodies, instruction text, transport settings, secrets or payloads. `digest` is the SHA-256 of the RFC 8785 canonical JSON of the plan without `digest`; `agentdef.application.execute` takes it as `expectedPlanDigest`.
 */
export interface ApplicationPlan {
  /**
   * The plan format version; always `agentdef.application-plan/v1`.
   */
  schemaVersion: 'agentdef.application-plan/v1';
  application: PlannedApplication;
  /**
   * The invocation tuple the manifest was composed under.
   */
  invocation: '/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof';
  mode: ExecutionMode;
  catalogDigest: Sha256;
  adapterPolicyDigest: Sha256;
  bounds: PlannedBounds;
  /**
   * The input ports the caller supplies, sorted by node then port.
   */
  entrypoints: PlannedEntrypoint[];
  /**
   * The named outputs the application returns, sorted by name.
   */
  outputs: PlannedOutput[];
  /**
   * Every node as one step, in the order execute runs them: dependency order, ties broken by node id (code-unit order).
   *
   * @minItems 1
   */
  steps: [PlannedStep, ...PlannedStep[]];
  digest: Sha256;
}
/**
 * The application the plan is for: its exact identity and source.
 */
export interface PlannedApplication {
  /**
   * The application id.
   */
  id: string;
  /**
   * The exact application revision.
   */
  revision: string;
  /**
   * The manifest's inert source URI.
   */
  sourceUri: string;
  sourceSha256: Sha256;
}
/**
 * The manifest's bounds, as execute enforces them.
 */
export interface PlannedBounds {
  /**
   * The most steps one execution may run.
   */
  maxSteps: number;
  /**
   * The longest one execution may run, in milliseconds.
   */
  maxRuntimeMs: number;
  /**
   * The most bytes of canonical JSON the outputs may hold.
   */
  maxOutputBytes: number;
}
/**
 * One input port the caller supplies.
 */
export interface PlannedEntrypoint {
  /**
   * The node id.
   */
  node: string;
  /**
   * The input port.
   */
  port: string;
  /**
   * The port's kind.
   */
  kind: string;
}
/**
 * One named output of the application.
 */
export interface PlannedOutput {
  /**
   * The output's public name.
   */
  name: string;
  /**
   * The node id.
   */
  node: string;
  /**
   * The output port.
   */
  port: string;
  /**
   * The port's kind.
   */
  kind: string;
}
/**
 * One node of the manifest, as one step.
 */
export interface PlannedStep {
  /**
   * The node id.
   */
  node: string;
  component: PlannedComponent;
  /**
   * The component's exact interface.
   */
  interface: string;
  /**
   * The component's capability.
   */
  capability: string;
  /**
   * Whether the step reaches outside the process through its owner.
   */
  sideEffect: 'none' | 'external';
  /**
   * How a repeat behaves.
   */
  replay: 'deterministic' | 'fenced-once';
  owner: PlannedOwner;
  configDigest: Sha256;
  /**
   * The nodes this step depends on, sorted.
   */
  after: string[];
  /**
   * The step's connected input ports, sorted by port.
   */
  inputs: PlannedInput[];
  /**
   * The step's output ports, sorted by port.
   */
  outputs: PlannedPort[];
}
/**
 * The exact component revision a step runs, with its definition digest.
 */
export interface PlannedComponent {
  /**
   * The component id.
   */
  id: string;
  /**
   * The exact component revision.
   */
  revision: string;
  definitionDigest: Sha256;
}
/**
 * The owner a step is delegated to, and the digest of its evidence at plan time (re-resolved before execution).
 */
export interface PlannedOwner {
  /**
   * The owner's name.
   */
  name: string;
  /**
   * Whether agentdef or the embedding host supplies the owner.
   */
  selection: 'builtin' | 'host-injected';
  evidenceDigest: Sha256;
}
/**
 * Where one input port of a step gets its value: an upstream output port, or the caller (an entrypoint).
 */
export interface PlannedInput {
  /**
   * The input port.
   */
  port: string;
  /**
   * The input port's kind.
   */
  kind: string;
  /**
   * The producer: an upstream node's output port, or `entrypoint`.
   */
  from: UpstreamPort | 'entrypoint';
}
/**
 * An upstream node's output port.
 */
export interface UpstreamPort {
  /**
   * The producing node.
   */
  node: string;
  /**
   * Its output port.
   */
  port: string;
  /**
   * The output port's kind.
   */
  kind: string;
}
/**
 * An output port and its kind.
 */
export interface PlannedPort {
  /**
   * The port name.
   */
  port: string;
  /**
   * The port's kind.
   */
  kind: string;
}
