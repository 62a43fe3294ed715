/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * `sha-256:` and 64 lowercase hex digits.
 */
export type Digest = string;

/**
 * A signed eval receipt (`eval-receipt/v1`), written by `agentdef eval`: which definition (by digest) was scored against which cases (by digest), the totals, the threshold and whether the run passed, each case's id, pass and score, and the digests of the run receipts. It carries no inputs, answers, prompts, grader reasoning or keys. The signature is Ed25519 over the RFC 8785 canonical JSON of the receipt with `signature.value` removed.
 */
export interface EvalReceipt {
  /**
   * The receipt format version.
   */
  receiptVersion: 'eval-receipt/v1';
  /**
   * The definition scored.
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
    digest: Digest;
  };
  casesDigest: Digest;
  /**
   * The pass rate the run had to reach.
   */
  threshold: number;
  /**
   * True when the pass rate reached the threshold.
   */
  passed: boolean;
  /**
   * The run's totals.
   */
  totals: {
    /**
     * Cases scored.
     */
    cases: number;
    /**
     * Cases that passed.
     */
    passed: number;
    /**
     * Cases that failed.
     */
    failed: number;
    /**
     * passed / cases (0 with no cases: an eval of nothing never passes).
     */
    passRate: number;
    /**
     * The mean of the cases' weighted scores.
     */
    score: number;
    /**
     * Assertions checked.
     */
    assertions: number;
    /**
     * Assertions that passed.
     */
    assertionsPassed: number;
    /**
     * Input tokens of the agent's runs (grader calls not counted).
     */
    inputTokens: number;
    /**
     * Output tokens of the agent's runs.
     */
    outputTokens: number;
    /**
     * Model calls of the agent's runs.
     */
    modelCalls: number;
  };
  /**
   * The 0-based indices of the definition's invariants no case scored.
   */
  unscoredInvariants: number[];
  /**
   * Each case scored, in order.
   */
  cases: {
    /**
     * The case id.
     */
    id: string;
    /**
     * Every assertion passed.
     */
    passed: boolean;
    /**
     * The case's weighted score.
     */
    score: number;
    runReceiptDigest?: Digest;
  }[];
  /**
   * Ed25519 over the RFC 8785 form of the receipt without `signature.value`.
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
