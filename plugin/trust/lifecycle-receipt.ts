/**
 * Lifecycle transition receipts (`agentdef.lifecycle-transition/v1`): one signed line per change of
 * a definition's `lifecycleState`, appended to `<agent folder>/lifecycle.receipts.jsonl` by
 * `agentdef promote`. A receipt names the agent, the direction (promotion or demotion), the stages,
 * the definition's digest before and after (SHA-256 of its RFC 8785 form), the stages a promotion
 * passed because they do not apply (`skipped`: only `composed`, for a leaf), the time the shell
 * gave, and the signer's kid (RFC 7638 thumbprint).
 *
 * Signature: Ed25519 over the RFC 8785 canonical JSON of the receipt whose `signature` holds only
 * `alg` and `kid` (the run receipts' scheme, runtime/receipts.ts), so every member but the value is
 * covered. Verification is strict (exactly `alg`, `kid`, `value`; the canonical base64url of 64
 * bytes) and never throws.
 */
import { base64UrlToBytes, bytesToBase64Url } from '../runtime/base64url';
import { canonicalize } from '../runtime/jcs';
import { dateTimeStampMillis } from './data-integrity';
import type { LifecycleState } from '../runtime/runtime-config';

export const LIFECYCLE_RECEIPT_VERSION = 'agentdef.lifecycle-transition/v1';
/** The file, in the agent's folder, the receipts are appended to. */
export const LIFECYCLE_RECEIPTS_FILE = 'lifecycle.receipts.jsonl';

const ED25519 = { name: 'Ed25519' } as const;

export interface LifecycleReceipt {
  receiptVersion: typeof LIFECYCLE_RECEIPT_VERSION;
  agent: { id: string; slug: string; versionSemver: string; versionId: string };
  transition: 'promotion' | 'demotion';
  from: LifecycleState;
  to: LifecycleState;
  definition: {
    /** The definition file's name in the agent folder. */
    file: string;
    /** `sha-256:<hex>` of the RFC 8785 form of the definition before the change. */
    digestBefore: string;
    digestAfter: string;
  };
  /**
   * The stages a promotion passed without stopping because they do not apply to this definition
   * (only `composed`, which applies to compositions: a leaf goes from `kym-registered` to
   * `marketplace-published`). Present exactly when a promotion moves more than one stage, listing
   * every stage in between, each with why it does not apply.
   */
  skipped?: SkippedStage[];
  /** RFC 3339 time of the transition (given by the shell: `--at`, or its clock). */
  at: string;
  signature: { alg: 'Ed25519'; kid: string; value: string };
}

/** A stage a promotion passed because it does not apply to the definition. */
export interface SkippedStage {
  stage: LifecycleState;
  /** Why it does not apply, e.g. `composition.kind is "leaf": composed applies to compositions (a DAG of pinned agents)`. */
  reason: string;
}

/** The stages that may not apply to a definition, so a promotion can pass them: `composed`, which a leaf has no use for. */
export const SKIPPABLE_STAGES: readonly LifecycleState[] = ['composed'];

export type UnsignedLifecycleReceipt = Omit<LifecycleReceipt, 'signature'>;

/** `sha-256:<hex>` of the RFC 8785 canonical form of a JSON value (throws only on a value with none). */
export async function definitionDigest(value: unknown): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalize(value))));
  return `sha-256:${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function signingInput(receipt: Record<string, unknown>, kid: string): Uint8Array<ArrayBuffer> {
  const { signature: _ignored, ...rest } = receipt;
  return new TextEncoder().encode(canonicalize({ ...rest, signature: { alg: 'Ed25519', kid } }));
}

/** Signs a receipt with an Ed25519 private JWK; `kid` is the key's RFC 7638 thumbprint. */
export async function signLifecycleReceipt(
  unsigned: UnsignedLifecycleReceipt,
  privateJwk: JsonWebKey,
  kid: string,
): Promise<LifecycleReceipt> {
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x, d: privateJwk.d } as JsonWebKey,
    ED25519,
    false,
    ['sign'],
  );
  const value = new Uint8Array(
    await crypto.subtle.sign(ED25519, key, signingInput(unsigned as unknown as Record<string, unknown>, kid)),
  );
  return { ...unsigned, signature: { alg: 'Ed25519', kid, value: bytesToBase64Url(value) } };
}

export interface LifecycleReceiptFailure {
  pointer: string;
  message: string;
}

export type LifecycleReceiptCheck =
  | { verified: true; kid: string }
  | { verified: false; kid?: string; failures: LifecycleReceiptFailure[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const STAGES: readonly string[] = [
  'tool-prototype',
  'tool-shipped',
  'mcp-resident',
  'kym-registered',
  'composed',
  'marketplace-published',
];

/** Shape problems of a receipt: what a verifier names before it checks the signature. */
function shapeFailures(receipt: Record<string, unknown>): LifecycleReceiptFailure[] {
  const failures: LifecycleReceiptFailure[] = [];
  if (receipt['receiptVersion'] !== LIFECYCLE_RECEIPT_VERSION)
    failures.push({ pointer: '/receiptVersion', message: `receiptVersion must be "${LIFECYCLE_RECEIPT_VERSION}"` });
  for (const member of ['from', 'to'] as const) {
    if (!STAGES.includes(receipt[member] as string))
      failures.push({ pointer: `/${member}`, message: `${member} must be a lifecycle stage (${STAGES.join(', ')})` });
  }
  const from = STAGES.indexOf(receipt['from'] as string);
  const to = STAGES.indexOf(receipt['to'] as string);
  const skipped = receipt['skipped'];
  if (from >= 0 && to >= 0) {
    const expected = to > from ? 'promotion' : 'demotion';
    const between = to > from + 1 ? STAGES.slice(from + 1, to) : [];
    if (to === from) failures.push({ pointer: '/to', message: 'from and to are the same stage: nothing changed' });
    else if (receipt['transition'] !== expected)
      failures.push({
        pointer: '/transition',
        message: `transition must be "${expected}" for ${receipt['from']} to ${receipt['to']}`,
      });
    if (between.length > 0) failures.push(...skippedFailures(skipped, between, receipt));
    else if (skipped !== undefined)
      failures.push({
        pointer: '/skipped',
        message: 'skipped lists the stages a promotion passed; this transition passes none',
      });
  } else if (skipped !== undefined && !Array.isArray(skipped))
    failures.push({ pointer: '/skipped', message: 'skipped must be a list of { stage, reason }' });
  if (!Number.isFinite(dateTimeStampMillis(receipt['at']) ?? Number.NaN))
    failures.push({ pointer: '/at', message: 'at must be an RFC 3339 date-time with its time zone' });
  const definition = receipt['definition'];
  if (!isRecord(definition))
    failures.push({ pointer: '/definition', message: 'definition (file, digestBefore, digestAfter) is required' });
  else {
    for (const member of ['digestBefore', 'digestAfter'] as const) {
      if (typeof definition[member] !== 'string' || !/^sha-256:[0-9a-f]{64}$/.test(definition[member]))
        failures.push({ pointer: `/definition/${member}`, message: `${member} must be sha-256:<64 hex>` });
    }
  }
  return failures;
}

/**
 * A promotion past stages: `skipped` must list exactly the stages in between, in order, each one
 * that may not apply (SKIPPABLE_STAGES) with a reason; anything else is a promotion that skipped a
 * gate.
 */
function skippedFailures(
  skipped: unknown,
  between: readonly string[],
  receipt: Record<string, unknown>,
): LifecycleReceiptFailure[] {
  const jump = `"${receipt['from']}" to "${receipt['to']}" passes ${between.map((s) => `"${s}"`).join(', ')}`;
  const unskippable = between.filter((stage) => !SKIPPABLE_STAGES.includes(stage as LifecycleState));
  if (unskippable.length > 0) {
    return [
      {
        pointer: '/to',
        message: `"${receipt['from']}" to "${receipt['to']}" skips "${unskippable[0]}": a promotion moves one stage at a time through every stage that applies, and "${unskippable[0]}" applies to every agent`,
      },
    ];
  }
  if (!Array.isArray(skipped))
    return [
      {
        pointer: '/skipped',
        message: `${jump}: a receipt that passes stages lists them in skipped, each with why it does not apply`,
      },
    ];
  const failures: LifecycleReceiptFailure[] = [];
  if (skipped.length !== between.length)
    failures.push({ pointer: '/skipped', message: `${jump}: skipped must list exactly those stages` });
  skipped.forEach((entry, index) => {
    const record = isRecord(entry) ? entry : undefined;
    if (
      record === undefined ||
      Object.keys(record).length !== 2 ||
      record['stage'] !== between[index] ||
      typeof record['reason'] !== 'string' ||
      record['reason'] === ''
    ) {
      failures.push({
        pointer: `/skipped/${index}`,
        message: `must be exactly { "stage": "${between[index] ?? '(none)'}", "reason": "<why it does not apply>" }`,
      });
    }
  });
  return failures;
}

/**
 * Verifies one lifecycle receipt against the signer's public JWK (`keyFor(kid)`; undefined: no key
 * known for that kid). Says what failed and where; never throws.
 */
export async function verifyLifecycleReceipt(
  receipt: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<LifecycleReceiptCheck> {
  try {
    if (!isRecord(receipt))
      return { verified: false, failures: [{ pointer: '', message: 'a lifecycle receipt is a JSON object' }] };
    const failures = shapeFailures(receipt);
    const signature = receipt['signature'];
    if (!isRecord(signature))
      return {
        verified: false,
        failures: [...failures, { pointer: '/signature', message: 'the receipt has no signature object' }],
      };
    const members = Object.keys(signature);
    if (members.length !== 3 || !['alg', 'kid', 'value'].every((m) => Object.hasOwn(signature, m))) {
      return {
        verified: false,
        failures: [
          ...failures,
          { pointer: '/signature', message: 'the signature must have exactly the members alg, kid and value' },
        ],
      };
    }
    const kid = signature['kid'];
    if (signature['alg'] !== 'Ed25519') failures.push({ pointer: '/signature/alg', message: 'alg must be "Ed25519"' });
    if (typeof kid !== 'string' || kid === '')
      return {
        verified: false,
        failures: [...failures, { pointer: '/signature/kid', message: 'kid must be a non-empty string' }],
      };
    const value = signature['value'];
    const bytes = typeof value === 'string' && /^[A-Za-z0-9_-]{86}$/.test(value) ? base64UrlToBytes(value) : undefined;
    if (bytes === undefined || bytes.length !== 64 || bytesToBase64Url(bytes) !== value) {
      return {
        verified: false,
        kid,
        failures: [
          ...failures,
          {
            pointer: '/signature/value',
            message: 'value must be the canonical base64url (no padding) of a 64-byte Ed25519 signature',
          },
        ],
      };
    }
    const publicJwk = keyFor(kid);
    if (publicJwk === undefined)
      return {
        verified: false,
        kid,
        failures: [
          ...failures,
          {
            pointer: '/signature/kid',
            message: `no public key for kid ${kid}: pass --key <public JWK file> or --keys <folder of public JWKs>`,
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
      bytes as Uint8Array<ArrayBuffer>,
      signingInput(receipt, kid),
    );
    if (!intact)
      failures.push({
        pointer: '/signature/value',
        message: 'the signature does not match the receipt (changed, or signed by another key)',
      });
    return failures.length === 0 ? { verified: true, kid } : { verified: false, kid, failures };
  } catch (error) {
    return {
      verified: false,
      failures: [{ pointer: '', message: `the receipt cannot be checked (${(error as Error).name})` }],
    };
  }
}

/**
 * Continuity of a receipts file: each receipt starts at the stage the one before it ended at (its
 * `from` is the previous `to`) and is not earlier. The definition may change between transitions
 * (a promotion often needs a field first), so digests are not chained. Returns one failure per
 * broken link, keyed by the index of the later receipt.
 */
export function lifecycleChainFailures(
  receipts: readonly unknown[],
): { index: number; failure: LifecycleReceiptFailure }[] {
  const out: { index: number; failure: LifecycleReceiptFailure }[] = [];
  for (let i = 1; i < receipts.length; i++) {
    const previous = receipts[i - 1];
    const current = receipts[i];
    if (!isRecord(previous) || !isRecord(current)) continue;
    if (current['from'] !== previous['to'])
      out.push({
        index: i,
        failure: {
          pointer: '/from',
          message: `from is "${String(current['from'])}" but the previous receipt ended at "${String(previous['to'])}"`,
        },
      });
    const [now, before] = [dateTimeStampMillis(current['at']), dateTimeStampMillis(previous['at'])];
    if (now !== undefined && before !== undefined && now < before) {
      out.push({
        index: i,
        failure: { pointer: '/at', message: `at is earlier than the previous receipt's (${previous['at']})` },
      });
    }
  }
  return out;
}
