/**
 * The OASF record of an AgentDefinition (issue 25 §4; docs/decisions/0011-oasf-mapping.md), a
 * projection like the A2A card and the AgentFacts credential, validated against the copied OASF
 * definitions (validate-oasf-record.ts) before it is returned:
 *
 * - `name` identity.name, `version` identity.versionSemver, `schema_version` the copied
 *   schema/version.json, `description` metadata.description, `authors` the owner
 *   (`<owner id> (<owner kind>)`: a definition names no person or e-mail);
 * - `created_at` the commit time the caller passes (publish: the time it publishes at, by default
 *   the commit's); without one, the fixed `1970-01-01T00:00:00Z` and the annotation
 *   `agentdef.created-at: no-commit` (never the clock: same definition, same bytes);
 * - `skills` and `domains` through oasf-taxonomy-mapping.ts (an unmappable skill fails, located);
 * - `locators`: the source repository (`source_code`), the agent card's URL and the Worker's
 *   service URL when the endpoint is known (`url`), the container image when given
 *   (`container_image`);
 * - `modules`: `integration/a2a` carrying the A2A card when the caller passes it (the card needs an
 *   endpoint: the CLI and publish build it), and one `integration/mcp` per MCP server the tools come
 *   from (its tools; its connection as the workspace's mcp.json maps it: the command or the URL,
 *   never arguments or environment, which may hold secrets);
 * - `annotations`: the slug, the immutable ids and the KYM reference (`agentdef.` keys: OASF
 *   reserves `agntcy.`).
 * Pure and deterministic: no clock, no I/O beyond the definitions read once; never throws.
 */
import type { Finding } from '../diagnostic';
import type { McpServer } from '../workspace-config';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { type OasfDefinitions, oasfDefinitions } from './oasf-definitions';
import { mapOasfTaxonomy, type OasfClassRef } from './oasf-taxonomy-mapping';
import { validateOasfRecord } from './validate-oasf-record';

export const NO_COMMIT_CREATED_AT = '1970-01-01T00:00:00Z';
export const AGENT_CARD_WELL_KNOWN_PATH = '/.well-known/agent-card.json';

export interface OasfLocator {
  type: string;
  urls: string[];
  annotations?: Record<string, string>;
}

export interface OasfModule {
  name: string;
  id: number;
  data: Record<string, unknown>;
  annotations?: Record<string, string>;
}

export interface OasfRecord {
  name: string;
  version: string;
  schema_version: string;
  description: string;
  authors: string[];
  created_at: string;
  skills: OasfClassRef[];
  domains?: OasfClassRef[];
  locators?: OasfLocator[];
  modules?: OasfModule[];
  annotations: Record<string, string>;
}

export interface OasfRecordOptions {
  /** RFC 3339: the commit's time. */
  createdAt?: string;
  /** The agent's service root (`https://agent.example.workers.dev/` or the launcher's loopback URL). */
  serviceUrl?: string;
  /** Whether the service is a Cloudflare Worker (its service URL is then a locator of its own). */
  worker?: boolean;
  /** A container image reference (`registry/name:tag` or `name@sha256:...`). */
  image?: string;
  /** The A2A card the agent serves (publish: the signed card). */
  agentCard?: Record<string, unknown>;
  /** The workspace's MCP servers (mcp.json), for the MCP modules' connections. */
  mcpServers?: ReadonlyMap<string, McpServer>;
}

export type OasfRecordResult = { ok: true; record: OasfRecord } | { ok: false; findings: Finding[] };

const RULE = 'oasf-export';
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** `url` without credentials, query or fragment, or undefined when it is no http(s) URL. */
function publicUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

function mcpModules(definition: AgentDefinition, options: OasfRecordOptions, defs: OasfDefinitions): OasfModule[] {
  const entry = defs.modules.byName.get('integration/mcp');
  if (entry === undefined) return [];
  const servers = new Map<string, { transport: string; tools: { name: string; description?: string }[] }>();
  for (const tool of definition.toolInventory ?? []) {
    if (tool.provenance !== 'mcp' || tool.mcpServer === undefined) continue;
    const server = servers.get(tool.mcpServer) ?? { transport: tool.mcpTransport ?? 'stdio', tools: [] };
    server.tools.push({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
    });
    servers.set(tool.mcpServer, server);
  }
  return [...servers.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, server]) => {
      const mapped = options.mcpServers?.get(name);
      const url = mapped?.transport === 'http' ? publicUrl(mapped.url) : undefined;
      const connection =
        mapped?.transport === 'stdio'
          ? { type: 'stdio', command: mapped.command }
          : url !== undefined
            ? { type: 'streamable-http', url }
            : { type: server.transport === 'http' ? 'streamable-http' : 'stdio', command: name };
      return {
        name: entry.name,
        id: entry.id,
        data: { name, tools: server.tools, connections: [connection] },
        ...(mapped === undefined
          ? { annotations: { 'agentdef.mcp-server': 'not mapped by the workspace mcp.json' } }
          : {}),
      };
    });
}

function a2aModule(card: Record<string, unknown>, defs: OasfDefinitions): OasfModule[] {
  const entry = defs.modules.byName.get('integration/a2a');
  if (entry === undefined) return [];
  const interfaces = Array.isArray(card['supportedInterfaces']) ? card['supportedInterfaces'] : [];
  const first = interfaces[0] as Record<string, unknown> | undefined;
  const version = typeof first?.['protocolVersion'] === 'string' ? first['protocolVersion'] : '1.0';
  return [{ name: entry.name, id: entry.id, data: { card_data: card, card_schema_version: version } }];
}

/** The OASF record of a schema-valid definition, validated; or located findings. */
export function projectOasfRecord(
  definition: AgentDefinition,
  options: OasfRecordOptions = {},
  defs: OasfDefinitions = oasfDefinitions(),
): OasfRecordResult {
  try {
    const findings: Finding[] = [];
    const mapping = mapOasfTaxonomy(definition, defs);
    findings.push(...mapping.findings);
    if (options.createdAt !== undefined && !RFC3339.test(options.createdAt))
      findings.push({
        rule: RULE,
        path: '',
        message: `The commit time "${options.createdAt}" is not an RFC 3339 date-time.`,
      });
    if (findings.length > 0) return { ok: false, findings };

    const { identity, metadata } = definition;
    const locators: OasfLocator[] = [];
    const repo = publicUrl(metadata.provenance.repo);
    if (repo !== undefined)
      locators.push({
        type: 'source_code',
        urls: [repo],
        annotations: {
          'agentdef.file-path': metadata.provenance.filePath,
          ...(metadata.provenance.commitSha !== undefined ? { 'agentdef.commit': metadata.provenance.commitSha } : {}),
        },
      });
    const service = options.serviceUrl !== undefined ? publicUrl(options.serviceUrl) : undefined;
    if (service !== undefined) {
      locators.push({
        type: 'url',
        urls: [new URL(AGENT_CARD_WELL_KNOWN_PATH, service).toString()],
        annotations: { 'agentdef.locator': 'a2a-agent-card' },
      });
      if (options.worker === true)
        locators.push({ type: 'url', urls: [service], annotations: { 'agentdef.locator': 'cloudflare-worker' } });
    }
    if (options.image !== undefined) locators.push({ type: 'container_image', urls: [options.image] });

    const modules = [
      ...(options.agentCard !== undefined ? a2aModule(options.agentCard, defs) : []),
      ...mcpModules(definition, options, defs),
    ];
    const record: OasfRecord = {
      name: identity.name,
      version: identity.versionSemver,
      schema_version: defs.schemaVersion,
      description: metadata.description,
      authors: [`${identity.owner.id} (${identity.owner.kind})`],
      created_at: options.createdAt ?? NO_COMMIT_CREATED_AT,
      skills: mapping.skills,
      ...(mapping.domains.length > 0 ? { domains: mapping.domains } : {}),
      ...(locators.length > 0 ? { locators } : {}),
      ...(modules.length > 0 ? { modules } : {}),
      annotations: {
        'agentdef.slug': identity.slug,
        'agentdef.id': identity.id,
        'agentdef.version-id': identity.versionId,
        'agentdef.kym-ref': identity.kymRef ?? `kym://agents/${identity.slug}@${identity.versionSemver}`,
        ...(options.createdAt === undefined ? { 'agentdef.created-at': 'no-commit' } : {}),
      },
    };
    const failures = validateOasfRecord(record, defs);
    if (failures.length > 0)
      return {
        ok: false,
        findings: failures.map((f) => ({
          rule: RULE,
          path: '',
          message: `The OASF record does not validate at ${f.pointer || '(root)'}: ${f.message}`,
        })),
      };
    return { ok: true, record };
  } catch (error) {
    return {
      ok: false,
      findings: [{ rule: RULE, path: '', message: `The OASF record cannot be made: ${(error as Error).message}` }],
    };
  }
}
