/**
 * The runtime config: what the compiler emits for ONE agent, a JSON-serialisable projection of the
 * compile plan and the agent's definition. It is the runtime's only input besides what the host
 * injects (secrets, tool implementations, child runners, a receipt sink): it names no key values,
 * only the binding names the host resolves them from.
 *
 * Everything here is plain data so a compiled output can embed it as a JSON literal.
 */

export const RUNTIME_CONFIG_VERSION = 'agentdef-runtime-config/v1';

/** The wire format a model pin speaks; the compiler maps `providerId` onto one of these. */
export type ProviderWire = 'openai-chat' | 'anthropic-messages' | 'ollama-chat';

export type LifecycleState =
  | 'tool-prototype'
  | 'tool-shipped'
  | 'mcp-resident'
  | 'kym-registered'
  | 'composed'
  | 'marketplace-published';

export type ModelRole = 'primary' | 'classifier' | 'evaluator' | 'specialist' | 'router';
export type CompactionPolicy = 'summarise' | 'drop' | 'quarantine';
export type EdgeGate = 'deterministic' | 'conditional' | 'llm-decides';
export type ToolKind = 'bundled' | 'mcp-http' | 'mcp-stdio' | 'native';

export interface RuntimeAgentIdentity {
  /** The definition's ULID. */
  id: string;
  slug: string;
  name: string;
  /** `identity.versionSemver`: the card version of the pinning tuple. */
  version: string;
  /** `identity.versionId` (ULID). */
  versionId: string;
  description: string;
  owner?: { kind: 'user' | 'team' | 'org' | 'service'; id: string };
  kymRef?: string;
}

/** What the AgentCard needs beyond identity and skills. */
export interface RuntimeCardSettings {
  /** Path of the JSON-RPC endpoint, for example `/a2a/v1`. */
  rpcPath: string;
  /** Absolute public base URL (`https://agent.example.com`); absent: the request's own origin. */
  publicUrl?: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  /**
   * `identity.signingKeyRef`: the key the served card is signed with where the host can resolve
   * that reference itself (local hosts, through the key store). An opaque reference, never a key.
   */
  signerRef?: string;
}

export interface RuntimeSkill {
  id: string;
  name: string;
  description: string;
  /** The skill's exact semver: the skill version of the pinning tuple. */
  version: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  /** For tool-only agents: the tool the skill routes to. Default: the only tool, or the tool whose id or name equals the skill id. */
  toolId?: string;
}

/** Sampling parameters, as in the definition's `samplingParams` (extras pass through to the provider). */
export interface RuntimeSampling {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  seed?: number;
  stop?: string[];
  [extra: string]: string | number | boolean | null | (string | number | boolean | null)[] | undefined;
}

export interface RuntimeModelPin {
  role: ModelRole;
  /** The definition's pin `name`, when it has one (routing and evaluation point at pins by it). */
  name?: string;
  /** The definition's `providerId` (`openai`, `anthropic`, `local-ollama`, `custom:…`). */
  providerId: string;
  wire: ProviderWire;
  /**
   * The exact model id sent on the wire, as the provider names it: the compiler derives it from
   * the pin's (providerId, modelId, modelVersion), e.g. `gpt-4o-mini-2024-07-18`,
   * `claude-3-5-haiku-20241022`, `llama3.1:8b`, or a tuned pin's checkpoint (docs/models.md).
   * Receipts record it with `modelVersion`.
   */
  model: string;
  /** The definition's `modelVersion` (snapshot date, tag or version), recorded in receipts. */
  modelVersion: string;
  tier?: 'frontier' | 'small' | 'tuned' | 'local';
  sampling: RuntimeSampling;
  /** Name of the secret binding holding the API key (absent for keyless local models). */
  secretBinding?: string;
  /** Provider base URL; absent: the provider's public default. */
  baseUrl?: string;
}

export interface RuntimeTool {
  id: string;
  /** The name the model calls the tool by. */
  name: string;
  version: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema?: Record<string, unknown>;
  kind: ToolKind;
  risk: 'low' | 'medium' | 'high' | 'critical';
  /** For MCP tools: the MCP server name. */
  mcpServer?: string;
  /** For `mcp-http` tools: the Streamable HTTP endpoint, when known at compile time. */
  url?: string;
  /** For `mcp-http` tools on Workers: the service binding to reach the server through. */
  binding?: string;
  /** Origins the tool may reach (joined into the egress allow-list). */
  endpoints?: string[];
}

/** Termination limits; absent values take the runtime defaults (`DEFAULT_LIMITS`). */
export interface RuntimeLimits {
  wallClockMs?: number;
  maxSubrequests?: number;
  maxSteps?: number;
}

export interface RuntimeMemory {
  workingSetTokens?: number;
  /** The most tokens (estimated as characters / 4) a model request may hold. */
  contextWindowBudget?: number;
  compactionPolicy?: CompactionPolicy;
}

export interface RuntimeChild {
  slug: string;
  version: string;
  /** The plan node id (`root@1.0.0/child@2.0.0`), for hosts that key children by it. */
  nodeId?: string;
}

export interface RuntimeEdge {
  from: string;
  to: string;
  gate: EdgeGate;
  condition?: { pointer: string; equals: string | number | boolean | null };
}

export interface RuntimeComposition {
  kind: 'leaf' | 'dag';
  children: RuntimeChild[];
  edges: RuntimeEdge[];
  /** Each child runs in a fresh runtime instance (isolate, job, process) with an isolated context. */
  quarantine: boolean;
}

/**
 * How a leaf's pins work together in one run (the definition's `composition.routing` and
 * `composition.evaluation`, resolved by `resolveModelRoles`). Pins are indices into `models`.
 * Absent: the primary pin answers alone (`primaryPin`).
 */
export interface RuntimeHybrid {
  /** The answering pin when there is no routing rule. */
  answer?: number;
  route?: {
    /** The router or classifier pin. */
    by: number;
    routes: { label: string; to: number; description?: string }[];
    default: number;
  };
  evaluate?: {
    /** The evaluator pin. */
    by: number;
    /** `capabilityContract.invariants`: what every answer is judged against. */
    invariants: string[];
    maxRetries: number;
    escalateTo?: number;
  };
}

export interface RuntimeReceiptSettings {
  /** `signed`: one signed receipt per run; `off`: none (lifecycle `tool-prototype`). */
  mode: 'signed' | 'off';
  schemaVersion: 'receipt/v1';
  /** `telemetryContract.receiptSigner`, recorded as the signature's `kid`. */
  signerRef: string | null;
  /** Name of the secret binding holding the Ed25519 private key as a JWK JSON string. */
  keyBinding?: string;
}

/**
 * What the definition's `telemetryContract` asks of the run's telemetry beyond its spans: the
 * `session-report` and `experiment` streams (span events on the run's root span) keyed on the
 * definition's digest, and the collector the definition names (its origin is on the egress
 * allow-list). Absent: spans only, to the host's configured collector.
 */
export interface RuntimeTelemetry {
  /** `telemetryContract.telemetryKinds`, as declared. */
  kinds: ('events' | 'session-report' | 'experiment')[];
  /** SHA-256 of the definition's canonical JSON (the plan's node digest). */
  definitionDigest: string;
  /** `telemetryContract.collector`: the collector's origin. */
  collector?: string;
}

export interface RuntimeConfig {
  configVersion: typeof RUNTIME_CONFIG_VERSION;
  agent: RuntimeAgentIdentity;
  card: RuntimeCardSettings;
  skills: RuntimeSkill[];
  agenticGate: 'tool-only' | 'agentic';
  models: RuntimeModelPin[];
  tools: RuntimeTool[];
  limits: RuntimeLimits;
  memory: RuntimeMemory;
  composition: RuntimeComposition;
  /** Extra allowed origins beyond the model pins' and tools' own. */
  egress: { allow: string[] };
  lifecycleState: LifecycleState;
  receipts: RuntimeReceiptSettings;
  /** The system prompt for the primary model; absent: one built from the agent and skill descriptions. */
  instructions?: string;
  /** Routing and evaluation between a leaf's pins (hybrid leaves); absent: one pin answers. */
  hybrid?: RuntimeHybrid;
  /** The telemetry streams and collector the definition declares; absent: spans only. */
  telemetry?: RuntimeTelemetry;
}

export interface ResolvedLimits {
  wallClockMs: number;
  maxSubrequests: number;
  maxSteps: number;
}

export const DEFAULT_LIMITS: Readonly<ResolvedLimits> = Object.freeze({
  wallClockMs: 120_000,
  maxSubrequests: 50,
  maxSteps: 8,
});

export function resolveLimits(limits: RuntimeLimits): ResolvedLimits {
  return {
    wallClockMs: limits.wallClockMs ?? DEFAULT_LIMITS.wallClockMs,
    maxSubrequests: limits.maxSubrequests ?? DEFAULT_LIMITS.maxSubrequests,
    maxSteps: limits.maxSteps ?? DEFAULT_LIMITS.maxSteps,
  };
}

/** The public base URL each wire format uses when a pin names none. */
export const DEFAULT_PROVIDER_BASE_URLS: Readonly<Record<ProviderWire, string>> = Object.freeze({
  'openai-chat': 'https://api.openai.com/v1',
  'anthropic-messages': 'https://api.anthropic.com',
  'ollama-chat': 'http://127.0.0.1:11434',
});

/** The wire format a definition's `providerId` speaks, or undefined when the compiler must say. */
export function defaultWireFor(providerId: string): ProviderWire | undefined {
  if (providerId === 'anthropic') return 'anthropic-messages';
  if (providerId === 'local-ollama') return 'ollama-chat';
  if (['openai', 'azure-openai', 'groq', 'mistral'].includes(providerId)) return 'openai-chat';
  return undefined;
}

export function modelBaseUrl(pin: RuntimeModelPin): string {
  return pin.baseUrl ?? DEFAULT_PROVIDER_BASE_URLS[pin.wire];
}

/** The pin that drives the loop: `primary`, else `router`, else the first. */
export function primaryPin(config: RuntimeConfig): RuntimeModelPin | undefined {
  return (
    config.models.find((p) => p.role === 'primary') ??
    config.models.find((p) => p.role === 'router') ??
    config.models[0]
  );
}

/** The pin that decides `llm-decides` edges: `router`, else the primary. */
export function routerPin(config: RuntimeConfig): RuntimeModelPin | undefined {
  return config.models.find((p) => p.role === 'router') ?? primaryPin(config);
}

/**
 * Structural checks the compiler's schema already guarantees, repeated at the runtime's door so a
 * hand-edited or truncated config fails closed with one readable list instead of a crash mid-run.
 */
export function checkRuntimeConfig(value: unknown): string[] {
  const problems: string[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(value)) return ['config: not an object'];
  if (value['configVersion'] !== RUNTIME_CONFIG_VERSION)
    problems.push(`configVersion: expected ${RUNTIME_CONFIG_VERSION}`);
  const agent = value['agent'];
  if (!isObj(agent)) problems.push('agent: missing');
  else
    for (const key of ['slug', 'name', 'version', 'versionId', 'description'])
      if (typeof agent[key] !== 'string') problems.push(`agent.${key}: missing`);
  const card = value['card'];
  if (!isObj(card) || typeof card['rpcPath'] !== 'string' || !String(card['rpcPath']).startsWith('/'))
    problems.push('card.rpcPath: must be a path starting with /');
  const skills = value['skills'];
  if (!Array.isArray(skills) || skills.length === 0) problems.push('skills: at least one skill is required');
  else
    skills.forEach((s, i) => {
      if (!isObj(s) || typeof s['id'] !== 'string' || typeof s['version'] !== 'string')
        problems.push(`skills[${i}]: id and version are required`);
    });
  const gate = value['agenticGate'];
  const models = value['models'];
  if (!Array.isArray(models)) problems.push('models: missing');
  else {
    if (
      gate === 'agentic' &&
      models.length === 0 &&
      (value['composition'] as { kind?: string } | undefined)?.kind !== 'dag'
    )
      problems.push('models: an agentic leaf needs a model pin');
    if (gate === 'tool-only' && models.length > 0) problems.push('agenticGate: tool-only with model pins');
    models.forEach((m, i) => {
      if (!isObj(m) || !['openai-chat', 'anthropic-messages', 'ollama-chat'].includes(String(m['wire'])))
        problems.push(`models[${i}].wire: unknown`);
      else if (typeof m['model'] !== 'string') problems.push(`models[${i}].model: missing`);
    });
  }
  problems.push(...hybridProblems(value['hybrid'], Array.isArray(models) ? models : []));
  if (value['hybrid'] !== undefined && (value['composition'] as { kind?: string } | undefined)?.kind === 'dag')
    problems.push('hybrid: only a leaf routes between its own pins; a dag routes by its edges');
  if (!Array.isArray(value['tools'])) problems.push('tools: missing');
  if (!isObj(value['limits'])) problems.push('limits: missing');
  if (!isObj(value['memory'])) problems.push('memory: missing');
  const composition = value['composition'];
  if (!isObj(composition) || !Array.isArray(composition['children']) || !Array.isArray(composition['edges']))
    problems.push('composition: children and edges are required');
  const egress = value['egress'];
  if (!isObj(egress) || !Array.isArray(egress['allow'])) problems.push('egress.allow: missing');
  const receipts = value['receipts'];
  if (!isObj(receipts) || !['signed', 'off'].includes(String(receipts['mode'])))
    problems.push('receipts.mode: must be signed or off');
  return problems;
}

/** What keeps a config's `hybrid` from running: pins out of range or in the wrong role. */
function hybridProblems(hybrid: unknown, models: unknown[]): string[] {
  if (hybrid === undefined) return [];
  const problems: string[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(hybrid)) return ['hybrid: not an object'];
  const roleOf = (i: unknown) =>
    typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < models.length
      ? String((models[i] as { role?: unknown } | undefined)?.role)
      : undefined;
  const pin = (where: string, i: unknown, roles: string[]) => {
    const role = roleOf(i);
    if (role === undefined || !roles.includes(role))
      problems.push(`${where}: must be the index of a pin with role ${roles.join(' or ')}`);
  };
  if (hybrid['answer'] !== undefined)
    pin('hybrid.answer', hybrid['answer'], ['primary', 'specialist', 'router', 'classifier']);
  const route = hybrid['route'];
  if (route !== undefined) {
    if (!isObj(route) || !Array.isArray(route['routes']) || route['routes'].length === 0)
      problems.push('hybrid.route: by, routes and default are required');
    else {
      pin('hybrid.route.by', route['by'], ['router', 'classifier']);
      pin('hybrid.route.default', route['default'], ['primary', 'specialist']);
      route['routes'].forEach((r, i) => {
        if (!isObj(r) || typeof r['label'] !== 'string') problems.push(`hybrid.route.routes[${i}].label: missing`);
        else pin(`hybrid.route.routes[${i}].to`, r['to'], ['primary', 'specialist']);
      });
    }
  }
  const evaluate = hybrid['evaluate'];
  if (evaluate !== undefined) {
    if (!isObj(evaluate)) problems.push('hybrid.evaluate: not an object');
    else {
      pin('hybrid.evaluate.by', evaluate['by'], ['evaluator']);
      const invariants = evaluate['invariants'];
      if (!Array.isArray(invariants) || invariants.length === 0 || !invariants.every((x) => typeof x === 'string'))
        problems.push('hybrid.evaluate.invariants: at least one invariant is required');
      const retries = evaluate['maxRetries'];
      if (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 0 || retries > 5)
        problems.push('hybrid.evaluate.maxRetries: an integer from 0 to 5');
      if (evaluate['escalateTo'] !== undefined)
        pin('hybrid.evaluate.escalateTo', evaluate['escalateTo'], ['primary', 'specialist']);
    }
  }
  if (route === undefined && hybrid['answer'] === undefined)
    problems.push('hybrid: an answering pin or a route is required');
  return problems;
}
