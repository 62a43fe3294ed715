/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * A lowercase kebab-case name, 1-64 characters (`a-z`, `0-9`, single hyphens between words).
 */
export type Slug = string;
/**
 * An exact semantic version (MAJOR.MINOR.PATCH with optional pre-release and build). Ranges, wildcards and tags such as `latest` are not allowed: every revision names one immutable version.
 */
export type ExactSemver = string;
/**
 * A SHA-256 digest: exactly 64 lowercase hexadecimal characters.
 */
export type Sha256 = string;
/**
 * A component id as the catalog lists it: lowercase segments of `a-z` and `0-9` joined by single `.`, `_` or `-`, 1-128 characters (for example `agentdef.registered-agent`).
 */
export type ComponentId = string;
/**
 * A port or output name: an ASCII identifier that starts with a lowercase letter, then letters and digits, with single `-` or `_` between words, 1-64 characters.
 */
export type PortName = string;

/**
 * One source-backed application: independently owned components (exact id and revision each) wired into a typed, acyclic graph, with explicit entrypoint and output ports and step, runtime and output bounds. Nodes, edges, entrypoints and outputs are unordered identity collections: their order never changes the source digest or a plan.
 */
export interface ApplicationManifest {
  /**
   * The manifest format version; always `agentdef.application-manifest/v1`.
   */
  schemaVersion: 'agentdef.application-manifest/v1';
  id: Slug;
  revision: ExactSemver;
  source: Source;
  /**
   * The host-side invocation tuple this manifest is composed under, spelled exactly once in full: `/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof`. Operator authority is deliberately absent.
   */
  invocation: '/application.compose #application-composition @application-manifest @component-catalog @integration-profile @runtime-proof';
  catalogDigest: Sha256;
  adapterPolicyDigest: Sha256;
  /**
   * The component instances (an unordered collection, identified by `id`).
   *
   * @minItems 1
   * @maxItems 256
   */
  nodes: [Node, ...Node[]];
  /**
   * Typed connections from an output port to an input port (an unordered collection, identified by both ends).
   *
   * @maxItems 1024
   */
  edges: Edge[];
  /**
   * The input ports the caller supplies (an unordered collection, identified by node and port). An entrypoint port has no producer inside the graph.
   *
   * @minItems 1
   * @maxItems 64
   */
  entrypoints: [PortRef, ...PortRef[]];
  /**
   * The output ports the application returns, each under a public name (an unordered collection, identified by `name`).
   *
   * @minItems 1
   * @maxItems 64
   */
  outputs: [Output, ...Output[]];
  bounds: Bounds;
}
/**
 * Where the manifest's source lives and the SHA-256 of its canonical form.
 */
export interface Source {
  /**
   * An inert local identity of the source: exactly `workspace:/SEG(/SEG)*`, `kgdoc:SEG(/SEG)*` or `urn:agentdef:SEG(:SEG)*` with SEG = `[a-z0-9]+(?:[._-][a-z0-9]+)*`. Never a network location.
   */
  uri: string;
  sha256: Sha256;
}
/**
 * One component instance in the graph.
 */
export interface Node {
  id: Slug;
  component: ComponentRef;
  config: ComponentConfig;
}
/**
 * One exact component of the catalog: its id and exact revision. Never a range, a tag or `latest`.
 */
export interface ComponentRef {
  id: ComponentId;
  revision: ExactSemver;
}
/**
 * The node's configuration. Its fields are defined by the component's own closed configuration schema and checked against it by the catalog; built-in component schemas reject control fields at any depth.
 */
export interface ComponentConfig {
  [k: string]: unknown | undefined;
}
/**
 * A typed connection: the value of an output port flows into an input port. The output's kind must be assignable to the input's kind.
 */
export interface Edge {
  from: PortRef;
  to: PortRef;
}
/**
 * A port of one node.
 */
export interface PortRef {
  node: Slug;
  port: PortName;
}
/**
 * An output port the application returns under a public name.
 */
export interface Output {
  name: PortName;
  node: Slug;
  port: PortName;
}
/**
 * Hard limits of one execution. Execution stops (without retrying) when one is reached.
 */
export interface Bounds {
  /**
   * The most steps (component invocations) one execution may run.
   */
  maxSteps: number;
  /**
   * The longest one execution may run, in milliseconds (at most one hour).
   */
  maxRuntimeMs: number;
  /**
   * The most bytes of UTF-8 canonical JSON the outputs of one execution may hold (at most 16 MiB).
   */
  maxOutputBytes: number;
}
