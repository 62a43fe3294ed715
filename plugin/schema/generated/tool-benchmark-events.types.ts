/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * `sha-256:` and 64 lowercase hex digits.
 */
export type Digest = string;

/**
 * A signed batch of tool benchmark events (`tool-benchmark-events/v1`), written by `agentdef bench-tool` (and by `agentdef eval` of a tool-only agent): one event per tool call of a benchmark run, in the tool taxonomy (category, tool, operation, latency, ok), for exactly one definition (by digest). `agentdef promote` requires one to reach `tool-shipped`. It carries no inputs, answers or keys. The signature is Ed25519 over the RFC 8785 canonical JSON of the batch with `signature.value` removed, so an edited event or a batch for another definition does not verify or does not match.
 */
export interface ToolBenchmarkEvents {
  /**
   * The format version.
   */
  eventsVersion: 'tool-benchmark-events/v1';
  /**
   * The definition benchmarked.
   */
  definition: {
    /**
     * `identity.slug`.
     */
    slug: string;
    /**
     * `identity.versionSemver`.
     */
    version: string;
    /**
     * `identity.versionId`.
     */
    versionId: string;
    digest: Digest;
  };
  casesDigest: Digest;
  /**
   * How many times each case was run.
   */
  runsPerCase: number;
  /**
   * One event per tool call, in the order the runs were made.
   *
   * @maxItems 100000
   */
  events: ToolBenchmarkEvent[];
  /**
   * Ed25519 over the RFC 8785 form of the batch without `signature.value`.
   */
  signature: {
    /**
     * The signature algorithm.
     */
    alg: 'Ed25519';
    /**
     * The signer's key id (RFC 7638 thumbprint).
     */
    kid: string;
    /**
     * The base64url signature (64 bytes, no padding).
     */
    value: string;
  };
}
/**
 * One tool call of a benchmark run (the seed's tool_benchmark_events row: category, tool, operation, latency_ms, ok).
 */
export interface ToolBenchmarkEvent {
  /**
   * The run's id (its receipt's `runId`), when the host reported one.
   */
  runId?: string;
  /**
   * The benchmark case's id.
   */
  caseId: string;
  /**
   * Which run of the case (1 to runsPerCase).
   */
  iteration: number;
  /**
   * The skill the run served (`capabilityContract.skills[].id`).
   */
  skill: string;
  /**
   * The tool's category: the served skill's first tag (`uncategorised` when it has none).
   */
  category: string;
  /**
   * `toolInventory[].id` of the tool called.
   */
  tool: string;
  /**
   * The operation: the name the tool was called by (`toolInventory[].name`; for an MCP tool, the MCP tool name).
   */
  operation: string;
  /**
   * Milliseconds: the run's latency as its host measured it (its run receipt's `latencyMs`; a tool-only run is one tool call), else as the benchmark client observed it.
   */
  latencyMs: number;
  /**
   * The call succeeded.
   */
  ok: boolean;
  /**
   * Why the call failed (the receipt error code), when it did.
   */
  errorCode?: string;
}
