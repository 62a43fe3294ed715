/* Generated from the JSON Schema by `npm run generate`. Do not edit. */
// @ts-nocheck -- Ajv standalone output, bundled by esbuild; typed by the wrapper below.
var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};

// node_modules/ajv/dist/runtime/ucs2length.js
var require_ucs2length = __commonJS({
  "node_modules/ajv/dist/runtime/ucs2length.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    function ucs2length(str) {
      const len = str.length;
      let length = 0;
      let pos = 0;
      let value;
      while (pos < len) {
        length++;
        value = str.charCodeAt(pos++);
        if (value >= 55296 && value <= 56319 && pos < len) {
          value = str.charCodeAt(pos);
          if ((value & 64512) === 56320)
            pos++;
        }
      }
      return length;
    }
    exports.default = ucs2length;
    ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
  }
});

// validator.mjs
var validateAgentDefinitionCompiled = validate20;
var schema31 = { "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://agentdef.dev/schema/agent-definition.v1.schema.json", "title": "AgentDefinition", "description": "A precise, versioned definition of one agent or tool: identity, capability contract, model set, tool inventory, composition, memory and telemetry contracts, runtime requirements and lifecycle state.", "type": "object", "additionalProperties": false, "required": ["schemaVersion", "identity", "capabilityContract", "modelSet", "toolInventory", "composition", "memoryContract", "telemetryContract", "runtimeRequirements", "lifecycleState", "metadata"], "properties": { "$schema": { "type": "string", "description": "Optional: the schema this file follows, so editors can autocomplete." }, "schemaVersion": { "const": "agent-definition/v1", "description": "The definition format version; always `agent-definition/v1`." }, "identity": { "$ref": "#/$defs/Identity" }, "capabilityContract": { "$ref": "#/$defs/CapabilityContract" }, "modelSet": { "type": "array", "items": { "$ref": "#/$defs/LlmPin" }, "description": "The pinned models (0..n). Empty makes the entity a tool; one or more makes it an agent that must register in KYM." }, "toolInventory": { "type": "array", "items": { "$ref": "#/$defs/ToolRef" }, "description": "The tools the agent may call." }, "composition": { "$ref": "#/$defs/Composition" }, "memoryContract": { "$ref": "#/$defs/MemoryContract" }, "telemetryContract": { "$ref": "#/$defs/TelemetryContract" }, "runtimeRequirements": { "$ref": "#/$defs/RuntimeRequirements" }, "lifecycleState": { "type": "string", "enum": ["tool-prototype", "tool-shipped", "mcp-resident", "kym-registered", "composed", "marketplace-published"], "description": "The current stage on the MCP-to-agentic lifecycle." }, "metadata": { "$ref": "#/$defs/Metadata" } }, "$defs": { "Semver": { "type": "string", "title": "ExactSemver", "description": "An exact semantic version (MAJOR.MINOR.PATCH with optional pre-release and build). Ranges, wildcards and tags such as `latest` are not allowed: every pin names one immutable version.", "pattern": "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$", "maxLength": 128, "x-message": "must be an exact semantic version such as 1.2.3 (no ranges like ^1.2.0 or ~1.2, no `latest`)" }, "Ulid": { "type": "string", "title": "Ulid", "description": "A ULID: 26 characters of Crockford base32 (0-9, A-Z without I, L, O, U), the first character 0-7.", "pattern": "^[0-7][0-9A-HJKMNP-TV-Z]{25}$", "x-message": "must be a ULID: 26 Crockford base32 characters (0-9, A-Z without I, L, O, U), uppercase, the first one 0-7" }, "Slug": { "type": "string", "title": "Slug", "description": "A lowercase kebab-case name, 1-64 characters (`a-z`, `0-9`, single hyphens between words). Safe as a folder name and as an Nx project name.", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$", "minLength": 1, "maxLength": 64, "x-message": "must be lowercase kebab-case: letters a-z, digits and single hyphens between words, 1-64 characters (no slashes, dots or `..`)" }, "OpaqueRef": { "type": "string", "title": "OpaqueRef", "description": "An opaque reference (for example `keyref:acme-agents`): a scheme, a colon, then a name. Never a key value.", "pattern": "^[a-z][a-z0-9+.-]*:\\S+$", "maxLength": 512, "x-message": "must be an opaque reference such as keyref:my-key (a scheme, a colon, a name; no spaces)" }, "JsonSchemaObject": { "type": "object", "title": "JsonSchemaObject", "description": "An embedded JSON Schema (draft 2020-12) describing a payload. Kept as data: agentdef does not execute it." }, "CubicleActorRef": { "type": "object", "title": "CubicleActorRef", "description": "Who owns the agent: a user, team, organisation or service account.", "additionalProperties": false, "required": ["kind", "id"], "properties": { "kind": { "type": "string", "enum": ["user", "team", "org", "service"], "description": "The kind of actor that owns the agent." }, "id": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The actor's identifier within its kind (letters, digits, `.`, `_`, `-`; up to 128 characters)." } } }, "Identity": { "type": "object", "title": "Identity", "description": "Immutable identity: the join key for receipts, KYM registration and NANDA discovery.", "additionalProperties": false, "required": ["id", "slug", "name", "versionSemver", "versionId", "owner", "signingKeyRef"], "properties": { "id": { "$ref": "#/$defs/Ulid", "description": "The agent's permanent ULID. It never changes across versions." }, "slug": { "$ref": "#/$defs/Slug", "description": "The agent's kebab-case name; also its Nx project name and folder name." }, "name": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The human-readable display name." }, "versionSemver": { "$ref": "#/$defs/Semver", "description": "The exact semantic version of this definition, for humans and for pins (`slug@version`)." }, "versionId": { "$ref": "#/$defs/Ulid", "description": "The ULID of this version; the receipt attribution tuple carries it." }, "owner": { "$ref": "#/$defs/CubicleActorRef", "description": "The actor that owns this agent." }, "signingKeyRef": { "$ref": "#/$defs/OpaqueRef", "description": "An opaque reference to the key that signs this agent's exports (ADR-006). Never the key itself." }, "kymRef": { "type": "string", "pattern": "^kym://agents/[a-z0-9]+(?:-[a-z0-9]+)*@\\S+$", "description": "The KYM registry reference, exactly `kym://agents/<slug>@<versionSemver>` of this definition. Required from lifecycle stage `kym-registered` on.", "x-message": "must look like kym://agents/<slug>@<version>" }, "nandaFactsRef": { "type": "string", "pattern": "^[a-z][a-z0-9+.-]*:\\S+$", "maxLength": 1024, "description": "Where the published NANDA AgentFacts credential lives (a URL or URN). Required at lifecycle stage `marketplace-published`." } } }, "Part": { "type": "object", "title": "Part", "description": "One A2A part the agent accepts or produces: text, a file or structured data.", "additionalProperties": false, "required": ["kind", "mediaType"], "properties": { "kind": { "type": "string", "enum": ["text", "file", "data"], "description": "The A2A part kind." }, "mediaType": { "type": "string", "pattern": "^[a-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$", "description": "The IANA media type of the part, for example `text/plain` or `application/json`.", "x-message": "must be a media type such as text/plain or application/json" }, "schema": { "$ref": "#/$defs/JsonSchemaObject", "description": "For `data` parts: the JSON Schema the payload satisfies." }, "description": { "type": "string", "minLength": 1, "maxLength": 1e3, "description": "What the part carries." } } }, "Skill": { "type": "object", "title": "Skill", "description": "A versioned skill, shaped like the A2A AgentSkill so the definition serialises to an AgentCard.", "additionalProperties": false, "required": ["id", "name", "description", "version", "tags"], "properties": { "id": { "type": "string", "minLength": 1, "maxLength": 128, "description": "The skill's identifier, unique within the agent (A2A `AgentSkill.id`). Any characters are allowed; generated code escapes it." }, "name": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The skill's display name." }, "description": { "type": "string", "minLength": 1, "maxLength": 4e3, "description": "What the skill does, for people and for discovery." }, "version": { "$ref": "#/$defs/Semver", "description": "The skill's exact version; receipts carry it in the pinning tuple." }, "tags": { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1, "maxLength": 64 }, "description": "Keywords describing the skill (A2A `AgentSkill.tags`, which holds at least one)." }, "examples": { "type": "array", "description": "Example requests the skill handles.", "items": { "type": "string", "minLength": 1, "maxLength": 256 } }, "inputModes": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 128 }, "description": "Media types the skill accepts; defaults to the agent's inputs." }, "outputModes": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 128 }, "description": "Media types the skill produces; defaults to the agent's outputs." }, "inputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the skill's structured input, when it takes data." }, "outputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the skill's structured output, when it returns data." } } }, "CapabilityContract": { "type": "object", "title": "CapabilityContract", "description": "What the agent promises to do: its inputs, outputs, skills and invariants.", "additionalProperties": false, "required": ["inputs", "outputs", "skills", "invariants"], "properties": { "inputs": { "type": "array", "items": { "$ref": "#/$defs/Part" }, "minItems": 1, "description": "The A2A parts the agent accepts." }, "outputs": { "type": "array", "items": { "$ref": "#/$defs/Part" }, "minItems": 1, "description": "The A2A parts the agent produces." }, "skills": { "type": "array", "items": { "$ref": "#/$defs/Skill" }, "minItems": 1, "description": "The agent's versioned skills, each with its own schemas." }, "invariants": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 1e3 }, "description": "Natural-language postconditions that evaluators score against." } } }, "SamplingParams": { "type": "object", "title": "SamplingParams", "description": "Sampling parameters sent with every call to the model: the portable ones (camelCase, translated for each provider) and the provider-specific ones agentdef passes through under their wire names (OpenAI: `frequency_penalty`, `presence_penalty`; Ollama: `num_ctx`, `repeat_penalty`, `repeat_last_n`, `min_p`, `mirostat`, `mirostat_eta`, `mirostat_tau`). Any other field is an error, so a misspelled parameter is never silently ignored.", "properties": { "temperature": { "type": "number", "minimum": 0, "maximum": 2, "description": "Sampling temperature." }, "topP": { "type": "number", "minimum": 0, "maximum": 1, "description": "Nucleus sampling probability mass." }, "topK": { "type": "integer", "minimum": 1, "description": "Top-k sampling cut-off." }, "maxTokens": { "type": "integer", "minimum": 1, "description": "Maximum tokens the model may generate per call." }, "seed": { "type": "integer", "description": "Seed for providers that support deterministic sampling." }, "stop": { "type": "array", "items": { "type": "string" }, "maxItems": 16, "description": "Stop sequences." }, "frequency_penalty": { "type": "number", "minimum": -2, "maximum": 2, "description": "OpenAI: penalty on tokens by how often they already appear." }, "presence_penalty": { "type": "number", "minimum": -2, "maximum": 2, "description": "OpenAI: penalty on tokens that already appear." }, "num_ctx": { "type": "integer", "minimum": 1, "description": "Ollama: the context window size, in tokens." }, "repeat_penalty": { "type": "number", "minimum": 0, "description": "Ollama: how strongly repetitions are penalised." }, "repeat_last_n": { "type": "integer", "minimum": -1, "description": "Ollama: how far back to look for repetitions (-1: the whole context)." }, "min_p": { "type": "number", "minimum": 0, "maximum": 1, "description": "Ollama: minimum probability of a token relative to the most likely one." }, "mirostat": { "type": "integer", "minimum": 0, "maximum": 2, "description": "Ollama: Mirostat sampling (0 off, 1 Mirostat, 2 Mirostat 2.0)." }, "mirostat_eta": { "type": "number", "minimum": 0, "description": "Ollama: Mirostat learning rate." }, "mirostat_tau": { "type": "number", "minimum": 0, "description": "Ollama: Mirostat target perplexity." } }, "additionalProperties": false }, "LlmPin": { "type": "object", "title": "LlmPin", "description": "One pinned model in the agent's execution path, of any task (chat, embedding, classification, speech, image). Any pin makes the agent agentic: the model gate counts every inference step.", "additionalProperties": false, "required": ["role", "modelId", "modelVersion", "providerId", "samplingParams"], "properties": { "role": { "type": "string", "enum": ["primary", "classifier", "evaluator", "specialist", "router"], "description": "What the model does inside the agent." }, "task": { "type": "string", "enum": ["chat", "embedding", "classification", "speech-to-text", "text-to-speech", "image-classification", "image-generation"], "description": "What kind of inference the model performs; absent means `chat` (a text model the runtime calls through the provider's chat API). Every task counts for the model gate (`telemetryContract.agenticGate`). The runtime calls `chat` models only: a pin of another task is refused with `runtime_capability_mismatch` (rule `model-task`) until a runtime path for that task exists (docs/decisions/0006-model-gate.md)." }, "name": { "type": "string", "pattern": "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", "maxLength": 63, "description": "A name for the pin, unique in the modelSet, so `composition.routing` and `composition.evaluation` can point at it (for example `bug-fixer`)." }, "modelId": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The provider's model identifier, for example `gpt-4o-mini`." }, "modelVersion": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The exact model version or snapshot date; never `latest`." }, "providerId": { "type": "string", "pattern": "^(?:[a-z0-9]+(?:-[a-z0-9]+)*|custom:[a-z0-9]+(?:[-.][a-z0-9]+)*)$", "description": "Who serves the model: a known provider (`openai`, `anthropic`, `google`, `mistral`, `cohere`, `groq`, `workers-ai`, `azure-openai`, `bedrock`, `local-ollama`) or `custom:<name>`. `local-ollama` keeps inference on the machine.", "x-message": "must be a known provider id such as openai or local-ollama, or custom:<name>" }, "samplingParams": { "$ref": "#/$defs/SamplingParams", "description": "Sampling parameters for this model." }, "tier": { "type": "string", "enum": ["frontier", "small", "tuned", "local"], "description": "The model's tier: `tuned` carries pinned weights (a checkpoint served in a container or on the local host), `local` runs on the machine (the local host only, no key). `frontier` and `small` are both remote API calls and run alike; the label is for people and registries." }, "checkpointId": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,255}$", "description": "The pinned fine-tune checkpoint; required when `tier` is `tuned`." } } }, "ToolRef": { "type": "object", "title": "ToolRef", "description": "One versioned, provenance-tagged tool the agent may call.", "additionalProperties": false, "required": ["id", "name", "version", "provenance", "risk"], "properties": { "id": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The tool's identifier, unique within the agent." }, "name": { "type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$", "description": "The name the model or router calls the tool by (for MCP tools, the MCP tool name)." }, "version": { "$ref": "#/$defs/Semver", "description": "The tool's exact version." }, "mcpServer": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "For MCP tools: the name of the MCP server that provides the tool (mapped to a command or URL by the workspace)." }, "mcpTransport": { "type": "string", "enum": ["stdio", "http"], "description": "For MCP tools: `stdio` (a local process, local host only) or `http` (Streamable HTTP, any host)." }, "provenance": { "type": "string", "enum": ["mcp", "skill-package", "native", "scripted"], "description": "Where the tool's code comes from; with `risk` it picks the sandbox." }, "risk": { "type": "string", "enum": ["low", "medium", "high", "critical"], "description": "The Cubicle risk level of calling the tool. `critical` keeps the tool out of Worker isolates (it runs in its own process: a container or the local host); `low`, `medium` and `high` are recorded for Cubicle and change neither where nor how the tool runs." }, "description": { "type": "string", "minLength": 1, "maxLength": 4e3, "description": "What the tool does, shown to the model." }, "inputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the tool's arguments." }, "endpoints": { "type": "array", "items": { "type": "string", "pattern": "^https?://[^\\s/@]+(?:/\\S*)?$", "x-message": "must be an http(s) origin such as https://api.example.com, with no user name or password before the host (credentials are secrets: reference them, never put them in a URL)" }, "uniqueItems": true, "description": "The HTTP(S) origins the tool may reach; everything else is blocked by the egress policy. No userinfo (`user:password@`): credentials never appear in a definition." } } }, "AgentRef": { "type": "object", "title": "AgentRef", "description": "A pinned child agent: an AgentDefinition at one exact version.", "additionalProperties": false, "required": ["slug", "version"], "properties": { "slug": { "$ref": "#/$defs/Slug", "description": "The child agent's slug." }, "version": { "$ref": "#/$defs/Semver", "description": "The child's exact `versionSemver`." } } }, "EdgeCondition": { "type": "object", "title": "EdgeCondition", "description": "For a `conditional` edge: the edge is taken when the value at `pointer` in the source node's output equals `equals`.", "additionalProperties": false, "required": ["pointer", "equals"], "properties": { "pointer": { "type": "string", "pattern": "^(?:/(?:[^~/]|~[01])*)*$", "description": "A JSON Pointer into the source node's structured output." }, "equals": { "type": ["string", "number", "boolean", "null"], "description": "The value that selects this edge." } } }, "Edge": { "type": "object", "title": "Edge", "description": "A typed edge between two nodes of the composition.", "additionalProperties": false, "required": ["from", "to"], "properties": { "from": { "$ref": "#/$defs/Slug", "description": "The slug of the node the edge leaves." }, "to": { "$ref": "#/$defs/Slug", "description": "The slug of the node the edge enters." }, "gate": { "type": "string", "enum": ["llm-decides", "deterministic", "conditional"], "description": "Who decides whether the edge is taken: the router model (`llm-decides`), always (`deterministic`), or a rule in code (`conditional`)." }, "condition": { "$ref": "#/$defs/EdgeCondition", "description": "For `conditional` edges: the rule evaluated in code." } } }, "Composition": { "type": "object", "title": "Composition", "description": "Agents of agents: a leaf, or a DAG of pinned child definitions with typed edges.", "additionalProperties": false, "required": ["kind"], "properties": { "kind": { "type": "string", "enum": ["leaf", "dag"], "description": "`leaf` runs its own models and tools; `dag` composes pinned children." }, "nodes": { "type": "array", "items": { "$ref": "#/$defs/AgentRef" }, "description": "For `dag`: the pinned children, each `slug@version`." }, "edges": { "type": "array", "items": { "$ref": "#/$defs/Edge" }, "description": "For `dag`: typed edges between nodes; the edges form no cycle." }, "quarantine": { "type": "boolean", "description": "When true each child runs in a fresh runtime instance (its own isolate, job or process) with an isolated context." }, "routing": { "$ref": "#/$defs/LeafRouting", "description": "For `leaf`: which pin answers. The `router` (or `classifier`) pin names one label; the label's pin answers, the default when the reply names none." }, "evaluation": { "$ref": "#/$defs/LeafEvaluation", "description": "For `leaf`: what happens when the `evaluator` pin finds the answer fails an invariant (evaluator-optimiser). Absent with an evaluator pin: one retry, then a failed task." } } }, "PinName": { "type": "string", "pattern": "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", "maxLength": 63, "description": "The `name` of a pin in the modelSet." }, "LeafRouting": { "type": "object", "title": "LeafRouting", "description": "A routing rule inside one leaf: the labels the router chooses from, the pin each label goes to, and the default.", "additionalProperties": false, "required": ["routes", "default"], "properties": { "by": { "$ref": "#/$defs/PinName", "description": "The pin that decides (role `router` or `classifier`); absent: the leaf's only such pin." }, "routes": { "type": "array", "minItems": 1, "maxItems": 32, "items": { "type": "object", "additionalProperties": false, "required": ["label", "to"], "properties": { "label": { "type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,62}$", "description": "What the router replies to choose this route, for example `bug`." }, "to": { "$ref": "#/$defs/PinName", "description": "The pin (role `primary` or `specialist`) that answers tasks with this label." }, "description": { "type": "string", "minLength": 1, "maxLength": 500, "description": "What tasks this label is for; shown to the router." } } }, "description": "The labels, in the order the router is shown them; each label once." }, "default": { "$ref": "#/$defs/PinName", "description": "The pin that answers when the router's reply names no label." } } }, "LeafEvaluation": { "type": "object", "title": "LeafEvaluation", "description": "Evaluator-optimiser inside one leaf: the evaluator judges each answer against `capabilityContract.invariants`; a failed answer is retried with the evaluator's critique, then escalated, then the task fails.", "additionalProperties": false, "properties": { "by": { "$ref": "#/$defs/PinName", "description": "The pin that judges (role `evaluator`); absent: the leaf's only evaluator pin." }, "maxRetries": { "type": "integer", "minimum": 0, "maximum": 5, "default": 1, "description": "How many times the answering pin is asked again with the critique after a failed verdict." }, "escalateTo": { "$ref": "#/$defs/PinName", "description": "A pin (role `primary` or `specialist`) asked once more, with the critique, when the retries are spent; its answer is judged too. Absent: the task fails with `evaluation_failed`." } } }, "MemoryRef": { "type": "object", "title": "MemoryRef", "description": "One Cubicle memory reference.", "additionalProperties": false, "required": ["kind", "name", "retention", "egressAllowed"], "properties": { "kind": { "type": "string", "enum": ["chat", "vector", "profile", "receipt", "sensor", "content", "custom"], "description": "The Cubicle memory kind. `chat` is the run's conversation, which the runtime keeps and sends to the model pins (see `egressAllowed`); the other kinds name memories a Cubicle host provides, which agentdef's own hosts do not." }, "name": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The memory's name within the agent." }, "retention": { "type": "string", "enum": ["ephemeral", "session", "durable"], "description": "How long the memory is kept. On HB3 a `session` or `durable` memory makes the agent a long-running Service rather than a Job." }, "egressAllowed": { "type": "boolean", "description": "Whether the memory's content may leave the runtime host. For `chat` memory, `false` requires every model pin to run on the machine (tier `local`)." } } }, "MemoryContract": { "type": "object", "title": "MemoryContract", "description": "The agent's memory references and context budgets.", "additionalProperties": false, "required": ["refs"], "properties": { "refs": { "type": "array", "items": { "$ref": "#/$defs/MemoryRef" }, "description": "The Cubicle memory references the agent uses." }, "workingSetTokens": { "type": "integer", "minimum": 0, "description": "The tokens the agent keeps in context on a typical turn: a sizing declaration. Validation checks it (at most `contextWindowBudget`; above 128k tokens it refuses `workers-only` and warns on `workers-preferred`); the runtime bounds the context by `contextWindowBudget`, not by this." }, "contextWindowBudget": { "type": "integer", "minimum": 1, "description": "The most tokens the agent may hold in context; the runtime compacts (by `compactionPolicy`, default `drop`) before exceeding it. A tool calls no model and keeps no context." }, "compactionPolicy": { "type": "string", "enum": ["summarise", "quarantine", "drop"], "description": "What the runtime does when the next model request would exceed `contextWindowBudget`; it needs that budget, without which it would never apply." } } }, "CollectorOrigin": { "type": "string", "title": "CollectorOrigin", "description": "An OpenTelemetry collector's origin: `https://` and a lowercase host with an optional port, or `http://` for a loopback collector (127.0.0.1, localhost, [::1]); no path, credentials, query or trailing slash.", "pattern": "^(?:https://[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?|http://(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::[0-9]{1,5})?)$", "maxLength": 300, "x-message": "must be a collector origin such as https://otel.example.com (lowercase host, optional port, no path or trailing slash; http:// only for 127.0.0.1, localhost or [::1])" }, "TelemetryContract": { "type": "object", "title": "TelemetryContract", "description": "The receipt envelope and telemetry the agent commits to, and its agentic gate, stored explicitly.", "additionalProperties": false, "required": ["receiptSigner", "receiptSchemaVersion", "telemetryKinds", "agenticGate", "kymRegistrationRequired"], "properties": { "receiptSigner": { "anyOf": [{ "$ref": "#/$defs/OpaqueRef" }, { "type": "null" }], "description": "The signing key reference for receipts, or null before `tool-shipped` (no signed receipts yet)." }, "receiptSchemaVersion": { "type": "string", "pattern": "^receipt/v[1-9][0-9]*$", "description": "The receipt schema the agent emits, for example `receipt/v1`.", "x-message": "must look like receipt/v1" }, "telemetryKinds": { "type": "array", "items": { "type": "string", "enum": ["events", "session-report", "experiment"] }, "uniqueItems": true, "description": "Which telemetry streams the agent declares, for the platform that collects them (Cubicle). A declaration: agentdef's hosts emit the run receipts and the run event log whatever it lists. A tool (empty `modelSet`) declares `events` only." }, "agenticGate": { "type": "string", "enum": ["tool-only", "agentic"], "description": "The model gate: `tool-only` when `modelSet` is empty, `agentic` when it pins any model, whatever its task (chat, embedding, classification, speech, image). Stored so downstream systems audit rather than infer." }, "kymRegistrationRequired": { "type": "boolean", "description": "True exactly when `agenticGate` is `agentic`: agentic entities must register in KYM." }, "collector": { "$ref": "#/$defs/CollectorOrigin", "description": "The origin of the OpenTelemetry collector the agent's runs are exported to over OTLP/HTTP (`https://otel.example.com`; `http://` only for a loopback collector): an origin only, no path, credentials, query or trailing slash. The compiler adds it to the egress allow-list, and a Worker exports to it when `AGENTDEF_OTLP_ENDPOINT` is unset." } } }, "Limits": { "type": "object", "title": "Limits", "description": "Resource and termination limits; the runtime enforces them.", "additionalProperties": false, "required": [], "properties": { "cpuMs": { "type": "integer", "minimum": 1, "description": "CPU time per request in milliseconds. Cloudflare Workers enforce it (`limits.cpu_ms`, the most any agent of the Worker declares); container (HB3) and local hosts do not meter CPU time (`wallClockMs` bounds the run there), so a class that never runs on a Worker may not declare it." }, "memoryMb": { "type": "integer", "minimum": 1, "description": "Memory in MiB: an HB3 container's memory, and on HB3 and the local launcher the Node heap limit of the agent's process (three quarters of it). Advisory on Cloudflare Workers, whose isolates have a fixed 128 MiB: a `workers-only` agent may not declare more." }, "wallClockMs": { "type": "integer", "minimum": 1, "description": "Wall-clock time per run in milliseconds; the run stops and says so when it is reached." }, "maxSubrequests": { "type": "integer", "minimum": 0, "description": "The most outbound requests (model and tool calls) per run." } } }, "BindingRef": { "title": "BindingRef", "description": "A runtime binding, matching the Cubicle DynamicWorkerHostPlan bindings union. Cloudflare Workers provide every kind; container and local hosts provide `secret-ref` bindings only (and an HB3 container an `r2` bucket as its tuned-weights source), so a class that runs only there may not declare other kinds.", "type": "object", "required": ["kind"], "properties": { "kind": { "type": "string", "enum": ["service", "kv", "d1", "r2", "queue", "secret-ref", "custom"], "description": "The binding kind; selects which of the shapes below applies." } }, "discriminator": { "propertyName": "kind" }, "oneOf": [{ "type": "object", "title": "BindingService", "description": "A service binding to another Worker or MCP server over HTTP.", "additionalProperties": false, "required": ["kind", "name", "service"], "properties": { "kind": { "const": "service", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "service": { "type": "string", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$", "description": "The service (Worker) name to bind." } } }, { "type": "object", "title": "BindingKv", "description": "A KV namespace.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "kv", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "namespaceId": { "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "description": "The KV namespace id, when known at compile time." } } }, { "type": "object", "title": "BindingD1", "description": "A D1 database.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "d1", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "databaseId": { "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "description": "The D1 database id." } } }, { "type": "object", "title": "BindingR2", "description": "An R2 bucket.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "r2", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "bucket": { "type": "string", "pattern": "^[a-z0-9][a-z0-9-]{1,62}$", "description": "The bucket name." } } }, { "type": "object", "title": "BindingQueue", "description": "A queue producer.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "queue", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "queue": { "type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$", "description": "The queue name." } } }, { "type": "object", "title": "BindingSecretRef", "description": "A secret, by reference only: the value lives in a secret store, never in the definition.", "additionalProperties": false, "required": ["kind", "name", "ref"], "properties": { "kind": { "const": "secret-ref", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "ref": { "type": "string", "pattern": "^[a-z][a-z0-9+.-]*://\\S+$", "maxLength": 512, "description": "Where the operator keeps the secret, for example `secrets-store://acme/openai` or `vault://acme/openai`; its scheme matches `keyCustody`. Hosts look the secret up by `name`, never by this reference.", "x-message": "must be a secret reference such as secrets-store://team/name, never the secret itself" } } }, { "type": "object", "title": "BindingCustom", "description": "A binding of a kind the host plan does not know; passed through by name.", "additionalProperties": false, "required": ["kind", "name", "type"], "properties": { "kind": { "const": "custom", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "type": { "type": "string", "pattern": "^[a-z][a-z0-9_-]{0,63}$", "description": "The host's binding type." } } }] }, "RuntimeRequirements": { "type": "object", "title": "RuntimeRequirements", "description": "The compiler's dispatch key: the runtime class, limits, key custody and bindings.", "additionalProperties": false, "required": ["runtimeCapabilityClass", "limits", "keyCustody", "bindings"], "properties": { "runtimeCapabilityClass": { "type": "string", "enum": ["workers-only", "workers-preferred", "container-required", "local-host-required"], "description": "Which hosts may run the agent: Workers only, Workers with a container fallback, a container, or the user's own machine." }, "limits": { "$ref": "#/$defs/Limits", "description": "Resource and termination limits." }, "keyCustody": { "type": "string", "enum": ["session", "vault-ref", "secrets-store"], "description": "Where the agent's keys are held." }, "bindings": { "type": "array", "items": { "$ref": "#/$defs/BindingRef" }, "description": "The runtime bindings the agent needs." } } }, "Provenance": { "type": "object", "title": "Provenance", "description": "Where the definition comes from: a file in a repository, and at publish time the commit.", "additionalProperties": false, "required": ["repo", "filePath"], "properties": { "repo": { "type": "string", "minLength": 1, "maxLength": 1024, "description": "The repository URL." }, "filePath": { "type": "string", "pattern": "^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9._@+/-]+$", "maxLength": 1024, "description": "The definition's path inside the repository (relative, no `..`)." }, "commitSha": { "type": "string", "pattern": "^[0-9a-f]{40}(?:[0-9a-f]{24})?$", "description": "The commit the definition was published from; stamped at publish time, optional in authored files." } } }, "CardExports": { "type": "object", "title": "CardExports", "description": "Derived views generated by the compiler and cached for external verifiers.", "additionalProperties": false, "required": [], "properties": { "agentCard": { "type": "object", "description": "The A2A AgentCard projection of this definition." }, "agentFacts": { "type": "object", "description": "The NANDA AgentFacts credential projection of this definition." }, "oasf": { "type": "object", "description": "The OASF record projection of this definition (name, version, schema_version, skills and domains from the OASF taxonomy, locators, modules); generated by `agentdef export oasf` and publish." } } }, "Metadata": { "type": "object", "title": "Metadata", "description": "Description, tags, provenance and derived exports.", "additionalProperties": false, "required": ["description", "tags", "provenance"], "properties": { "description": { "type": "string", "minLength": 1, "maxLength": 4e3, "description": "What the agent is for." }, "tags": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 64 }, "description": "Keywords for discovery." }, "provenance": { "$ref": "#/$defs/Provenance", "description": "Where the definition comes from." }, "cardExports": { "$ref": "#/$defs/CardExports", "description": "Derived A2A, NANDA and OASF views." }, "notes": { "type": "object", "description": "Free-form notes; the only open object in the definition.", "additionalProperties": true } } } } };
var func1 = Object.prototype.hasOwnProperty;
var schema32 = { "type": "object", "title": "Identity", "description": "Immutable identity: the join key for receipts, KYM registration and NANDA discovery.", "additionalProperties": false, "required": ["id", "slug", "name", "versionSemver", "versionId", "owner", "signingKeyRef"], "properties": { "id": { "$ref": "#/$defs/Ulid", "description": "The agent's permanent ULID. It never changes across versions." }, "slug": { "$ref": "#/$defs/Slug", "description": "The agent's kebab-case name; also its Nx project name and folder name." }, "name": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The human-readable display name." }, "versionSemver": { "$ref": "#/$defs/Semver", "description": "The exact semantic version of this definition, for humans and for pins (`slug@version`)." }, "versionId": { "$ref": "#/$defs/Ulid", "description": "The ULID of this version; the receipt attribution tuple carries it." }, "owner": { "$ref": "#/$defs/CubicleActorRef", "description": "The actor that owns this agent." }, "signingKeyRef": { "$ref": "#/$defs/OpaqueRef", "description": "An opaque reference to the key that signs this agent's exports (ADR-006). Never the key itself." }, "kymRef": { "type": "string", "pattern": "^kym://agents/[a-z0-9]+(?:-[a-z0-9]+)*@\\S+$", "description": "The KYM registry reference, exactly `kym://agents/<slug>@<versionSemver>` of this definition. Required from lifecycle stage `kym-registered` on.", "x-message": "must look like kym://agents/<slug>@<version>" }, "nandaFactsRef": { "type": "string", "pattern": "^[a-z][a-z0-9+.-]*:\\S+$", "maxLength": 1024, "description": "Where the published NANDA AgentFacts credential lives (a URL or URN). Required at lifecycle stage `marketplace-published`." } } };
var schema37 = { "type": "object", "title": "CubicleActorRef", "description": "Who owns the agent: a user, team, organisation or service account.", "additionalProperties": false, "required": ["kind", "id"], "properties": { "kind": { "type": "string", "enum": ["user", "team", "org", "service"], "description": "The kind of actor that owns the agent." }, "id": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The actor's identifier within its kind (letters, digits, `.`, `_`, `-`; up to 128 characters)." } } };
var func3 = require_ucs2length().default;
var pattern4 = new RegExp("^[0-7][0-9A-HJKMNP-TV-Z]{25}$", "u");
var pattern5 = new RegExp("^[a-z0-9]+(?:-[a-z0-9]+)*$", "u");
var pattern6 = new RegExp("^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$", "u");
var pattern8 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "u");
var pattern9 = new RegExp("^[a-z][a-z0-9+.-]*:\\S+$", "u");
var pattern10 = new RegExp("^kym://agents/[a-z0-9]+(?:-[a-z0-9]+)*@\\S+$", "u");
function validate21(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate21.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.id === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "id" }, message: "must have required property 'id'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.slug === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "slug" }, message: "must have required property 'slug'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.name === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.versionSemver === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "versionSemver" }, message: "must have required property 'versionSemver'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.versionId === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "versionId" }, message: "must have required property 'versionId'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    if (data.owner === void 0) {
      const err5 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "owner" }, message: "must have required property 'owner'" };
      if (vErrors === null) {
        vErrors = [err5];
      } else {
        vErrors.push(err5);
      }
      errors++;
    }
    if (data.signingKeyRef === void 0) {
      const err6 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "signingKeyRef" }, message: "must have required property 'signingKeyRef'" };
      if (vErrors === null) {
        vErrors = [err6];
      } else {
        vErrors.push(err6);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func1.call(schema32.properties, key0)) {
        const err7 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.id !== void 0) {
      let data0 = data.id;
      if (typeof data0 === "string") {
        if (!pattern4.test(data0)) {
          const err8 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/Ulid/pattern", keyword: "pattern", params: { pattern: "^[0-7][0-9A-HJKMNP-TV-Z]{25}$" }, message: 'must match pattern "^[0-7][0-9A-HJKMNP-TV-Z]{25}$"' };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
      } else {
        const err9 = { instancePath: instancePath + "/id", schemaPath: "#/$defs/Ulid/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
    if (data.slug !== void 0) {
      let data1 = data.slug;
      if (typeof data1 === "string") {
        if (func3(data1) > 64) {
          const err10 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
        if (func3(data1) < 1) {
          const err11 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
        if (!pattern5.test(data1)) {
          const err12 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err12];
          } else {
            vErrors.push(err12);
          }
          errors++;
        }
      } else {
        const err13 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err13];
        } else {
          vErrors.push(err13);
        }
        errors++;
      }
    }
    if (data.name !== void 0) {
      let data2 = data.name;
      if (typeof data2 === "string") {
        if (func3(data2) > 200) {
          const err14 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/maxLength", keyword: "maxLength", params: { limit: 200 }, message: "must NOT have more than 200 characters" };
          if (vErrors === null) {
            vErrors = [err14];
          } else {
            vErrors.push(err14);
          }
          errors++;
        }
        if (func3(data2) < 1) {
          const err15 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err15];
          } else {
            vErrors.push(err15);
          }
          errors++;
        }
      } else {
        const err16 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
    }
    if (data.versionSemver !== void 0) {
      let data3 = data.versionSemver;
      if (typeof data3 === "string") {
        if (func3(data3) > 128) {
          const err17 = { instancePath: instancePath + "/versionSemver", schemaPath: "#/$defs/Semver/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
          if (vErrors === null) {
            vErrors = [err17];
          } else {
            vErrors.push(err17);
          }
          errors++;
        }
        if (!pattern6.test(data3)) {
          const err18 = { instancePath: instancePath + "/versionSemver", schemaPath: "#/$defs/Semver/pattern", keyword: "pattern", params: { pattern: "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$" }, message: 'must match pattern "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"' };
          if (vErrors === null) {
            vErrors = [err18];
          } else {
            vErrors.push(err18);
          }
          errors++;
        }
      } else {
        const err19 = { instancePath: instancePath + "/versionSemver", schemaPath: "#/$defs/Semver/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
    }
    if (data.versionId !== void 0) {
      let data4 = data.versionId;
      if (typeof data4 === "string") {
        if (!pattern4.test(data4)) {
          const err20 = { instancePath: instancePath + "/versionId", schemaPath: "#/$defs/Ulid/pattern", keyword: "pattern", params: { pattern: "^[0-7][0-9A-HJKMNP-TV-Z]{25}$" }, message: 'must match pattern "^[0-7][0-9A-HJKMNP-TV-Z]{25}$"' };
          if (vErrors === null) {
            vErrors = [err20];
          } else {
            vErrors.push(err20);
          }
          errors++;
        }
      } else {
        const err21 = { instancePath: instancePath + "/versionId", schemaPath: "#/$defs/Ulid/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err21];
        } else {
          vErrors.push(err21);
        }
        errors++;
      }
    }
    if (data.owner !== void 0) {
      let data5 = data.owner;
      if (data5 && typeof data5 == "object" && !Array.isArray(data5)) {
        if (data5.kind === void 0) {
          const err22 = { instancePath: instancePath + "/owner", schemaPath: "#/$defs/CubicleActorRef/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
          if (vErrors === null) {
            vErrors = [err22];
          } else {
            vErrors.push(err22);
          }
          errors++;
        }
        if (data5.id === void 0) {
          const err23 = { instancePath: instancePath + "/owner", schemaPath: "#/$defs/CubicleActorRef/required", keyword: "required", params: { missingProperty: "id" }, message: "must have required property 'id'" };
          if (vErrors === null) {
            vErrors = [err23];
          } else {
            vErrors.push(err23);
          }
          errors++;
        }
        for (const key1 in data5) {
          if (!(key1 === "kind" || key1 === "id")) {
            const err24 = { instancePath: instancePath + "/owner", schemaPath: "#/$defs/CubicleActorRef/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err24];
            } else {
              vErrors.push(err24);
            }
            errors++;
          }
        }
        if (data5.kind !== void 0) {
          let data6 = data5.kind;
          if (typeof data6 !== "string") {
            const err25 = { instancePath: instancePath + "/owner/kind", schemaPath: "#/$defs/CubicleActorRef/properties/kind/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err25];
            } else {
              vErrors.push(err25);
            }
            errors++;
          }
          if (!(data6 === "user" || data6 === "team" || data6 === "org" || data6 === "service")) {
            const err26 = { instancePath: instancePath + "/owner/kind", schemaPath: "#/$defs/CubicleActorRef/properties/kind/enum", keyword: "enum", params: { allowedValues: schema37.properties.kind.enum }, message: "must be equal to one of the allowed values" };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
        }
        if (data5.id !== void 0) {
          let data7 = data5.id;
          if (typeof data7 === "string") {
            if (!pattern8.test(data7)) {
              const err27 = { instancePath: instancePath + "/owner/id", schemaPath: "#/$defs/CubicleActorRef/properties/id/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"' };
              if (vErrors === null) {
                vErrors = [err27];
              } else {
                vErrors.push(err27);
              }
              errors++;
            }
          } else {
            const err28 = { instancePath: instancePath + "/owner/id", schemaPath: "#/$defs/CubicleActorRef/properties/id/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err28];
            } else {
              vErrors.push(err28);
            }
            errors++;
          }
        }
      } else {
        const err29 = { instancePath: instancePath + "/owner", schemaPath: "#/$defs/CubicleActorRef/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err29];
        } else {
          vErrors.push(err29);
        }
        errors++;
      }
    }
    if (data.signingKeyRef !== void 0) {
      let data8 = data.signingKeyRef;
      if (typeof data8 === "string") {
        if (func3(data8) > 512) {
          const err30 = { instancePath: instancePath + "/signingKeyRef", schemaPath: "#/$defs/OpaqueRef/maxLength", keyword: "maxLength", params: { limit: 512 }, message: "must NOT have more than 512 characters" };
          if (vErrors === null) {
            vErrors = [err30];
          } else {
            vErrors.push(err30);
          }
          errors++;
        }
        if (!pattern9.test(data8)) {
          const err31 = { instancePath: instancePath + "/signingKeyRef", schemaPath: "#/$defs/OpaqueRef/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9+.-]*:\\S+$" }, message: 'must match pattern "^[a-z][a-z0-9+.-]*:\\S+$"' };
          if (vErrors === null) {
            vErrors = [err31];
          } else {
            vErrors.push(err31);
          }
          errors++;
        }
      } else {
        const err32 = { instancePath: instancePath + "/signingKeyRef", schemaPath: "#/$defs/OpaqueRef/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err32];
        } else {
          vErrors.push(err32);
        }
        errors++;
      }
    }
    if (data.kymRef !== void 0) {
      let data9 = data.kymRef;
      if (typeof data9 === "string") {
        if (!pattern10.test(data9)) {
          const err33 = { instancePath: instancePath + "/kymRef", schemaPath: "#/properties/kymRef/pattern", keyword: "pattern", params: { pattern: "^kym://agents/[a-z0-9]+(?:-[a-z0-9]+)*@\\S+$" }, message: 'must match pattern "^kym://agents/[a-z0-9]+(?:-[a-z0-9]+)*@\\S+$"' };
          if (vErrors === null) {
            vErrors = [err33];
          } else {
            vErrors.push(err33);
          }
          errors++;
        }
      } else {
        const err34 = { instancePath: instancePath + "/kymRef", schemaPath: "#/properties/kymRef/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err34];
        } else {
          vErrors.push(err34);
        }
        errors++;
      }
    }
    if (data.nandaFactsRef !== void 0) {
      let data10 = data.nandaFactsRef;
      if (typeof data10 === "string") {
        if (func3(data10) > 1024) {
          const err35 = { instancePath: instancePath + "/nandaFactsRef", schemaPath: "#/properties/nandaFactsRef/maxLength", keyword: "maxLength", params: { limit: 1024 }, message: "must NOT have more than 1024 characters" };
          if (vErrors === null) {
            vErrors = [err35];
          } else {
            vErrors.push(err35);
          }
          errors++;
        }
        if (!pattern9.test(data10)) {
          const err36 = { instancePath: instancePath + "/nandaFactsRef", schemaPath: "#/properties/nandaFactsRef/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9+.-]*:\\S+$" }, message: 'must match pattern "^[a-z][a-z0-9+.-]*:\\S+$"' };
          if (vErrors === null) {
            vErrors = [err36];
          } else {
            vErrors.push(err36);
          }
          errors++;
        }
      } else {
        const err37 = { instancePath: instancePath + "/nandaFactsRef", schemaPath: "#/properties/nandaFactsRef/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err37];
        } else {
          vErrors.push(err37);
        }
        errors++;
      }
    }
  } else {
    const err38 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err38];
    } else {
      vErrors.push(err38);
    }
    errors++;
  }
  validate21.errors = vErrors;
  return errors === 0;
}
validate21.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema40 = { "type": "object", "title": "Part", "description": "One A2A part the agent accepts or produces: text, a file or structured data.", "additionalProperties": false, "required": ["kind", "mediaType"], "properties": { "kind": { "type": "string", "enum": ["text", "file", "data"], "description": "The A2A part kind." }, "mediaType": { "type": "string", "pattern": "^[a-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$", "description": "The IANA media type of the part, for example `text/plain` or `application/json`.", "x-message": "must be a media type such as text/plain or application/json" }, "schema": { "$ref": "#/$defs/JsonSchemaObject", "description": "For `data` parts: the JSON Schema the payload satisfies." }, "description": { "type": "string", "minLength": 1, "maxLength": 1e3, "description": "What the part carries." } } };
var pattern12 = new RegExp("^[a-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$", "u");
function validate24(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate24.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.kind === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.mediaType === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "mediaType" }, message: "must have required property 'mediaType'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "kind" || key0 === "mediaType" || key0 === "schema" || key0 === "description")) {
        const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.kind !== void 0) {
      let data0 = data.kind;
      if (typeof data0 !== "string") {
        const err3 = { instancePath: instancePath + "/kind", schemaPath: "#/properties/kind/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
      if (!(data0 === "text" || data0 === "file" || data0 === "data")) {
        const err4 = { instancePath: instancePath + "/kind", schemaPath: "#/properties/kind/enum", keyword: "enum", params: { allowedValues: schema40.properties.kind.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
    }
    if (data.mediaType !== void 0) {
      let data1 = data.mediaType;
      if (typeof data1 === "string") {
        if (!pattern12.test(data1)) {
          const err5 = { instancePath: instancePath + "/mediaType", schemaPath: "#/properties/mediaType/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$" }, message: 'must match pattern "^[a-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$"' };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
      } else {
        const err6 = { instancePath: instancePath + "/mediaType", schemaPath: "#/properties/mediaType/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.schema !== void 0) {
      let data2 = data.schema;
      if (!(data2 && typeof data2 == "object" && !Array.isArray(data2))) {
        const err7 = { instancePath: instancePath + "/schema", schemaPath: "#/$defs/JsonSchemaObject/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.description !== void 0) {
      let data3 = data.description;
      if (typeof data3 === "string") {
        if (func3(data3) > 1e3) {
          const err8 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/maxLength", keyword: "maxLength", params: { limit: 1e3 }, message: "must NOT have more than 1000 characters" };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        if (func3(data3) < 1) {
          const err9 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
      } else {
        const err10 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
    }
  } else {
    const err11 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err11];
    } else {
      vErrors.push(err11);
    }
    errors++;
  }
  validate24.errors = vErrors;
  return errors === 0;
}
validate24.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema42 = { "type": "object", "title": "Skill", "description": "A versioned skill, shaped like the A2A AgentSkill so the definition serialises to an AgentCard.", "additionalProperties": false, "required": ["id", "name", "description", "version", "tags"], "properties": { "id": { "type": "string", "minLength": 1, "maxLength": 128, "description": "The skill's identifier, unique within the agent (A2A `AgentSkill.id`). Any characters are allowed; generated code escapes it." }, "name": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The skill's display name." }, "description": { "type": "string", "minLength": 1, "maxLength": 4e3, "description": "What the skill does, for people and for discovery." }, "version": { "$ref": "#/$defs/Semver", "description": "The skill's exact version; receipts carry it in the pinning tuple." }, "tags": { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1, "maxLength": 64 }, "description": "Keywords describing the skill (A2A `AgentSkill.tags`, which holds at least one)." }, "examples": { "type": "array", "description": "Example requests the skill handles.", "items": { "type": "string", "minLength": 1, "maxLength": 256 } }, "inputModes": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 128 }, "description": "Media types the skill accepts; defaults to the agent's inputs." }, "outputModes": { "type": "array", "items": { "type": "string", "minLength": 1, "maxLength": 128 }, "description": "Media types the skill produces; defaults to the agent's outputs." }, "inputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the skill's structured input, when it takes data." }, "outputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the skill's structured output, when it returns data." } } };
function validate27(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate27.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.id === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "id" }, message: "must have required property 'id'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.name === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.description === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "description" }, message: "must have required property 'description'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.version === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "version" }, message: "must have required property 'version'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.tags === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "tags" }, message: "must have required property 'tags'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func1.call(schema42.properties, key0)) {
        const err5 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.id !== void 0) {
      let data0 = data.id;
      if (typeof data0 === "string") {
        if (func3(data0) > 128) {
          const err6 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
        if (func3(data0) < 1) {
          const err7 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
      } else {
        const err8 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err8];
        } else {
          vErrors.push(err8);
        }
        errors++;
      }
    }
    if (data.name !== void 0) {
      let data1 = data.name;
      if (typeof data1 === "string") {
        if (func3(data1) > 200) {
          const err9 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/maxLength", keyword: "maxLength", params: { limit: 200 }, message: "must NOT have more than 200 characters" };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
        if (func3(data1) < 1) {
          const err10 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
      } else {
        const err11 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
    }
    if (data.description !== void 0) {
      let data2 = data.description;
      if (typeof data2 === "string") {
        if (func3(data2) > 4e3) {
          const err12 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
          if (vErrors === null) {
            vErrors = [err12];
          } else {
            vErrors.push(err12);
          }
          errors++;
        }
        if (func3(data2) < 1) {
          const err13 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
      } else {
        const err14 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err14];
        } else {
          vErrors.push(err14);
        }
        errors++;
      }
    }
    if (data.version !== void 0) {
      let data3 = data.version;
      if (typeof data3 === "string") {
        if (func3(data3) > 128) {
          const err15 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
          if (vErrors === null) {
            vErrors = [err15];
          } else {
            vErrors.push(err15);
          }
          errors++;
        }
        if (!pattern6.test(data3)) {
          const err16 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/pattern", keyword: "pattern", params: { pattern: "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$" }, message: 'must match pattern "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"' };
          if (vErrors === null) {
            vErrors = [err16];
          } else {
            vErrors.push(err16);
          }
          errors++;
        }
      } else {
        const err17 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
    }
    if (data.tags !== void 0) {
      let data4 = data.tags;
      if (Array.isArray(data4)) {
        if (data4.length < 1) {
          const err18 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err18];
          } else {
            vErrors.push(err18);
          }
          errors++;
        }
        const len0 = data4.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data5 = data4[i0];
          if (typeof data5 === "string") {
            if (func3(data5) > 64) {
              const err19 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
            }
            if (func3(data5) < 1) {
              const err20 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err20];
              } else {
                vErrors.push(err20);
              }
              errors++;
            }
          } else {
            const err21 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
        }
      } else {
        const err22 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err22];
        } else {
          vErrors.push(err22);
        }
        errors++;
      }
    }
    if (data.examples !== void 0) {
      let data6 = data.examples;
      if (Array.isArray(data6)) {
        const len1 = data6.length;
        for (let i1 = 0; i1 < len1; i1++) {
          let data7 = data6[i1];
          if (typeof data7 === "string") {
            if (func3(data7) > 256) {
              const err23 = { instancePath: instancePath + "/examples/" + i1, schemaPath: "#/properties/examples/items/maxLength", keyword: "maxLength", params: { limit: 256 }, message: "must NOT have more than 256 characters" };
              if (vErrors === null) {
                vErrors = [err23];
              } else {
                vErrors.push(err23);
              }
              errors++;
            }
            if (func3(data7) < 1) {
              const err24 = { instancePath: instancePath + "/examples/" + i1, schemaPath: "#/properties/examples/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err24];
              } else {
                vErrors.push(err24);
              }
              errors++;
            }
          } else {
            const err25 = { instancePath: instancePath + "/examples/" + i1, schemaPath: "#/properties/examples/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err25];
            } else {
              vErrors.push(err25);
            }
            errors++;
          }
        }
      } else {
        const err26 = { instancePath: instancePath + "/examples", schemaPath: "#/properties/examples/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err26];
        } else {
          vErrors.push(err26);
        }
        errors++;
      }
    }
    if (data.inputModes !== void 0) {
      let data8 = data.inputModes;
      if (Array.isArray(data8)) {
        const len2 = data8.length;
        for (let i2 = 0; i2 < len2; i2++) {
          let data9 = data8[i2];
          if (typeof data9 === "string") {
            if (func3(data9) > 128) {
              const err27 = { instancePath: instancePath + "/inputModes/" + i2, schemaPath: "#/properties/inputModes/items/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
              if (vErrors === null) {
                vErrors = [err27];
              } else {
                vErrors.push(err27);
              }
              errors++;
            }
            if (func3(data9) < 1) {
              const err28 = { instancePath: instancePath + "/inputModes/" + i2, schemaPath: "#/properties/inputModes/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err28];
              } else {
                vErrors.push(err28);
              }
              errors++;
            }
          } else {
            const err29 = { instancePath: instancePath + "/inputModes/" + i2, schemaPath: "#/properties/inputModes/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err29];
            } else {
              vErrors.push(err29);
            }
            errors++;
          }
        }
      } else {
        const err30 = { instancePath: instancePath + "/inputModes", schemaPath: "#/properties/inputModes/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err30];
        } else {
          vErrors.push(err30);
        }
        errors++;
      }
    }
    if (data.outputModes !== void 0) {
      let data10 = data.outputModes;
      if (Array.isArray(data10)) {
        const len3 = data10.length;
        for (let i3 = 0; i3 < len3; i3++) {
          let data11 = data10[i3];
          if (typeof data11 === "string") {
            if (func3(data11) > 128) {
              const err31 = { instancePath: instancePath + "/outputModes/" + i3, schemaPath: "#/properties/outputModes/items/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
              if (vErrors === null) {
                vErrors = [err31];
              } else {
                vErrors.push(err31);
              }
              errors++;
            }
            if (func3(data11) < 1) {
              const err32 = { instancePath: instancePath + "/outputModes/" + i3, schemaPath: "#/properties/outputModes/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err32];
              } else {
                vErrors.push(err32);
              }
              errors++;
            }
          } else {
            const err33 = { instancePath: instancePath + "/outputModes/" + i3, schemaPath: "#/properties/outputModes/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err33];
            } else {
              vErrors.push(err33);
            }
            errors++;
          }
        }
      } else {
        const err34 = { instancePath: instancePath + "/outputModes", schemaPath: "#/properties/outputModes/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err34];
        } else {
          vErrors.push(err34);
        }
        errors++;
      }
    }
    if (data.inputSchema !== void 0) {
      let data12 = data.inputSchema;
      if (!(data12 && typeof data12 == "object" && !Array.isArray(data12))) {
        const err35 = { instancePath: instancePath + "/inputSchema", schemaPath: "#/$defs/JsonSchemaObject/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err35];
        } else {
          vErrors.push(err35);
        }
        errors++;
      }
    }
    if (data.outputSchema !== void 0) {
      let data13 = data.outputSchema;
      if (!(data13 && typeof data13 == "object" && !Array.isArray(data13))) {
        const err36 = { instancePath: instancePath + "/outputSchema", schemaPath: "#/$defs/JsonSchemaObject/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err36];
        } else {
          vErrors.push(err36);
        }
        errors++;
      }
    }
  } else {
    const err37 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err37];
    } else {
      vErrors.push(err37);
    }
    errors++;
  }
  validate27.errors = vErrors;
  return errors === 0;
}
validate27.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
function validate23(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate23.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.inputs === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "inputs" }, message: "must have required property 'inputs'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.outputs === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "outputs" }, message: "must have required property 'outputs'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.skills === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "skills" }, message: "must have required property 'skills'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.invariants === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "invariants" }, message: "must have required property 'invariants'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "inputs" || key0 === "outputs" || key0 === "skills" || key0 === "invariants")) {
        const err4 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
    }
    if (data.inputs !== void 0) {
      let data0 = data.inputs;
      if (Array.isArray(data0)) {
        if (data0.length < 1) {
          const err5 = { instancePath: instancePath + "/inputs", schemaPath: "#/properties/inputs/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
        const len0 = data0.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (!validate24(data0[i0], { instancePath: instancePath + "/inputs/" + i0, parentData: data0, parentDataProperty: i0, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err6 = { instancePath: instancePath + "/inputs", schemaPath: "#/properties/inputs/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.outputs !== void 0) {
      let data2 = data.outputs;
      if (Array.isArray(data2)) {
        if (data2.length < 1) {
          const err7 = { instancePath: instancePath + "/outputs", schemaPath: "#/properties/outputs/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
        const len1 = data2.length;
        for (let i1 = 0; i1 < len1; i1++) {
          if (!validate24(data2[i1], { instancePath: instancePath + "/outputs/" + i1, parentData: data2, parentDataProperty: i1, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err8 = { instancePath: instancePath + "/outputs", schemaPath: "#/properties/outputs/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err8];
        } else {
          vErrors.push(err8);
        }
        errors++;
      }
    }
    if (data.skills !== void 0) {
      let data4 = data.skills;
      if (Array.isArray(data4)) {
        if (data4.length < 1) {
          const err9 = { instancePath: instancePath + "/skills", schemaPath: "#/properties/skills/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
        const len2 = data4.length;
        for (let i2 = 0; i2 < len2; i2++) {
          if (!validate27(data4[i2], { instancePath: instancePath + "/skills/" + i2, parentData: data4, parentDataProperty: i2, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err10 = { instancePath: instancePath + "/skills", schemaPath: "#/properties/skills/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
    }
    if (data.invariants !== void 0) {
      let data6 = data.invariants;
      if (Array.isArray(data6)) {
        const len3 = data6.length;
        for (let i3 = 0; i3 < len3; i3++) {
          let data7 = data6[i3];
          if (typeof data7 === "string") {
            if (func3(data7) > 1e3) {
              const err11 = { instancePath: instancePath + "/invariants/" + i3, schemaPath: "#/properties/invariants/items/maxLength", keyword: "maxLength", params: { limit: 1e3 }, message: "must NOT have more than 1000 characters" };
              if (vErrors === null) {
                vErrors = [err11];
              } else {
                vErrors.push(err11);
              }
              errors++;
            }
            if (func3(data7) < 1) {
              const err12 = { instancePath: instancePath + "/invariants/" + i3, schemaPath: "#/properties/invariants/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
            }
          } else {
            const err13 = { instancePath: instancePath + "/invariants/" + i3, schemaPath: "#/properties/invariants/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err13];
            } else {
              vErrors.push(err13);
            }
            errors++;
          }
        }
      } else {
        const err14 = { instancePath: instancePath + "/invariants", schemaPath: "#/properties/invariants/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err14];
        } else {
          vErrors.push(err14);
        }
        errors++;
      }
    }
  } else {
    const err15 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err15];
    } else {
      vErrors.push(err15);
    }
    errors++;
  }
  validate23.errors = vErrors;
  return errors === 0;
}
validate23.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema46 = { "type": "object", "title": "LlmPin", "description": "One pinned model in the agent's execution path, of any task (chat, embedding, classification, speech, image). Any pin makes the agent agentic: the model gate counts every inference step.", "additionalProperties": false, "required": ["role", "modelId", "modelVersion", "providerId", "samplingParams"], "properties": { "role": { "type": "string", "enum": ["primary", "classifier", "evaluator", "specialist", "router"], "description": "What the model does inside the agent." }, "task": { "type": "string", "enum": ["chat", "embedding", "classification", "speech-to-text", "text-to-speech", "image-classification", "image-generation"], "description": "What kind of inference the model performs; absent means `chat` (a text model the runtime calls through the provider's chat API). Every task counts for the model gate (`telemetryContract.agenticGate`). The runtime calls `chat` models only: a pin of another task is refused with `runtime_capability_mismatch` (rule `model-task`) until a runtime path for that task exists (docs/decisions/0006-model-gate.md)." }, "name": { "type": "string", "pattern": "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", "maxLength": 63, "description": "A name for the pin, unique in the modelSet, so `composition.routing` and `composition.evaluation` can point at it (for example `bug-fixer`)." }, "modelId": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The provider's model identifier, for example `gpt-4o-mini`." }, "modelVersion": { "type": "string", "minLength": 1, "maxLength": 200, "description": "The exact model version or snapshot date; never `latest`." }, "providerId": { "type": "string", "pattern": "^(?:[a-z0-9]+(?:-[a-z0-9]+)*|custom:[a-z0-9]+(?:[-.][a-z0-9]+)*)$", "description": "Who serves the model: a known provider (`openai`, `anthropic`, `google`, `mistral`, `cohere`, `groq`, `workers-ai`, `azure-openai`, `bedrock`, `local-ollama`) or `custom:<name>`. `local-ollama` keeps inference on the machine.", "x-message": "must be a known provider id such as openai or local-ollama, or custom:<name>" }, "samplingParams": { "$ref": "#/$defs/SamplingParams", "description": "Sampling parameters for this model." }, "tier": { "type": "string", "enum": ["frontier", "small", "tuned", "local"], "description": "The model's tier: `tuned` carries pinned weights (a checkpoint served in a container or on the local host), `local` runs on the machine (the local host only, no key). `frontier` and `small` are both remote API calls and run alike; the label is for people and registries." }, "checkpointId": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,255}$", "description": "The pinned fine-tune checkpoint; required when `tier` is `tuned`." } } };
var schema47 = { "type": "object", "title": "SamplingParams", "description": "Sampling parameters sent with every call to the model: the portable ones (camelCase, translated for each provider) and the provider-specific ones agentdef passes through under their wire names (OpenAI: `frequency_penalty`, `presence_penalty`; Ollama: `num_ctx`, `repeat_penalty`, `repeat_last_n`, `min_p`, `mirostat`, `mirostat_eta`, `mirostat_tau`). Any other field is an error, so a misspelled parameter is never silently ignored.", "properties": { "temperature": { "type": "number", "minimum": 0, "maximum": 2, "description": "Sampling temperature." }, "topP": { "type": "number", "minimum": 0, "maximum": 1, "description": "Nucleus sampling probability mass." }, "topK": { "type": "integer", "minimum": 1, "description": "Top-k sampling cut-off." }, "maxTokens": { "type": "integer", "minimum": 1, "description": "Maximum tokens the model may generate per call." }, "seed": { "type": "integer", "description": "Seed for providers that support deterministic sampling." }, "stop": { "type": "array", "items": { "type": "string" }, "maxItems": 16, "description": "Stop sequences." }, "frequency_penalty": { "type": "number", "minimum": -2, "maximum": 2, "description": "OpenAI: penalty on tokens by how often they already appear." }, "presence_penalty": { "type": "number", "minimum": -2, "maximum": 2, "description": "OpenAI: penalty on tokens that already appear." }, "num_ctx": { "type": "integer", "minimum": 1, "description": "Ollama: the context window size, in tokens." }, "repeat_penalty": { "type": "number", "minimum": 0, "description": "Ollama: how strongly repetitions are penalised." }, "repeat_last_n": { "type": "integer", "minimum": -1, "description": "Ollama: how far back to look for repetitions (-1: the whole context)." }, "min_p": { "type": "number", "minimum": 0, "maximum": 1, "description": "Ollama: minimum probability of a token relative to the most likely one." }, "mirostat": { "type": "integer", "minimum": 0, "maximum": 2, "description": "Ollama: Mirostat sampling (0 off, 1 Mirostat, 2 Mirostat 2.0)." }, "mirostat_eta": { "type": "number", "minimum": 0, "description": "Ollama: Mirostat learning rate." }, "mirostat_tau": { "type": "number", "minimum": 0, "description": "Ollama: Mirostat target perplexity." } }, "additionalProperties": false };
var pattern14 = new RegExp("^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", "u");
var pattern15 = new RegExp("^(?:[a-z0-9]+(?:-[a-z0-9]+)*|custom:[a-z0-9]+(?:[-.][a-z0-9]+)*)$", "u");
var pattern16 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,255}$", "u");
function validate30(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate30.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.role === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "role" }, message: "must have required property 'role'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.modelId === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "modelId" }, message: "must have required property 'modelId'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.modelVersion === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "modelVersion" }, message: "must have required property 'modelVersion'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.providerId === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "providerId" }, message: "must have required property 'providerId'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.samplingParams === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "samplingParams" }, message: "must have required property 'samplingParams'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func1.call(schema46.properties, key0)) {
        const err5 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.role !== void 0) {
      let data0 = data.role;
      if (typeof data0 !== "string") {
        const err6 = { instancePath: instancePath + "/role", schemaPath: "#/properties/role/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
      if (!(data0 === "primary" || data0 === "classifier" || data0 === "evaluator" || data0 === "specialist" || data0 === "router")) {
        const err7 = { instancePath: instancePath + "/role", schemaPath: "#/properties/role/enum", keyword: "enum", params: { allowedValues: schema46.properties.role.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.task !== void 0) {
      let data1 = data.task;
      if (typeof data1 !== "string") {
        const err8 = { instancePath: instancePath + "/task", schemaPath: "#/properties/task/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err8];
        } else {
          vErrors.push(err8);
        }
        errors++;
      }
      if (!(data1 === "chat" || data1 === "embedding" || data1 === "classification" || data1 === "speech-to-text" || data1 === "text-to-speech" || data1 === "image-classification" || data1 === "image-generation")) {
        const err9 = { instancePath: instancePath + "/task", schemaPath: "#/properties/task/enum", keyword: "enum", params: { allowedValues: schema46.properties.task.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
    if (data.name !== void 0) {
      let data2 = data.name;
      if (typeof data2 === "string") {
        if (func3(data2) > 63) {
          const err10 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
        if (!pattern14.test(data2)) {
          const err11 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
      } else {
        const err12 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err12];
        } else {
          vErrors.push(err12);
        }
        errors++;
      }
    }
    if (data.modelId !== void 0) {
      let data3 = data.modelId;
      if (typeof data3 === "string") {
        if (func3(data3) > 200) {
          const err13 = { instancePath: instancePath + "/modelId", schemaPath: "#/properties/modelId/maxLength", keyword: "maxLength", params: { limit: 200 }, message: "must NOT have more than 200 characters" };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
        if (func3(data3) < 1) {
          const err14 = { instancePath: instancePath + "/modelId", schemaPath: "#/properties/modelId/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err14];
          } else {
            vErrors.push(err14);
          }
          errors++;
        }
      } else {
        const err15 = { instancePath: instancePath + "/modelId", schemaPath: "#/properties/modelId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.modelVersion !== void 0) {
      let data4 = data.modelVersion;
      if (typeof data4 === "string") {
        if (func3(data4) > 200) {
          const err16 = { instancePath: instancePath + "/modelVersion", schemaPath: "#/properties/modelVersion/maxLength", keyword: "maxLength", params: { limit: 200 }, message: "must NOT have more than 200 characters" };
          if (vErrors === null) {
            vErrors = [err16];
          } else {
            vErrors.push(err16);
          }
          errors++;
        }
        if (func3(data4) < 1) {
          const err17 = { instancePath: instancePath + "/modelVersion", schemaPath: "#/properties/modelVersion/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err17];
          } else {
            vErrors.push(err17);
          }
          errors++;
        }
      } else {
        const err18 = { instancePath: instancePath + "/modelVersion", schemaPath: "#/properties/modelVersion/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
    }
    if (data.providerId !== void 0) {
      let data5 = data.providerId;
      if (typeof data5 === "string") {
        if (!pattern15.test(data5)) {
          const err19 = { instancePath: instancePath + "/providerId", schemaPath: "#/properties/providerId/pattern", keyword: "pattern", params: { pattern: "^(?:[a-z0-9]+(?:-[a-z0-9]+)*|custom:[a-z0-9]+(?:[-.][a-z0-9]+)*)$" }, message: 'must match pattern "^(?:[a-z0-9]+(?:-[a-z0-9]+)*|custom:[a-z0-9]+(?:[-.][a-z0-9]+)*)$"' };
          if (vErrors === null) {
            vErrors = [err19];
          } else {
            vErrors.push(err19);
          }
          errors++;
        }
      } else {
        const err20 = { instancePath: instancePath + "/providerId", schemaPath: "#/properties/providerId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err20];
        } else {
          vErrors.push(err20);
        }
        errors++;
      }
    }
    if (data.samplingParams !== void 0) {
      let data6 = data.samplingParams;
      if (data6 && typeof data6 == "object" && !Array.isArray(data6)) {
        for (const key1 in data6) {
          if (!func1.call(schema47.properties, key1)) {
            const err21 = { instancePath: instancePath + "/samplingParams", schemaPath: "#/$defs/SamplingParams/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
        }
        if (data6.temperature !== void 0) {
          let data7 = data6.temperature;
          if (typeof data7 == "number" && isFinite(data7)) {
            if (data7 > 2 || isNaN(data7)) {
              const err22 = { instancePath: instancePath + "/samplingParams/temperature", schemaPath: "#/$defs/SamplingParams/properties/temperature/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2 }, message: "must be <= 2" };
              if (vErrors === null) {
                vErrors = [err22];
              } else {
                vErrors.push(err22);
              }
              errors++;
            }
            if (data7 < 0 || isNaN(data7)) {
              const err23 = { instancePath: instancePath + "/samplingParams/temperature", schemaPath: "#/$defs/SamplingParams/properties/temperature/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err23];
              } else {
                vErrors.push(err23);
              }
              errors++;
            }
          } else {
            const err24 = { instancePath: instancePath + "/samplingParams/temperature", schemaPath: "#/$defs/SamplingParams/properties/temperature/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err24];
            } else {
              vErrors.push(err24);
            }
            errors++;
          }
        }
        if (data6.topP !== void 0) {
          let data8 = data6.topP;
          if (typeof data8 == "number" && isFinite(data8)) {
            if (data8 > 1 || isNaN(data8)) {
              const err25 = { instancePath: instancePath + "/samplingParams/topP", schemaPath: "#/$defs/SamplingParams/properties/topP/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
              if (vErrors === null) {
                vErrors = [err25];
              } else {
                vErrors.push(err25);
              }
              errors++;
            }
            if (data8 < 0 || isNaN(data8)) {
              const err26 = { instancePath: instancePath + "/samplingParams/topP", schemaPath: "#/$defs/SamplingParams/properties/topP/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err26];
              } else {
                vErrors.push(err26);
              }
              errors++;
            }
          } else {
            const err27 = { instancePath: instancePath + "/samplingParams/topP", schemaPath: "#/$defs/SamplingParams/properties/topP/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err27];
            } else {
              vErrors.push(err27);
            }
            errors++;
          }
        }
        if (data6.topK !== void 0) {
          let data9 = data6.topK;
          if (!(typeof data9 == "number" && (!(data9 % 1) && !isNaN(data9)) && isFinite(data9))) {
            const err28 = { instancePath: instancePath + "/samplingParams/topK", schemaPath: "#/$defs/SamplingParams/properties/topK/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err28];
            } else {
              vErrors.push(err28);
            }
            errors++;
          }
          if (typeof data9 == "number" && isFinite(data9)) {
            if (data9 < 1 || isNaN(data9)) {
              const err29 = { instancePath: instancePath + "/samplingParams/topK", schemaPath: "#/$defs/SamplingParams/properties/topK/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err29];
              } else {
                vErrors.push(err29);
              }
              errors++;
            }
          }
        }
        if (data6.maxTokens !== void 0) {
          let data10 = data6.maxTokens;
          if (!(typeof data10 == "number" && (!(data10 % 1) && !isNaN(data10)) && isFinite(data10))) {
            const err30 = { instancePath: instancePath + "/samplingParams/maxTokens", schemaPath: "#/$defs/SamplingParams/properties/maxTokens/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err30];
            } else {
              vErrors.push(err30);
            }
            errors++;
          }
          if (typeof data10 == "number" && isFinite(data10)) {
            if (data10 < 1 || isNaN(data10)) {
              const err31 = { instancePath: instancePath + "/samplingParams/maxTokens", schemaPath: "#/$defs/SamplingParams/properties/maxTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err31];
              } else {
                vErrors.push(err31);
              }
              errors++;
            }
          }
        }
        if (data6.seed !== void 0) {
          let data11 = data6.seed;
          if (!(typeof data11 == "number" && (!(data11 % 1) && !isNaN(data11)) && isFinite(data11))) {
            const err32 = { instancePath: instancePath + "/samplingParams/seed", schemaPath: "#/$defs/SamplingParams/properties/seed/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err32];
            } else {
              vErrors.push(err32);
            }
            errors++;
          }
        }
        if (data6.stop !== void 0) {
          let data12 = data6.stop;
          if (Array.isArray(data12)) {
            if (data12.length > 16) {
              const err33 = { instancePath: instancePath + "/samplingParams/stop", schemaPath: "#/$defs/SamplingParams/properties/stop/maxItems", keyword: "maxItems", params: { limit: 16 }, message: "must NOT have more than 16 items" };
              if (vErrors === null) {
                vErrors = [err33];
              } else {
                vErrors.push(err33);
              }
              errors++;
            }
            const len0 = data12.length;
            for (let i0 = 0; i0 < len0; i0++) {
              if (typeof data12[i0] !== "string") {
                const err34 = { instancePath: instancePath + "/samplingParams/stop/" + i0, schemaPath: "#/$defs/SamplingParams/properties/stop/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err34];
                } else {
                  vErrors.push(err34);
                }
                errors++;
              }
            }
          } else {
            const err35 = { instancePath: instancePath + "/samplingParams/stop", schemaPath: "#/$defs/SamplingParams/properties/stop/type", keyword: "type", params: { type: "array" }, message: "must be array" };
            if (vErrors === null) {
              vErrors = [err35];
            } else {
              vErrors.push(err35);
            }
            errors++;
          }
        }
        if (data6.frequency_penalty !== void 0) {
          let data14 = data6.frequency_penalty;
          if (typeof data14 == "number" && isFinite(data14)) {
            if (data14 > 2 || isNaN(data14)) {
              const err36 = { instancePath: instancePath + "/samplingParams/frequency_penalty", schemaPath: "#/$defs/SamplingParams/properties/frequency_penalty/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2 }, message: "must be <= 2" };
              if (vErrors === null) {
                vErrors = [err36];
              } else {
                vErrors.push(err36);
              }
              errors++;
            }
            if (data14 < -2 || isNaN(data14)) {
              const err37 = { instancePath: instancePath + "/samplingParams/frequency_penalty", schemaPath: "#/$defs/SamplingParams/properties/frequency_penalty/minimum", keyword: "minimum", params: { comparison: ">=", limit: -2 }, message: "must be >= -2" };
              if (vErrors === null) {
                vErrors = [err37];
              } else {
                vErrors.push(err37);
              }
              errors++;
            }
          } else {
            const err38 = { instancePath: instancePath + "/samplingParams/frequency_penalty", schemaPath: "#/$defs/SamplingParams/properties/frequency_penalty/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err38];
            } else {
              vErrors.push(err38);
            }
            errors++;
          }
        }
        if (data6.presence_penalty !== void 0) {
          let data15 = data6.presence_penalty;
          if (typeof data15 == "number" && isFinite(data15)) {
            if (data15 > 2 || isNaN(data15)) {
              const err39 = { instancePath: instancePath + "/samplingParams/presence_penalty", schemaPath: "#/$defs/SamplingParams/properties/presence_penalty/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2 }, message: "must be <= 2" };
              if (vErrors === null) {
                vErrors = [err39];
              } else {
                vErrors.push(err39);
              }
              errors++;
            }
            if (data15 < -2 || isNaN(data15)) {
              const err40 = { instancePath: instancePath + "/samplingParams/presence_penalty", schemaPath: "#/$defs/SamplingParams/properties/presence_penalty/minimum", keyword: "minimum", params: { comparison: ">=", limit: -2 }, message: "must be >= -2" };
              if (vErrors === null) {
                vErrors = [err40];
              } else {
                vErrors.push(err40);
              }
              errors++;
            }
          } else {
            const err41 = { instancePath: instancePath + "/samplingParams/presence_penalty", schemaPath: "#/$defs/SamplingParams/properties/presence_penalty/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err41];
            } else {
              vErrors.push(err41);
            }
            errors++;
          }
        }
        if (data6.num_ctx !== void 0) {
          let data16 = data6.num_ctx;
          if (!(typeof data16 == "number" && (!(data16 % 1) && !isNaN(data16)) && isFinite(data16))) {
            const err42 = { instancePath: instancePath + "/samplingParams/num_ctx", schemaPath: "#/$defs/SamplingParams/properties/num_ctx/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err42];
            } else {
              vErrors.push(err42);
            }
            errors++;
          }
          if (typeof data16 == "number" && isFinite(data16)) {
            if (data16 < 1 || isNaN(data16)) {
              const err43 = { instancePath: instancePath + "/samplingParams/num_ctx", schemaPath: "#/$defs/SamplingParams/properties/num_ctx/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err43];
              } else {
                vErrors.push(err43);
              }
              errors++;
            }
          }
        }
        if (data6.repeat_penalty !== void 0) {
          let data17 = data6.repeat_penalty;
          if (typeof data17 == "number" && isFinite(data17)) {
            if (data17 < 0 || isNaN(data17)) {
              const err44 = { instancePath: instancePath + "/samplingParams/repeat_penalty", schemaPath: "#/$defs/SamplingParams/properties/repeat_penalty/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err44];
              } else {
                vErrors.push(err44);
              }
              errors++;
            }
          } else {
            const err45 = { instancePath: instancePath + "/samplingParams/repeat_penalty", schemaPath: "#/$defs/SamplingParams/properties/repeat_penalty/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err45];
            } else {
              vErrors.push(err45);
            }
            errors++;
          }
        }
        if (data6.repeat_last_n !== void 0) {
          let data18 = data6.repeat_last_n;
          if (!(typeof data18 == "number" && (!(data18 % 1) && !isNaN(data18)) && isFinite(data18))) {
            const err46 = { instancePath: instancePath + "/samplingParams/repeat_last_n", schemaPath: "#/$defs/SamplingParams/properties/repeat_last_n/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err46];
            } else {
              vErrors.push(err46);
            }
            errors++;
          }
          if (typeof data18 == "number" && isFinite(data18)) {
            if (data18 < -1 || isNaN(data18)) {
              const err47 = { instancePath: instancePath + "/samplingParams/repeat_last_n", schemaPath: "#/$defs/SamplingParams/properties/repeat_last_n/minimum", keyword: "minimum", params: { comparison: ">=", limit: -1 }, message: "must be >= -1" };
              if (vErrors === null) {
                vErrors = [err47];
              } else {
                vErrors.push(err47);
              }
              errors++;
            }
          }
        }
        if (data6.min_p !== void 0) {
          let data19 = data6.min_p;
          if (typeof data19 == "number" && isFinite(data19)) {
            if (data19 > 1 || isNaN(data19)) {
              const err48 = { instancePath: instancePath + "/samplingParams/min_p", schemaPath: "#/$defs/SamplingParams/properties/min_p/maximum", keyword: "maximum", params: { comparison: "<=", limit: 1 }, message: "must be <= 1" };
              if (vErrors === null) {
                vErrors = [err48];
              } else {
                vErrors.push(err48);
              }
              errors++;
            }
            if (data19 < 0 || isNaN(data19)) {
              const err49 = { instancePath: instancePath + "/samplingParams/min_p", schemaPath: "#/$defs/SamplingParams/properties/min_p/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err49];
              } else {
                vErrors.push(err49);
              }
              errors++;
            }
          } else {
            const err50 = { instancePath: instancePath + "/samplingParams/min_p", schemaPath: "#/$defs/SamplingParams/properties/min_p/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err50];
            } else {
              vErrors.push(err50);
            }
            errors++;
          }
        }
        if (data6.mirostat !== void 0) {
          let data20 = data6.mirostat;
          if (!(typeof data20 == "number" && (!(data20 % 1) && !isNaN(data20)) && isFinite(data20))) {
            const err51 = { instancePath: instancePath + "/samplingParams/mirostat", schemaPath: "#/$defs/SamplingParams/properties/mirostat/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err51];
            } else {
              vErrors.push(err51);
            }
            errors++;
          }
          if (typeof data20 == "number" && isFinite(data20)) {
            if (data20 > 2 || isNaN(data20)) {
              const err52 = { instancePath: instancePath + "/samplingParams/mirostat", schemaPath: "#/$defs/SamplingParams/properties/mirostat/maximum", keyword: "maximum", params: { comparison: "<=", limit: 2 }, message: "must be <= 2" };
              if (vErrors === null) {
                vErrors = [err52];
              } else {
                vErrors.push(err52);
              }
              errors++;
            }
            if (data20 < 0 || isNaN(data20)) {
              const err53 = { instancePath: instancePath + "/samplingParams/mirostat", schemaPath: "#/$defs/SamplingParams/properties/mirostat/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err53];
              } else {
                vErrors.push(err53);
              }
              errors++;
            }
          }
        }
        if (data6.mirostat_eta !== void 0) {
          let data21 = data6.mirostat_eta;
          if (typeof data21 == "number" && isFinite(data21)) {
            if (data21 < 0 || isNaN(data21)) {
              const err54 = { instancePath: instancePath + "/samplingParams/mirostat_eta", schemaPath: "#/$defs/SamplingParams/properties/mirostat_eta/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err54];
              } else {
                vErrors.push(err54);
              }
              errors++;
            }
          } else {
            const err55 = { instancePath: instancePath + "/samplingParams/mirostat_eta", schemaPath: "#/$defs/SamplingParams/properties/mirostat_eta/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err55];
            } else {
              vErrors.push(err55);
            }
            errors++;
          }
        }
        if (data6.mirostat_tau !== void 0) {
          let data22 = data6.mirostat_tau;
          if (typeof data22 == "number" && isFinite(data22)) {
            if (data22 < 0 || isNaN(data22)) {
              const err56 = { instancePath: instancePath + "/samplingParams/mirostat_tau", schemaPath: "#/$defs/SamplingParams/properties/mirostat_tau/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err56];
              } else {
                vErrors.push(err56);
              }
              errors++;
            }
          } else {
            const err57 = { instancePath: instancePath + "/samplingParams/mirostat_tau", schemaPath: "#/$defs/SamplingParams/properties/mirostat_tau/type", keyword: "type", params: { type: "number" }, message: "must be number" };
            if (vErrors === null) {
              vErrors = [err57];
            } else {
              vErrors.push(err57);
            }
            errors++;
          }
        }
      } else {
        const err58 = { instancePath: instancePath + "/samplingParams", schemaPath: "#/$defs/SamplingParams/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err58];
        } else {
          vErrors.push(err58);
        }
        errors++;
      }
    }
    if (data.tier !== void 0) {
      let data23 = data.tier;
      if (typeof data23 !== "string") {
        const err59 = { instancePath: instancePath + "/tier", schemaPath: "#/properties/tier/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err59];
        } else {
          vErrors.push(err59);
        }
        errors++;
      }
      if (!(data23 === "frontier" || data23 === "small" || data23 === "tuned" || data23 === "local")) {
        const err60 = { instancePath: instancePath + "/tier", schemaPath: "#/properties/tier/enum", keyword: "enum", params: { allowedValues: schema46.properties.tier.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err60];
        } else {
          vErrors.push(err60);
        }
        errors++;
      }
    }
    if (data.checkpointId !== void 0) {
      let data24 = data.checkpointId;
      if (typeof data24 === "string") {
        if (!pattern16.test(data24)) {
          const err61 = { instancePath: instancePath + "/checkpointId", schemaPath: "#/properties/checkpointId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,255}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,255}$"' };
          if (vErrors === null) {
            vErrors = [err61];
          } else {
            vErrors.push(err61);
          }
          errors++;
        }
      } else {
        const err62 = { instancePath: instancePath + "/checkpointId", schemaPath: "#/properties/checkpointId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err62];
        } else {
          vErrors.push(err62);
        }
        errors++;
      }
    }
  } else {
    const err63 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err63];
    } else {
      vErrors.push(err63);
    }
    errors++;
  }
  validate30.errors = vErrors;
  return errors === 0;
}
validate30.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema48 = { "type": "object", "title": "ToolRef", "description": "One versioned, provenance-tagged tool the agent may call.", "additionalProperties": false, "required": ["id", "name", "version", "provenance", "risk"], "properties": { "id": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The tool's identifier, unique within the agent." }, "name": { "type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$", "description": "The name the model or router calls the tool by (for MCP tools, the MCP tool name)." }, "version": { "$ref": "#/$defs/Semver", "description": "The tool's exact version." }, "mcpServer": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "For MCP tools: the name of the MCP server that provides the tool (mapped to a command or URL by the workspace)." }, "mcpTransport": { "type": "string", "enum": ["stdio", "http"], "description": "For MCP tools: `stdio` (a local process, local host only) or `http` (Streamable HTTP, any host)." }, "provenance": { "type": "string", "enum": ["mcp", "skill-package", "native", "scripted"], "description": "Where the tool's code comes from; with `risk` it picks the sandbox." }, "risk": { "type": "string", "enum": ["low", "medium", "high", "critical"], "description": "The Cubicle risk level of calling the tool. `critical` keeps the tool out of Worker isolates (it runs in its own process: a container or the local host); `low`, `medium` and `high` are recorded for Cubicle and change neither where nor how the tool runs." }, "description": { "type": "string", "minLength": 1, "maxLength": 4e3, "description": "What the tool does, shown to the model." }, "inputSchema": { "$ref": "#/$defs/JsonSchemaObject", "description": "JSON Schema of the tool's arguments." }, "endpoints": { "type": "array", "items": { "type": "string", "pattern": "^https?://[^\\s/@]+(?:/\\S*)?$", "x-message": "must be an http(s) origin such as https://api.example.com, with no user name or password before the host (credentials are secrets: reference them, never put them in a URL)" }, "uniqueItems": true, "description": "The HTTP(S) origins the tool may reach; everything else is blocked by the egress policy. No userinfo (`user:password@`): credentials never appear in a definition." } } };
var pattern18 = new RegExp("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$", "u");
var pattern21 = new RegExp("^https?://[^\\s/@]+(?:/\\S*)?$", "u");
function validate32(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate32.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.id === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "id" }, message: "must have required property 'id'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.name === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.version === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "version" }, message: "must have required property 'version'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.provenance === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "provenance" }, message: "must have required property 'provenance'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.risk === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "risk" }, message: "must have required property 'risk'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func1.call(schema48.properties, key0)) {
        const err5 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.id !== void 0) {
      let data0 = data.id;
      if (typeof data0 === "string") {
        if (!pattern8.test(data0)) {
          const err6 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"' };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      } else {
        const err7 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.name !== void 0) {
      let data1 = data.name;
      if (typeof data1 === "string") {
        if (!pattern18.test(data1)) {
          const err8 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$" }, message: 'must match pattern "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"' };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
      } else {
        const err9 = { instancePath: instancePath + "/name", schemaPath: "#/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
    if (data.version !== void 0) {
      let data2 = data.version;
      if (typeof data2 === "string") {
        if (func3(data2) > 128) {
          const err10 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
        if (!pattern6.test(data2)) {
          const err11 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/pattern", keyword: "pattern", params: { pattern: "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$" }, message: 'must match pattern "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"' };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
      } else {
        const err12 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err12];
        } else {
          vErrors.push(err12);
        }
        errors++;
      }
    }
    if (data.mcpServer !== void 0) {
      let data3 = data.mcpServer;
      if (typeof data3 === "string") {
        if (!pattern8.test(data3)) {
          const err13 = { instancePath: instancePath + "/mcpServer", schemaPath: "#/properties/mcpServer/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"' };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
      } else {
        const err14 = { instancePath: instancePath + "/mcpServer", schemaPath: "#/properties/mcpServer/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err14];
        } else {
          vErrors.push(err14);
        }
        errors++;
      }
    }
    if (data.mcpTransport !== void 0) {
      let data4 = data.mcpTransport;
      if (typeof data4 !== "string") {
        const err15 = { instancePath: instancePath + "/mcpTransport", schemaPath: "#/properties/mcpTransport/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
      if (!(data4 === "stdio" || data4 === "http")) {
        const err16 = { instancePath: instancePath + "/mcpTransport", schemaPath: "#/properties/mcpTransport/enum", keyword: "enum", params: { allowedValues: schema48.properties.mcpTransport.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
    }
    if (data.provenance !== void 0) {
      let data5 = data.provenance;
      if (typeof data5 !== "string") {
        const err17 = { instancePath: instancePath + "/provenance", schemaPath: "#/properties/provenance/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
      if (!(data5 === "mcp" || data5 === "skill-package" || data5 === "native" || data5 === "scripted")) {
        const err18 = { instancePath: instancePath + "/provenance", schemaPath: "#/properties/provenance/enum", keyword: "enum", params: { allowedValues: schema48.properties.provenance.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
    }
    if (data.risk !== void 0) {
      let data6 = data.risk;
      if (typeof data6 !== "string") {
        const err19 = { instancePath: instancePath + "/risk", schemaPath: "#/properties/risk/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
      if (!(data6 === "low" || data6 === "medium" || data6 === "high" || data6 === "critical")) {
        const err20 = { instancePath: instancePath + "/risk", schemaPath: "#/properties/risk/enum", keyword: "enum", params: { allowedValues: schema48.properties.risk.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err20];
        } else {
          vErrors.push(err20);
        }
        errors++;
      }
    }
    if (data.description !== void 0) {
      let data7 = data.description;
      if (typeof data7 === "string") {
        if (func3(data7) > 4e3) {
          const err21 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
          if (vErrors === null) {
            vErrors = [err21];
          } else {
            vErrors.push(err21);
          }
          errors++;
        }
        if (func3(data7) < 1) {
          const err22 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err22];
          } else {
            vErrors.push(err22);
          }
          errors++;
        }
      } else {
        const err23 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err23];
        } else {
          vErrors.push(err23);
        }
        errors++;
      }
    }
    if (data.inputSchema !== void 0) {
      let data8 = data.inputSchema;
      if (!(data8 && typeof data8 == "object" && !Array.isArray(data8))) {
        const err24 = { instancePath: instancePath + "/inputSchema", schemaPath: "#/$defs/JsonSchemaObject/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err24];
        } else {
          vErrors.push(err24);
        }
        errors++;
      }
    }
    if (data.endpoints !== void 0) {
      let data9 = data.endpoints;
      if (Array.isArray(data9)) {
        const len0 = data9.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data10 = data9[i0];
          if (typeof data10 === "string") {
            if (!pattern21.test(data10)) {
              const err25 = { instancePath: instancePath + "/endpoints/" + i0, schemaPath: "#/properties/endpoints/items/pattern", keyword: "pattern", params: { pattern: "^https?://[^\\s/@]+(?:/\\S*)?$" }, message: 'must match pattern "^https?://[^\\s/@]+(?:/\\S*)?$"' };
              if (vErrors === null) {
                vErrors = [err25];
              } else {
                vErrors.push(err25);
              }
              errors++;
            }
          } else {
            const err26 = { instancePath: instancePath + "/endpoints/" + i0, schemaPath: "#/properties/endpoints/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
        }
        let i1 = data9.length;
        let j0;
        if (i1 > 1) {
          const indices0 = {};
          for (; i1--; ) {
            let item0 = data9[i1];
            if (typeof item0 !== "string") {
              continue;
            }
            if (typeof indices0[item0] == "number") {
              j0 = indices0[item0];
              const err27 = { instancePath: instancePath + "/endpoints", schemaPath: "#/properties/endpoints/uniqueItems", keyword: "uniqueItems", params: { i: i1, j: j0 }, message: "must NOT have duplicate items (items ## " + j0 + " and " + i1 + " are identical)" };
              if (vErrors === null) {
                vErrors = [err27];
              } else {
                vErrors.push(err27);
              }
              errors++;
              break;
            }
            indices0[item0] = i1;
          }
        }
      } else {
        const err28 = { instancePath: instancePath + "/endpoints", schemaPath: "#/properties/endpoints/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err28];
        } else {
          vErrors.push(err28);
        }
        errors++;
      }
    }
  } else {
    const err29 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err29];
    } else {
      vErrors.push(err29);
    }
    errors++;
  }
  validate32.errors = vErrors;
  return errors === 0;
}
validate32.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema51 = { "type": "object", "title": "Composition", "description": "Agents of agents: a leaf, or a DAG of pinned child definitions with typed edges.", "additionalProperties": false, "required": ["kind"], "properties": { "kind": { "type": "string", "enum": ["leaf", "dag"], "description": "`leaf` runs its own models and tools; `dag` composes pinned children." }, "nodes": { "type": "array", "items": { "$ref": "#/$defs/AgentRef" }, "description": "For `dag`: the pinned children, each `slug@version`." }, "edges": { "type": "array", "items": { "$ref": "#/$defs/Edge" }, "description": "For `dag`: typed edges between nodes; the edges form no cycle." }, "quarantine": { "type": "boolean", "description": "When true each child runs in a fresh runtime instance (its own isolate, job or process) with an isolated context." }, "routing": { "$ref": "#/$defs/LeafRouting", "description": "For `leaf`: which pin answers. The `router` (or `classifier`) pin names one label; the label's pin answers, the default when the reply names none." }, "evaluation": { "$ref": "#/$defs/LeafEvaluation", "description": "For `leaf`: what happens when the `evaluator` pin finds the answer fails an invariant (evaluator-optimiser). Absent with an evaluator pin: one retry, then a failed task." } } };
function validate35(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate35.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.slug === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "slug" }, message: "must have required property 'slug'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.version === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "version" }, message: "must have required property 'version'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "slug" || key0 === "version")) {
        const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.slug !== void 0) {
      let data0 = data.slug;
      if (typeof data0 === "string") {
        if (func3(data0) > 64) {
          const err3 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
          if (vErrors === null) {
            vErrors = [err3];
          } else {
            vErrors.push(err3);
          }
          errors++;
        }
        if (func3(data0) < 1) {
          const err4 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
        if (!pattern5.test(data0)) {
          const err5 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
      } else {
        const err6 = { instancePath: instancePath + "/slug", schemaPath: "#/$defs/Slug/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.version !== void 0) {
      let data1 = data.version;
      if (typeof data1 === "string") {
        if (func3(data1) > 128) {
          const err7 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/maxLength", keyword: "maxLength", params: { limit: 128 }, message: "must NOT have more than 128 characters" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
        if (!pattern6.test(data1)) {
          const err8 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/pattern", keyword: "pattern", params: { pattern: "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$" }, message: 'must match pattern "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"' };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
      } else {
        const err9 = { instancePath: instancePath + "/version", schemaPath: "#/$defs/Semver/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
  } else {
    const err10 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err10];
    } else {
      vErrors.push(err10);
    }
    errors++;
  }
  validate35.errors = vErrors;
  return errors === 0;
}
validate35.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema55 = { "type": "object", "title": "Edge", "description": "A typed edge between two nodes of the composition.", "additionalProperties": false, "required": ["from", "to"], "properties": { "from": { "$ref": "#/$defs/Slug", "description": "The slug of the node the edge leaves." }, "to": { "$ref": "#/$defs/Slug", "description": "The slug of the node the edge enters." }, "gate": { "type": "string", "enum": ["llm-decides", "deterministic", "conditional"], "description": "Who decides whether the edge is taken: the router model (`llm-decides`), always (`deterministic`), or a rule in code (`conditional`)." }, "condition": { "$ref": "#/$defs/EdgeCondition", "description": "For `conditional` edges: the rule evaluated in code." } } };
var schema58 = { "type": "object", "title": "EdgeCondition", "description": "For a `conditional` edge: the edge is taken when the value at `pointer` in the source node's output equals `equals`.", "additionalProperties": false, "required": ["pointer", "equals"], "properties": { "pointer": { "type": "string", "pattern": "^(?:/(?:[^~/]|~[01])*)*$", "description": "A JSON Pointer into the source node's structured output." }, "equals": { "type": ["string", "number", "boolean", "null"], "description": "The value that selects this edge." } } };
var pattern26 = new RegExp("^(?:/(?:[^~/]|~[01])*)*$", "u");
function validate37(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate37.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.from === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "from" }, message: "must have required property 'from'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.to === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "to" }, message: "must have required property 'to'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "from" || key0 === "to" || key0 === "gate" || key0 === "condition")) {
        const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.from !== void 0) {
      let data0 = data.from;
      if (typeof data0 === "string") {
        if (func3(data0) > 64) {
          const err3 = { instancePath: instancePath + "/from", schemaPath: "#/$defs/Slug/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
          if (vErrors === null) {
            vErrors = [err3];
          } else {
            vErrors.push(err3);
          }
          errors++;
        }
        if (func3(data0) < 1) {
          const err4 = { instancePath: instancePath + "/from", schemaPath: "#/$defs/Slug/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
        if (!pattern5.test(data0)) {
          const err5 = { instancePath: instancePath + "/from", schemaPath: "#/$defs/Slug/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
      } else {
        const err6 = { instancePath: instancePath + "/from", schemaPath: "#/$defs/Slug/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.to !== void 0) {
      let data1 = data.to;
      if (typeof data1 === "string") {
        if (func3(data1) > 64) {
          const err7 = { instancePath: instancePath + "/to", schemaPath: "#/$defs/Slug/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
        if (func3(data1) < 1) {
          const err8 = { instancePath: instancePath + "/to", schemaPath: "#/$defs/Slug/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        if (!pattern5.test(data1)) {
          const err9 = { instancePath: instancePath + "/to", schemaPath: "#/$defs/Slug/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
      } else {
        const err10 = { instancePath: instancePath + "/to", schemaPath: "#/$defs/Slug/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
    }
    if (data.gate !== void 0) {
      let data2 = data.gate;
      if (typeof data2 !== "string") {
        const err11 = { instancePath: instancePath + "/gate", schemaPath: "#/properties/gate/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
      if (!(data2 === "llm-decides" || data2 === "deterministic" || data2 === "conditional")) {
        const err12 = { instancePath: instancePath + "/gate", schemaPath: "#/properties/gate/enum", keyword: "enum", params: { allowedValues: schema55.properties.gate.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err12];
        } else {
          vErrors.push(err12);
        }
        errors++;
      }
    }
    if (data.condition !== void 0) {
      let data3 = data.condition;
      if (data3 && typeof data3 == "object" && !Array.isArray(data3)) {
        if (data3.pointer === void 0) {
          const err13 = { instancePath: instancePath + "/condition", schemaPath: "#/$defs/EdgeCondition/required", keyword: "required", params: { missingProperty: "pointer" }, message: "must have required property 'pointer'" };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
        if (data3.equals === void 0) {
          const err14 = { instancePath: instancePath + "/condition", schemaPath: "#/$defs/EdgeCondition/required", keyword: "required", params: { missingProperty: "equals" }, message: "must have required property 'equals'" };
          if (vErrors === null) {
            vErrors = [err14];
          } else {
            vErrors.push(err14);
          }
          errors++;
        }
        for (const key1 in data3) {
          if (!(key1 === "pointer" || key1 === "equals")) {
            const err15 = { instancePath: instancePath + "/condition", schemaPath: "#/$defs/EdgeCondition/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err15];
            } else {
              vErrors.push(err15);
            }
            errors++;
          }
        }
        if (data3.pointer !== void 0) {
          let data4 = data3.pointer;
          if (typeof data4 === "string") {
            if (!pattern26.test(data4)) {
              const err16 = { instancePath: instancePath + "/condition/pointer", schemaPath: "#/$defs/EdgeCondition/properties/pointer/pattern", keyword: "pattern", params: { pattern: "^(?:/(?:[^~/]|~[01])*)*$" }, message: 'must match pattern "^(?:/(?:[^~/]|~[01])*)*$"' };
              if (vErrors === null) {
                vErrors = [err16];
              } else {
                vErrors.push(err16);
              }
              errors++;
            }
          } else {
            const err17 = { instancePath: instancePath + "/condition/pointer", schemaPath: "#/$defs/EdgeCondition/properties/pointer/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err17];
            } else {
              vErrors.push(err17);
            }
            errors++;
          }
        }
        if (data3.equals !== void 0) {
          let data5 = data3.equals;
          if (typeof data5 !== "string" && !(typeof data5 == "number" && isFinite(data5)) && typeof data5 !== "boolean" && data5 !== null) {
            const err18 = { instancePath: instancePath + "/condition/equals", schemaPath: "#/$defs/EdgeCondition/properties/equals/type", keyword: "type", params: { type: schema58.properties.equals.type }, message: "must be string,number,boolean,null" };
            if (vErrors === null) {
              vErrors = [err18];
            } else {
              vErrors.push(err18);
            }
            errors++;
          }
        }
      } else {
        const err19 = { instancePath: instancePath + "/condition", schemaPath: "#/$defs/EdgeCondition/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
    }
  } else {
    const err20 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err20];
    } else {
      vErrors.push(err20);
    }
    errors++;
  }
  validate37.errors = vErrors;
  return errors === 0;
}
validate37.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var pattern28 = new RegExp("^[a-z0-9][a-z0-9_-]{0,62}$", "u");
function validate39(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate39.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.routes === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "routes" }, message: "must have required property 'routes'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.default === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "default" }, message: "must have required property 'default'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "by" || key0 === "routes" || key0 === "default")) {
        const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.by !== void 0) {
      let data0 = data.by;
      if (typeof data0 === "string") {
        if (func3(data0) > 63) {
          const err3 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
          if (vErrors === null) {
            vErrors = [err3];
          } else {
            vErrors.push(err3);
          }
          errors++;
        }
        if (!pattern14.test(data0)) {
          const err4 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
      } else {
        const err5 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.routes !== void 0) {
      let data1 = data.routes;
      if (Array.isArray(data1)) {
        if (data1.length > 32) {
          const err6 = { instancePath: instancePath + "/routes", schemaPath: "#/properties/routes/maxItems", keyword: "maxItems", params: { limit: 32 }, message: "must NOT have more than 32 items" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
        if (data1.length < 1) {
          const err7 = { instancePath: instancePath + "/routes", schemaPath: "#/properties/routes/minItems", keyword: "minItems", params: { limit: 1 }, message: "must NOT have fewer than 1 items" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
        const len0 = data1.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data2 = data1[i0];
          if (data2 && typeof data2 == "object" && !Array.isArray(data2)) {
            if (data2.label === void 0) {
              const err8 = { instancePath: instancePath + "/routes/" + i0, schemaPath: "#/properties/routes/items/required", keyword: "required", params: { missingProperty: "label" }, message: "must have required property 'label'" };
              if (vErrors === null) {
                vErrors = [err8];
              } else {
                vErrors.push(err8);
              }
              errors++;
            }
            if (data2.to === void 0) {
              const err9 = { instancePath: instancePath + "/routes/" + i0, schemaPath: "#/properties/routes/items/required", keyword: "required", params: { missingProperty: "to" }, message: "must have required property 'to'" };
              if (vErrors === null) {
                vErrors = [err9];
              } else {
                vErrors.push(err9);
              }
              errors++;
            }
            for (const key1 in data2) {
              if (!(key1 === "label" || key1 === "to" || key1 === "description")) {
                const err10 = { instancePath: instancePath + "/routes/" + i0, schemaPath: "#/properties/routes/items/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
                if (vErrors === null) {
                  vErrors = [err10];
                } else {
                  vErrors.push(err10);
                }
                errors++;
              }
            }
            if (data2.label !== void 0) {
              let data3 = data2.label;
              if (typeof data3 === "string") {
                if (!pattern28.test(data3)) {
                  const err11 = { instancePath: instancePath + "/routes/" + i0 + "/label", schemaPath: "#/properties/routes/items/properties/label/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9][a-z0-9_-]{0,62}$" }, message: 'must match pattern "^[a-z0-9][a-z0-9_-]{0,62}$"' };
                  if (vErrors === null) {
                    vErrors = [err11];
                  } else {
                    vErrors.push(err11);
                  }
                  errors++;
                }
              } else {
                const err12 = { instancePath: instancePath + "/routes/" + i0 + "/label", schemaPath: "#/properties/routes/items/properties/label/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err12];
                } else {
                  vErrors.push(err12);
                }
                errors++;
              }
            }
            if (data2.to !== void 0) {
              let data4 = data2.to;
              if (typeof data4 === "string") {
                if (func3(data4) > 63) {
                  const err13 = { instancePath: instancePath + "/routes/" + i0 + "/to", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
                  if (vErrors === null) {
                    vErrors = [err13];
                  } else {
                    vErrors.push(err13);
                  }
                  errors++;
                }
                if (!pattern14.test(data4)) {
                  const err14 = { instancePath: instancePath + "/routes/" + i0 + "/to", schemaPath: "#/$defs/PinName/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
                  if (vErrors === null) {
                    vErrors = [err14];
                  } else {
                    vErrors.push(err14);
                  }
                  errors++;
                }
              } else {
                const err15 = { instancePath: instancePath + "/routes/" + i0 + "/to", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err15];
                } else {
                  vErrors.push(err15);
                }
                errors++;
              }
            }
            if (data2.description !== void 0) {
              let data5 = data2.description;
              if (typeof data5 === "string") {
                if (func3(data5) > 500) {
                  const err16 = { instancePath: instancePath + "/routes/" + i0 + "/description", schemaPath: "#/properties/routes/items/properties/description/maxLength", keyword: "maxLength", params: { limit: 500 }, message: "must NOT have more than 500 characters" };
                  if (vErrors === null) {
                    vErrors = [err16];
                  } else {
                    vErrors.push(err16);
                  }
                  errors++;
                }
                if (func3(data5) < 1) {
                  const err17 = { instancePath: instancePath + "/routes/" + i0 + "/description", schemaPath: "#/properties/routes/items/properties/description/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
                  if (vErrors === null) {
                    vErrors = [err17];
                  } else {
                    vErrors.push(err17);
                  }
                  errors++;
                }
              } else {
                const err18 = { instancePath: instancePath + "/routes/" + i0 + "/description", schemaPath: "#/properties/routes/items/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err18];
                } else {
                  vErrors.push(err18);
                }
                errors++;
              }
            }
          } else {
            const err19 = { instancePath: instancePath + "/routes/" + i0, schemaPath: "#/properties/routes/items/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err19];
            } else {
              vErrors.push(err19);
            }
            errors++;
          }
        }
      } else {
        const err20 = { instancePath: instancePath + "/routes", schemaPath: "#/properties/routes/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err20];
        } else {
          vErrors.push(err20);
        }
        errors++;
      }
    }
    if (data.default !== void 0) {
      let data6 = data.default;
      if (typeof data6 === "string") {
        if (func3(data6) > 63) {
          const err21 = { instancePath: instancePath + "/default", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
          if (vErrors === null) {
            vErrors = [err21];
          } else {
            vErrors.push(err21);
          }
          errors++;
        }
        if (!pattern14.test(data6)) {
          const err22 = { instancePath: instancePath + "/default", schemaPath: "#/$defs/PinName/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err22];
          } else {
            vErrors.push(err22);
          }
          errors++;
        }
      } else {
        const err23 = { instancePath: instancePath + "/default", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err23];
        } else {
          vErrors.push(err23);
        }
        errors++;
      }
    }
  } else {
    const err24 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err24];
    } else {
      vErrors.push(err24);
    }
    errors++;
  }
  validate39.errors = vErrors;
  return errors === 0;
}
validate39.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
function validate41(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate41.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    for (const key0 in data) {
      if (!(key0 === "by" || key0 === "maxRetries" || key0 === "escalateTo")) {
        const err0 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err0];
        } else {
          vErrors.push(err0);
        }
        errors++;
      }
    }
    if (data.by !== void 0) {
      let data0 = data.by;
      if (typeof data0 === "string") {
        if (func3(data0) > 63) {
          const err1 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
          if (vErrors === null) {
            vErrors = [err1];
          } else {
            vErrors.push(err1);
          }
          errors++;
        }
        if (!pattern14.test(data0)) {
          const err2 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err2];
          } else {
            vErrors.push(err2);
          }
          errors++;
        }
      } else {
        const err3 = { instancePath: instancePath + "/by", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.maxRetries !== void 0) {
      let data1 = data.maxRetries;
      if (!(typeof data1 == "number" && (!(data1 % 1) && !isNaN(data1)) && isFinite(data1))) {
        const err4 = { instancePath: instancePath + "/maxRetries", schemaPath: "#/properties/maxRetries/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
      if (typeof data1 == "number" && isFinite(data1)) {
        if (data1 > 5 || isNaN(data1)) {
          const err5 = { instancePath: instancePath + "/maxRetries", schemaPath: "#/properties/maxRetries/maximum", keyword: "maximum", params: { comparison: "<=", limit: 5 }, message: "must be <= 5" };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
        if (data1 < 0 || isNaN(data1)) {
          const err6 = { instancePath: instancePath + "/maxRetries", schemaPath: "#/properties/maxRetries/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      }
    }
    if (data.escalateTo !== void 0) {
      let data2 = data.escalateTo;
      if (typeof data2 === "string") {
        if (func3(data2) > 63) {
          const err7 = { instancePath: instancePath + "/escalateTo", schemaPath: "#/$defs/PinName/maxLength", keyword: "maxLength", params: { limit: 63 }, message: "must NOT have more than 63 characters" };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
        if (!pattern14.test(data2)) {
          const err8 = { instancePath: instancePath + "/escalateTo", schemaPath: "#/$defs/PinName/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"' };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
      } else {
        const err9 = { instancePath: instancePath + "/escalateTo", schemaPath: "#/$defs/PinName/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
  } else {
    const err10 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err10];
    } else {
      vErrors.push(err10);
    }
    errors++;
  }
  validate41.errors = vErrors;
  return errors === 0;
}
validate41.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
function validate34(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate34.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.kind === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "kind" || key0 === "nodes" || key0 === "edges" || key0 === "quarantine" || key0 === "routing" || key0 === "evaluation")) {
        const err1 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err1];
        } else {
          vErrors.push(err1);
        }
        errors++;
      }
    }
    if (data.kind !== void 0) {
      let data0 = data.kind;
      if (typeof data0 !== "string") {
        const err2 = { instancePath: instancePath + "/kind", schemaPath: "#/properties/kind/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
      if (!(data0 === "leaf" || data0 === "dag")) {
        const err3 = { instancePath: instancePath + "/kind", schemaPath: "#/properties/kind/enum", keyword: "enum", params: { allowedValues: schema51.properties.kind.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.nodes !== void 0) {
      let data1 = data.nodes;
      if (Array.isArray(data1)) {
        const len0 = data1.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (!validate35(data1[i0], { instancePath: instancePath + "/nodes/" + i0, parentData: data1, parentDataProperty: i0, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate35.errors : vErrors.concat(validate35.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err4 = { instancePath: instancePath + "/nodes", schemaPath: "#/properties/nodes/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
    }
    if (data.edges !== void 0) {
      let data3 = data.edges;
      if (Array.isArray(data3)) {
        const len1 = data3.length;
        for (let i1 = 0; i1 < len1; i1++) {
          if (!validate37(data3[i1], { instancePath: instancePath + "/edges/" + i1, parentData: data3, parentDataProperty: i1, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate37.errors : vErrors.concat(validate37.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err5 = { instancePath: instancePath + "/edges", schemaPath: "#/properties/edges/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.quarantine !== void 0) {
      if (typeof data.quarantine !== "boolean") {
        const err6 = { instancePath: instancePath + "/quarantine", schemaPath: "#/properties/quarantine/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.routing !== void 0) {
      if (!validate39(data.routing, { instancePath: instancePath + "/routing", parentData: data, parentDataProperty: "routing", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate39.errors : vErrors.concat(validate39.errors);
        errors = vErrors.length;
      }
    }
    if (data.evaluation !== void 0) {
      if (!validate41(data.evaluation, { instancePath: instancePath + "/evaluation", parentData: data, parentDataProperty: "evaluation", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate41.errors : vErrors.concat(validate41.errors);
        errors = vErrors.length;
      }
    }
  } else {
    const err7 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err7];
    } else {
      vErrors.push(err7);
    }
    errors++;
  }
  validate34.errors = vErrors;
  return errors === 0;
}
validate34.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema66 = { "type": "object", "title": "MemoryContract", "description": "The agent's memory references and context budgets.", "additionalProperties": false, "required": ["refs"], "properties": { "refs": { "type": "array", "items": { "$ref": "#/$defs/MemoryRef" }, "description": "The Cubicle memory references the agent uses." }, "workingSetTokens": { "type": "integer", "minimum": 0, "description": "The tokens the agent keeps in context on a typical turn: a sizing declaration. Validation checks it (at most `contextWindowBudget`; above 128k tokens it refuses `workers-only` and warns on `workers-preferred`); the runtime bounds the context by `contextWindowBudget`, not by this." }, "contextWindowBudget": { "type": "integer", "minimum": 1, "description": "The most tokens the agent may hold in context; the runtime compacts (by `compactionPolicy`, default `drop`) before exceeding it. A tool calls no model and keeps no context." }, "compactionPolicy": { "type": "string", "enum": ["summarise", "quarantine", "drop"], "description": "What the runtime does when the next model request would exceed `contextWindowBudget`; it needs that budget, without which it would never apply." } } };
var schema67 = { "type": "object", "title": "MemoryRef", "description": "One Cubicle memory reference.", "additionalProperties": false, "required": ["kind", "name", "retention", "egressAllowed"], "properties": { "kind": { "type": "string", "enum": ["chat", "vector", "profile", "receipt", "sensor", "content", "custom"], "description": "The Cubicle memory kind. `chat` is the run's conversation, which the runtime keeps and sends to the model pins (see `egressAllowed`); the other kinds name memories a Cubicle host provides, which agentdef's own hosts do not." }, "name": { "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", "description": "The memory's name within the agent." }, "retention": { "type": "string", "enum": ["ephemeral", "session", "durable"], "description": "How long the memory is kept. On HB3 a `session` or `durable` memory makes the agent a long-running Service rather than a Job." }, "egressAllowed": { "type": "boolean", "description": "Whether the memory's content may leave the runtime host. For `chat` memory, `false` requires every model pin to run on the machine (tier `local`)." } } };
function validate44(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate44.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.refs === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "refs" }, message: "must have required property 'refs'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "refs" || key0 === "workingSetTokens" || key0 === "contextWindowBudget" || key0 === "compactionPolicy")) {
        const err1 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err1];
        } else {
          vErrors.push(err1);
        }
        errors++;
      }
    }
    if (data.refs !== void 0) {
      let data0 = data.refs;
      if (Array.isArray(data0)) {
        const len0 = data0.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data1 = data0[i0];
          if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
            if (data1.kind === void 0) {
              const err2 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
              if (vErrors === null) {
                vErrors = [err2];
              } else {
                vErrors.push(err2);
              }
              errors++;
            }
            if (data1.name === void 0) {
              const err3 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
              if (vErrors === null) {
                vErrors = [err3];
              } else {
                vErrors.push(err3);
              }
              errors++;
            }
            if (data1.retention === void 0) {
              const err4 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/required", keyword: "required", params: { missingProperty: "retention" }, message: "must have required property 'retention'" };
              if (vErrors === null) {
                vErrors = [err4];
              } else {
                vErrors.push(err4);
              }
              errors++;
            }
            if (data1.egressAllowed === void 0) {
              const err5 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/required", keyword: "required", params: { missingProperty: "egressAllowed" }, message: "must have required property 'egressAllowed'" };
              if (vErrors === null) {
                vErrors = [err5];
              } else {
                vErrors.push(err5);
              }
              errors++;
            }
            for (const key1 in data1) {
              if (!(key1 === "kind" || key1 === "name" || key1 === "retention" || key1 === "egressAllowed")) {
                const err6 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
                if (vErrors === null) {
                  vErrors = [err6];
                } else {
                  vErrors.push(err6);
                }
                errors++;
              }
            }
            if (data1.kind !== void 0) {
              let data2 = data1.kind;
              if (typeof data2 !== "string") {
                const err7 = { instancePath: instancePath + "/refs/" + i0 + "/kind", schemaPath: "#/$defs/MemoryRef/properties/kind/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err7];
                } else {
                  vErrors.push(err7);
                }
                errors++;
              }
              if (!(data2 === "chat" || data2 === "vector" || data2 === "profile" || data2 === "receipt" || data2 === "sensor" || data2 === "content" || data2 === "custom")) {
                const err8 = { instancePath: instancePath + "/refs/" + i0 + "/kind", schemaPath: "#/$defs/MemoryRef/properties/kind/enum", keyword: "enum", params: { allowedValues: schema67.properties.kind.enum }, message: "must be equal to one of the allowed values" };
                if (vErrors === null) {
                  vErrors = [err8];
                } else {
                  vErrors.push(err8);
                }
                errors++;
              }
            }
            if (data1.name !== void 0) {
              let data3 = data1.name;
              if (typeof data3 === "string") {
                if (!pattern8.test(data3)) {
                  const err9 = { instancePath: instancePath + "/refs/" + i0 + "/name", schemaPath: "#/$defs/MemoryRef/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$" }, message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"' };
                  if (vErrors === null) {
                    vErrors = [err9];
                  } else {
                    vErrors.push(err9);
                  }
                  errors++;
                }
              } else {
                const err10 = { instancePath: instancePath + "/refs/" + i0 + "/name", schemaPath: "#/$defs/MemoryRef/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err10];
                } else {
                  vErrors.push(err10);
                }
                errors++;
              }
            }
            if (data1.retention !== void 0) {
              let data4 = data1.retention;
              if (typeof data4 !== "string") {
                const err11 = { instancePath: instancePath + "/refs/" + i0 + "/retention", schemaPath: "#/$defs/MemoryRef/properties/retention/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err11];
                } else {
                  vErrors.push(err11);
                }
                errors++;
              }
              if (!(data4 === "ephemeral" || data4 === "session" || data4 === "durable")) {
                const err12 = { instancePath: instancePath + "/refs/" + i0 + "/retention", schemaPath: "#/$defs/MemoryRef/properties/retention/enum", keyword: "enum", params: { allowedValues: schema67.properties.retention.enum }, message: "must be equal to one of the allowed values" };
                if (vErrors === null) {
                  vErrors = [err12];
                } else {
                  vErrors.push(err12);
                }
                errors++;
              }
            }
            if (data1.egressAllowed !== void 0) {
              if (typeof data1.egressAllowed !== "boolean") {
                const err13 = { instancePath: instancePath + "/refs/" + i0 + "/egressAllowed", schemaPath: "#/$defs/MemoryRef/properties/egressAllowed/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
                if (vErrors === null) {
                  vErrors = [err13];
                } else {
                  vErrors.push(err13);
                }
                errors++;
              }
            }
          } else {
            const err14 = { instancePath: instancePath + "/refs/" + i0, schemaPath: "#/$defs/MemoryRef/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err14];
            } else {
              vErrors.push(err14);
            }
            errors++;
          }
        }
      } else {
        const err15 = { instancePath: instancePath + "/refs", schemaPath: "#/properties/refs/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.workingSetTokens !== void 0) {
      let data6 = data.workingSetTokens;
      if (!(typeof data6 == "number" && (!(data6 % 1) && !isNaN(data6)) && isFinite(data6))) {
        const err16 = { instancePath: instancePath + "/workingSetTokens", schemaPath: "#/properties/workingSetTokens/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
      if (typeof data6 == "number" && isFinite(data6)) {
        if (data6 < 0 || isNaN(data6)) {
          const err17 = { instancePath: instancePath + "/workingSetTokens", schemaPath: "#/properties/workingSetTokens/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
          if (vErrors === null) {
            vErrors = [err17];
          } else {
            vErrors.push(err17);
          }
          errors++;
        }
      }
    }
    if (data.contextWindowBudget !== void 0) {
      let data7 = data.contextWindowBudget;
      if (!(typeof data7 == "number" && (!(data7 % 1) && !isNaN(data7)) && isFinite(data7))) {
        const err18 = { instancePath: instancePath + "/contextWindowBudget", schemaPath: "#/properties/contextWindowBudget/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
      if (typeof data7 == "number" && isFinite(data7)) {
        if (data7 < 1 || isNaN(data7)) {
          const err19 = { instancePath: instancePath + "/contextWindowBudget", schemaPath: "#/properties/contextWindowBudget/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
          if (vErrors === null) {
            vErrors = [err19];
          } else {
            vErrors.push(err19);
          }
          errors++;
        }
      }
    }
    if (data.compactionPolicy !== void 0) {
      let data8 = data.compactionPolicy;
      if (typeof data8 !== "string") {
        const err20 = { instancePath: instancePath + "/compactionPolicy", schemaPath: "#/properties/compactionPolicy/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err20];
        } else {
          vErrors.push(err20);
        }
        errors++;
      }
      if (!(data8 === "summarise" || data8 === "quarantine" || data8 === "drop")) {
        const err21 = { instancePath: instancePath + "/compactionPolicy", schemaPath: "#/properties/compactionPolicy/enum", keyword: "enum", params: { allowedValues: schema66.properties.compactionPolicy.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err21];
        } else {
          vErrors.push(err21);
        }
        errors++;
      }
    }
  } else {
    const err22 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err22];
    } else {
      vErrors.push(err22);
    }
    errors++;
  }
  validate44.errors = vErrors;
  return errors === 0;
}
validate44.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema68 = { "type": "object", "title": "TelemetryContract", "description": "The receipt envelope and telemetry the agent commits to, and its agentic gate, stored explicitly.", "additionalProperties": false, "required": ["receiptSigner", "receiptSchemaVersion", "telemetryKinds", "agenticGate", "kymRegistrationRequired"], "properties": { "receiptSigner": { "anyOf": [{ "$ref": "#/$defs/OpaqueRef" }, { "type": "null" }], "description": "The signing key reference for receipts, or null before `tool-shipped` (no signed receipts yet)." }, "receiptSchemaVersion": { "type": "string", "pattern": "^receipt/v[1-9][0-9]*$", "description": "The receipt schema the agent emits, for example `receipt/v1`.", "x-message": "must look like receipt/v1" }, "telemetryKinds": { "type": "array", "items": { "type": "string", "enum": ["events", "session-report", "experiment"] }, "uniqueItems": true, "description": "Which telemetry streams the agent declares, for the platform that collects them (Cubicle). A declaration: agentdef's hosts emit the run receipts and the run event log whatever it lists. A tool (empty `modelSet`) declares `events` only." }, "agenticGate": { "type": "string", "enum": ["tool-only", "agentic"], "description": "The model gate: `tool-only` when `modelSet` is empty, `agentic` when it pins any model, whatever its task (chat, embedding, classification, speech, image). Stored so downstream systems audit rather than infer." }, "kymRegistrationRequired": { "type": "boolean", "description": "True exactly when `agenticGate` is `agentic`: agentic entities must register in KYM." }, "collector": { "$ref": "#/$defs/CollectorOrigin", "description": "The origin of the OpenTelemetry collector the agent's runs are exported to over OTLP/HTTP (`https://otel.example.com`; `http://` only for a loopback collector): an origin only, no path, credentials, query or trailing slash. The compiler adds it to the egress allow-list, and a Worker exports to it when `AGENTDEF_OTLP_ENDPOINT` is unset." } } };
var pattern35 = new RegExp("^receipt/v[1-9][0-9]*$", "u");
var pattern36 = new RegExp("^(?:https://[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?|http://(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::[0-9]{1,5})?)$", "u");
function validate46(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate46.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.receiptSigner === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "receiptSigner" }, message: "must have required property 'receiptSigner'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.receiptSchemaVersion === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "receiptSchemaVersion" }, message: "must have required property 'receiptSchemaVersion'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.telemetryKinds === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "telemetryKinds" }, message: "must have required property 'telemetryKinds'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.agenticGate === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "agenticGate" }, message: "must have required property 'agenticGate'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.kymRegistrationRequired === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "kymRegistrationRequired" }, message: "must have required property 'kymRegistrationRequired'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "receiptSigner" || key0 === "receiptSchemaVersion" || key0 === "telemetryKinds" || key0 === "agenticGate" || key0 === "kymRegistrationRequired" || key0 === "collector")) {
        const err5 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.receiptSigner !== void 0) {
      let data0 = data.receiptSigner;
      const _errs3 = errors;
      let valid1 = false;
      const _errs4 = errors;
      if (typeof data0 === "string") {
        if (func3(data0) > 512) {
          const err6 = { instancePath: instancePath + "/receiptSigner", schemaPath: "#/$defs/OpaqueRef/maxLength", keyword: "maxLength", params: { limit: 512 }, message: "must NOT have more than 512 characters" };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
        if (!pattern9.test(data0)) {
          const err7 = { instancePath: instancePath + "/receiptSigner", schemaPath: "#/$defs/OpaqueRef/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9+.-]*:\\S+$" }, message: 'must match pattern "^[a-z][a-z0-9+.-]*:\\S+$"' };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
      } else {
        const err8 = { instancePath: instancePath + "/receiptSigner", schemaPath: "#/$defs/OpaqueRef/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err8];
        } else {
          vErrors.push(err8);
        }
        errors++;
      }
      var _valid0 = _errs4 === errors;
      valid1 = valid1 || _valid0;
      const _errs8 = errors;
      if (data0 !== null) {
        const err9 = { instancePath: instancePath + "/receiptSigner", schemaPath: "#/properties/receiptSigner/anyOf/1/type", keyword: "type", params: { type: "null" }, message: "must be null" };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
      var _valid0 = _errs8 === errors;
      valid1 = valid1 || _valid0;
      if (!valid1) {
        const err10 = { instancePath: instancePath + "/receiptSigner", schemaPath: "#/properties/receiptSigner/anyOf", keyword: "anyOf", params: {}, message: "must match a schema in anyOf" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      } else {
        errors = _errs3;
        if (vErrors !== null) {
          if (_errs3) {
            vErrors.length = _errs3;
          } else {
            vErrors = null;
          }
        }
      }
    }
    if (data.receiptSchemaVersion !== void 0) {
      let data1 = data.receiptSchemaVersion;
      if (typeof data1 === "string") {
        if (!pattern35.test(data1)) {
          const err11 = { instancePath: instancePath + "/receiptSchemaVersion", schemaPath: "#/properties/receiptSchemaVersion/pattern", keyword: "pattern", params: { pattern: "^receipt/v[1-9][0-9]*$" }, message: 'must match pattern "^receipt/v[1-9][0-9]*$"' };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
      } else {
        const err12 = { instancePath: instancePath + "/receiptSchemaVersion", schemaPath: "#/properties/receiptSchemaVersion/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err12];
        } else {
          vErrors.push(err12);
        }
        errors++;
      }
    }
    if (data.telemetryKinds !== void 0) {
      let data2 = data.telemetryKinds;
      if (Array.isArray(data2)) {
        const len0 = data2.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data3 = data2[i0];
          if (typeof data3 !== "string") {
            const err13 = { instancePath: instancePath + "/telemetryKinds/" + i0, schemaPath: "#/properties/telemetryKinds/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err13];
            } else {
              vErrors.push(err13);
            }
            errors++;
          }
          if (!(data3 === "events" || data3 === "session-report" || data3 === "experiment")) {
            const err14 = { instancePath: instancePath + "/telemetryKinds/" + i0, schemaPath: "#/properties/telemetryKinds/items/enum", keyword: "enum", params: { allowedValues: schema68.properties.telemetryKinds.items.enum }, message: "must be equal to one of the allowed values" };
            if (vErrors === null) {
              vErrors = [err14];
            } else {
              vErrors.push(err14);
            }
            errors++;
          }
        }
        let i1 = data2.length;
        let j0;
        if (i1 > 1) {
          const indices0 = {};
          for (; i1--; ) {
            let item0 = data2[i1];
            if (typeof item0 !== "string") {
              continue;
            }
            if (typeof indices0[item0] == "number") {
              j0 = indices0[item0];
              const err15 = { instancePath: instancePath + "/telemetryKinds", schemaPath: "#/properties/telemetryKinds/uniqueItems", keyword: "uniqueItems", params: { i: i1, j: j0 }, message: "must NOT have duplicate items (items ## " + j0 + " and " + i1 + " are identical)" };
              if (vErrors === null) {
                vErrors = [err15];
              } else {
                vErrors.push(err15);
              }
              errors++;
              break;
            }
            indices0[item0] = i1;
          }
        }
      } else {
        const err16 = { instancePath: instancePath + "/telemetryKinds", schemaPath: "#/properties/telemetryKinds/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
    }
    if (data.agenticGate !== void 0) {
      let data4 = data.agenticGate;
      if (typeof data4 !== "string") {
        const err17 = { instancePath: instancePath + "/agenticGate", schemaPath: "#/properties/agenticGate/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
      if (!(data4 === "tool-only" || data4 === "agentic")) {
        const err18 = { instancePath: instancePath + "/agenticGate", schemaPath: "#/properties/agenticGate/enum", keyword: "enum", params: { allowedValues: schema68.properties.agenticGate.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
    }
    if (data.kymRegistrationRequired !== void 0) {
      if (typeof data.kymRegistrationRequired !== "boolean") {
        const err19 = { instancePath: instancePath + "/kymRegistrationRequired", schemaPath: "#/properties/kymRegistrationRequired/type", keyword: "type", params: { type: "boolean" }, message: "must be boolean" };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
    }
    if (data.collector !== void 0) {
      let data6 = data.collector;
      if (typeof data6 === "string") {
        if (func3(data6) > 300) {
          const err20 = { instancePath: instancePath + "/collector", schemaPath: "#/$defs/CollectorOrigin/maxLength", keyword: "maxLength", params: { limit: 300 }, message: "must NOT have more than 300 characters" };
          if (vErrors === null) {
            vErrors = [err20];
          } else {
            vErrors.push(err20);
          }
          errors++;
        }
        if (!pattern36.test(data6)) {
          const err21 = { instancePath: instancePath + "/collector", schemaPath: "#/$defs/CollectorOrigin/pattern", keyword: "pattern", params: { pattern: "^(?:https://[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?|http://(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::[0-9]{1,5})?)$" }, message: 'must match pattern "^(?:https://[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?|http://(?:127\\.0\\.0\\.1|localhost|\\[::1\\])(?::[0-9]{1,5})?)$"' };
          if (vErrors === null) {
            vErrors = [err21];
          } else {
            vErrors.push(err21);
          }
          errors++;
        }
      } else {
        const err22 = { instancePath: instancePath + "/collector", schemaPath: "#/$defs/CollectorOrigin/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err22];
        } else {
          vErrors.push(err22);
        }
        errors++;
      }
    }
  } else {
    const err23 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err23];
    } else {
      vErrors.push(err23);
    }
    errors++;
  }
  validate46.errors = vErrors;
  return errors === 0;
}
validate46.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var schema71 = { "type": "object", "title": "RuntimeRequirements", "description": "The compiler's dispatch key: the runtime class, limits, key custody and bindings.", "additionalProperties": false, "required": ["runtimeCapabilityClass", "limits", "keyCustody", "bindings"], "properties": { "runtimeCapabilityClass": { "type": "string", "enum": ["workers-only", "workers-preferred", "container-required", "local-host-required"], "description": "Which hosts may run the agent: Workers only, Workers with a container fallback, a container, or the user's own machine." }, "limits": { "$ref": "#/$defs/Limits", "description": "Resource and termination limits." }, "keyCustody": { "type": "string", "enum": ["session", "vault-ref", "secrets-store"], "description": "Where the agent's keys are held." }, "bindings": { "type": "array", "items": { "$ref": "#/$defs/BindingRef" }, "description": "The runtime bindings the agent needs." } } };
var schema73 = { "title": "BindingRef", "description": "A runtime binding, matching the Cubicle DynamicWorkerHostPlan bindings union. Cloudflare Workers provide every kind; container and local hosts provide `secret-ref` bindings only (and an HB3 container an `r2` bucket as its tuned-weights source), so a class that runs only there may not declare other kinds.", "type": "object", "required": ["kind"], "properties": { "kind": { "type": "string", "enum": ["service", "kv", "d1", "r2", "queue", "secret-ref", "custom"], "description": "The binding kind; selects which of the shapes below applies." } }, "discriminator": { "propertyName": "kind" }, "oneOf": [{ "type": "object", "title": "BindingService", "description": "A service binding to another Worker or MCP server over HTTP.", "additionalProperties": false, "required": ["kind", "name", "service"], "properties": { "kind": { "const": "service", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "service": { "type": "string", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$", "description": "The service (Worker) name to bind." } } }, { "type": "object", "title": "BindingKv", "description": "A KV namespace.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "kv", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "namespaceId": { "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "description": "The KV namespace id, when known at compile time." } } }, { "type": "object", "title": "BindingD1", "description": "A D1 database.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "d1", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "databaseId": { "type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$", "description": "The D1 database id." } } }, { "type": "object", "title": "BindingR2", "description": "An R2 bucket.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "r2", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "bucket": { "type": "string", "pattern": "^[a-z0-9][a-z0-9-]{1,62}$", "description": "The bucket name." } } }, { "type": "object", "title": "BindingQueue", "description": "A queue producer.", "additionalProperties": false, "required": ["kind", "name"], "properties": { "kind": { "const": "queue", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "queue": { "type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$", "description": "The queue name." } } }, { "type": "object", "title": "BindingSecretRef", "description": "A secret, by reference only: the value lives in a secret store, never in the definition.", "additionalProperties": false, "required": ["kind", "name", "ref"], "properties": { "kind": { "const": "secret-ref", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "ref": { "type": "string", "pattern": "^[a-z][a-z0-9+.-]*://\\S+$", "maxLength": 512, "description": "Where the operator keeps the secret, for example `secrets-store://acme/openai` or `vault://acme/openai`; its scheme matches `keyCustody`. Hosts look the secret up by `name`, never by this reference.", "x-message": "must be a secret reference such as secrets-store://team/name, never the secret itself" } } }, { "type": "object", "title": "BindingCustom", "description": "A binding of a kind the host plan does not know; passed through by name.", "additionalProperties": false, "required": ["kind", "name", "type"], "properties": { "kind": { "const": "custom", "description": "The binding kind." }, "name": { "type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "description": "The binding's name in the runtime's `env`." }, "type": { "type": "string", "pattern": "^[a-z][a-z0-9_-]{0,63}$", "description": "The host's binding type." } } }] };
var pattern37 = new RegExp("^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$", "u");
var pattern40 = new RegExp("^[A-Za-z0-9_-]{1,64}$", "u");
var pattern44 = new RegExp("^[a-z0-9][a-z0-9-]{1,62}$", "u");
var pattern46 = new RegExp("^[a-z0-9][a-z0-9-]{0,62}$", "u");
var pattern48 = new RegExp("^[a-z][a-z0-9+.-]*://\\S+$", "u");
var pattern50 = new RegExp("^[a-z][a-z0-9_-]{0,63}$", "u");
function validate48(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate48.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.runtimeCapabilityClass === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "runtimeCapabilityClass" }, message: "must have required property 'runtimeCapabilityClass'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.limits === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "limits" }, message: "must have required property 'limits'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.keyCustody === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "keyCustody" }, message: "must have required property 'keyCustody'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.bindings === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "bindings" }, message: "must have required property 'bindings'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "runtimeCapabilityClass" || key0 === "limits" || key0 === "keyCustody" || key0 === "bindings")) {
        const err4 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err4];
        } else {
          vErrors.push(err4);
        }
        errors++;
      }
    }
    if (data.runtimeCapabilityClass !== void 0) {
      let data0 = data.runtimeCapabilityClass;
      if (typeof data0 !== "string") {
        const err5 = { instancePath: instancePath + "/runtimeCapabilityClass", schemaPath: "#/properties/runtimeCapabilityClass/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
      if (!(data0 === "workers-only" || data0 === "workers-preferred" || data0 === "container-required" || data0 === "local-host-required")) {
        const err6 = { instancePath: instancePath + "/runtimeCapabilityClass", schemaPath: "#/properties/runtimeCapabilityClass/enum", keyword: "enum", params: { allowedValues: schema71.properties.runtimeCapabilityClass.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.limits !== void 0) {
      let data1 = data.limits;
      if (data1 && typeof data1 == "object" && !Array.isArray(data1)) {
        for (const key1 in data1) {
          if (!(key1 === "cpuMs" || key1 === "memoryMb" || key1 === "wallClockMs" || key1 === "maxSubrequests")) {
            const err7 = { instancePath: instancePath + "/limits", schemaPath: "#/$defs/Limits/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err7];
            } else {
              vErrors.push(err7);
            }
            errors++;
          }
        }
        if (data1.cpuMs !== void 0) {
          let data2 = data1.cpuMs;
          if (!(typeof data2 == "number" && (!(data2 % 1) && !isNaN(data2)) && isFinite(data2))) {
            const err8 = { instancePath: instancePath + "/limits/cpuMs", schemaPath: "#/$defs/Limits/properties/cpuMs/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err8];
            } else {
              vErrors.push(err8);
            }
            errors++;
          }
          if (typeof data2 == "number" && isFinite(data2)) {
            if (data2 < 1 || isNaN(data2)) {
              const err9 = { instancePath: instancePath + "/limits/cpuMs", schemaPath: "#/$defs/Limits/properties/cpuMs/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err9];
              } else {
                vErrors.push(err9);
              }
              errors++;
            }
          }
        }
        if (data1.memoryMb !== void 0) {
          let data3 = data1.memoryMb;
          if (!(typeof data3 == "number" && (!(data3 % 1) && !isNaN(data3)) && isFinite(data3))) {
            const err10 = { instancePath: instancePath + "/limits/memoryMb", schemaPath: "#/$defs/Limits/properties/memoryMb/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err10];
            } else {
              vErrors.push(err10);
            }
            errors++;
          }
          if (typeof data3 == "number" && isFinite(data3)) {
            if (data3 < 1 || isNaN(data3)) {
              const err11 = { instancePath: instancePath + "/limits/memoryMb", schemaPath: "#/$defs/Limits/properties/memoryMb/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err11];
              } else {
                vErrors.push(err11);
              }
              errors++;
            }
          }
        }
        if (data1.wallClockMs !== void 0) {
          let data4 = data1.wallClockMs;
          if (!(typeof data4 == "number" && (!(data4 % 1) && !isNaN(data4)) && isFinite(data4))) {
            const err12 = { instancePath: instancePath + "/limits/wallClockMs", schemaPath: "#/$defs/Limits/properties/wallClockMs/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err12];
            } else {
              vErrors.push(err12);
            }
            errors++;
          }
          if (typeof data4 == "number" && isFinite(data4)) {
            if (data4 < 1 || isNaN(data4)) {
              const err13 = { instancePath: instancePath + "/limits/wallClockMs", schemaPath: "#/$defs/Limits/properties/wallClockMs/minimum", keyword: "minimum", params: { comparison: ">=", limit: 1 }, message: "must be >= 1" };
              if (vErrors === null) {
                vErrors = [err13];
              } else {
                vErrors.push(err13);
              }
              errors++;
            }
          }
        }
        if (data1.maxSubrequests !== void 0) {
          let data5 = data1.maxSubrequests;
          if (!(typeof data5 == "number" && (!(data5 % 1) && !isNaN(data5)) && isFinite(data5))) {
            const err14 = { instancePath: instancePath + "/limits/maxSubrequests", schemaPath: "#/$defs/Limits/properties/maxSubrequests/type", keyword: "type", params: { type: "integer" }, message: "must be integer" };
            if (vErrors === null) {
              vErrors = [err14];
            } else {
              vErrors.push(err14);
            }
            errors++;
          }
          if (typeof data5 == "number" && isFinite(data5)) {
            if (data5 < 0 || isNaN(data5)) {
              const err15 = { instancePath: instancePath + "/limits/maxSubrequests", schemaPath: "#/$defs/Limits/properties/maxSubrequests/minimum", keyword: "minimum", params: { comparison: ">=", limit: 0 }, message: "must be >= 0" };
              if (vErrors === null) {
                vErrors = [err15];
              } else {
                vErrors.push(err15);
              }
              errors++;
            }
          }
        }
      } else {
        const err16 = { instancePath: instancePath + "/limits", schemaPath: "#/$defs/Limits/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
    }
    if (data.keyCustody !== void 0) {
      let data6 = data.keyCustody;
      if (typeof data6 !== "string") {
        const err17 = { instancePath: instancePath + "/keyCustody", schemaPath: "#/properties/keyCustody/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
      if (!(data6 === "session" || data6 === "vault-ref" || data6 === "secrets-store")) {
        const err18 = { instancePath: instancePath + "/keyCustody", schemaPath: "#/properties/keyCustody/enum", keyword: "enum", params: { allowedValues: schema71.properties.keyCustody.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
    }
    if (data.bindings !== void 0) {
      let data7 = data.bindings;
      if (Array.isArray(data7)) {
        const len0 = data7.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data8 = data7[i0];
          if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
            if (data8.kind === void 0) {
              const err19 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
            }
            if (data8.kind !== void 0) {
              let data9 = data8.kind;
              if (typeof data9 !== "string") {
                const err20 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/properties/kind/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                if (vErrors === null) {
                  vErrors = [err20];
                } else {
                  vErrors.push(err20);
                }
                errors++;
              }
              if (!(data9 === "service" || data9 === "kv" || data9 === "d1" || data9 === "r2" || data9 === "queue" || data9 === "secret-ref" || data9 === "custom")) {
                const err21 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/properties/kind/enum", keyword: "enum", params: { allowedValues: schema73.properties.kind.enum }, message: "must be equal to one of the allowed values" };
                if (vErrors === null) {
                  vErrors = [err21];
                } else {
                  vErrors.push(err21);
                }
                errors++;
              }
            }
            const tag0 = data8.kind;
            if (typeof tag0 == "string") {
              if (tag0 === "service") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err22 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/0/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err22];
                    } else {
                      vErrors.push(err22);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err23 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/0/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err23];
                    } else {
                      vErrors.push(err23);
                    }
                    errors++;
                  }
                  if (data8.service === void 0) {
                    const err24 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/0/required", keyword: "required", params: { missingProperty: "service" }, message: "must have required property 'service'" };
                    if (vErrors === null) {
                      vErrors = [err24];
                    } else {
                      vErrors.push(err24);
                    }
                    errors++;
                  }
                  for (const key2 in data8) {
                    if (!(key2 === "kind" || key2 === "name" || key2 === "service")) {
                      const err25 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/0/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err25];
                      } else {
                        vErrors.push(err25);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("service" !== data8.kind) {
                      const err26 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/0/properties/kind/const", keyword: "const", params: { allowedValue: "service" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err26];
                      } else {
                        vErrors.push(err26);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data11 = data8.name;
                    if (typeof data11 === "string") {
                      if (!pattern37.test(data11)) {
                        const err27 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/0/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err27];
                        } else {
                          vErrors.push(err27);
                        }
                        errors++;
                      }
                    } else {
                      const err28 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/0/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err28];
                      } else {
                        vErrors.push(err28);
                      }
                      errors++;
                    }
                  }
                  if (data8.service !== void 0) {
                    let data12 = data8.service;
                    if (typeof data12 === "string") {
                      if (!pattern5.test(data12)) {
                        const err29 = { instancePath: instancePath + "/bindings/" + i0 + "/service", schemaPath: "#/$defs/BindingRef/oneOf/0/properties/service/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" }, message: 'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"' };
                        if (vErrors === null) {
                          vErrors = [err29];
                        } else {
                          vErrors.push(err29);
                        }
                        errors++;
                      }
                    } else {
                      const err30 = { instancePath: instancePath + "/bindings/" + i0 + "/service", schemaPath: "#/$defs/BindingRef/oneOf/0/properties/service/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err30];
                      } else {
                        vErrors.push(err30);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err31 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/0/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err31];
                  } else {
                    vErrors.push(err31);
                  }
                  errors++;
                }
                var props0 = true;
              } else if (tag0 === "kv") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err32 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/1/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err32];
                    } else {
                      vErrors.push(err32);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err33 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/1/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err33];
                    } else {
                      vErrors.push(err33);
                    }
                    errors++;
                  }
                  for (const key3 in data8) {
                    if (!(key3 === "kind" || key3 === "name" || key3 === "namespaceId")) {
                      const err34 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/1/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key3 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err34];
                      } else {
                        vErrors.push(err34);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("kv" !== data8.kind) {
                      const err35 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/1/properties/kind/const", keyword: "const", params: { allowedValue: "kv" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err35];
                      } else {
                        vErrors.push(err35);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data14 = data8.name;
                    if (typeof data14 === "string") {
                      if (!pattern37.test(data14)) {
                        const err36 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/1/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err36];
                        } else {
                          vErrors.push(err36);
                        }
                        errors++;
                      }
                    } else {
                      const err37 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/1/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err37];
                      } else {
                        vErrors.push(err37);
                      }
                      errors++;
                    }
                  }
                  if (data8.namespaceId !== void 0) {
                    let data15 = data8.namespaceId;
                    if (typeof data15 === "string") {
                      if (!pattern40.test(data15)) {
                        const err38 = { instancePath: instancePath + "/bindings/" + i0 + "/namespaceId", schemaPath: "#/$defs/BindingRef/oneOf/1/properties/namespaceId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9_-]{1,64}$" }, message: 'must match pattern "^[A-Za-z0-9_-]{1,64}$"' };
                        if (vErrors === null) {
                          vErrors = [err38];
                        } else {
                          vErrors.push(err38);
                        }
                        errors++;
                      }
                    } else {
                      const err39 = { instancePath: instancePath + "/bindings/" + i0 + "/namespaceId", schemaPath: "#/$defs/BindingRef/oneOf/1/properties/namespaceId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err39];
                      } else {
                        vErrors.push(err39);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err40 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/1/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err40];
                  } else {
                    vErrors.push(err40);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else if (tag0 === "d1") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err41 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/2/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err41];
                    } else {
                      vErrors.push(err41);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err42 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/2/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err42];
                    } else {
                      vErrors.push(err42);
                    }
                    errors++;
                  }
                  for (const key4 in data8) {
                    if (!(key4 === "kind" || key4 === "name" || key4 === "databaseId")) {
                      const err43 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/2/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key4 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err43];
                      } else {
                        vErrors.push(err43);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("d1" !== data8.kind) {
                      const err44 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/2/properties/kind/const", keyword: "const", params: { allowedValue: "d1" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err44];
                      } else {
                        vErrors.push(err44);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data17 = data8.name;
                    if (typeof data17 === "string") {
                      if (!pattern37.test(data17)) {
                        const err45 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/2/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err45];
                        } else {
                          vErrors.push(err45);
                        }
                        errors++;
                      }
                    } else {
                      const err46 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/2/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err46];
                      } else {
                        vErrors.push(err46);
                      }
                      errors++;
                    }
                  }
                  if (data8.databaseId !== void 0) {
                    let data18 = data8.databaseId;
                    if (typeof data18 === "string") {
                      if (!pattern40.test(data18)) {
                        const err47 = { instancePath: instancePath + "/bindings/" + i0 + "/databaseId", schemaPath: "#/$defs/BindingRef/oneOf/2/properties/databaseId/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z0-9_-]{1,64}$" }, message: 'must match pattern "^[A-Za-z0-9_-]{1,64}$"' };
                        if (vErrors === null) {
                          vErrors = [err47];
                        } else {
                          vErrors.push(err47);
                        }
                        errors++;
                      }
                    } else {
                      const err48 = { instancePath: instancePath + "/bindings/" + i0 + "/databaseId", schemaPath: "#/$defs/BindingRef/oneOf/2/properties/databaseId/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err48];
                      } else {
                        vErrors.push(err48);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err49 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/2/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err49];
                  } else {
                    vErrors.push(err49);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else if (tag0 === "r2") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err50 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/3/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err50];
                    } else {
                      vErrors.push(err50);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err51 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/3/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err51];
                    } else {
                      vErrors.push(err51);
                    }
                    errors++;
                  }
                  for (const key5 in data8) {
                    if (!(key5 === "kind" || key5 === "name" || key5 === "bucket")) {
                      const err52 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/3/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key5 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err52];
                      } else {
                        vErrors.push(err52);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("r2" !== data8.kind) {
                      const err53 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/3/properties/kind/const", keyword: "const", params: { allowedValue: "r2" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err53];
                      } else {
                        vErrors.push(err53);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data20 = data8.name;
                    if (typeof data20 === "string") {
                      if (!pattern37.test(data20)) {
                        const err54 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/3/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err54];
                        } else {
                          vErrors.push(err54);
                        }
                        errors++;
                      }
                    } else {
                      const err55 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/3/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err55];
                      } else {
                        vErrors.push(err55);
                      }
                      errors++;
                    }
                  }
                  if (data8.bucket !== void 0) {
                    let data21 = data8.bucket;
                    if (typeof data21 === "string") {
                      if (!pattern44.test(data21)) {
                        const err56 = { instancePath: instancePath + "/bindings/" + i0 + "/bucket", schemaPath: "#/$defs/BindingRef/oneOf/3/properties/bucket/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9][a-z0-9-]{1,62}$" }, message: 'must match pattern "^[a-z0-9][a-z0-9-]{1,62}$"' };
                        if (vErrors === null) {
                          vErrors = [err56];
                        } else {
                          vErrors.push(err56);
                        }
                        errors++;
                      }
                    } else {
                      const err57 = { instancePath: instancePath + "/bindings/" + i0 + "/bucket", schemaPath: "#/$defs/BindingRef/oneOf/3/properties/bucket/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err57];
                      } else {
                        vErrors.push(err57);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err58 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/3/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err58];
                  } else {
                    vErrors.push(err58);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else if (tag0 === "queue") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err59 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/4/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err59];
                    } else {
                      vErrors.push(err59);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err60 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/4/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err60];
                    } else {
                      vErrors.push(err60);
                    }
                    errors++;
                  }
                  for (const key6 in data8) {
                    if (!(key6 === "kind" || key6 === "name" || key6 === "queue")) {
                      const err61 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/4/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key6 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err61];
                      } else {
                        vErrors.push(err61);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("queue" !== data8.kind) {
                      const err62 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/4/properties/kind/const", keyword: "const", params: { allowedValue: "queue" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err62];
                      } else {
                        vErrors.push(err62);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data23 = data8.name;
                    if (typeof data23 === "string") {
                      if (!pattern37.test(data23)) {
                        const err63 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/4/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err63];
                        } else {
                          vErrors.push(err63);
                        }
                        errors++;
                      }
                    } else {
                      const err64 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/4/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err64];
                      } else {
                        vErrors.push(err64);
                      }
                      errors++;
                    }
                  }
                  if (data8.queue !== void 0) {
                    let data24 = data8.queue;
                    if (typeof data24 === "string") {
                      if (!pattern46.test(data24)) {
                        const err65 = { instancePath: instancePath + "/bindings/" + i0 + "/queue", schemaPath: "#/$defs/BindingRef/oneOf/4/properties/queue/pattern", keyword: "pattern", params: { pattern: "^[a-z0-9][a-z0-9-]{0,62}$" }, message: 'must match pattern "^[a-z0-9][a-z0-9-]{0,62}$"' };
                        if (vErrors === null) {
                          vErrors = [err65];
                        } else {
                          vErrors.push(err65);
                        }
                        errors++;
                      }
                    } else {
                      const err66 = { instancePath: instancePath + "/bindings/" + i0 + "/queue", schemaPath: "#/$defs/BindingRef/oneOf/4/properties/queue/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err66];
                      } else {
                        vErrors.push(err66);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err67 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/4/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err67];
                  } else {
                    vErrors.push(err67);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else if (tag0 === "secret-ref") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err68 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/5/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err68];
                    } else {
                      vErrors.push(err68);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err69 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/5/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err69];
                    } else {
                      vErrors.push(err69);
                    }
                    errors++;
                  }
                  if (data8.ref === void 0) {
                    const err70 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/5/required", keyword: "required", params: { missingProperty: "ref" }, message: "must have required property 'ref'" };
                    if (vErrors === null) {
                      vErrors = [err70];
                    } else {
                      vErrors.push(err70);
                    }
                    errors++;
                  }
                  for (const key7 in data8) {
                    if (!(key7 === "kind" || key7 === "name" || key7 === "ref")) {
                      const err71 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/5/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key7 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err71];
                      } else {
                        vErrors.push(err71);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("secret-ref" !== data8.kind) {
                      const err72 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/kind/const", keyword: "const", params: { allowedValue: "secret-ref" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err72];
                      } else {
                        vErrors.push(err72);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data26 = data8.name;
                    if (typeof data26 === "string") {
                      if (!pattern37.test(data26)) {
                        const err73 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err73];
                        } else {
                          vErrors.push(err73);
                        }
                        errors++;
                      }
                    } else {
                      const err74 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err74];
                      } else {
                        vErrors.push(err74);
                      }
                      errors++;
                    }
                  }
                  if (data8.ref !== void 0) {
                    let data27 = data8.ref;
                    if (typeof data27 === "string") {
                      if (func3(data27) > 512) {
                        const err75 = { instancePath: instancePath + "/bindings/" + i0 + "/ref", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/ref/maxLength", keyword: "maxLength", params: { limit: 512 }, message: "must NOT have more than 512 characters" };
                        if (vErrors === null) {
                          vErrors = [err75];
                        } else {
                          vErrors.push(err75);
                        }
                        errors++;
                      }
                      if (!pattern48.test(data27)) {
                        const err76 = { instancePath: instancePath + "/bindings/" + i0 + "/ref", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/ref/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9+.-]*://\\S+$" }, message: 'must match pattern "^[a-z][a-z0-9+.-]*://\\S+$"' };
                        if (vErrors === null) {
                          vErrors = [err76];
                        } else {
                          vErrors.push(err76);
                        }
                        errors++;
                      }
                    } else {
                      const err77 = { instancePath: instancePath + "/bindings/" + i0 + "/ref", schemaPath: "#/$defs/BindingRef/oneOf/5/properties/ref/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err77];
                      } else {
                        vErrors.push(err77);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err78 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/5/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err78];
                  } else {
                    vErrors.push(err78);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else if (tag0 === "custom") {
                if (data8 && typeof data8 == "object" && !Array.isArray(data8)) {
                  if (data8.kind === void 0) {
                    const err79 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/6/required", keyword: "required", params: { missingProperty: "kind" }, message: "must have required property 'kind'" };
                    if (vErrors === null) {
                      vErrors = [err79];
                    } else {
                      vErrors.push(err79);
                    }
                    errors++;
                  }
                  if (data8.name === void 0) {
                    const err80 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/6/required", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" };
                    if (vErrors === null) {
                      vErrors = [err80];
                    } else {
                      vErrors.push(err80);
                    }
                    errors++;
                  }
                  if (data8.type === void 0) {
                    const err81 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/6/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property 'type'" };
                    if (vErrors === null) {
                      vErrors = [err81];
                    } else {
                      vErrors.push(err81);
                    }
                    errors++;
                  }
                  for (const key8 in data8) {
                    if (!(key8 === "kind" || key8 === "name" || key8 === "type")) {
                      const err82 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/6/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key8 }, message: "must NOT have additional properties" };
                      if (vErrors === null) {
                        vErrors = [err82];
                      } else {
                        vErrors.push(err82);
                      }
                      errors++;
                    }
                  }
                  if (data8.kind !== void 0) {
                    if ("custom" !== data8.kind) {
                      const err83 = { instancePath: instancePath + "/bindings/" + i0 + "/kind", schemaPath: "#/$defs/BindingRef/oneOf/6/properties/kind/const", keyword: "const", params: { allowedValue: "custom" }, message: "must be equal to constant" };
                      if (vErrors === null) {
                        vErrors = [err83];
                      } else {
                        vErrors.push(err83);
                      }
                      errors++;
                    }
                  }
                  if (data8.name !== void 0) {
                    let data29 = data8.name;
                    if (typeof data29 === "string") {
                      if (!pattern37.test(data29)) {
                        const err84 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/6/properties/name/pattern", keyword: "pattern", params: { pattern: "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$" }, message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err84];
                        } else {
                          vErrors.push(err84);
                        }
                        errors++;
                      }
                    } else {
                      const err85 = { instancePath: instancePath + "/bindings/" + i0 + "/name", schemaPath: "#/$defs/BindingRef/oneOf/6/properties/name/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err85];
                      } else {
                        vErrors.push(err85);
                      }
                      errors++;
                    }
                  }
                  if (data8.type !== void 0) {
                    let data30 = data8.type;
                    if (typeof data30 === "string") {
                      if (!pattern50.test(data30)) {
                        const err86 = { instancePath: instancePath + "/bindings/" + i0 + "/type", schemaPath: "#/$defs/BindingRef/oneOf/6/properties/type/pattern", keyword: "pattern", params: { pattern: "^[a-z][a-z0-9_-]{0,63}$" }, message: 'must match pattern "^[a-z][a-z0-9_-]{0,63}$"' };
                        if (vErrors === null) {
                          vErrors = [err86];
                        } else {
                          vErrors.push(err86);
                        }
                        errors++;
                      }
                    } else {
                      const err87 = { instancePath: instancePath + "/bindings/" + i0 + "/type", schemaPath: "#/$defs/BindingRef/oneOf/6/properties/type/type", keyword: "type", params: { type: "string" }, message: "must be string" };
                      if (vErrors === null) {
                        vErrors = [err87];
                      } else {
                        vErrors.push(err87);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err88 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/oneOf/6/type", keyword: "type", params: { type: "object" }, message: "must be object" };
                  if (vErrors === null) {
                    vErrors = [err88];
                  } else {
                    vErrors.push(err88);
                  }
                  errors++;
                }
                if (props0 !== true) {
                  props0 = true;
                }
              } else {
                const err89 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/discriminator", keyword: "discriminator", params: { error: "mapping", tag: "kind", tagValue: tag0 }, message: 'value of tag "kind" must be in oneOf' };
                if (vErrors === null) {
                  vErrors = [err89];
                } else {
                  vErrors.push(err89);
                }
                errors++;
              }
            } else {
              const err90 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/discriminator", keyword: "discriminator", params: { error: "tag", tag: "kind", tagValue: tag0 }, message: 'tag "kind" must be string' };
              if (vErrors === null) {
                vErrors = [err90];
              } else {
                vErrors.push(err90);
              }
              errors++;
            }
          } else {
            const err91 = { instancePath: instancePath + "/bindings/" + i0, schemaPath: "#/$defs/BindingRef/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err91];
            } else {
              vErrors.push(err91);
            }
            errors++;
          }
        }
      } else {
        const err92 = { instancePath: instancePath + "/bindings", schemaPath: "#/properties/bindings/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err92];
        } else {
          vErrors.push(err92);
        }
        errors++;
      }
    }
  } else {
    const err93 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err93];
    } else {
      vErrors.push(err93);
    }
    errors++;
  }
  validate48.errors = vErrors;
  return errors === 0;
}
validate48.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
var pattern51 = new RegExp("^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9._@+/-]+$", "u");
var pattern52 = new RegExp("^[0-9a-f]{40}(?:[0-9a-f]{24})?$", "u");
function validate50(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate50.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.description === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "description" }, message: "must have required property 'description'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.tags === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "tags" }, message: "must have required property 'tags'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.provenance === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "provenance" }, message: "must have required property 'provenance'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === "description" || key0 === "tags" || key0 === "provenance" || key0 === "cardExports" || key0 === "notes")) {
        const err3 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.description !== void 0) {
      let data0 = data.description;
      if (typeof data0 === "string") {
        if (func3(data0) > 4e3) {
          const err4 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/maxLength", keyword: "maxLength", params: { limit: 4e3 }, message: "must NOT have more than 4000 characters" };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
        if (func3(data0) < 1) {
          const err5 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
          if (vErrors === null) {
            vErrors = [err5];
          } else {
            vErrors.push(err5);
          }
          errors++;
        }
      } else {
        const err6 = { instancePath: instancePath + "/description", schemaPath: "#/properties/description/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.tags !== void 0) {
      let data1 = data.tags;
      if (Array.isArray(data1)) {
        const len0 = data1.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data2 = data1[i0];
          if (typeof data2 === "string") {
            if (func3(data2) > 64) {
              const err7 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/maxLength", keyword: "maxLength", params: { limit: 64 }, message: "must NOT have more than 64 characters" };
              if (vErrors === null) {
                vErrors = [err7];
              } else {
                vErrors.push(err7);
              }
              errors++;
            }
            if (func3(data2) < 1) {
              const err8 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err8];
              } else {
                vErrors.push(err8);
              }
              errors++;
            }
          } else {
            const err9 = { instancePath: instancePath + "/tags/" + i0, schemaPath: "#/properties/tags/items/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err9];
            } else {
              vErrors.push(err9);
            }
            errors++;
          }
        }
      } else {
        const err10 = { instancePath: instancePath + "/tags", schemaPath: "#/properties/tags/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
    }
    if (data.provenance !== void 0) {
      let data3 = data.provenance;
      if (data3 && typeof data3 == "object" && !Array.isArray(data3)) {
        if (data3.repo === void 0) {
          const err11 = { instancePath: instancePath + "/provenance", schemaPath: "#/$defs/Provenance/required", keyword: "required", params: { missingProperty: "repo" }, message: "must have required property 'repo'" };
          if (vErrors === null) {
            vErrors = [err11];
          } else {
            vErrors.push(err11);
          }
          errors++;
        }
        if (data3.filePath === void 0) {
          const err12 = { instancePath: instancePath + "/provenance", schemaPath: "#/$defs/Provenance/required", keyword: "required", params: { missingProperty: "filePath" }, message: "must have required property 'filePath'" };
          if (vErrors === null) {
            vErrors = [err12];
          } else {
            vErrors.push(err12);
          }
          errors++;
        }
        for (const key1 in data3) {
          if (!(key1 === "repo" || key1 === "filePath" || key1 === "commitSha")) {
            const err13 = { instancePath: instancePath + "/provenance", schemaPath: "#/$defs/Provenance/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key1 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err13];
            } else {
              vErrors.push(err13);
            }
            errors++;
          }
        }
        if (data3.repo !== void 0) {
          let data4 = data3.repo;
          if (typeof data4 === "string") {
            if (func3(data4) > 1024) {
              const err14 = { instancePath: instancePath + "/provenance/repo", schemaPath: "#/$defs/Provenance/properties/repo/maxLength", keyword: "maxLength", params: { limit: 1024 }, message: "must NOT have more than 1024 characters" };
              if (vErrors === null) {
                vErrors = [err14];
              } else {
                vErrors.push(err14);
              }
              errors++;
            }
            if (func3(data4) < 1) {
              const err15 = { instancePath: instancePath + "/provenance/repo", schemaPath: "#/$defs/Provenance/properties/repo/minLength", keyword: "minLength", params: { limit: 1 }, message: "must NOT have fewer than 1 characters" };
              if (vErrors === null) {
                vErrors = [err15];
              } else {
                vErrors.push(err15);
              }
              errors++;
            }
          } else {
            const err16 = { instancePath: instancePath + "/provenance/repo", schemaPath: "#/$defs/Provenance/properties/repo/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err16];
            } else {
              vErrors.push(err16);
            }
            errors++;
          }
        }
        if (data3.filePath !== void 0) {
          let data5 = data3.filePath;
          if (typeof data5 === "string") {
            if (func3(data5) > 1024) {
              const err17 = { instancePath: instancePath + "/provenance/filePath", schemaPath: "#/$defs/Provenance/properties/filePath/maxLength", keyword: "maxLength", params: { limit: 1024 }, message: "must NOT have more than 1024 characters" };
              if (vErrors === null) {
                vErrors = [err17];
              } else {
                vErrors.push(err17);
              }
              errors++;
            }
            if (!pattern51.test(data5)) {
              const err18 = { instancePath: instancePath + "/provenance/filePath", schemaPath: "#/$defs/Provenance/properties/filePath/pattern", keyword: "pattern", params: { pattern: "^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9._@+/-]+$" }, message: 'must match pattern "^(?!/)(?!.*(?:^|/)\\.\\.(?:/|$))[A-Za-z0-9._@+/-]+$"' };
              if (vErrors === null) {
                vErrors = [err18];
              } else {
                vErrors.push(err18);
              }
              errors++;
            }
          } else {
            const err19 = { instancePath: instancePath + "/provenance/filePath", schemaPath: "#/$defs/Provenance/properties/filePath/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err19];
            } else {
              vErrors.push(err19);
            }
            errors++;
          }
        }
        if (data3.commitSha !== void 0) {
          let data6 = data3.commitSha;
          if (typeof data6 === "string") {
            if (!pattern52.test(data6)) {
              const err20 = { instancePath: instancePath + "/provenance/commitSha", schemaPath: "#/$defs/Provenance/properties/commitSha/pattern", keyword: "pattern", params: { pattern: "^[0-9a-f]{40}(?:[0-9a-f]{24})?$" }, message: 'must match pattern "^[0-9a-f]{40}(?:[0-9a-f]{24})?$"' };
              if (vErrors === null) {
                vErrors = [err20];
              } else {
                vErrors.push(err20);
              }
              errors++;
            }
          } else {
            const err21 = { instancePath: instancePath + "/provenance/commitSha", schemaPath: "#/$defs/Provenance/properties/commitSha/type", keyword: "type", params: { type: "string" }, message: "must be string" };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
        }
      } else {
        const err22 = { instancePath: instancePath + "/provenance", schemaPath: "#/$defs/Provenance/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err22];
        } else {
          vErrors.push(err22);
        }
        errors++;
      }
    }
    if (data.cardExports !== void 0) {
      let data7 = data.cardExports;
      if (data7 && typeof data7 == "object" && !Array.isArray(data7)) {
        for (const key2 in data7) {
          if (!(key2 === "agentCard" || key2 === "agentFacts" || key2 === "oasf")) {
            const err23 = { instancePath: instancePath + "/cardExports", schemaPath: "#/$defs/CardExports/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key2 }, message: "must NOT have additional properties" };
            if (vErrors === null) {
              vErrors = [err23];
            } else {
              vErrors.push(err23);
            }
            errors++;
          }
        }
        if (data7.agentCard !== void 0) {
          let data8 = data7.agentCard;
          if (!(data8 && typeof data8 == "object" && !Array.isArray(data8))) {
            const err24 = { instancePath: instancePath + "/cardExports/agentCard", schemaPath: "#/$defs/CardExports/properties/agentCard/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err24];
            } else {
              vErrors.push(err24);
            }
            errors++;
          }
        }
        if (data7.agentFacts !== void 0) {
          let data9 = data7.agentFacts;
          if (!(data9 && typeof data9 == "object" && !Array.isArray(data9))) {
            const err25 = { instancePath: instancePath + "/cardExports/agentFacts", schemaPath: "#/$defs/CardExports/properties/agentFacts/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err25];
            } else {
              vErrors.push(err25);
            }
            errors++;
          }
        }
        if (data7.oasf !== void 0) {
          let data10 = data7.oasf;
          if (!(data10 && typeof data10 == "object" && !Array.isArray(data10))) {
            const err26 = { instancePath: instancePath + "/cardExports/oasf", schemaPath: "#/$defs/CardExports/properties/oasf/type", keyword: "type", params: { type: "object" }, message: "must be object" };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
        }
      } else {
        const err27 = { instancePath: instancePath + "/cardExports", schemaPath: "#/$defs/CardExports/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err27];
        } else {
          vErrors.push(err27);
        }
        errors++;
      }
    }
    if (data.notes !== void 0) {
      let data11 = data.notes;
      if (data11 && typeof data11 == "object" && !Array.isArray(data11)) {
      } else {
        const err28 = { instancePath: instancePath + "/notes", schemaPath: "#/properties/notes/type", keyword: "type", params: { type: "object" }, message: "must be object" };
        if (vErrors === null) {
          vErrors = [err28];
        } else {
          vErrors.push(err28);
        }
        errors++;
      }
    }
  } else {
    const err29 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err29];
    } else {
      vErrors.push(err29);
    }
    errors++;
  }
  validate50.errors = vErrors;
  return errors === 0;
}
validate50.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };
function validate20(data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}) {
  ;
  let vErrors = null;
  let errors = 0;
  const evaluated0 = validate20.evaluated;
  if (evaluated0.dynamicProps) {
    evaluated0.props = void 0;
  }
  if (evaluated0.dynamicItems) {
    evaluated0.items = void 0;
  }
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.schemaVersion === void 0) {
      const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "schemaVersion" }, message: "must have required property 'schemaVersion'" };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.identity === void 0) {
      const err1 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "identity" }, message: "must have required property 'identity'" };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.capabilityContract === void 0) {
      const err2 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "capabilityContract" }, message: "must have required property 'capabilityContract'" };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.modelSet === void 0) {
      const err3 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "modelSet" }, message: "must have required property 'modelSet'" };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.toolInventory === void 0) {
      const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "toolInventory" }, message: "must have required property 'toolInventory'" };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    if (data.composition === void 0) {
      const err5 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "composition" }, message: "must have required property 'composition'" };
      if (vErrors === null) {
        vErrors = [err5];
      } else {
        vErrors.push(err5);
      }
      errors++;
    }
    if (data.memoryContract === void 0) {
      const err6 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "memoryContract" }, message: "must have required property 'memoryContract'" };
      if (vErrors === null) {
        vErrors = [err6];
      } else {
        vErrors.push(err6);
      }
      errors++;
    }
    if (data.telemetryContract === void 0) {
      const err7 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "telemetryContract" }, message: "must have required property 'telemetryContract'" };
      if (vErrors === null) {
        vErrors = [err7];
      } else {
        vErrors.push(err7);
      }
      errors++;
    }
    if (data.runtimeRequirements === void 0) {
      const err8 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "runtimeRequirements" }, message: "must have required property 'runtimeRequirements'" };
      if (vErrors === null) {
        vErrors = [err8];
      } else {
        vErrors.push(err8);
      }
      errors++;
    }
    if (data.lifecycleState === void 0) {
      const err9 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "lifecycleState" }, message: "must have required property 'lifecycleState'" };
      if (vErrors === null) {
        vErrors = [err9];
      } else {
        vErrors.push(err9);
      }
      errors++;
    }
    if (data.metadata === void 0) {
      const err10 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "metadata" }, message: "must have required property 'metadata'" };
      if (vErrors === null) {
        vErrors = [err10];
      } else {
        vErrors.push(err10);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func1.call(schema31.properties, key0)) {
        const err11 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
    }
    if (data.$schema !== void 0) {
      if (typeof data.$schema !== "string") {
        const err12 = { instancePath: instancePath + "/$schema", schemaPath: "#/properties/%24schema/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err12];
        } else {
          vErrors.push(err12);
        }
        errors++;
      }
    }
    if (data.schemaVersion !== void 0) {
      if ("agent-definition/v1" !== data.schemaVersion) {
        const err13 = { instancePath: instancePath + "/schemaVersion", schemaPath: "#/properties/schemaVersion/const", keyword: "const", params: { allowedValue: "agent-definition/v1" }, message: "must be equal to constant" };
        if (vErrors === null) {
          vErrors = [err13];
        } else {
          vErrors.push(err13);
        }
        errors++;
      }
    }
    if (data.identity !== void 0) {
      if (!validate21(data.identity, { instancePath: instancePath + "/identity", parentData: data, parentDataProperty: "identity", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
        errors = vErrors.length;
      }
    }
    if (data.capabilityContract !== void 0) {
      if (!validate23(data.capabilityContract, { instancePath: instancePath + "/capabilityContract", parentData: data, parentDataProperty: "capabilityContract", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
        errors = vErrors.length;
      }
    }
    if (data.modelSet !== void 0) {
      let data4 = data.modelSet;
      if (Array.isArray(data4)) {
        const len0 = data4.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (!validate30(data4[i0], { instancePath: instancePath + "/modelSet/" + i0, parentData: data4, parentDataProperty: i0, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate30.errors : vErrors.concat(validate30.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err14 = { instancePath: instancePath + "/modelSet", schemaPath: "#/properties/modelSet/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err14];
        } else {
          vErrors.push(err14);
        }
        errors++;
      }
    }
    if (data.toolInventory !== void 0) {
      let data6 = data.toolInventory;
      if (Array.isArray(data6)) {
        const len1 = data6.length;
        for (let i1 = 0; i1 < len1; i1++) {
          if (!validate32(data6[i1], { instancePath: instancePath + "/toolInventory/" + i1, parentData: data6, parentDataProperty: i1, rootData, dynamicAnchors })) {
            vErrors = vErrors === null ? validate32.errors : vErrors.concat(validate32.errors);
            errors = vErrors.length;
          }
        }
      } else {
        const err15 = { instancePath: instancePath + "/toolInventory", schemaPath: "#/properties/toolInventory/type", keyword: "type", params: { type: "array" }, message: "must be array" };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.composition !== void 0) {
      if (!validate34(data.composition, { instancePath: instancePath + "/composition", parentData: data, parentDataProperty: "composition", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate34.errors : vErrors.concat(validate34.errors);
        errors = vErrors.length;
      }
    }
    if (data.memoryContract !== void 0) {
      if (!validate44(data.memoryContract, { instancePath: instancePath + "/memoryContract", parentData: data, parentDataProperty: "memoryContract", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate44.errors : vErrors.concat(validate44.errors);
        errors = vErrors.length;
      }
    }
    if (data.telemetryContract !== void 0) {
      if (!validate46(data.telemetryContract, { instancePath: instancePath + "/telemetryContract", parentData: data, parentDataProperty: "telemetryContract", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate46.errors : vErrors.concat(validate46.errors);
        errors = vErrors.length;
      }
    }
    if (data.runtimeRequirements !== void 0) {
      if (!validate48(data.runtimeRequirements, { instancePath: instancePath + "/runtimeRequirements", parentData: data, parentDataProperty: "runtimeRequirements", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate48.errors : vErrors.concat(validate48.errors);
        errors = vErrors.length;
      }
    }
    if (data.lifecycleState !== void 0) {
      let data12 = data.lifecycleState;
      if (typeof data12 !== "string") {
        const err16 = { instancePath: instancePath + "/lifecycleState", schemaPath: "#/properties/lifecycleState/type", keyword: "type", params: { type: "string" }, message: "must be string" };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
      if (!(data12 === "tool-prototype" || data12 === "tool-shipped" || data12 === "mcp-resident" || data12 === "kym-registered" || data12 === "composed" || data12 === "marketplace-published")) {
        const err17 = { instancePath: instancePath + "/lifecycleState", schemaPath: "#/properties/lifecycleState/enum", keyword: "enum", params: { allowedValues: schema31.properties.lifecycleState.enum }, message: "must be equal to one of the allowed values" };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
    }
    if (data.metadata !== void 0) {
      if (!validate50(data.metadata, { instancePath: instancePath + "/metadata", parentData: data, parentDataProperty: "metadata", rootData, dynamicAnchors })) {
        vErrors = vErrors === null ? validate50.errors : vErrors.concat(validate50.errors);
        errors = vErrors.length;
      }
    }
  } else {
    const err18 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err18];
    } else {
      vErrors.push(err18);
    }
    errors++;
  }
  validate20.errors = vErrors;
  return errors === 0;
}
validate20.evaluated = { "props": true, "dynamicProps": false, "dynamicItems": false };

export interface ValidationError { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string }
export interface GeneratedValidator { (data: unknown): boolean; errors?: ValidationError[] | null }
export const validateAgentDefinition: GeneratedValidator = validateAgentDefinitionCompiled;
