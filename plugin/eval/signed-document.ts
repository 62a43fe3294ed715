/**
 * The signed JSON documents eval writes (eval receipts, tool benchmark events): signed with the
 * run receipts' scheme and code (runtime/receipts.ts `receiptSigningInput`, `importSigningKey`):
 * Ed25519 over the RFC 8785 canonical JSON of the document whose `signature` holds only `alg` and
 * `kid`. Verification is one sequence for every kind, each naming what failed and where, never
 * throwing: a JSON object; a signature object (else unsigned); the kind's closed schema; the kind's
 * own consistency checks; the canonical base64url of 64 bytes; a known key; the signature itself.
 */
import { schemaValidator } from '../application/schema-validator';
import { base64UrlToBytes, bytesToBase64Url } from '../runtime/base64url';
import { importSigningKey, receiptSigningInput, type UnsignedReceipt } from '../runtime/receipts';

const ED25519 = { name: 'Ed25519' } as const;

export interface SignedDocumentFailure {
  pointer: string;
  message: string;
}

export interface Signature {
  alg: 'Ed25519';
  kid: string;
  value: string;
}

export type SignedDocumentCheck<T> =
  | { verified: true; kid: string; document: T }
  | { verified: false; kid?: string; failures: SignedDocumentFailure[] };

/** What one kind of document says in its failures, and its own checks. */
export interface SignedDocumentKind<T> {
  schema: object;
  /** What a document that is not a JSON object is told. */
  notAnObject: string;
  /** What a document with no signature object is told. */
  unsigned: string;
  /** `receipt`, `events`: for "the signature does not match the …", "the … cannot be checked". */
  noun: string;
  /** `eval-receipt/v1`: named in schema failures. */
  schemaName: string;
  /** `an eval receipt`, `tool benchmark events`: "is not a member of …". */
  memberOf: string;
  /** What to do when no public key is known for the kid (appended to the message). */
  noKeyHint?: string;
  /** The kind's checks beyond the schema (counts that disagree, and the like). */
  consistency?: (document: T) => SignedDocumentFailure[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Signs with an Ed25519 private key (JWK, its JSON text, or a CryptoKey); `kid` is its RFC 7638 thumbprint. */
export async function signDocument<U extends object>(
  unsigned: U,
  key: CryptoKey | JsonWebKey | string,
  kid: string,
): Promise<U & { signature: Signature }> {
  const cryptoKey = await importSigningKey(key);
  const value = new Uint8Array(
    await crypto.subtle.sign(ED25519, cryptoKey, receiptSigningInput(unsigned as unknown as UnsignedReceipt, kid)),
  );
  return { ...unsigned, signature: { alg: 'Ed25519', kid, value: bytesToBase64Url(value) } };
}

/** The file's text: two-space indented JSON and a newline (read back strictly). */
export function signedDocumentText(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function schemaFailures(kind: SignedDocumentKind<unknown>, document: unknown): SignedDocumentFailure[] {
  const validate = schemaValidator(kind.schema);
  if (validate(document)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => ({
    pointer:
      e.keyword === 'additionalProperties'
        ? `${e.instancePath}/${String((e.params as { additionalProperty?: unknown }).additionalProperty)}`
        : e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? `is not a member of ${kind.memberOf}`
        : `${e.message ?? 'is invalid'} (${kind.schemaName} schema)`,
  }));
}

/**
 * Verifies a document (parsed strictly by the caller: runtime/strict-json.ts `parseSignedJson`)
 * against the signer's public JWK (`keyFor(kid)`; undefined: no key known).
 */
export async function verifySignedDocument<T extends { signature: Signature }>(
  kind: SignedDocumentKind<T>,
  document: unknown,
  keyFor: (kid: string) => JsonWebKey | undefined,
): Promise<SignedDocumentCheck<T>> {
  try {
    if (!isRecord(document)) return { verified: false, failures: [{ pointer: '', message: kind.notAnObject }] };
    const signature = document['signature'];
    if (!isRecord(signature))
      return {
        verified: false,
        failures: [{ pointer: '/signature', message: kind.unsigned }],
      };
    const kid = typeof signature['kid'] === 'string' && signature['kid'] !== '' ? signature['kid'] : undefined;
    const withKid = kid === undefined ? {} : { kid };
    const shape = schemaFailures(kind as SignedDocumentKind<unknown>, document);
    if (shape.length > 0) return { verified: false, ...withKid, failures: shape };
    const typed = document as unknown as T;
    const failures = kind.consistency?.(typed) ?? [];
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
            message: `no public key for kid ${typed.signature.kid}${kind.noKeyHint === undefined ? '' : `: ${kind.noKeyHint}`}`,
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
        message: `the signature does not match the ${kind.noun} (changed, or signed by another key)`,
      });
    return failures.length === 0
      ? { verified: true, kid: typed.signature.kid, document: typed }
      : { verified: false, ...withKid, failures };
  } catch (error) {
    return {
      verified: false,
      failures: [{ pointer: '', message: `the ${kind.noun} cannot be checked (${(error as Error).name})` }],
    };
  }
}
