/**
 * The NANDA AgentFacts projection of an AgentDefinition (the first seed: "AgentFacts is a
 * projection of AgentDefinition — capability tags, endpoint URL, reputation attestation — not a
 * re-authoring"), validated at run time against the official schema (agentfacts.schema.json, a
 * byte copy: see SOURCES.md).
 *
 * Field by field (docs/credentials.md has the table): `id` is the KYM reference
 * (`identity.kymRef`, else `kym://agents/<slug>@<version>`); `agent_name` the URN of the immutable
 * identity; `endpoints.static` the A2A JSON-RPC URL the compile target serves, the same URL the
 * agent card's JSONRPC interface names: the service root of the Worker's public URL, or of the
 * launcher's loopback URL for hb3 / local-mac; skills with their modes and the wall
 * clock limit as latency budget; `capabilities.tags` the capability tags (definition and skill
 * tags); `reputation` the attestation slot (empty unless `agentdef publish --reputation` attests a
 * receipt-scored score, plugin/reputation); `ttl` the seconds the facts
 * are good for (the credential's validity window). The schema allows these extra members.
 *
 * Pure and deterministic: no clock, no I/O. Bad input comes back as located failures.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { type CompileTarget, targetFor } from '../targets/targets';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import schema from './agentfacts.schema.json';

export const AGENTFACTS_SCHEMA_ID = 'https://agentfacts.org/schema/v1';
/** The reputation model the slot names: receipt-scored reputation from the KYM registry. */
export const REPUTATION_SCHEME = 'urn:agentdef:reputation:receipt-scored:v1';
export const DEFAULT_TTL_SECONDS = 86_400;
export const MAX_TTL_SECONDS = 31_536_000;

/** One reputation attestation (issued by the registry that scored the receipts). */
export interface ReputationAttestation {
  issuer: string;
  score: number;
  receiptCount: number;
  asOf: string;
  evidence?: string;
  /** The window the receipts were counted in (plugin/reputation). */
  window?: { from: string; until: string };
  /** The receipts the score rests on, by kind (`attributed`: composed children's run receipts credited). */
  receiptCounts?: { run: number; eval: number; lifecycle: number; attributed: number };
  /** The credit a parent gets per composition layer from a child's receipt (docs/decisions/0010-reputation-decay.md). */
  decayPerLayer?: number;
}

export interface AgentFacts {
  id: string;
  agent_name: string;
  label: string;
  description: string;
  version: string;
  provider: { name: string; url: string; did?: string };
  endpoints: { static: string[] };
  capabilities: {
    modalities: string[];
    streaming: boolean;
    batch: boolean;
    authentication: { methods: string[] };
    tags: string[];
  };
  skills: { id: string; description: string; inputModes: string[]; outputModes: string[]; latencyBudgetMs?: number }[];
  reputation: { scheme: string; attestations: ReputationAttestation[] };
  ttl: number;
}

export interface AgentFactsOptions {
  /** The compile target the endpoint comes from. */
  target: CompileTarget;
  /** cloudflare-dynamic-worker: the Worker's public https origin (e.g. `https://agent.example.workers.dev`). */
  workerUrl?: string;
  /** hb3 and local-mac: the loopback port the launcher serves on. */
  port?: number;
  /** Seconds the facts stay valid (default one day, at most a year). */
  ttlSeconds?: number;
  /** The provider's DID (the credential passes its issuer's did:key). */
  providerDid?: string;
  reputation?: ReputationAttestation[];
}

export interface ProjectionFailure {
  /** JSON Pointer: into the definition (`/identity/...`), the options (`#/options/...`) or the facts (`#/facts/...`). */
  pointer: string;
  message: string;
}

export type AgentFactsResult = { ok: true; facts: AgentFacts } | { ok: false; failures: ProjectionFailure[] };

let validator: ValidateFunction | undefined;

function agentFactsValidator(): ValidateFunction {
  if (validator === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  return validator;
}

/** Schema failures of an AgentFacts document (empty when it validates), at `#/facts<pointer>`. */
export function validateAgentFacts(facts: unknown, base = '#/facts'): ProjectionFailure[] {
  const validate = agentFactsValidator();
  if (validate(facts)) return [];
  return (validate.errors ?? []).map((error) => ({
    pointer: `${base}${error.instancePath}`,
    message: `AgentFacts schema: ${error.message ?? error.keyword}`,
  }));
}

/**
 * The A2A endpoint URL the target serves, or a failure naming the option: the service root, where
 * the card's JSONRPC interface points (`rpcUrl` in runtime/agent-card.ts).
 */
export function agentFactsEndpoint(
  options: AgentFactsOptions,
): { ok: true; url: string } | { ok: false; failure: ProjectionFailure } {
  if (targetFor(options.target).endpoint === 'public-url') {
    const url = parseUrl(options.workerUrl);
    if (
      url === undefined ||
      url.protocol !== 'https:' ||
      url.username !== '' ||
      url.password !== '' ||
      url.search !== '' ||
      url.hash !== ''
    ) {
      return {
        ok: false,
        failure: {
          pointer: '#/options/workerUrl',
          message: "a Worker endpoint needs the Worker's public https URL (no credentials, query or fragment)",
        },
      };
    }
    return { ok: true, url: new URL('/', url.origin).toString() };
  }
  const port = options.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
    return {
      ok: false,
      failure: {
        pointer: '#/options/port',
        message: `a ${options.target} endpoint is the launcher's loopback URL: give the port it serves on (1-65535)`,
      },
    };
  }
  return { ok: true, url: `http://127.0.0.1:${port}/` };
}

function parseUrl(text: unknown): URL | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** The AgentFacts of a (valid) definition for one compile target, validated against the schema. */
export function projectAgentFacts(definition: AgentDefinition, options: AgentFactsOptions): AgentFactsResult {
  const failures: ProjectionFailure[] = [];
  const endpoint = agentFactsEndpoint(options);
  if (!endpoint.ok) failures.push(endpoint.failure);
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS)
    failures.push({
      pointer: '#/options/ttlSeconds',
      message: `ttlSeconds must be a whole number from 1 to ${MAX_TTL_SECONDS}`,
    });
  const identity = definition?.identity;
  const contract = definition?.capabilityContract;
  if (identity === undefined || contract === undefined || definition.metadata === undefined) {
    failures.push({
      pointer: '',
      message: 'not an AgentDefinition (identity, capabilityContract and metadata are required); validate it first',
    });
    return { ok: false, failures };
  }
  if (contract.skills.length === 0)
    failures.push({ pointer: '/capabilityContract/skills', message: 'AgentFacts needs at least one skill' });
  if (failures.length > 0) return { ok: false, failures };

  const inputModes = sortedUnique(contract.inputs.map((p) => p.mediaType));
  const outputModes = sortedUnique(contract.outputs.map((p) => p.mediaType));
  const wallClockMs = definition.runtimeRequirements?.limits?.wallClockMs;
  const facts: AgentFacts = {
    id: identity.kymRef ?? `kym://agents/${identity.slug}@${identity.versionSemver}`,
    agent_name: `urn:agentdef:agent:${identity.id}`,
    label: identity.name,
    description: definition.metadata.description,
    version: identity.versionSemver,
    provider: {
      name: identity.owner.id,
      url: definition.metadata.provenance.repo,
      ...(options.providerDid ? { did: options.providerDid } : {}),
    },
    endpoints: { static: [(endpoint as { url: string }).url] },
    capabilities: {
      modalities: sortedUnique([...contract.inputs, ...contract.outputs].map((p) => p.kind)),
      // Every host streams (SendStreamingMessage, SubscribeToTask over SSE), as the card declares.
      streaming: true,
      batch: false,
      // The A2A endpoint takes no credentials of its own today; a gateway in front adds its own.
      authentication: { methods: [] },
      tags: sortedUnique([...definition.metadata.tags, ...contract.skills.flatMap((s) => s.tags)]),
    },
    skills: contract.skills.map((skill) => ({
      id: skill.id,
      description: skill.description,
      inputModes: skill.inputModes?.length ? [...skill.inputModes] : inputModes,
      outputModes: skill.outputModes?.length ? [...skill.outputModes] : outputModes,
      ...(typeof wallClockMs === 'number' ? { latencyBudgetMs: wallClockMs } : {}),
    })),
    reputation: { scheme: REPUTATION_SCHEME, attestations: (options.reputation ?? []).map((a) => ({ ...a })) },
    ttl,
  };
  const schemaFailures = validateAgentFacts(facts);
  return schemaFailures.length > 0 ? { ok: false, failures: schemaFailures } : { ok: true, facts };
}
