/**
 * The JWS of one AgentCard signature (A2A v1.0.1 §8.4.2), over a payload already made: the
 * protected header `{"alg":"EdDSA","typ":"JOSE","kid":<kid>}`, the signing input
 * `BASE64URL(UTF8(protected header)) || '.' || BASE64URL(payload)` and the detached entry
 * `{ protected, signature }`. card-signature.ts makes the payload of any card and verifies;
 * own-card-payload.ts makes the payload of the card `buildAgentCard` serves.
 */
import type { AgentCard, AgentCardSignature } from './agent-card';
import { bytesToBase64Url } from './base64url';

export const CARD_SIGNATURE_ALG = 'EdDSA';
export const ED25519 = { name: 'Ed25519' } as const;

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

/** The bytes an entry's signature is over: its base64url protected header, a dot, the base64url payload. */
export function cardSigningInput(protectedHeader: string, payload: string): Uint8Array<ArrayBuffer> {
  return utf8(`${protectedHeader}.${bytesToBase64Url(utf8(payload))}`);
}

/** The card with one more entry in `signatures` (earlier entries kept), `key` signing `payload` under `kid`. */
export async function withCardSignature<C extends AgentCard>(
  card: C,
  payload: string,
  key: CryptoKey,
  kid: string,
): Promise<C & { signatures: AgentCardSignature[] }> {
  const protectedHeader = bytesToBase64Url(utf8(JSON.stringify({ alg: CARD_SIGNATURE_ALG, typ: 'JOSE', kid })));
  const signature = new Uint8Array(await crypto.subtle.sign(ED25519, key, cardSigningInput(protectedHeader, payload)));
  const entry: AgentCardSignature = { protected: protectedHeader, signature: bytesToBase64Url(signature) };
  return { ...card, signatures: [...(card.signatures ?? []), entry] };
}
