/**
 * The A2A v1.0 AgentCard of a runtime config (field names as in the normative proto's JSON form,
 * every REQUIRED field present). The card's interfaces point at the JSON-RPC endpoint: first the
 * v1.0 binding (`SendMessage`), then the same URL for v0.3 clients (`message/send`), which the
 * handler also serves. Skill versions (half of the receipt pinning tuple) travel in an extension,
 * since `AgentSkill` has no version field.
 */
import { scrubKeyMaterial } from './card-secrets';
import type { RuntimeConfig } from './runtime-config';

export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_LEGACY_PROTOCOL_VERSION = '0.3';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const PINNING_EXTENSION_URI = 'urn:agentdef:extension:pinning-tuple:v1';

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

export interface AgentCard {
  name: string;
  description: string;
  supportedInterfaces: AgentInterface[];
  provider?: { organization: string; url: string };
  version: string;
  documentationUrl?: string;
  capabilities: { streaming?: boolean; pushNotifications?: boolean; extendedAgentCard?: boolean; extensions?: AgentExtension[] };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkillCard[];
  iconUrl?: string;
}

/**
 * The JSON-RPC endpoint's absolute URL: `card.publicUrl` + `card.rpcPath`, else `requestOrigin`: the
 * handler passes the host's configured public origin, or the request's own origin only after the
 * host checked its `Host` (and then the card is not cached publicly).
 */
export function rpcUrl(config: RuntimeConfig, requestOrigin?: string): string {
  const base = config.card.publicUrl ?? requestOrigin;
  if (base === undefined) throw new TypeError('rpcUrl: the config has no publicUrl and no request origin was given');
  return new URL(config.card.rpcPath, base.endsWith('/') ? base : `${base}/`).toString();
}

export function buildAgentCard(config: RuntimeConfig, options: { requestOrigin?: string } = {}): AgentCard {
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
      streaming: false,
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
      const out: AgentSkillCard = { id: skill.id, name: skill.name, description: skill.description, tags: [...skill.tags] };
      if (skill.examples?.length) out.examples = [...skill.examples];
      if (skill.inputModes?.length) out.inputModes = [...skill.inputModes];
      if (skill.outputModes?.length) out.outputModes = [...skill.outputModes];
      return out;
    }),
  };
  if (config.card.provider) card.provider = { organization: config.card.provider.organization, url: config.card.provider.url };
  if (config.card.documentationUrl) card.documentationUrl = config.card.documentationUrl;
  if (config.card.iconUrl) card.iconUrl = config.card.iconUrl;
  // The card is public: no private JWK member or URL password survives in any of its strings.
  return scrubKeyMaterial(card);
}
