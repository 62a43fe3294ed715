/**
 * Ed25519 keys as Multikey values (Controlled Identifiers v1.0 §2.2.2, vc-di-eddsa §2.1.1): a
 * public key is Multibase base58btc of the multicodec header 0xed 0x01 and the 32 key bytes
 * (`z6Mk…`); a secret key the same with header 0x80 0x26 (`z3u2…`). Any other header is refused,
 * as the Recommendation requires. Also the conversions to and from the OKP JWKs the rest of
 * agentdef signs with. Results are typed; nothing here throws on bad input.
 */
import { base64UrlToBytes, bytesToBase64Url } from '../runtime/base64url';
import { multibaseBase58btcDecode, multibaseBase58btcEncode } from './base58btc';

const ED25519_PUB_HEADER = [0xed, 0x01] as const;
const ED25519_PRIV_HEADER = [0x80, 0x26] as const;
const KEY_BYTES = 32;

export type MultikeyResult = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; reason: string };

function decodeWithHeader(value: unknown, header: readonly [number, number], what: string): MultikeyResult {
  if (typeof value !== 'string') return { ok: false, reason: `${what} must be a string` };
  if (!value.startsWith('z')) return { ok: false, reason: `${what} must be Multibase base58btc (start with "z")` };
  const raw = multibaseBase58btcDecode(value);
  if (raw === undefined) return { ok: false, reason: `${what} has a character outside the base58btc alphabet` };
  if (raw.length < 2 || raw[0] !== header[0] || raw[1] !== header[1]) {
    const found =
      raw.length >= 2 ? `0x${raw[0]!.toString(16).padStart(2, '0')}${raw[1]!.toString(16).padStart(2, '0')}` : 'none';
    return {
      ok: false,
      reason: `${what} has multicodec header ${found}, not 0x${header.map((b) => b.toString(16).padStart(2, '0')).join('')}`,
    };
  }
  if (raw.length !== 2 + KEY_BYTES)
    return { ok: false, reason: `${what} holds ${raw.length - 2} key bytes, not ${KEY_BYTES}` };
  return { ok: true, bytes: raw.slice(2) };
}

/** The 32 bytes of an Ed25519 public key Multikey (`z6Mk…`, header 0xed01). */
export function decodeEd25519PublicMultikey(value: unknown): MultikeyResult {
  return decodeWithHeader(value, ED25519_PUB_HEADER, 'an Ed25519 public Multikey');
}

/** The 32-byte seed of an Ed25519 secret key Multikey (`z3u2…`, header 0x8026). */
export function decodeEd25519SecretMultikey(value: unknown): MultikeyResult {
  return decodeWithHeader(value, ED25519_PRIV_HEADER, 'an Ed25519 secret Multikey');
}

export function encodeEd25519PublicMultikey(publicKey: Uint8Array): string {
  const out = new Uint8Array(2 + publicKey.length);
  out.set(ED25519_PUB_HEADER, 0);
  out.set(publicKey, 2);
  return multibaseBase58btcEncode(out);
}

/** The public Multikey of an OKP Ed25519 JWK (its `x`), or undefined when the JWK is not one. */
export function publicMultikeyOfJwk(jwk: JsonWebKey): string | undefined {
  const x = publicKeyBytesOfJwk(jwk);
  return x === undefined ? undefined : encodeEd25519PublicMultikey(x);
}

/** The 32 bytes of an OKP Ed25519 JWK's `x`, or undefined when it has none of the right size. */
export function publicKeyBytesOfJwk(jwk: JsonWebKey): Uint8Array<ArrayBuffer> | undefined {
  if (
    jwk === null ||
    typeof jwk !== 'object' ||
    jwk.kty !== 'OKP' ||
    jwk.crv !== 'Ed25519' ||
    typeof jwk.x !== 'string'
  )
    return undefined;
  try {
    const x = base64UrlToBytes(jwk.x);
    return x.length === KEY_BYTES ? x : undefined;
  } catch {
    return undefined;
  }
}

/** The public JWK of 32 raw Ed25519 public key bytes. */
export function publicJwkOfBytes(publicKey: Uint8Array): JsonWebKey {
  return { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(publicKey) };
}

/** The private JWK of an Ed25519 key pair given as raw bytes (the 32-byte seed and its public key). */
export function privateJwkOfBytes(seed: Uint8Array, publicKey: Uint8Array): JsonWebKey {
  return { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(publicKey), d: bytesToBase64Url(seed) };
}
