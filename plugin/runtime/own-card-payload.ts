/**
 * The §8.4.1 signing payload of the card a host serves (`buildAgentCard`), without the proto
 * presence table: the only field of that card at its proto default is the pinning extension's
 * `required: false` (an implicit bool), so the payload is the card without `signatures` and
 * without that member, in RFC 8785 form. It equals `agentCardSigningPayload` (card-signature.ts,
 * the table-driven form every other card needs) on every card `buildAgentCard` makes, which
 * own-card-payload.test.ts checks on generated configs; the served card uses this one so a
 * Worker does not carry the table.
 */
import type { AgentCard, AgentCardSignature, AgentExtension } from './agent-card';
import { withCardSignature } from './card-jws';
import { canonicalize } from './jcs';

function withoutDefaultRequired(extension: AgentExtension): AgentExtension {
  const { required, ...rest } = extension;
  return required === false ? rest : extension;
}

/** The §8.4.1 payload of a card `buildAgentCard` made. Throws a TypeError where `canonicalize` does. */
export function ownAgentCardSigningPayload(card: AgentCard): string {
  const { signatures: _signatures, capabilities, ...rest } = card;
  const extensions = capabilities.extensions?.map(withoutDefaultRequired);
  return canonicalize({ ...rest, capabilities: extensions ? { ...capabilities, extensions } : capabilities });
}

/** The served card with one more signature entry: `key` (Ed25519) signs its payload under `kid`. Rejects where the payload throws. */
export async function signOwnAgentCard(
  card: AgentCard,
  key: CryptoKey,
  kid: string,
): Promise<AgentCard & { signatures: AgentCardSignature[] }> {
  return withCardSignature(card, ownAgentCardSigningPayload(card), key, kid);
}
