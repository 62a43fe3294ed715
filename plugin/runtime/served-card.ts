/**
 * The AgentCard a host serves: `buildAgentCard` (scrubbed by the `scrub` it is given), signed (A2A §8.4: own-card-payload.ts, the payload
 * card-signature.ts verifies) when the host sets the card signing key — given directly, or read
 * from the secret `AGENTDEF_CARD_SIGNING_KEY` the way the receipt key is read (Workers: the `env`
 * binding; Node hosts pass it in) — and unsigned otherwise. The kid is the key's RFC 7638
 * thumbprint. The key is read and imported once; signed cards are kept per request origin (a
 * few), since the card's URLs may follow the origin.
 */
import type { AgentCard } from './agent-card';
import { CARD_SIGNING_KEY_BINDING, KYM_REGISTRATION_EXTENSION_URI, buildAgentCardUnscrubbed } from './agent-card';
import { jwkThumbprint } from './jwk-thumbprint';
import { signOwnAgentCard } from './own-card-payload';
import { importSigningKey } from './receipts';
import type { RuntimeConfig } from './runtime-config';
import type { SecretSource } from './run-agent';

export interface ServedCardOptions {
  /** The private Ed25519 JWK (or its JSON text); absent: the `AGENTDEF_CARD_SIGNING_KEY` secret. */
  signingKey?: JsonWebKey | string;
  secrets?: SecretSource;
  /** The deployment skipped the KYM gate (--allow-unregistered): the card says so (KYM_REGISTRATION_EXTENSION_URI). */
  unregistered?: boolean;
  /**
   * Takes key material out of the card (card-secrets.ts `scrubKeyMaterial`, the `cardScrub`
   * runtime part). Absent only where the config's card was proven clean when the host was
   * generated (the card's other text is the request's own origin).
   */
  scrub?: (card: AgentCard) => AgentCard;
}

/** The card marked as an unregistered deployment (before it is signed, so the signature covers the mark). */
function markedUnregistered(card: AgentCard): AgentCard {
  const mark = {
    uri: KYM_REGISTRATION_EXTENSION_URI,
    description:
      'Deployed with --allow-unregistered for development: this agent is not registered in KYM at this definition.',
    required: false,
    params: { unregistered: true },
  };
  return {
    ...card,
    capabilities: { ...card.capabilities, extensions: [...(card.capabilities.extensions ?? []), mark] },
  };
}

export type ServedCard = { card: AgentCard } | { error: 'card_signing_key_unusable' };

type Signer = { key: CryptoKey; kid: string } | 'none' | 'unusable';

const CACHED_ORIGINS = 16;

async function readSigner(options: ServedCardOptions): Promise<Signer> {
  let material: JsonWebKey | string | undefined = options.signingKey;
  if (material === undefined && options.secrets) {
    const value =
      typeof options.secrets === 'function'
        ? await options.secrets(CARD_SIGNING_KEY_BINDING)
        : options.secrets[CARD_SIGNING_KEY_BINDING];
    material = typeof value === 'string' && value !== '' ? value : undefined;
  }
  if (material === undefined) return 'none';
  try {
    const jwk = typeof material === 'string' ? (JSON.parse(material) as JsonWebKey) : material;
    const kid = await jwkThumbprint(jwk);
    return { key: await importSigningKey(jwk), kid };
  } catch {
    return 'unusable';
  }
}

export function createServedCard(
  config: RuntimeConfig,
  options: ServedCardOptions = {},
): (requestOrigin: string | undefined) => Promise<ServedCard> {
  let signer: Promise<Signer> | undefined;
  const signed = new Map<string, Promise<AgentCard>>();
  return async (requestOrigin) => {
    const unscrubbed = buildAgentCardUnscrubbed(config, requestOrigin === undefined ? {} : { requestOrigin });
    const built = options.scrub ? options.scrub(unscrubbed) : unscrubbed;
    const card = options.unregistered === true ? markedUnregistered(built) : built;
    signer ??= readSigner(options);
    const current = await signer;
    if (current === 'none') return { card };
    if (current === 'unusable') return { error: 'card_signing_key_unusable' };
    const cacheKey = requestOrigin ?? '';
    let pending = signed.get(cacheKey);
    if (!pending) {
      if (signed.size >= CACHED_ORIGINS) signed.delete(signed.keys().next().value as string);
      pending = signOwnAgentCard(card, current.key, current.kid);
      signed.set(cacheKey, pending);
    }
    return { card: await pending };
  };
}
