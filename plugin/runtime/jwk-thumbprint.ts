/**
 * RFC 7638 JWK thumbprint of an Ed25519 public key (the `kid` agentdef gives a key):
 * base64url(SHA-256(UTF-8 of `{"crv":"Ed25519","kty":"OKP","x":"<x>"}`)). Only the required
 * members, in lexicographic order, no whitespace (RFC 7638 §3.2); any `d` or other member is
 * ignored, so passing a private JWK gives the same kid. Portable: WebCrypto only.
 */
import { base64UrlToBytes, bytesToBase64Url } from './base64url';

/** The members RFC 7638 hashes for an OKP key, in lexicographic order. */
export function jwkThumbprintInput(publicJwk: { kty?: unknown; crv?: unknown; x?: unknown }): string {
  if (publicJwk.kty !== 'OKP') throw new TypeError('jwkThumbprint: kty must be "OKP"');
  if (publicJwk.crv !== 'Ed25519') throw new TypeError('jwkThumbprint: crv must be "Ed25519"');
  const x = publicJwk.x;
  if (typeof x !== 'string' || base64UrlToBytes(x).length !== 32)
    throw new TypeError('jwkThumbprint: x must be the base64url of 32 bytes');
  // The members are fixed strings and a base64url value: JSON.stringify of this literal is the canonical form.
  return `{"crv":"Ed25519","kty":"OKP","x":${JSON.stringify(x)}}`;
}

/** The RFC 7638 thumbprint (SHA-256, base64url without padding) of an Ed25519 JWK. */
export async function jwkThumbprint(publicJwk: { kty?: unknown; crv?: unknown; x?: unknown }): Promise<string> {
  const input = new TextEncoder().encode(jwkThumbprintInput(publicJwk));
  const digest = await crypto.subtle.digest('SHA-256', input);
  return bytesToBase64Url(new Uint8Array(digest));
}
