/* Generated from the JSON Schema by `npm run generate`. Do not edit. */

/**
 * A ULID: 26 characters of Crockford base32 (0-9, A-Z without I, L, O, U), the first character 0-7.
 */
export type Ulid = string;
/**
 * A lowercase kebab-case name, 1-64 characters (`a-z`, `0-9`, single hyphens between words). Safe as a folder name and as an Nx project name.
 */
export type Slug = string;
/**
 * An exact semantic version (MAJOR.MINOR.PATCH with optional pre-release and build). Ranges, wildcards and tags such as `latest` are not allowed: every pin names one immutable version.
 */
export type ExactSemver = string;
/**
 * An opaque reference (for example `keyref:acme-agents`): a scheme, a colon, then a name. Never a key value.
 */
export type OpaqueRef = string;
/**
 * The `name` of a pin in the modelSet.
 */
export type PinName = string;
/**
 * An OpenTelemetry collector's origin: `https://` and a lowercase host with an optional port, or `http://` for a loopback collector (127.0.0.1, localhost, [::1]); no path, credentials, query or trailing slash.
 */
export type CollectorOrigin = string;
/**
 * A runtime binding, matching the Cubicle DynamicWorkerHostPlan bindings union. Cloudflare Workers provide every kind; container and local hosts provide `secret-ref` bindings only (and an HB3 container an `r2` bucket as its tuned-weights source), so a class that runs only there may not declare other kinds.
 */
export type BindingRef =
  BindingService | BindingKv | BindingD1 | BindingR2 | BindingQueue | BindingSecretRef | BindingCustom;

/**
 * A precise, versioned definition of one agent or tool: identity, capability contract, model set, tool inventory, composition, memory and telemetry contracts, runtime requirements and lifecycle state.
 */
export interface AgentDefinition {
  /**
   * Optional: the schema this file follows, so editors can autocomplete.
   */
  $schema?: string;
  /**
   * The definition format version; always `agent-definition/v1`.
   */
  schemaVersion: 'agent-definition/v1';
  identity: Identity;
  capabilityContract: CapabilityContract;
  /**
   * The pinned models (0..n). Empty makes the entity a tool; one or more makes it an agent that must register in KYM.
   */
  modelSet: LlmPin[];
  /**
   * The tools the agent may call.
   */
  toolInventory: ToolRef[];
  composition: Composition;
  memoryContract: MemoryContract;
  telemetryContract: TelemetryContract;
  runtimeRequirements: RuntimeRequirements;
  /**
   * The current stage on the MCP-to-agentic lifecycle.
   */
  lifecycleState:
    'tool-prototype' | 'tool-shipped' | 'mcp-resident' | 'kym-registered' | 'composed' | 'marketplace-published';
  metadata: Metadata;
}
/**
 * Immutable identity: the join key for receipts, KYM registration and NANDA discovery.
 */
export interface Identity {
  id: Ulid;
  slug: Slug;
  /**
   * The human-readable display name.
   */
  name: string;
  versionSemver: ExactSemver;
  versionId: Ulid;
  owner: CubicleActorRef;
  signingKeyRef: OpaqueRef;
  /**
   * The KYM registry reference, exactly `kym://agents/<slug>@<versionSemver>` of this definition. Required from lifecycle stage `kym-registered` on.
   */
  kymRef?: string;
  /**
   * Where the published NANDA AgentFacts credential lives (a URL or URN). Required at lifecycle stage `marketplace-published`.
   */
  nandaFactsRef?: string;
}
/**
 * Who owns the agent: a user, team, organisation or service account.
 */
export interface CubicleActorRef {
  /**
   * The kind of actor that owns the agent.
   */
  kind: 'user' | 'team' | 'org' | 'service';
  /**
   * The actor's identifier within its kind (letters, digits, `.`, `_`, `-`; up to 128 characters).
   */
  id: string;
}
/**
 * What the agent promises to do: its inputs, outputs, skills and invariants.
 */
export interface CapabilityContract {
  /**
   * The A2A parts the agent accepts.
   *
   * @minItems 1
   */
  inputs: [Part, ...Part[]];
  /**
   * The A2A parts the agent produces.
   *
   * @minItems 1
   */
  outputs: [Part, ...Part[]];
  /**
   * The agent's versioned skills, each with its own schemas.
   *
   * @minItems 1
   */
  skills: [Skill, ...Skill[]];
  /**
   * Natural-language postconditions that evaluators score against.
   */
  invariants: string[];
}
/**
 * One A2A part the agent accepts or produces: text, a file or structured data.
 */
export interface Part {
  /**
   * The A2A part kind.
   */
  kind: 'text' | 'file' | 'data';
  /**
   * The IANA media type of the part, for example `text/plain` or `application/json`.
   */
  mediaType: string;
  schema?: JsonSchemaObject;
  /**
   * What the part carries.
   */
  description?: string;
}
/**
 * An embedded JSON Schema (draft 2020-12) describing a payload. Kept as data: agentdef does not execute it.
 */
export interface JsonSchemaObject {}
/**
 * A versioned skill, shaped like the A2A AgentSkill so the definition serialises to an AgentCard.
 */
export interface Skill {
  /**
   * The skill's identifier, unique within the agent (A2A `AgentSkill.id`). Any characters are allowed; generated code escapes it.
   */
  id: string;
  /**
   * The skill's display name.
   */
  name: string;
  /**
   * What the skill does, for people and for discovery.
   */
  description: string;
  version: ExactSemver;
  /**
   * Keywords describing the skill (A2A `AgentSkill.tags`, which holds at least one).
   *
   * @minItems 1
   */
  tags: [string, ...string[]];
  /**
   * Example requests the skill handles.
   */
  examples?: string[];
  /**
   * Media types the skill accepts; defaults to the agent's inputs.
   */
  inputModes?: string[];
  /**
   * Media types the skill produces; defaults to the agent's outputs.
   */
  outputModes?: string[];
  inputSchema?: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
}
/**
 * One pinned model in the agent's execution path, of any task (chat, embedding, classification, speech, image). Any pin makes the agent agentic: the model gate counts every inference step.
 */
export interface LlmPin {
  /**
   * What the model does inside the agent.
   */
  role: 'primary' | 'classifier' | 'evaluator' | 'specialist' | 'router';
  /**
   * What kind of inference the model performs; absent means `chat` (a text model the runtime calls through the provider's chat API). Every task counts for the model gate (`telemetryContract.agenticGate`). The runtime calls `chat` models only: a pin of another task is refused with `runtime_capability_mismatch` (rule `model-task`) until a runtime path for that task exists (docs/decisions/0006-model-gate.md).
   */
  task?:
    | 'chat'
    | 'embedding'
    | 'classification'
    | 'speech-to-text'
    | 'text-to-speech'
    | 'image-classification'
    | 'image-generation';
  /**
   * A name for the pin, unique in the modelSet, so `composition.routing` and `composition.evaluation` can point at it (for example `bug-fixer`).
   */
  name?: string;
  /**
   * The provider's model identifier, for example `gpt-4o-mini`.
   */
  modelId: string;
  /**
   * The exact model version or snapshot date; never `latest`.
   */
  modelVersion: string;
  /**
   * Who serves the model: a known provider (`openai`, `anthropic`, `google`, `mistral`, `cohere`, `groq`, `workers-ai`, `azure-openai`, `bedrock`, `local-ollama`) or `custom:<name>`. `local-ollama` keeps inference on the machine.
   */
  providerId: string;
  samplingParams: SamplingParams;
  /**
   * The model's tier: `tuned` carries pinned weights (a checkpoint served in a container or on the local host), `local` runs on the machine (the local host only, no key). `frontier` and `small` are both remote API calls and run alike; the label is for people and registries.
   */
  tier?: 'frontier' | 'small' | 'tuned' | 'local';
  /**
   * The pinned fine-tune checkpoint; required when `tier` is `tuned`.
   */
  checkpointId?: string;
}
/**
 * Sampling parameters sent with every call to the model: the portable ones (camelCase, translated for each provider) and the provider-specific ones agentdef passes through under their wire names (OpenAI: `frequency_penalty`, `presence_penalty`; Ollama: `num_ctx`, `repeat_penalty`, `repeat_last_n`, `min_p`, `mirostat`, `mirostat_eta`, `mirostat_tau`). Any other field is an error, so a misspelled parameter is never silently ignored.
 */
export interface SamplingParams {
  /**
   * Sampling temperature.
   */
  temperature?: number;
  /**
   * Nucleus sampling probability mass.
   */
  topP?: number;
  /**
   * Top-k sampling cut-off.
   */
  topK?: number;
  /**
   * Maximum tokens the model may generate per call.
   */
  maxTokens?: number;
  /**
   * Seed for providers that support deterministic sampling.
   */
  seed?: number;
  /**
   * Stop sequences.
   *
   * @maxItems 16
   */
  stop?:
    | []
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string]
    | [string, string, string, string, string, string]
    | [string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string, string, string]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ];
  /**
   * OpenAI: penalty on tokens by how often they already appear.
   */
  frequency_penalty?: number;
  /**
   * OpenAI: penalty on tokens that already appear.
   */
  presence_penalty?: number;
  /**
   * Ollama: the context window size, in tokens.
   */
  num_ctx?: number;
  /**
   * Ollama: how strongly repetitions are penalised.
   */
  repeat_penalty?: number;
  /**
   * Ollama: how far back to look for repetitions (-1: the whole context).
   */
  repeat_last_n?: number;
  /**
   * Ollama: minimum probability of a token relative to the most likely one.
   */
  min_p?: number;
  /**
   * Ollama: Mirostat sampling (0 off, 1 Mirostat, 2 Mirostat 2.0).
   */
  mirostat?: number;
  /**
   * Ollama: Mirostat learning rate.
   */
  mirostat_eta?: number;
  /**
   * Ollama: Mirostat target perplexity.
   */
  mirostat_tau?: number;
}
/**
 * One versioned, provenance-tagged tool the agent may call.
 */
export interface ToolRef {
  /**
   * The tool's identifier, unique within the agent.
   */
  id: string;
  /**
   * The name the model or router calls the tool by (for MCP tools, the MCP tool name).
   */
  name: string;
  version: ExactSemver;
  /**
   * For MCP tools: the name of the MCP server that provides the tool (mapped to a command or URL by the workspace).
   */
  mcpServer?: string;
  /**
   * For MCP tools: `stdio` (a local process, local host only) or `http` (Streamable HTTP, any host).
   */
  mcpTransport?: 'stdio' | 'http';
  /**
   * Where the tool's code comes from; with `risk` it picks the sandbox.
   */
  provenance: 'mcp' | 'skill-package' | 'native' | 'scripted';
  /**
   * The Cubicle risk level of calling the tool. `critical` keeps the tool out of Worker isolates (it runs in its own process: a container or the local host); `low`, `medium` and `high` are recorded for Cubicle and change neither where nor how the tool runs.
   */
  risk: 'low' | 'medium' | 'high' | 'critical';
  /**
   * What the tool does, shown to the model.
   */
  description?: string;
  inputSchema?: JsonSchemaObject;
  /**
   * The HTTP(S) origins the tool may reach; everything else is blocked by the egress policy. No userinfo (`user:password@`): credentials never appear in a definition.
   */
  endpoints?: string[];
}
/**
 * Agents of agents: a leaf, or a DAG of pinned child definitions with typed edges.
 */
export interface Composition {
  /**
   * `leaf` runs its own models and tools; `dag` composes pinned children.
   */
  kind: 'leaf' | 'dag';
  /**
   * For `dag`: the pinned children, each `slug@version`.
   */
  nodes?: AgentRef[];
  /**
   * For `dag`: typed edges between nodes; the edges form no cycle.
   */
  edges?: Edge[];
  /**
   * When true each child runs in a fresh runtime instance (its own isolate, job or process) with an isolated context.
   */
  quarantine?: boolean;
  routing?: LeafRouting;
  evaluation?: LeafEvaluation;
}
/**
 * A pinned child agent: an AgentDefinition at one exact version.
 */
export interface AgentRef {
  slug: Slug;
  version: ExactSemver;
}
/**
 * A typed edge between two nodes of the composition.
 */
export interface Edge {
  from: Slug;
  to: Slug;
  /**
   * Who decides whether the edge is taken: the router model (`llm-decides`), always (`deterministic`), or a rule in code (`conditional`).
   */
  gate?: 'llm-decides' | 'deterministic' | 'conditional';
  condition?: EdgeCondition;
}
/**
 * For a `conditional` edge: the edge is taken when the value at `pointer` in the source node's output equals `equals`.
 */
export interface EdgeCondition {
  /**
   * A JSON Pointer into the source node's structured output.
   */
  pointer: string;
  /**
   * The value that selects this edge.
   */
  equals: string | number | boolean | null;
}
/**
 * A routing rule inside one leaf: the labels the router chooses from, the pin each label goes to, and the default.
 */
export interface LeafRouting {
  by?: PinName;
  /**
   * The labels, in the order the router is shown them; each label once.
   *
   * @minItems 1
   * @maxItems 32
   */
  routes: [
    {
      /**
       * What the router replies to choose this route, for example `bug`.
       */
      label: string;
      to: PinName;
      /**
       * What tasks this label is for; shown to the router.
       */
      description?: string;
    },
    ...{
      /**
       * What the router replies to choose this route, for example `bug`.
       */
      label: string;
      to: PinName;
      /**
       * What tasks this label is for; shown to the router.
       */
      description?: string;
    }[]
  ];
  default: PinName;
}
/**
 * Evaluator-optimiser inside one leaf: the evaluator judges each answer against `capabilityContract.invariants`; a failed answer is retried with the evaluator's critique, then escalated, then the task fails.
 */
export interface LeafEvaluation {
  by?: PinName;
  /**
   * How many times the answering pin is asked again with the critique after a failed verdict.
   */
  maxRetries?: number;
  escalateTo?: PinName;
}
/**
 * The agent's memory references and context budgets.
 */
export interface MemoryContract {
  /**
   * The Cubicle memory references the agent uses.
   */
  refs: MemoryRef[];
  /**
   * The tokens the agent keeps in context on a typical turn: a sizing declaration. Validation checks it (at most `contextWindowBudget`; above 128k tokens it refuses `workers-only` and warns on `workers-preferred`); the runtime bounds the context by `contextWindowBudget`, not by this.
   */
  workingSetTokens?: number;
  /**
   * The most tokens the agent may hold in context; the runtime compacts (by `compactionPolicy`, default `drop`) before exceeding it. A tool calls no model and keeps no context.
   */
  contextWindowBudget?: number;
  /**
   * What the runtime does when the next model request would exceed `contextWindowBudget`; it needs that budget, without which it would never apply.
   */
  compactionPolicy?: 'summarise' | 'quarantine' | 'drop';
}
/**
 * One Cubicle memory reference.
 */
export interface MemoryRef {
  /**
   * The Cubicle memory kind. `chat` is the run's conversation, which the runtime keeps and sends to the model pins (see `egressAllowed`); the other kinds name memories a Cubicle host provides, which agentdef's own hosts do not.
   */
  kind: 'chat' | 'vector' | 'profile' | 'receipt' | 'sensor' | 'content' | 'custom';
  /**
   * The memory's name within the agent.
   */
  name: string;
  /**
   * How long the memory is kept. On HB3 a `session` or `durable` memory makes the agent a long-running Service rather than a Job.
   */
  retention: 'ephemeral' | 'session' | 'durable';
  /**
   * Whether the memory's content may leave the runtime host. For `chat` memory, `false` requires every model pin to run on the machine (tier `local`).
   */
  egressAllowed: boolean;
}
/**
 * The receipt envelope and telemetry the agent commits to, and its agentic gate, stored explicitly.
 */
export interface TelemetryContract {
  /**
   * The signing key reference for receipts, or null before `tool-shipped` (no signed receipts yet).
   */
  receiptSigner: OpaqueRef | null;
  /**
   * The receipt schema the agent emits, for example `receipt/v1`.
   */
  receiptSchemaVersion: string;
  /**
   * Which telemetry streams the agent declares, for the platform that collects them (Cubicle). A declaration: agentdef's hosts emit the run receipts and the run event log whatever it lists. A tool (empty `modelSet`) declares `events` only.
   */
  telemetryKinds: ('events' | 'session-report' | 'experiment')[];
  /**
   * The model gate: `tool-only` when `modelSet` is empty, `agentic` when it pins any model, whatever its task (chat, embedding, classification, speech, image). Stored so downstream systems audit rather than infer.
   */
  agenticGate: 'tool-only' | 'agentic';
  /**
   * True exactly when `agenticGate` is `agentic`: agentic entities must register in KYM.
   */
  kymRegistrationRequired: boolean;
  collector?: CollectorOrigin;
}
/**
 * The compiler's dispatch key: the runtime class, limits, key custody and bindings.
 */
export interface RuntimeRequirements {
  /**
   * Which hosts may run the agent: Workers only, Workers with a container fallback, a container, or the user's own machine.
   */
  runtimeCapabilityClass: 'workers-only' | 'workers-preferred' | 'container-required' | 'local-host-required';
  limits: Limits;
  /**
   * Where the agent's keys are held.
   */
  keyCustody: 'session' | 'vault-ref' | 'secrets-store';
  /**
   * The runtime bindings the agent needs.
   */
  bindings: BindingRef[];
}
/**
 * Resource and termination limits; the runtime enforces them.
 */
export interface Limits {
  /**
   * CPU time per request in milliseconds. Cloudflare Workers enforce it (`limits.cpu_ms`, the most any agent of the Worker declares); container (HB3) and local hosts do not meter CPU time (`wallClockMs` bounds the run there), so a class that never runs on a Worker may not declare it.
   */
  cpuMs?: number;
  /**
   * Memory in MiB: an HB3 container's memory, and on HB3 and the local launcher the Node heap limit of the agent's process (three quarters of it). Advisory on Cloudflare Workers, whose isolates have a fixed 128 MiB: a `workers-only` agent may not declare more.
   */
  memoryMb?: number;
  /**
   * Wall-clock time per run in milliseconds; the run stops and says so when it is reached.
   */
  wallClockMs?: number;
  /**
   * The most outbound requests (model and tool calls) per run.
   */
  maxSubrequests?: number;
}
/**
 * A service binding to another Worker or MCP server over HTTP.
 */
export interface BindingService {
  /**
   * The binding kind.
   */
  kind: 'service';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The service (Worker) name to bind.
   */
  service: string;
}
/**
 * A KV namespace.
 */
export interface BindingKv {
  /**
   * The binding kind.
   */
  kind: 'kv';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The KV namespace id, when known at compile time.
   */
  namespaceId?: string;
}
/**
 * A D1 database.
 */
export interface BindingD1 {
  /**
   * The binding kind.
   */
  kind: 'd1';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The D1 database id.
   */
  databaseId?: string;
}
/**
 * An R2 bucket.
 */
export interface BindingR2 {
  /**
   * The binding kind.
   */
  kind: 'r2';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The bucket name.
   */
  bucket?: string;
}
/**
 * A queue producer.
 */
export interface BindingQueue {
  /**
   * The binding kind.
   */
  kind: 'queue';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The queue name.
   */
  queue?: string;
}
/**
 * A secret, by reference only: the value lives in a secret store, never in the definition.
 */
export interface BindingSecretRef {
  /**
   * The binding kind.
   */
  kind: 'secret-ref';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * Where the operator keeps the secret, for example `secrets-store://acme/openai` or `vault://acme/openai`; its scheme matches `keyCustody`. Hosts look the secret up by `name`, never by this reference.
   */
  ref: string;
}
/**
 * A binding of a kind the host plan does not know; passed through by name.
 */
export interface BindingCustom {
  /**
   * The binding kind.
   */
  kind: 'custom';
  /**
   * The binding's name in the runtime's `env`.
   */
  name: string;
  /**
   * The host's binding type.
   */
  type: string;
}
/**
 * Description, tags, provenance and derived exports.
 */
export interface Metadata {
  /**
   * What the agent is for.
   */
  description: string;
  /**
   * Keywords for discovery.
   */
  tags: string[];
  provenance: Provenance;
  cardExports?: CardExports;
  /**
   * Free-form notes; the only open object in the definition.
   */
  notes?: {
    [k: string]: unknown | undefined;
  };
}
/**
 * Where the definition comes from: a file in a repository, and at publish time the commit.
 */
export interface Provenance {
  /**
   * The repository URL.
   */
  repo: string;
  /**
   * The definition's path inside the repository (relative, no `..`).
   */
  filePath: string;
  /**
   * The commit the definition was published from; stamped at publish time, optional in authored files.
   */
  commitSha?: string;
}
/**
 * Derived views generated by the compiler and cached for external verifiers.
 */
export interface CardExports {
  /**
   * The A2A AgentCard projection of this definition.
   */
  agentCard?: {};
  /**
   * The NANDA AgentFacts credential projection of this definition.
   */
  agentFacts?: {};
  /**
   * The OASF record projection of this definition (name, version, schema_version, skills and domains from the OASF taxonomy, locators, modules); generated by `agentdef export oasf` and publish.
   */
  oasf?: {};
}
