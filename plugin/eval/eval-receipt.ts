/**
 * Eval receipts (`eval-receipt/v1`, schema: plugin/schema/eval-receipt.v1.schema.json): the signed
 * result of one `agentdef eval` run. It names the definition by slug, version and digest (the
 * RFC 8785 digest `agentdef promote` records, trust/lifecycle-receipt.ts `definitionDigest`), the
 * cases by digest (cases-digest.ts), the totals, the threshold and whether the run passed, each
 * case's id, pass and score, and its run receipt's digest. No input, answer, prompt, grader
 * reasoning, clock or key goes in, so the same run gives the same bytes (Ed25519 is deterministic).
 *
 * Signature: the run receipts' scheme, by their code (runtime/receipts.ts `receiptSigningInput`,
 * `importSigningKey`): Ed25519 over the RFC 8785 canonical JSON of the receipt whose `signature`
 * holds only `alg` and `kid`. Verification checks the schema (closed: no member may be added),
 * that the totals agree with the cases and `passed` with the threshold (a receipt cannot claim a
 * pass its own numbers deny), exactly `alg`/`kid`/`value`, the canonical base64url of 64 bytes, and
 * the signature; it names what failed and where, and never throws.
 */
import schema from '../schema/eval-receipt.v1.schema.json';
import type { EvalReceipt } from '../schema/generated/eval-receipt.types';
import type { CaseResult, RunScore } from './score-case';
import { type SignedDocumentKind, signDocument, signedDocumentText, verifySignedDocument } from './signed-document';

export type { EvalReceipt } from '../schema/generated/eval-receipt.types';
export const EVAL_RECEIPT_VERSION = 'eval-receipt/v1';
export type UnsignedEvalReceipt = Omit<EvalReceipt, 'signature'>;

const DIGEST = /^sha-256:[0-9a-f]{64}$/;

/** A run receipt digest as the receipt carries it (`sha-256:<hex>`), from that or bare hex; else undefined. */
function runReceiptDigest(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (DIGEST.test(value)) return value;
  return /^[0-9a-f]{64}$/.test(value) ? `sha-256:${value}` : undefined;
}

export interface EvalReceiptInput {
  definition: { slug: string; version: string; digest: string };
  casesDigest: string;
  results: readonly CaseResult[];
  run: RunScore;
}

export function buildEvalReceipt(input: EvalReceiptInput): UnsignedEvalReceipt {
  const { totals } = input.run;
  return {
    receiptVersion: EVAL_RECEIPT_VERSION,
    definition: { slug: input.definition.slug, version: input.definition.version, digest: input.definition.digest },
    casesDigest: input.casesDigest,
    threshold: input.run.threshold,
    passed: input.run.passed,
    totals: {
      cases: totals.cases,
      passed: totals.passed,
      failed: totals.failed,
      passRate: totals.passRate,
      score: totals.score,
      assertions: totals.assertions,
      assertionsPassed: totals.assertionsPassed,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      modelCalls: totals.modelCalls,
    },
    unscoredInvariants: [...input.run.coverage.unscoredIndices],
    cases: input.results.map((r) => {
      const digest = runReceiptDigest(r.receiptDigest);
      return {
        id: r.caseId,
        passed: r.passed,
        score: r.score,
        ...(digest !== undefined ? { runReceiptDigest: digest } : {}),
      };
    }),
  };
}

/** Signs with an Ed25519 private key (JWK, its JSON text, or a CryptoKey); `kid` is its RFC 7638 thumbprint. */
export function signEvalReceipt(
  unsigned: UnsignedEvalReceipt,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<EvalReceipt> {
  return signDocument(unsigned, key, kid);
}

/** The receipt file's text: two-space indented JSON and a newline (verify reads it strictly). */
export const evalReceiptText: (receipt: EvalReceipt) => string = signedDocumentText;

export interface EvalReceiptFailure {
  pointer: string;
  message: string;
}

export type EvalReceiptCheck =
  | { verified: true; kid: string; receipt: EvalReceipt }
  | { verified: false; kid?: string; failures: EvalReceiptFailure[] };

/** Totals that disagree with the cases, and a `passed` its own numbers deny. */
function consistencyFailures(receipt: EvalReceipt): EvalReceiptFailure[] {
  const failures: EvalReceiptFailure[] = [];
  const { totals, cases } = receipt;
  const passed = cases.filter((c) => c.passed).length;
  if (totals.cases !== cases.length)
    failures.push({
      pointer: '/totals/cases',
      message: `says ${totals.cases} cases, but the receipt lists ${cases.length}`,
    });
  if (totals.passed !== passed || totals.failed !== cases.length - passed)
    failures.push({
      pointer: '/totals/passed',
      message: `the passed and failed counts disagree with the cases listed (${passed} passed)`,
    });
  const rate = cases.length === 0 ? 0 : Math.round((passed / cases.length) * 1e4) / 1e4;
  if (totals.passRate !== rate)
    failures.push({
      pointer: '/totals/passRate',
      message: `is ${totals.passRate}, but ${passed} of ${cases.length} cases passed`,
    });
  const shouldPass = cases.length > 0 && rate >= receipt.threshold;
  if (receipt.passed !== shouldPass)
    failures.push({
      pointer: '/passed',
      message: `is ${receipt.passed}, but the pass rate ${rate} against threshold ${receipt.threshold} says ${shouldPass}`,
    });
  const ids = new Set<string>();
  cases.forEach((c, i) => {
    if (ids.has(c.id)) failures.push({ pointer: `/cases/${i}/id`, message: `case id "${c.id}" is listed twice` });
    ids.add(c.id);
  });
  return failures;
}

const EVAL_RECEIPT: SignedDocumentKind<EvalReceipt> = {
  schema,
  notAnObject: 'an eval receipt is a JSON object',
  unsigned: 'the receipt has no signature object (unsigned)',
  noun: 'receipt',
  schemaName: 'eval-receipt/v1',
  memberOf: 'an eval receipt',
  noKeyHint: 'pass --key <public JWK file> or --keys <folder of public JWKs>',
  consistency: consistencyFailures,
};

/**
 * Verifies an eval receipt (parsed strictly by the caller: runtime/strict-json.ts
 * `parseSignedJson`) against the signer's public JWK (`keyFor(kid)`; undefined: no key known).
 */
export async function verifyEvalReceipt(
  receipt: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<EvalReceiptCheck> {
  const check = await verifySignedDocument(EVAL_RECEIPT, receipt, keyFor);
  return check.verified ? { verified: true, kid: check.kid, receipt: check.document } : check;
}
