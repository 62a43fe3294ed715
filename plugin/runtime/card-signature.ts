/**
 * Signed A2A AgentCards (A2A v1.0.1 §8.4): an Ed25519 (`EdDSA`) JWS per entry of `signatures`,
 * detached (RFC 7515 Appendix F: the payload travels as the card itself, not in the entry).
 * - Payload (§8.4.1): the card without `signatures`, fields at their proto default removed as the
 *   presence rules say (card-presence.ts), in RFC 8785 form (jcs.ts). Fields the proto does not
 *   name are kept, so they are signed too (`@a2a-js/sdk` drops them before signing: a card carrying
 *   such fields signed there does not verify here, which is the safer side).
 * - Signing input (§8.4.2 step 3): `BASE64URL(UTF8(protected header)) || '.' || BASE64URL(payload)`,
 *   the payload base64url-encoded as RFC 7515 §5.1 says (the spec does not use RFC 7797's
 *   unencoded `b64: false` payloads; a header naming `crit` is refused).
 * - Protected header: `{"alg":"EdDSA","typ":"JOSE","kid":<kid>}`; kid: the RFC 7638 thumbprint.
 * Portable: WebCrypto only (Node and workerd). `verifyAgentCard` never throws: it names what failed.
 */
import type { AgentCard, AgentCardSignature } from './agent-card';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';
import { CARD_SIGNATURE_ALG, ED25519, cardSigningInput, withCardSignature } from './card-jws';
import type { CardFieldSpec } from './card-presence';
import { CARD_MESSAGES } from './card-presence';
import { canonicalize } from './jcs';
import { jwkThumbprint } from './jwk-thumbprint';
import { importSigningKey } from './receipts';
import { findReservedMember } from './reserved-members';

export { CARD_SIGNATURE_ALG } from './card-jws';

/** An Ed25519 signature is 64 bytes: 86 base64url characters, no padding. */
const SIGNATURE_CHARS = 86;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isDefaultScalar(value: unknown): boolean {
  return value === '' || value === false || value === 0 || value === null;
}

function normalizeValue(value: unknown, spec: CardFieldSpec): unknown {
  return spec.type.startsWith('message:') ? normalizeMessage(value, spec.type.slice('message:'.length)) : value;
}

/** One message with its default-valued fields removed (§8.4.1 rule 1); unknown fields kept as they are. */
function normalizeMessage(value: unknown, messageName: string): unknown {
  const fields = CARD_MESSAGES[messageName];
  if (!fields || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const spec = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field === undefined) continue;
    if (!spec) {
      out[name] = field;
      continue;
    }
    if (spec.presence === 'required') {
      out[name] = normalizeContainer(field, spec);
      continue;
    }
    if (field === null) continue;
    if (spec.container === 'list') {
      if (Array.isArray(field) && field.length === 0) continue;
      out[name] = normalizeContainer(field, spec);
    } else if (spec.container === 'map') {
      if (isPlainObject(field) && Object.keys(field).length === 0) continue;
      out[name] = normalizeContainer(field, spec);
    } else if (spec.presence === 'implicit') {
      if (!isDefaultScalar(field)) out[name] = field;
    } else {
      out[name] = normalizeValue(field, spec);
    }
  }
  return out;
}

function normalizeContainer(field: unknown, spec: CardFieldSpec): unknown {
  if (spec.container === 'list' && Array.isArray(field)) return field.map((item) => normalizeValue(item, spec));
  if (spec.container === 'map' && isPlainObject(field)) {
    return Object.fromEntries(Object.entries(field).map(([key, item]) => [key, normalizeValue(item, spec)]));
  }
  return spec.container ? field : normalizeValue(field, spec);
}

/**
 * The §8.4.1 payload of a card: without `signatures`, default values removed, RFC 8785. Throws a
 * TypeError for a value with no canonical form (a lone surrogate, a non-finite number).
 */
export function agentCardSigningPayload(card: object): string {
  const { signatures: _signatures, ...unsigned } = card as Record<string, unknown>;
  return canonicalize(normalizeMessage(unsigned, 'AgentCard'));
}

/**
 * The card with one more entry in `signatures` (earlier entries kept, for key rotation). `kid`
 * defaults to the RFC 7638 thumbprint of the key when the key is a JWK. Rejects (TypeError) when
 * the key cannot sign with Ed25519 or no kid can be named; the message never holds key material.
 */
export async function signAgentCard<C extends AgentCard>(
  card: C,
  privateKey: JsonWebKey | CryptoKey,
  kid?: string,
): Promise<C & { signatures: AgentCardSignature[] }> {
  let keyId = kid;
  if (keyId === undefined) {
    if (typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey)
      throw new TypeError('signAgentCard: a CryptoKey needs an explicit kid');
    keyId = await jwkThumbprint(privateKey as JsonWebKey);
  }
  if (typeof keyId !== 'string' || keyId === '')
    throw new TypeError('signAgentCard: the kid must be a non-empty string');
  let key: CryptoKey;
  try {
    key = await importSigningKey(privateKey);
  } catch {
    throw new TypeError(
      'signAgentCard: the key is not an Ed25519 private key (a JWK with kty OKP, crv Ed25519, x and d)',
    );
  }
  return withCardSignature(card, agentCardSigningPayload(card), key, keyId);
}

export type CardSignatureFailureReason = 'bad-header' | 'unknown-kid' | 'unusable-key' | 'bad-signature';

export interface CardSignatureFailure {
  /** Index of the entry in `signatures`. */
  index: number;
  reason: CardSignatureFailureReason;
  /** What exactly failed (never key material). */
  detail: string;
  kid?: string;
}

export type CardVerification =
  | { ok: true; kid: string; index: number }
  | {
      ok: false;
      reason: 'not-a-card' | 'no-signatures' | 'not-canonical' | 'reserved-member';
      detail: string;
      failures: [];
      /** For `reserved-member`: the JSON Pointer of the member refused. */
      pointer?: string;
    }
  | { ok: false; reason: CardSignatureFailureReason; detail: string; failures: CardSignatureFailure[] };

export type PublicKeyResolver = (kid: string) => JsonWebKey | undefined | Promise<JsonWebKey | undefined>;

/** How far an entry got before failing: the card's reason is the furthest one. */
const REASON_RANK: Record<CardSignatureFailureReason, number> = {
  'bad-header': 0,
  'unknown-kid': 1,
  'unusable-key': 2,
  'bad-signature': 3,
};

type HeaderCheck = { kid: string } | { problem: string };

function readProtectedHeader(entry: Record<string, unknown>): HeaderCheck {
  const encoded = entry['protected'];
  if (typeof encoded !== 'string' || encoded === '')
    return { problem: '`protected` must be a non-empty base64url string' };
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(encoded)));
  } catch {
    return { problem: '`protected` is not the base64url of a UTF-8 JSON object' };
  }
  if (!isPlainObject(header)) return { problem: '`protected` is not the base64url of a JSON object' };
  if (header['alg'] !== CARD_SIGNATURE_ALG)
    return { problem: `alg ${JSON.stringify(header['alg'] ?? null)} is not supported (only "${CARD_SIGNATURE_ALG}")` };
  if (typeof header['kid'] !== 'string' || header['kid'] === '') return { problem: 'the protected header has no kid' };
  if (header['typ'] !== undefined && header['typ'] !== 'JOSE')
    return { problem: `typ ${JSON.stringify(header['typ'])} is not "JOSE"` };
  if (header['crit'] !== undefined)
    return { problem: 'the protected header names critical extensions (crit), which are not supported' };
  const unprotected = entry['header'];
  if (unprotected !== undefined) {
    if (!isPlainObject(unprotected)) return { problem: '`header` must be a JSON object' };
    const shared = Object.keys(unprotected).filter((name) => Object.hasOwn(header, name));
    if (shared.length > 0) return { problem: `\`header\` repeats protected parameters (${shared.join(', ')})` };
  }
  return { kid: header['kid'] };
}

function canonicalSignatureBytes(value: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof value !== 'string' || value.length !== SIGNATURE_CHARS || !/^[A-Za-z0-9_-]+$/.test(value))
    return undefined;
  const bytes = base64UrlToBytes(value);
  return bytes.length === 64 && bytesToBase64Url(bytes) === value ? bytes : undefined;
}

async function importPublicKey(jwk: unknown): Promise<CryptoKey | undefined> {
  if (!isPlainObject(jwk) || jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['x'] !== 'string')
    return undefined;
  try {
    return await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk['x'] }, ED25519, false, [
      'verify',
    ]);
  } catch {
    return undefined;
  }
}

async function verifyEntry(
  entry: unknown,
  index: number,
  payload: string,
  resolvePublicKey: PublicKeyResolver,
): Promise<CardSignatureFailure | { kid: string }> {
  if (!isPlainObject(entry)) return { index, reason: 'bad-header', detail: `signatures[${index}] is not an object` };
  const header = readProtectedHeader(entry);
  if ('problem' in header) return { index, reason: 'bad-header', detail: `signatures[${index}]: ${header.problem}` };
  const { kid } = header;
  let jwk: JsonWebKey | undefined;
  try {
    jwk = await resolvePublicKey(kid);
  } catch {
    return { index, kid, reason: 'unknown-kid', detail: `signatures[${index}]: resolving kid ${kid} failed` };
  }
  if (jwk === undefined || jwk === null)
    return { index, kid, reason: 'unknown-kid', detail: `signatures[${index}]: no public key is known for kid ${kid}` };
  const key = await importPublicKey(jwk);
  if (!key)
    return {
      index,
      kid,
      reason: 'unusable-key',
      detail: `signatures[${index}]: the key for kid ${kid} is not an Ed25519 public JWK`,
    };
  const signature = canonicalSignatureBytes(entry['signature']);
  if (!signature)
    return {
      index,
      kid,
      reason: 'bad-signature',
      detail: `signatures[${index}]: \`signature\` is not the base64url of 64 bytes`,
    };
  const valid = await crypto.subtle.verify(
    ED25519,
    key,
    signature,
    cardSigningInput(entry['protected'] as string, payload),
  );
  return valid
    ? { kid }
    : {
        index,
        kid,
        reason: 'bad-signature',
        detail: `signatures[${index}]: the signature does not match the card (changed, or signed by another key)`,
      };
}

/** What a card's signatures are checked over, or why it has nothing to check. */
type Prepared = { ok: true; entries: unknown[]; payload: string } | Extract<CardVerification, { failures: [] }>;

function prepare(card: unknown): Prepared {
  if (!isPlainObject(card))
    return { ok: false, reason: 'not-a-card', detail: 'the card is not a JSON object', failures: [] };
  // A member the payload would drop or a reader would see inherited is never signed content: refused.
  const reserved = findReservedMember(card);
  if (reserved !== undefined)
    return {
      ok: false,
      reason: 'reserved-member',
      detail: `${reserved.pointer || '(card)'}: ${reserved.problem}; a signature does not cover it`,
      pointer: reserved.pointer,
      failures: [],
    };
  const entries = card['signatures'];
  // ProtoJSON (§5.7): null is an unset field, like an absent or empty list.
  if (entries === undefined || entries === null || (Array.isArray(entries) && entries.length === 0)) {
    return { ok: false, reason: 'no-signatures', detail: 'the card has no signatures', failures: [] };
  }
  if (!Array.isArray(entries))
    return { ok: false, reason: 'not-a-card', detail: '`signatures` is not an array', failures: [] };
  try {
    return { ok: true, entries, payload: agentCardSigningPayload(card) };
  } catch (error) {
    return {
      ok: false,
      reason: 'not-canonical',
      detail: `the card has no RFC 8785 form (${error instanceof Error ? error.message : 'unknown value'})`,
      failures: [],
    };
  }
}

/**
 * Verifies a card (§8.4.3): verified when at least one entry of `signatures` verifies with the key
 * `resolvePublicKey` gives for its kid. Otherwise the failure of every entry, and as `reason` the
 * one that got furthest. A card holding a `__proto__`, `constructor` or `prototype` member, or an
 * object with inherited members, is refused (`reserved-member`). Never throws, whatever the card,
 * the entries or the resolver do. {@link checkEveryCardSignature} reports every entry instead.
 */
export async function verifyAgentCard(card: unknown, resolvePublicKey: PublicKeyResolver): Promise<CardVerification> {
  try {
    const prepared = prepare(card);
    if (!prepared.ok) return prepared;
    const failures: CardSignatureFailure[] = [];
    for (const [index, entry] of prepared.entries.entries()) {
      const outcome = await verifyEntry(entry, index, prepared.payload, resolvePublicKey);
      if ('reason' in outcome) failures.push(outcome);
      else return { ok: true, kid: outcome.kid, index };
    }
    const furthest = failures.reduce((a, b) => (REASON_RANK[b.reason] > REASON_RANK[a.reason] ? b : a));
    return { ok: false, reason: furthest.reason, detail: furthest.detail, failures };
  } catch {
    return { ok: false, reason: 'not-a-card', detail: 'the card could not be read', failures: [] };
  }
}

/** One entry of `signatures`, checked: its kid (when its header names one) and whether it verified. */
export type CardSignatureCheck =
  | { index: number; kid: string; verified: true }
  | (CardSignatureFailure & { verified: false });

export type CardSignaturesReport =
  | { ok: true; entries: CardSignatureCheck[] }
  | Extract<CardVerification, { failures: [] }>;

/**
 * Every entry of a card's `signatures` checked, in order (none skipped once one verifies), so a
 * verifier can report each and fail a card carrying a forged entry beside a valid one. `ok: false`
 * only when there is nothing to check (not a card, no signatures, no canonical form, a reserved
 * member). Never throws.
 */
export async function checkEveryCardSignature(
  card: unknown,
  resolvePublicKey: PublicKeyResolver,
): Promise<CardSignaturesReport> {
  try {
    const prepared = prepare(card);
    if (!prepared.ok) return prepared;
    const entries: CardSignatureCheck[] = [];
    for (const [index, entry] of prepared.entries.entries()) {
      const outcome = await verifyEntry(entry, index, prepared.payload, resolvePublicKey);
      entries.push('reason' in outcome ? { ...outcome, verified: false } : { index, kid: outcome.kid, verified: true });
    }
    return { ok: true, entries };
  } catch {
    return { ok: false, reason: 'not-a-card', detail: 'the card could not be read', failures: [] };
  }
}
