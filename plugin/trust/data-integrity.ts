/**
 * The `eddsa-jcs-2022` Data Integrity cryptosuite (W3C Recommendation "Data Integrity EdDSA
 * Cryptosuites v1.0", §3.3), create and verify, step by step as the Recommendation writes them:
 *
 * - proof configuration (§3.3.5): the proof options with `type` `DataIntegrityProof`, `cryptosuite`
 *   `eddsa-jcs-2022`, a valid `created` if any, and (§3.3.1 step 2) the document's `@context`;
 *   RFC 8785 (plugin/runtime/jcs.ts) of it;
 * - transformation (§3.3.3): RFC 8785 of the document without its `proof`;
 * - hashing (§3.3.4): SHA-256 of the canonical proof configuration, then SHA-256 of the canonical
 *   document, concatenated (64 bytes);
 * - serialization (§3.3.6): an Ed25519 (pure EdDSA) signature of those 64 bytes; `proofValue` is
 *   its Multibase base58btc form.
 *
 * Every intermediate is returned (`JcsProofTrace`) so the W3C vectors can be checked byte for
 * byte. Verification resolves `did:key` verification methods itself (did-key.ts) and anything else
 * through the caller's resolver. Nothing throws on bad input: failures are located by JSON Pointer.
 * The private key is never put in any result or message.
 */
import { canonicalize } from '../runtime/jcs';
import { multibaseBase58btcDecode, multibaseBase58btcEncode } from './base58btc';
import { resolveDidKey } from './did-key';
import { publicKeyBytesOfJwk } from './multikey';

export const DATA_INTEGRITY_PROOF = 'DataIntegrityProof';
export const EDDSA_JCS_2022 = 'eddsa-jcs-2022';
const ED25519 = { name: 'Ed25519' } as const;

/** The options a proof is created from (everything but `proofValue`). */
export interface ProofOptions {
  type: typeof DATA_INTEGRITY_PROOF;
  cryptosuite: typeof EDDSA_JCS_2022;
  verificationMethod: string;
  proofPurpose: string;
  created?: string;
  expires?: string;
  '@context'?: unknown;
  [member: string]: unknown;
}

export type DataIntegrityProof = ProofOptions & { proofValue: string };

/** One reason a proof was not created or did not verify, at a JSON Pointer into the document. */
export interface IntegrityFailure {
  pointer: string;
  message: string;
}

/** Every intermediate of §3.3.1 / §3.3.2, for conformance tests and diagnostics. */
export interface JcsProofTrace {
  proofConfig: Record<string, unknown>;
  canonicalProofConfig: string;
  canonicalDocument: string;
  proofConfigHash: Uint8Array;
  documentHash: Uint8Array;
  hashData: Uint8Array;
}

export type CreateProofResult =
  | { ok: true; proof: DataIntegrityProof; trace: JcsProofTrace; signature: Uint8Array }
  | { ok: false; failures: IntegrityFailure[] };

export interface VerifyProofOptions {
  /** Public keys for verification methods that are not did:key (did:key resolves itself). */
  resolveVerificationMethod?: (id: string) => JsonWebKey | undefined;
  /** The proof purpose the verifier expects (default `assertionMethod`). */
  expectedProofPurpose?: string;
}

export interface ProofVerification {
  verified: boolean;
  failures: IntegrityFailure[];
  /** The proof's verification method, when it had one. */
  verificationMethod?: string;
  /** The DID that controls the key, for a did:key verification method. */
  controller?: string;
  trace?: JcsProofTrace;
}

/** XML Schema 1.1 dateTime (the form `created` and `expires` must have). */
const XSD_DATE_TIME =
  /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))?$/;

export function isXsdDateTime(value: unknown): value is string {
  return typeof value === 'string' && XSD_DATE_TIME.test(value);
}

const DATE_TIME_STAMP_PARTS = /^(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:Z|([+-])(\d\d):(\d\d))$/;

/** Beyond this many years from 0 a time is before or after every time a check is made at. */
const YEARS_DATE_HOLDS = 200_000;

/**
 * The instant of an XML Schema 1.1 dateTimeStamp (a dateTime with its time zone, the form VC 2.0
 * gives `validFrom` and `validUntil`) in milliseconds since the epoch, or undefined when `value` is
 * not one (a day the month does not have included). Unlike `Date.parse` it never reads the host's
 * time zone and holds every year: years past what a Date holds are ±Infinity, never NaN (which
 * would let a window check pass unnoticed).
 */
export function dateTimeStampMillis(value: unknown): number | undefined {
  if (!isXsdDateTime(value)) return undefined;
  const parts = DATE_TIME_STAMP_PARTS.exec(value);
  if (parts === null) return undefined; // no time zone
  const [, yearText, monthText, dayText, hour, minute, second, fraction, sign, zoneHours, zoneMinutes] =
    parts as unknown as string[];
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day > days) return undefined;
  if (Math.abs(year) > YEARS_DATE_HOLDS) return year > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(
    Number(hour),
    Number(minute),
    Number(second),
    fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
  );
  const offset =
    sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes)) * 60_000;
  return date.getTime() - offset;
}

/**
 * A proof that says it was created after the time a check is made at (`atMs`) does not verify at
 * that time: a credential or document signed later cannot be what was valid then. A `created`
 * without a time zone counts as the latest instant it can name (14 hours ahead of UTC). Undefined
 * when the proof names no `created`, or one at or before `atMs`.
 */
export function proofCreatedAfter(document: unknown, atMs: number): IntegrityFailure | undefined {
  const proof = isRecord(document) ? document['proof'] : undefined;
  const created = isRecord(proof) ? proof['created'] : undefined;
  if (created === undefined || Number.isNaN(atMs)) return undefined;
  const latest =
    dateTimeStampMillis(created) ?? (isXsdDateTime(created) ? dateTimeStampMillis(`${created}-14:00`) : undefined);
  if (latest === undefined || latest <= atMs) return undefined;
  return {
    pointer: '/proof/created',
    message: `the proof was created at ${created}, after the time it is checked at`,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jcs(value: unknown): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: canonicalize(value) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * §3.3.5: the proof configuration and its canonical form, or the failures (at `base`, the
 * pointer of the proof in the secured document).
 */
export function proofConfiguration(
  options: Record<string, unknown>,
  base = '/proof',
):
  | { ok: true; proofConfig: Record<string, unknown>; canonicalProofConfig: string }
  | { ok: false; failures: IntegrityFailure[] } {
  const failures: IntegrityFailure[] = [];
  if (options['type'] !== DATA_INTEGRITY_PROOF)
    failures.push({
      pointer: `${base}/type`,
      message: `proof type must be "${DATA_INTEGRITY_PROOF}", found ${describe(options['type'])}`,
    });
  if (options['cryptosuite'] !== EDDSA_JCS_2022)
    failures.push({
      pointer: `${base}/cryptosuite`,
      message: `cryptosuite must be "${EDDSA_JCS_2022}", found ${describe(options['cryptosuite'])}`,
    });
  if (options['created'] !== undefined && !isXsdDateTime(options['created']))
    failures.push({
      pointer: `${base}/created`,
      message: `created must be an XML Schema dateTime, found ${describe(options['created'])}`,
    });
  if (failures.length > 0) return { ok: false, failures };
  const proofConfig = { ...options };
  const canonical = jcs(proofConfig);
  if (!canonical.ok)
    return {
      ok: false,
      failures: [{ pointer: base, message: `the proof configuration has no RFC 8785 form: ${canonical.reason}` }],
    };
  return { ok: true, proofConfig, canonicalProofConfig: canonical.text };
}

/** §3.3.3: the canonical document (RFC 8785), or why there is none. */
export function transformDocument(
  unsecuredDocument: unknown,
): { ok: true; canonicalDocument: string } | { ok: false; failures: IntegrityFailure[] } {
  const canonical = jcs(unsecuredDocument);
  return canonical.ok
    ? { ok: true, canonicalDocument: canonical.text }
    : { ok: false, failures: [{ pointer: '', message: `the document has no RFC 8785 form: ${canonical.reason}` }] };
}

/** §3.3.4: SHA-256(canonical proof config) ‖ SHA-256(canonical document). */
export async function hashJcs(
  canonicalDocument: string,
  canonicalProofConfig: string,
): Promise<Pick<JcsProofTrace, 'proofConfigHash' | 'documentHash' | 'hashData'>> {
  const proofConfigHash = await sha256(canonicalProofConfig);
  const documentHash = await sha256(canonicalDocument);
  const hashData = new Uint8Array(64);
  hashData.set(proofConfigHash, 0);
  hashData.set(documentHash, 32);
  return { proofConfigHash, documentHash, hashData };
}

/**
 * §3.3.1 Create Proof. `privateJwk` is the OKP Ed25519 private JWK (`x` and `d`); when the
 * verification method is a did:key it must be that key's public half.
 */
export async function createEddsaJcs2022Proof(
  unsecuredDocument: unknown,
  options: ProofOptions,
  privateJwk: JsonWebKey,
): Promise<CreateProofResult> {
  if (!isRecord(unsecuredDocument))
    return { ok: false, failures: [{ pointer: '', message: 'the document must be a JSON object' }] };
  if (!isRecord(options))
    return { ok: false, failures: [{ pointer: '/proof', message: 'the proof options must be a JSON object' }] };
  if (typeof options.verificationMethod !== 'string' || options.verificationMethod === '')
    return {
      ok: false,
      failures: [{ pointer: '/proof/verificationMethod', message: 'a verification method is required' }],
    };
  const publicKey = publicKeyBytesOfJwk(privateJwk);
  if (publicKey === undefined || typeof privateJwk.d !== 'string')
    return {
      ok: false,
      failures: [
        {
          pointer: '/proof/verificationMethod',
          message: 'the signing key must be an OKP Ed25519 private JWK (x and d)',
        },
      ],
    };
  if (options.verificationMethod.startsWith('did:key:')) {
    const resolved = resolveDidKey(options.verificationMethod);
    if (!resolved.ok)
      return { ok: false, failures: [{ pointer: '/proof/verificationMethod', message: resolved.reason }] };
    if (!sameBytes(resolved.publicKey, publicKey))
      return {
        ok: false,
        failures: [{ pointer: '/proof/verificationMethod', message: 'the verification method is not the signing key' }],
      };
  }
  const { proof: _existing, ...document } = unsecuredDocument;
  const proof: Record<string, unknown> = { ...options };
  delete proof['proofValue'];
  if (document['@context'] !== undefined) proof['@context'] = document['@context'];
  const config = proofConfiguration(proof);
  if (!config.ok) return config;
  const transformed = transformDocument(document);
  if (!transformed.ok) return transformed;
  const hashes = await hashJcs(transformed.canonicalDocument, config.canonicalProofConfig);
  let signature: Uint8Array;
  try {
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x, d: privateJwk.d },
      ED25519,
      false,
      ['sign'],
    );
    signature = new Uint8Array(await crypto.subtle.sign(ED25519, key, hashes.hashData as Uint8Array<ArrayBuffer>));
  } catch {
    // The key's own error text could quote key material: a fixed message only.
    return {
      ok: false,
      failures: [
        {
          pointer: '/proof/verificationMethod',
          message: 'the signing key could not sign (not a usable Ed25519 private key)',
        },
      ],
    };
  }
  const trace: JcsProofTrace = {
    proofConfig: config.proofConfig,
    canonicalProofConfig: config.canonicalProofConfig,
    canonicalDocument: transformed.canonicalDocument,
    ...hashes,
  };
  return {
    ok: true,
    proof: { ...(proof as ProofOptions), proofValue: multibaseBase58btcEncode(signature) },
    trace,
    signature,
  };
}

/** The document with the created proof added as `proof` (a new object; the input is not changed). */
export async function signEddsaJcs2022(
  unsecuredDocument: Record<string, unknown>,
  options: ProofOptions,
  privateJwk: JsonWebKey,
): Promise<{ ok: true; document: Record<string, unknown> } | { ok: false; failures: IntegrityFailure[] }> {
  const created = await createEddsaJcs2022Proof(unsecuredDocument, options, privateJwk);
  if (!created.ok) return created;
  const { proof: _existing, ...document } = unsecuredDocument;
  return { ok: true, document: { ...document, proof: created.proof } };
}

/** §3.3.2 Verify Proof, for a secured document with one `proof` object. */
export async function verifyEddsaJcs2022(
  securedDocument: unknown,
  options: VerifyProofOptions = {},
): Promise<ProofVerification> {
  const fail = (failures: IntegrityFailure[], extra: Partial<ProofVerification> = {}): ProofVerification => ({
    verified: false,
    failures,
    ...extra,
  });
  if (!isRecord(securedDocument)) return fail([{ pointer: '', message: 'the document must be a JSON object' }]);
  const proof = securedDocument['proof'];
  if (proof === undefined) return fail([{ pointer: '/proof', message: 'the document has no proof' }]);
  if (Array.isArray(proof))
    return fail([
      { pointer: '/proof', message: 'a proof set (an array of proofs) is not supported; expected one proof object' },
    ]);
  if (!isRecord(proof)) return fail([{ pointer: '/proof', message: 'proof must be a JSON object' }]);

  const failures: IntegrityFailure[] = [];
  const { proofValue, ...proofOptions } = proof;
  let proofBytes: Uint8Array | undefined;
  if (typeof proofValue !== 'string')
    failures.push({ pointer: '/proof/proofValue', message: 'proofValue must be a Multibase base58btc string' });
  else {
    proofBytes = multibaseBase58btcDecode(proofValue);
    if (proofBytes === undefined)
      failures.push({
        pointer: '/proof/proofValue',
        message: 'proofValue is not Multibase base58btc (a "z" then base58btc characters)',
      });
    else if (proofBytes.length !== 64)
      failures.push({
        pointer: '/proof/proofValue',
        message: `proofValue decodes to ${proofBytes.length} bytes; an Ed25519 signature is 64`,
      });
  }
  const expectedPurpose = options.expectedProofPurpose ?? 'assertionMethod';
  if (proofOptions['proofPurpose'] !== expectedPurpose)
    failures.push({
      pointer: '/proof/proofPurpose',
      message: `proofPurpose must be "${expectedPurpose}", found ${describe(proofOptions['proofPurpose'])}`,
    });

  const verificationMethod = proofOptions['verificationMethod'];
  let publicJwk: JsonWebKey | undefined;
  let controller: string | undefined;
  if (typeof verificationMethod !== 'string' || verificationMethod === '')
    failures.push({ pointer: '/proof/verificationMethod', message: 'verificationMethod must be a non-empty string' });
  else if (verificationMethod.startsWith('did:key:')) {
    const resolved = resolveDidKey(verificationMethod);
    if (resolved.ok) {
      publicJwk = resolved.publicJwk;
      controller = resolved.did;
    } else failures.push({ pointer: '/proof/verificationMethod', message: resolved.reason });
  } else {
    publicJwk = options.resolveVerificationMethod?.(verificationMethod);
    if (publicJwk === undefined)
      failures.push({
        pointer: '/proof/verificationMethod',
        message: `no public key for verification method "${clip(verificationMethod)}" (only did:key resolves offline)`,
      });
  }

  const { proof: _proof, ...unsecuredDocument } = securedDocument;
  const proofContext = proofOptions['@context'];
  if (proofContext !== undefined) {
    const documentContext = securedDocument['@context'];
    const expected = Array.isArray(proofContext) ? proofContext : [proofContext];
    const actual = Array.isArray(documentContext)
      ? documentContext
      : documentContext === undefined
        ? []
        : [documentContext];
    const startsWith =
      expected.length <= actual.length && expected.every((entry, index) => sameJson(entry, actual[index]));
    if (!startsWith)
      failures.push({
        pointer: '/proof/@context',
        message: "the document's @context does not start with the proof's @context",
      });
    unsecuredDocument['@context'] = proofContext;
  }
  const config = proofConfiguration(proofOptions);
  if (!config.ok) failures.push(...config.failures);
  const transformed = transformDocument(unsecuredDocument);
  if (!transformed.ok) failures.push(...transformed.failures);
  const extra: Partial<ProofVerification> = {};
  if (typeof verificationMethod === 'string') extra.verificationMethod = verificationMethod;
  if (controller !== undefined) extra.controller = controller;
  if (failures.length > 0 || !config.ok || !transformed.ok || proofBytes === undefined || publicJwk === undefined)
    return fail(failures, extra);

  const hashes = await hashJcs(transformed.canonicalDocument, config.canonicalProofConfig);
  extra.trace = {
    proofConfig: config.proofConfig,
    canonicalProofConfig: config.canonicalProofConfig,
    canonicalDocument: transformed.canonicalDocument,
    ...hashes,
  };
  let verified = false;
  try {
    const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x }, ED25519, false, [
      'verify',
    ]);
    verified = await crypto.subtle.verify(
      ED25519,
      key,
      proofBytes as Uint8Array<ArrayBuffer>,
      hashes.hashData as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return fail(
      [{ pointer: '/proof/verificationMethod', message: 'the verification method is not a usable Ed25519 public key' }],
      extra,
    );
  }
  if (!verified)
    return fail(
      [
        {
          pointer: '/proof/proofValue',
          message:
            'the signature does not match the document and proof configuration (changed content, or another key)',
        },
      ],
      extra,
    );
  return { verified: true, failures: [], ...extra };
}

function sameJson(a: unknown, b: unknown): boolean {
  const left = jcs(a);
  const right = jcs(b);
  return left.ok && right.ok && left.text === right.text;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text =
    typeof value === 'string' ? JSON.stringify(value) : ((jcs(value) as { text?: string }).text ?? typeof value);
  return clip(text);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
