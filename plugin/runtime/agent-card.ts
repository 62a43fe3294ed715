/**
 * The A2A v1.0 AgentCard of a runtime config (field names as in the normative proto's JSON form,
 * every REQUIRED field present). The card's interfaces point at the JSON-RPC endpoint: first the
 * v1.0 binding (`SendMessage`), then the same URL for v0.3 clients (`message/send`), which the
 * handler also serves. Skill versions (half of the receipt pinning tuple) travel in an extension,
 * since `AgentSkill` has no version field.
 *
 * Security (`securitySchemes`, `securityRequirements`, the A2A v1.0 names): the definition
 * (agent-definition.v1 schema) says nothing about how callers authenticate, and the runtime's
 * A2A endpoint authenticates no caller, so `cardSecurity` derives no scheme and no requirement:
 * both fields are absent, which A2A reads as "no authentication required" (an empty map or list is
 * the proto default, omitted under §5.7). A card never claims a scheme the endpoint does not
 * enforce; a host that fronts the endpoint with its own authentication publishes its own card.
 * Signing: card-signature.ts (A2A §8.4); the handler signs the served card when the host sets
 * `AGENTDEF_CARD_SIGNING_KEY` (`CARD_SIGNING_KEY_BINDING`).
 */
import { scrubKeyMaterial } from './card-secrets';
import type { RuntimeConfig } from './runtime-config';

export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_LEGACY_PROTOCOL_VERSION = '0.3';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const PINNING_EXTENSION_URI = 'urn:agentdef:extension:pinning-tuple:v1';
/**
 * The extension a card carries when its deployment skipped the KYM gate (`agentdef deploy
 * --allow-unregistered`, for development): `params.unregistered` is true. A registered deployment
 * never carries it.
 */
export const KYM_REGISTRATION_EXTENSION_URI = 'urn:agentdef:extension:kym-registration:v1';
/** The host setting (environment variable) a deployment made with --allow-unregistered sets to `1`. */
export const UNREGISTERED_DEPLOYMENT_ENV = 'AGENTDEF_DEPLOYMENT_UNREGISTERED';

/** The secret / binding holding the private Ed25519 JWK the served card is signed with. */
export const CARD_SIGNING_KEY_BINDING = 'AGENTDEF_CARD_SIGNING_KEY';

export interface AgentInterface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
  tenant?: string;
}

export interface AgentSkillCard {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface AgentExtension {
  uri: string;
  description?: string;
  required?: boolean;
  params?: Record<string, unknown>;
}

/** One JWS of the card (A2A §4.4.7): base64url protected header, base64url signature. */
export interface AgentCardSignature {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

/** A2A v1.0 `SecurityScheme`: exactly one of the members is set. */
export interface AgentSecurityScheme {
  apiKeySecurityScheme?: { description?: string; location: string; name: string };
  httpAuthSecurityScheme?: { description?: string; scheme: string; bearerFormat?: string };
  oauth2SecurityScheme?: { description?: string; flows: Record<string, unknown>; oauth2MetadataUrl?: string };
  openIdConnectSecurityScheme?: { description?: string; openIdConnectUrl: string };
  mtlsSecurityScheme?: { description?: string };
}

/** A2A v1.0 `SecurityRequirement`: scheme name → required scopes. */
export interface AgentSecurityRequirement {
  schemes: Record<string, { list: string[] }>;
}

export interface CardSecurity {
  securitySchemes?: Record<string, AgentSecurityScheme>;
  securityRequirements?: AgentSecurityRequirement[];
}

export interface AgentCard {
  name: string;
  description: string;
  supportedInterfaces: AgentInterface[];
  provider?: { organization: string; url: string };
  version: string;
  documentationUrl?: string;
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extendedAgentCard?: boolean;
    extensions?: AgentExtension[];
  };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkillCard[];
  securitySchemes?: Record<string, AgentSecurityScheme>;
  securityRequirements?: AgentSecurityRequirement[];
  signatures?: AgentCardSignature[];
  iconUrl?: string;
}

/**
 * The card's security, derived from the config (see the header): the definition declares no
 * caller authentication and the endpoint enforces none, so no scheme and no requirement.
 */
export function cardSecurity(_config: RuntimeConfig): CardSecurity {
  return {};
}

/**
 * The JSON-RPC endpoint's absolute URL: the service root of `card.publicUrl`, else of
 * `requestOrigin`: the handler passes the host's configured public origin, or the request's own
 * origin only after the host checked its `Host` (and then the card is not cached publicly). The
 * handler serves JSON-RPC at `/` and, for clients of earlier cards, at `card.rpcPath` too.
 */
export function rpcUrl(config: RuntimeConfig, requestOrigin?: string): string {
  const base = config.card.publicUrl ?? requestOrigin;
  if (base === undefined) throw new TypeError('rpcUrl: the config has no publicUrl and no request origin was given');
  return new URL('/', base).toString();
}

/** The public card of `config`: `buildAgentCardUnscrubbed`, with every trace of key material taken out (card-secrets.ts). */
export function buildAgentCard(config: RuntimeConfig, options: { requestOrigin?: string } = {}): AgentCard {
  // The card is public: no private JWK member or URL password survives in any of its strings.
  return scrubKeyMaterial(buildAgentCardUnscrubbed(config, options));
}

/**
 * The card as the config's strings make it, not scrubbed. Only for a config already proven to
 * make a card the scrub leaves as it is: a generated Worker's, whose generator checks the card
 * and names the scrub (the `cardScrub` runtime part) when it finds anything to take out.
 */
export function buildAgentCardUnscrubbed(config: RuntimeConfig, options: { requestOrigin?: string } = {}): AgentCard {
  const url = rpcUrl(config, options.requestOrigin);
  const card: AgentCard = {
    name: config.agent.name,
    description: config.agent.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
      { url, protocolBinding: 'JSONRPC', protocolVersion: A2A_LEGACY_PROTOCOL_VERSION },
    ],
    version: config.agent.version,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: PINNING_EXTENSION_URI,
          description: 'Receipts attribute runs to (card, cardVersion, skill, skillVersion); params give the versions.',
          required: false,
          params: {
            card: config.agent.slug,
            cardVersion: config.agent.version,
            versionId: config.agent.versionId,
            skills: Object.fromEntries(config.skills.map((s) => [s.id, s.version])),
          },
        },
      ],
    },
    defaultInputModes: [...config.card.defaultInputModes],
    defaultOutputModes: [...config.card.defaultOutputModes],
    skills: config.skills.map((skill) => {
      const out: AgentSkillCard = {
        id: skill.id,
        name: skill.name,
        description: skill.description,
        tags: [...skill.tags],
      };
      if (skill.examples?.length) out.examples = [...skill.examples];
      if (skill.inputModes?.length) out.inputModes = [...skill.inputModes];
      if (skill.outputModes?.length) out.outputModes = [...skill.outputModes];
      return out;
    }),
  };
  if (config.card.provider)
    card.provider = { organization: config.card.provider.organization, url: config.card.provider.url };
  if (config.card.documentationUrl) card.documentationUrl = config.card.documentationUrl;
  if (config.card.iconUrl) card.iconUrl = config.card.iconUrl;
  const security = cardSecurity(config);
  if (security.securitySchemes && Object.keys(security.securitySchemes).length > 0)
    card.securitySchemes = security.securitySchemes;
  if (security.securityRequirements?.length) card.securityRequirements = security.securityRequirements;
  return card;
}
