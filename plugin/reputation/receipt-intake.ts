/**
 * One line of a receipt stream, checked as `agentdef verify` checks it, then sorted into what a
 * score may rest on: a run receipt (`receipt/v1`, runtime/receipts.ts `verifyReceiptText`), an eval
 * receipt (`eval-receipt/v1`, eval/eval-receipt.ts) or a lifecycle receipt (trust/lifecycle-receipt.ts),
 * verified against a trusted key and signed by a key trusted for the agent it names; or a
 * rejection with its reason: `malformed` (not strict JSON, not a receipt, or a receipt whose
 * members a score needs are missing), `unsigned`, `untrusted-signer` (no trusted key for its kid,
 * or one not trusted for that agent), `forged-signature` (the signature does not verify). Never
 * throws.
 */
import { type EvalReceipt, EVAL_RECEIPT_VERSION, verifyEvalReceipt } from '../eval/eval-receipt';
import { RECEIPT_VERSION, type Receipt, verifyReceiptText } from '../runtime/receipts';
import { parseSignedJson } from '../runtime/strict-json';
import { dateTimeStampMillis } from '../trust/data-integrity';
import { LIFECYCLE_RECEIPT_VERSION, type LifecycleReceipt, verifyLifecycleReceipt } from '../trust/lifecycle-receipt';

export type RejectionReason = 'forged-signature' | 'unsigned' | 'untrusted-signer' | 'replayed' | 'malformed';

/** A public key a reputation trusts, for every agent or only for the slugs listed. */
export interface TrustedKey {
  publicJwk: JsonWebKey;
  /** The slugs this key may sign receipts for; absent: any agent. */
  slugs?: readonly string[];
}

/** The trusted key for a kid (RFC 7638 thumbprint, or the `kid` member of a trusted JWK), if any. */
export type TrustedKeyLookup = (kid: string) => Promise<TrustedKey | undefined>;

export interface AgentRef {
  slug: string;
  version: string;
}

export type IntakeResult =
  | { ok: true; kind: 'run'; agent: AgentRef; atMs: number; receipt: Receipt }
  | { ok: true; kind: 'eval'; agent: AgentRef; receipt: EvalReceipt }
  | { ok: true; kind: 'lifecycle'; agent: AgentRef; atMs: number; receipt: LifecycleReceipt }
  | { ok: false; reason: RejectionReason; pointer: string; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const reject = (reason: RejectionReason, pointer: string, message: string): IntakeResult => ({
  ok: false,
  reason,
  pointer,
  message,
});

function untrustedFor(kid: string, slug: string): IntakeResult {
  return reject('untrusted-signer', '/signature/kid', `kid ${kid} is a trusted key, but not for ${slug}`);
}

function noKey(kid: string): IntakeResult {
  return reject('untrusted-signer', '/signature/kid', `no trusted key for kid ${kid}`);
}

const trustedFor = (key: TrustedKey, slug: string) => key.slugs === undefined || key.slugs.includes(slug);

/** The signature object's kid, or the rejection of a receipt that has none to check. */
function signatureKid(document: Record<string, unknown>): string | IntakeResult {
  const signature = document['signature'];
  if (signature === undefined || signature === null)
    return reject('unsigned', '/signature', 'the receipt has no signature');
  if (!isRecord(signature)) return reject('malformed', '/signature', 'the signature is not an object');
  const kid = signature['kid'];
  if (typeof kid !== 'string' || kid === '') return reject('malformed', '/signature/kid', 'the signature names no kid');
  return kid;
}

function runAgent(receipt: Record<string, unknown>): { agent: AgentRef; atMs: number } | undefined {
  const pinning = receipt['pinning'];
  const outcome = receipt['outcome'];
  if (!isRecord(pinning) || !isRecord(outcome)) return undefined;
  const { card, cardVersion, skill } = pinning;
  if (typeof card !== 'string' || typeof cardVersion !== 'string' || typeof skill !== 'string') return undefined;
  if (typeof receipt['runId'] !== 'string' || receipt['runId'] === '') return undefined;
  if (typeof receipt['latencyMs'] !== 'number' || !Number.isFinite(receipt['latencyMs'])) return undefined;
  if (!['answer', 'limit', 'error'].includes(outcome['status'] as string)) return undefined;
  const atMs = dateTimeStampMillis(receipt['issuedAt']);
  if (atMs === undefined || !Number.isFinite(atMs)) return undefined;
  return { agent: { slug: card, version: cardVersion }, atMs };
}

/** Checks one receipt line (its text as read). */
export async function takeInReceipt(text: string, keyFor: TrustedKeyLookup): Promise<IntakeResult> {
  try {
    const parsed = parseSignedJson(text);
    if (!parsed.ok)
      return reject(
        'malformed',
        parsed.pointer,
        `not strict JSON (line ${parsed.line}, column ${parsed.column}): ${parsed.reason}`,
      );
    const document = parsed.value;
    if (!isRecord(document)) return reject('malformed', '', 'a receipt is a JSON object');
    const version = document['receiptVersion'];
    if (version !== RECEIPT_VERSION && version !== EVAL_RECEIPT_VERSION && version !== LIFECYCLE_RECEIPT_VERSION)
      return reject(
        'malformed',
        '/receiptVersion',
        `not a run, eval or lifecycle receipt (receiptVersion ${JSON.stringify(version ?? null)})`,
      );
    const kid = signatureKid(document);
    if (typeof kid !== 'string') return kid;
    const key = await keyFor(kid);
    if (version === RECEIPT_VERSION) return runReceipt(text, document, kid, key);
    if (version === EVAL_RECEIPT_VERSION) return evalReceipt(document, kid, key);
    return lifecycleReceipt(document, kid, key);
  } catch (error) {
    return reject('malformed', '', `the receipt cannot be checked (${(error as Error).name})`);
  }
}

async function runReceipt(
  text: string,
  document: Record<string, unknown>,
  kid: string,
  key: TrustedKey | undefined,
): Promise<IntakeResult> {
  if (key === undefined) return noKey(kid);
  if (!(await verifyReceiptText(text, key.publicJwk)))
    return reject(
      'forged-signature',
      '/signature/value',
      'the signature does not verify (the receipt was changed, or another key signed it)',
    );
  const read = runAgent(document);
  if (read === undefined)
    return reject(
      'malformed',
      '',
      'a signed run receipt without the members a score needs (runId, issuedAt, pinning, latencyMs, outcome.status)',
    );
  if (!trustedFor(key, read.agent.slug)) return untrustedFor(kid, read.agent.slug);
  return { ok: true, kind: 'run', agent: read.agent, atMs: read.atMs, receipt: document as unknown as Receipt };
}

/** Sorts a verifier's failures into one reason: a forged signature first, then no key, then the rest. */
function reasonOf(failures: readonly { pointer: string; message: string }[]): IntakeResult {
  const forged = failures.find((f) => f.pointer === '/signature/value');
  if (forged !== undefined) return reject('forged-signature', forged.pointer, forged.message);
  const unknown = failures.find((f) => f.message.startsWith('no public key for kid'));
  if (unknown !== undefined) return reject('untrusted-signer', unknown.pointer, 'no trusted key for this kid');
  const first = failures[0] ?? { pointer: '', message: 'does not verify' };
  return reject('malformed', first.pointer, first.message);
}

async function evalReceipt(
  document: Record<string, unknown>,
  kid: string,
  key: TrustedKey | undefined,
): Promise<IntakeResult> {
  const check = await verifyEvalReceipt(document, () => key?.publicJwk);
  if (!check.verified) return reasonOf(check.failures);
  const { slug, version } = check.receipt.definition;
  if (key === undefined) return noKey(kid);
  if (!trustedFor(key, slug)) return untrustedFor(kid, slug);
  return { ok: true, kind: 'eval', agent: { slug, version }, receipt: check.receipt };
}

async function lifecycleReceipt(
  document: Record<string, unknown>,
  kid: string,
  key: TrustedKey | undefined,
): Promise<IntakeResult> {
  const check = await verifyLifecycleReceipt(document, () => key?.publicJwk);
  if (!check.verified) return reasonOf(check.failures);
  const receipt = document as unknown as LifecycleReceipt;
  const agent = receipt.agent;
  if (!isRecord(agent) || typeof agent.slug !== 'string' || typeof agent.versionSemver !== 'string')
    return reject('malformed', '/agent', 'a lifecycle receipt names its agent (slug, versionSemver)');
  if (key === undefined) return noKey(kid);
  if (!trustedFor(key, agent.slug)) return untrustedFor(kid, agent.slug);
  const atMs = dateTimeStampMillis(receipt.at) ?? 0;
  return { ok: true, kind: 'lifecycle', agent: { slug: agent.slug, version: agent.versionSemver }, atMs, receipt };
}
