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
import { schemaValidator } from '../application/schema-validator';
import { base64UrlToBytes, bytesToBase64Url } from '../runtime/base64url';
import { importSigningKey, receiptSigningInput, type UnsignedReceipt } from '../runtime/receipts';
import schema from '../schema/eval-receipt.v1.schema.json';
import type { EvalReceipt } from '../schema/generated/eval-receipt.types';
import type { CaseResult, RunScore } from './score-case';

export type { EvalReceipt } from '../schema/generated/eval-receipt.types';
export const EVAL_RECEIPT_VERSION = 'eval-receipt/v1';
export type UnsignedEvalReceipt = Omit<EvalReceipt, 'signature'>;

const ED25519 = { name: 'Ed25519' } as const;
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
export async function signEvalReceipt(
  unsigned: UnsignedEvalReceipt,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<EvalReceipt> {
  const cryptoKey = await importSigningKey(key);
  const value = new Uint8Array(
    await crypto.subtle.sign(ED25519, cryptoKey, receiptSigningInput(unsigned as unknown as UnsignedReceipt, kid)),
  );
  return { ...unsigned, signature: { alg: 'Ed25519', kid, value: bytesToBase64Url(value) } };
}

/** The receipt file's text: two-space indented JSON and a newline (verify reads it strictly). */
export function evalReceiptText(receipt: EvalReceipt): string {
  return `${JSON.stringify(receipt, null, 2)}\n`;
}

export interface EvalReceiptFailure {
  pointer: string;
  message: string;
}

export type EvalReceiptCheck =
  | { verified: true; kid: string; receipt: EvalReceipt }
  | { verified: false; kid?: string; failures: EvalReceiptFailure[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function schemaFailures(receipt: unknown): EvalReceiptFailure[] {
  const validate = schemaValidator(schema);
  if (validate(receipt)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => ({
    pointer:
      e.keyword === 'additionalProperties'
        ? `${e.instancePath}/${String((e.params as { additionalProperty?: unknown }).additionalProperty)}`
        : e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? 'is not a member of an eval receipt'
        : `${e.message ?? 'is invalid'} (eval-receipt/v1 schema)`,
  }));
}

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

/**
 * Verifies an eval receipt (parsed strictly by the caller: runtime/strict-json.ts
 * `parseSignedJson`) against the signer's public JWK (`keyFor(kid)`; undefined: no key known).
 */
export async function verifyEvalReceipt(
  receipt: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<EvalReceiptCheck> {
  try {
    if (!isRecord(receipt))
      return { verified: false, failures: [{ pointer: '', message: 'an eval receipt is a JSON object' }] };
    const signature = receipt['signature'];
    const kid =
      isRecord(signature) && typeof signature['kid'] === 'string' && signature['kid'] !== ''
        ? signature['kid']
        : undefined;
    const withKid = kid === undefined ? {} : { kid };
    if (!isRecord(signature))
      return {
        verified: false,
        failures: [{ pointer: '/signature', message: 'the receipt has no signature object (unsigned)' }],
      };
    const shape = schemaFailures(receipt);
    if (shape.length > 0) return { verified: false, ...withKid, failures: shape };
    const typed = receipt as unknown as EvalReceipt;
    const failures = consistencyFailures(typed);
    const bytes = base64UrlToBytes(typed.signature.value);
    if (bytes.length !== 64 || bytesToBase64Url(bytes) !== typed.signature.value)
      return {
        verified: false,
        ...withKid,
        failures: [
          ...failures,
          {
            pointer: '/signature/value',
            message: 'value must be the canonical base64url (no padding) of a 64-byte Ed25519 signature',
          },
        ],
      };
    const publicJwk = keyFor(typed.signature.kid);
    if (publicJwk === undefined)
      return {
        verified: false,
        ...withKid,
        failures: [
          ...failures,
          {
            pointer: '/signature/kid',
            message: `no public key for kid ${typed.signature.kid}: pass --key <public JWK file> or --keys <folder of public JWKs>`,
          },
        ],
      };
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x } as JsonWebKey,
      ED25519,
      false,
      ['verify'],
    );
    const intact = await crypto.subtle.verify(
      ED25519,
      key,
      bytes,
      receiptSigningInput(typed as unknown as UnsignedReceipt, typed.signature.kid),
    );
    if (!intact)
      failures.push({
        pointer: '/signature/value',
        message: 'the signature does not match the receipt (changed, or signed by another key)',
      });
    return failures.length === 0
      ? { verified: true, kid: typed.signature.kid, receipt: typed }
      : { verified: false, ...withKid, failures };
  } catch (error) {
    return {
      verified: false,
      failures: [{ pointer: '', message: `the receipt cannot be checked (${(error as Error).name})` }],
    };
  }
}
