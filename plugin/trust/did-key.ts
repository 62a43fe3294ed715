/**
 * `did:key` for Ed25519 (W3C CCG did:key v0.7): `did:key:z6Mk…` is the public key itself, so it
 * resolves offline. The one verification method is `did:key:<mb>#<mb>`; a DID URL with any other
 * fragment, or a key with a multicodec header other than 0xed01, does not resolve. Typed results.
 */
import {
  decodeEd25519PublicMultikey,
  encodeEd25519PublicMultikey,
  publicJwkOfBytes,
  publicKeyBytesOfJwk,
} from './multikey';

export type DidKeyResolution =
  | {
      ok: true;
      did: string;
      verificationMethod: string;
      publicKeyMultibase: string;
      publicKey: Uint8Array<ArrayBuffer>;
      publicJwk: JsonWebKey;
    }
  | { ok: false; reason: string };

const DID_KEY_PREFIX = 'did:key:';

/** The did:key of a public key (32 raw bytes or an OKP Ed25519 JWK), or undefined for a JWK that is not one. */
export function didKeyOf(publicKey: Uint8Array | JsonWebKey): string | undefined {
  const bytes = publicKey instanceof Uint8Array ? publicKey : publicKeyBytesOfJwk(publicKey);
  return bytes === undefined || bytes.length !== 32
    ? undefined
    : `${DID_KEY_PREFIX}${encodeEd25519PublicMultikey(bytes)}`;
}

/** The verification method id of a did:key: `did:key:<mb>#<mb>`. */
export function didKeyVerificationMethod(did: string): string {
  return `${did}#${did.slice(DID_KEY_PREFIX.length)}`;
}

/**
 * Resolves a did:key DID or DID URL (`did:key:<mb>` or `did:key:<mb>#<mb>`) to its Ed25519
 * verification method and public key.
 */
export function resolveDidKey(didUrl: unknown): DidKeyResolution {
  if (typeof didUrl !== 'string') return { ok: false, reason: 'a verification method must be a string' };
  if (!didUrl.startsWith(DID_KEY_PREFIX))
    return { ok: false, reason: `"${clip(didUrl)}" is not a did:key (only did:key resolves offline here)` };
  const hash = didUrl.indexOf('#');
  const did = hash === -1 ? didUrl : didUrl.slice(0, hash);
  const multibase = did.slice(DID_KEY_PREFIX.length);
  if (hash !== -1 && didUrl.slice(hash + 1) !== multibase)
    return { ok: false, reason: 'a did:key verification method fragment must repeat the key (did:key:<mb>#<mb>)' };
  const key = decodeEd25519PublicMultikey(multibase);
  if (!key.ok) return { ok: false, reason: `did:key: ${key.reason}` };
  return {
    ok: true,
    did,
    verificationMethod: didKeyVerificationMethod(did),
    publicKeyMultibase: multibase,
    publicKey: key.bytes,
    publicJwk: publicJwkOfBytes(key.bytes),
  };
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
