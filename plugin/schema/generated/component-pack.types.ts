/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * An id as the catalog lists it: lowercase segments of `a-z` and `0-9` joined by single `.`, `_` or `-`, 1-128 characters (for example `acme.text.summarise`).
 */
export type ComponentId = string;
/**
 * An exact semantic version (MAJOR.MINOR.PATCH with optional pre-release and build). Ranges, wildcards and tags such as `latest` are not allowed: every revision names one immutable version.
 */
export type ExactSemver = string;
/**
 * A SHA-256 digest: exactly 64 lowercase hexadecimal characters.
 */
export type Sha256 = string;
/**
 * A versioned interface id: an id (lowercase segments joined by single `.`, `_` or `-`), a slash and a major version `vN` (for example `acme.component.summarise/v1`), at most 160 characters.
 */
export type InterfaceId = string;
/**
 * An execution mode: `dry-run` (no external effect) or `live`.
 */
export type ExecutionMode = 'dry-run' | 'live';
/**
 * The kind of value a port carries: `json` (any JSON value), `text` (a string), `artifact` (a reference to an approved artifact) or `agent-plan` (a zero-call agent plan). Unknown kinds are refused.
 */
export type PortKind = 'json' | 'text' | 'artifact' | 'agent-plan';

/**
 * One separately authored component pack an embedding host admits through `createApplicationComponentPackRegistry`: pure JSON data (no behaviour), with exactly `schemaVersion`, `id`, one exact `revision`, `source` and `components`. Adapters and owner resolvers are supplied by the host, never by the pack. Admission also enforces what a schema cannot say: the source URI grammar, the source digest, the limits (16 packs, 16 components per pack, 100 components in all, 256 KiB of canonical JSON per pack), one revision per pack id, unique component ids outside the reserved `agentdef.` prefix, control fields, and the closed configuration schema dialect.
 */
export interface ComponentPack {
  /**
   * The pack format version; always `agentdef.component-pack/v1`.
   */
  schemaVersion: 'agentdef.component-pack/v1';
  id: ComponentId;
  revision: ExactSemver;
  source: PackSource;
  /**
   * The components this pack defines: at least one, at most 16 (a limit admission enforces, with 100 components in all across the built-ins and every pack). Their order is not part of the pack's identity: the source digest orders them by exact id, then revision.
   *
   * @minItems 1
   */
  components: [PackComponent, ...PackComponent[]];
}
/**
 * The pack's inert source identity and the SHA-256 of its canonical form.
 */
export interface PackSource {
  /**
   * An inert local identity of the pack's source: exactly `workspace:/SEG(/SEG)*`, `kgdoc:SEG(/SEG)*` or `urn:agentdef:SEG(:SEG)*` with SEG = `[a-z0-9]+(?:[._-][a-z0-9]+)*`; the first URN segment is not http, https, file, ftp, ws or wss. Never a location to fetch.
   */
  uri: string;
  sha256: Sha256;
}
/**
 * One component definition, in the same shape as a built-in component: identity, the evidence its host adapter must declare exactly (interface, capability, side effect, replay class, modes, owner), typed ports and a closed configuration schema. Data only: no code, no paths, no endpoints.
 */
export interface PackComponent {
  id: ComponentId;
  revision: ExactSemver;
  /**
   * A short human-readable name.
   */
  title: string;
  /**
   * What the component does, for people authoring manifests.
   */
  description: string;
  interface: InterfaceId;
  capability: ComponentId;
  /**
   * `none`: computes from its inputs only. `external`: reaches outside the process through its owner. Its adapter must declare exactly this.
   */
  sideEffect: 'none' | 'external';
  /**
   * `deterministic`: the same inputs give the same output. `fenced-once`: dispatched at most once per idempotency key. Its adapter must declare exactly this.
   */
  replay: 'deterministic' | 'fenced-once';
  /**
   * The execution modes the component supports (a non-empty set of `dry-run` and `live`); its adapter must declare exactly this set, and planning refuses any other mode.
   *
   * @minItems 1
   * @maxItems 2
   */
  modes: [ExecutionMode] | [ExecutionMode, ExecutionMode];
  owner: PackComponentOwner;
  ports: PackComponentPorts;
  configSchema: PackConfigSchema;
}
/**
 * Who owns the component at run time: always an owner the embedding host injects at start-up (one owner resolver per component).
 */
export interface PackComponentOwner {
  name: ComponentId;
  /**
   * How the owner is selected: always `host-injected` for a pack component (`builtin` is agentdef's own).
   */
  selection: 'host-injected';
}
/**
 * The component's typed input and output ports, by port name.
 */
export interface PackComponentPorts {
  /**
   * Input ports by name (1-64; every node lies on an entrypoint-to-output path, so a component has at least one input). Names follow the PortName grammar.
   */
  inputs: {
    [k: string]: PackInputPort | undefined;
  };
  /**
   * Output ports by name (1-64). Names follow the PortName grammar.
   */
  outputs: {
    [k: string]: PackOutputPort | undefined;
  };
}
/**
 * One input port of a component.
 *
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^[a-z][a-zA-Z0-9]*(?:[-_][a-zA-Z0-9]+)*$".
 */
export interface PackInputPort {
  kind: PortKind;
  /**
   * Whether every node of this component needs exactly one producer (or an entrypoint) for this port.
   */
  required: boolean;
  /**
   * What the port receives, for people authoring manifests.
   */
  description: string;
}
/**
 * One output port of a component.
 *
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^[a-z][a-zA-Z0-9]*(?:[-_][a-zA-Z0-9]+)*$".
 */
export interface PackOutputPort {
  kind: PortKind;
  /**
   * What the port produces, for people authoring manifests.
   */
  description: string;
}
/**
 * The closed JSON Schema (2020-12) of a node's `config`, in the pack dialect: checked by `checkPackConfigSchema` against its explicit keyword allow-list and limits before Ajv compiles anything. Its own keywords are governed by that dialect, not by this envelope, so this is the one object left open here.
 */
export interface PackConfigSchema {
  [k: string]: unknown | undefined;
}
