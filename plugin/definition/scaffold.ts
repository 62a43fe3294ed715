/**
 * What `nx g agentdef:agent` writes, as pure functions of its options: the checked options
 * (the first problem, as the generator's refusal message), the AgentDefinition and its text, and
 * for a tool the starter implementation and its tools.json entry. No I/O, no clock, no
 * randomness (the caller passes the two ULIDs); never throws.
 */
import { posix } from 'node:path';
import type { AgentDefinition, AgentRef, BindingRef, LlmPin } from '../schema/generated/agent-definition.types';
import { stringify as yamlText } from 'yaml';
import { nearestName } from './nearest-name';
import { providerKeyName } from './provider-keys';
import { LIFECYCLE_STAGES } from './rules/lifecycle-gates';
import { wireModelId } from './rules/exact-models';
import { floatingVersionReason, KNOWN_PROVIDERS } from './rules/pins';
import { requiredVersionForm, splitCarriedVersion } from './model-version-form';
import {
  ALL_HOSTS,
  CLASS_HOSTS,
  LOCAL_PROVIDERS,
  pinHosts,
  type Host,
  type RuntimeCapabilityClass,
} from './runtime-hosts';
import { isExactSemver, isSlug, kymRef, SLUG_MAX_LENGTH, SLUG_PATTERN } from './workspace-definitions';
import { parseAbsoluteUrl } from '../runtime/endpoint-url';

export type Lifecycle = AgentDefinition['lifecycleState'];
export type Tier = NonNullable<LlmPin['tier']>;
/** The file the generator writes: `agent.json`, or `agent.yaml` with a schema modeline. */
export type ScaffoldFormat = 'json' | 'yaml';

/** The generator's options, with `version` already read back from the command line. */
export interface ScaffoldOptions {
  name: string;
  directory?: string;
  kind?: 'tool' | 'agent';
  runtime?: RuntimeCapabilityClass;
  provider?: string;
  model?: string;
  modelVersion?: string;
  tier?: Tier;
  checkpoint?: string;
  nodes?: string;
  lifecycle?: Lifecycle;
  version?: string;
  owner?: string;
  format?: ScaffoldFormat;
}

/** What the scaffold reads from the workspace: its package.json `name` and `repository`. */
export interface ScaffoldWorkspace {
  packageName?: unknown;
  repository?: unknown;
}

/** The options, checked and with every default filled in. */
export interface ScaffoldPlan {
  slug: string;
  /** Workspace-relative posix folder; `.` for the root. */
  directory: string;
  /** `<directory>/agent.json` or `<directory>/agent.yaml`. */
  file: string;
  format: ScaffoldFormat;
  kind: 'tool' | 'agent';
  nodes: AgentRef[];
  lifecycle: Lifecycle;
  runtime: RuntimeCapabilityClass;
  pin?: LlmPin;
  version: string;
  owner: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const problem = (message: string): { ok: false; problem: string } => ({ ok: false, problem: message });

export const DEFAULT_VERSION = '0.1.0';
const INSTALLED_SCHEMA = 'node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json';
const SOURCE_SCHEMA = 'plugin/schema/agent-definition.v1.schema.json';
const OWNER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The model each provider gets when `--model` is not given: id and exact version, sent on the wire
 * as `wireModelId` (rules/exact-models.ts) maps them (docs/models.md):
 * - openai: `gpt-5-mini-2025-08-07`, the dated GPT-5 mini snapshot (OpenAI lists `gpt-5-mini` with
 *   the snapshot `gpt-5-mini-2025-08-07`);
 * - anthropic: `claude-haiku-4-5-20251001`, the dated Claude Haiku 4.5 snapshot (the example id of
 *   https://platform.claude.com/docs/en/about-claude/models/model-ids-and-versions);
 * - local-ollama: `llama3.1:8b`.
 */
export const DEFAULT_MODELS: Readonly<Record<string, { model: string; version: string }>> = {
  openai: { model: 'gpt-5-mini', version: '2025-08-07' },
  anthropic: { model: 'claude-haiku-4-5', version: '20251001' },
  'local-ollama': { model: 'llama3.1', version: '8b' },
};

/** The values each enumerated option accepts, in the order the help lists them. */
export const OPTION_VALUES = {
  kind: ['tool', 'agent'],
  runtime: Object.keys(CLASS_HOSTS) as RuntimeCapabilityClass[],
  tier: Object.keys({ frontier: true, small: true, tuned: true, local: true } satisfies Record<Tier, true>) as Tier[],
  lifecycle: LIFECYCLE_STAGES as readonly Lifecycle[],
  format: ['json', 'yaml'],
} as const satisfies Record<string, readonly string[]>;

/** A custom provider's name, as the schema's `providerId` pattern admits it after `custom:`. */
const CUSTOM_PROVIDER_NAME = /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/;
const CUSTOM_PREFIX = 'custom:';

/** Classes a generated agent may default to, most portable first. */
const DEFAULT_CLASSES: readonly RuntimeCapabilityClass[] = [
  'workers-preferred',
  'container-required',
  'local-host-required',
];

/** A workspace-relative posix folder (`.` for the root), or the problem with `value`. */
export function folderPath(value: string, what: string): Outcome<string> {
  const folder = value
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
  if (folder.startsWith('/') || /^[A-Za-z]:/.test(folder) || folder.split('/').includes('..')) {
    return problem(`${what} "${value}" must be a folder inside the workspace (relative to its root, without "..")`);
  }
  return ok(folder === '' ? '.' : folder);
}

/** `--<flag>` is one of `allowed`, else the problem with the nearest allowed value and the whole list. */
function checkOneOf(flag: keyof typeof OPTION_VALUES, value: string | undefined): Outcome<void> {
  const allowed: readonly string[] = OPTION_VALUES[flag];
  if (value === undefined || allowed.includes(value)) return ok(undefined);
  const guess = nearestName(String(value), allowed);
  return problem(
    `--${flag} "${value}" is not allowed${guess ? `: did you mean "${guess}"?` : '.'} It must be one of ${allowed.join(', ')}`,
  );
}

/** `--provider` names a provider agentdef knows or `custom:<name>`; else the nearest one and the list. */
function checkProvider(value: string | undefined): Outcome<void> {
  if (value === undefined || KNOWN_PROVIDERS.includes(value)) return ok(undefined);
  if (value.startsWith(CUSTOM_PREFIX) && CUSTOM_PROVIDER_NAME.test(value.slice(CUSTOM_PREFIX.length)))
    return ok(undefined);
  const lowered = value.toLowerCase();
  const guess = lowered.startsWith(CUSTOM_PREFIX)
    ? CUSTOM_PROVIDER_NAME.test(lowered.slice(CUSTOM_PREFIX.length))
      ? lowered
      : undefined
    : nearestName(value, KNOWN_PROVIDERS);
  return problem(
    `--provider "${value}" is not a provider agentdef knows${guess ? `: did you mean "${guess}"?` : '.'} It must be one of ${KNOWN_PROVIDERS.join(', ')}, or custom:<name> for your own endpoint (<name> in lowercase letters, digits, "-" and ".", e.g. custom:acme)`,
  );
}

/** Every enumerated option and `--provider`, checked before anything is derived from them. */
function checkOptionValues(options: ScaffoldOptions): Outcome<void> {
  for (const flag of Object.keys(OPTION_VALUES) as (keyof typeof OPTION_VALUES)[]) {
    const checked = checkOneOf(flag, options[flag]);
    if (!checked.ok) return checked;
  }
  return checkProvider(options.provider);
}

function titleCase(slug: string): string {
  return slug
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function parseNodes(value: string | undefined, self: string): Outcome<AgentRef[]> {
  if (value === undefined || value.trim() === '') return ok([]);
  const nodes: AgentRef[] = [];
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = raw.lastIndexOf('@');
    const slug = at > 0 ? raw.slice(0, at) : raw;
    const version = at > 0 ? raw.slice(at + 1) : '';
    if (!isSlug(slug) || !isExactSemver(version)) {
      return problem(`--nodes entry "${raw}" must be slug@version with an exact version, e.g. write-router@1.4.0`);
    }
    if (slug === self) return problem(`--nodes pins "${raw}", the agent itself: a definition never pins itself`);
    if (nodes.some((n) => n.slug === slug)) return problem(`--nodes pins "${slug}" twice: each child appears once`);
    nodes.push({ slug, version });
  }
  return ok(nodes);
}

/** The owner id: `--owner`, else the workspace package's scope or name, made a valid id. */
function ownerId(option: string | undefined, packageName: unknown): Outcome<string> {
  if (option !== undefined) {
    return OWNER_ID.test(option)
      ? ok(option)
      : problem(`--owner "${option}" must be letters, digits, ".", "_" or "-" (up to 128)`);
  }
  const base =
    typeof packageName === 'string'
      ? packageName.startsWith('@')
        ? packageName.slice(1).split('/')[0]!
        : packageName
      : '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  return ok(cleaned === '' ? 'my-org' : cleaned);
}

function repositoryUrl(repository: unknown, owner: string): string {
  const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null | undefined)?.url;
  // Only a URL the card can name (the `url-fields` rule reads it so); npm shorthand (`acme/agents`) is not one.
  if (typeof url === 'string' && parseAbsoluteUrl(url.trim()).ok) return url.trim();
  return `https://example.invalid/${owner}`; // RFC 2606: plainly a placeholder until the repo has a URL
}

/** The hosts a pin (or a tool without one) can run on. */
function hostsOf(pin: LlmPin | undefined): readonly Host[] {
  return pin ? pinHosts(pin).hosts : ALL_HOSTS;
}

/** The most portable class whose preferred host runs the pin. */
function defaultRuntime(pin: LlmPin | undefined): RuntimeCapabilityClass {
  const hosts = hostsOf(pin);
  return DEFAULT_CLASSES.find((cls) => hosts.includes(CLASS_HOSTS[cls][0]!)) ?? 'local-host-required';
}

/** A pin that calls a remote API needs its provider's key; a local model needs none. */
function needsProviderKey(pin: LlmPin | undefined): pin is LlmPin {
  return pin !== undefined && hostsOf(pin).some((h) => h !== 'local');
}

/** `--model=<id>@<version>` as the user would type it. */
const modelFlag = (modelId: string, version: string) => `--model=${modelId}@${version}`;

/**
 * The pin's model id and exact version from `--model[=<id>[@<version>]]` and `--modelVersion`:
 * the provider's default model with its known version; a version the id carries in the
 * provider's wire form, split off (`gpt-4o-mini-2024-07-18`); else, for a provider whose wire id
 * needs the version (OpenAI and pre-4.6 Claude snapshots, Ollama tags), the problem asking for
 * it in that provider's form with an example; else `1` (recorded only). A version that is not of
 * the provider's form, or a moving tag, is refused the same way, before anything is written.
 */
function modelAndVersion(
  options: ScaffoldOptions,
  provider: string,
  tier: Tier,
  modelId: string,
  versionFromModel: string | undefined,
): Outcome<{ modelId: string; modelVersion: string }> {
  const fallback = DEFAULT_MODELS[provider];
  let id = modelId;
  let version = options.modelVersion ?? versionFromModel;
  const carried = splitCarriedVersion(provider, id);
  if (carried !== undefined && (version === undefined || version === carried.modelVersion)) {
    id = carried.modelId;
    version = carried.modelVersion;
  }
  const form = requiredVersionForm(provider, id, tier === 'tuned');
  const ask = (opening: string, shown: string) =>
    problem(
      `${opening}: ${form!.provider} pins a model by ${form!.what}, written ${form!.format}. Pass it after "@": ${modelFlag(shown, form!.format.startsWith('<') ? form!.format : `<${form!.format}>`)}, for example ${modelFlag(form!.example.modelId, form!.example.modelVersion)} (sent as "${form!.example.wire}"); ${form!.where}. Nothing was written`,
    );
  if (version === undefined) {
    if (id === fallback?.model) return ok({ modelId: id, modelVersion: fallback.version });
    if (form !== undefined) return ask(`--model=${id} names no version`, id);
    return ok({ modelId: id, modelVersion: '1' });
  }
  const floating = floatingVersionReason(version);
  if (floating !== undefined) {
    return form !== undefined
      ? ask(`the version "${version}" of --model=${id} is ${floating}, which names no exact model`, id)
      : problem(
          `the version "${version}" of --model=${id} is ${floating}, which names no exact model: pass the exact version, ${modelFlag(id, '<version>')}. Nothing was written`,
        );
  }
  const wire = wireModelId({
    providerId: provider,
    modelId: id,
    modelVersion: version,
    tier,
    ...(tier === 'tuned' ? { checkpointId: options.checkpoint ?? 'ckpt:x' } : {}),
  });
  if (wire.problem?.severity === 'error') {
    if (wire.problem.field === 'modelVersion' && form !== undefined)
      return ask(`the version "${version}" of --model=${id} is not ${form.what}`, id);
    return problem(`${modelFlag(id, version)}: ${wire.problem.message} Nothing was written`);
  }
  return ok({ modelId: id, modelVersion: version });
}

function modelPin(options: ScaffoldOptions, owner: string, nodes: readonly AgentRef[]): Outcome<LlmPin> {
  const tier: Tier =
    options.tier ?? (options.provider !== undefined && LOCAL_PROVIDERS.has(options.provider) ? 'local' : 'small');
  const provider = options.provider ?? (tier === 'local' ? 'local-ollama' : 'openai');
  const at = options.model?.lastIndexOf('@') ?? -1;
  const [modelFromOption, versionFromModel] =
    options.model !== undefined && at >= 0
      ? [options.model.slice(0, at), options.model.slice(at + 1)]
      : [options.model, undefined];
  const fallback = DEFAULT_MODELS[provider];
  if (modelFromOption === undefined && tier === 'tuned') {
    return problem(
      `--model is required with --tier=tuned: a tuned model is your own fine-tune, so name it: --model=<id>[@<version>], e.g. --model=splice-7b@1`,
    );
  }
  const modelId = modelFromOption ?? fallback?.model;
  if (modelId === undefined) {
    return problem(
      `--model is required: --provider "${provider}" has no default model (${Object.keys(DEFAULT_MODELS).join(', ')} have one); pass --model=<id>[@<version>]`,
    );
  }
  const chosen = modelAndVersion(
    options,
    provider,
    tier,
    modelId,
    versionFromModel === '' ? undefined : versionFromModel,
  );
  if (!chosen.ok) return chosen;
  const { modelVersion } = chosen.value;
  const role: LlmPin['role'] = nodes.length > 0 ? 'router' : tier === 'tuned' ? 'specialist' : 'primary';
  const pin: LlmPin = {
    role,
    modelId: chosen.value.modelId,
    modelVersion,
    providerId: provider,
    samplingParams: { temperature: 0 },
    tier,
  };
  if (tier === 'tuned')
    pin.checkpointId = options.checkpoint ?? `ckpt:${owner}/${chosen.value.modelId}/${modelVersion}`;
  else if (options.checkpoint !== undefined)
    return problem('--checkpoint applies to a tuned model only (--tier=tuned)');
  return ok(pin);
}

/** Checks the options in the order the generator reports them and fills in every default. */
export function planScaffold(options: ScaffoldOptions, workspace: ScaffoldWorkspace = {}): Outcome<ScaffoldPlan> {
  const given = folderPath(String(options.name ?? ''), 'name');
  if (!given.ok) return given;
  const slug = posix.basename(given.value);
  if (!SLUG_PATTERN.test(slug))
    return problem(
      `"${slug}" is not a valid slug: use lowercase kebab-case (a-z, 0-9, single hyphens), e.g. "code-search"`,
    );
  if (slug.length > SLUG_MAX_LENGTH) return problem(`"${slug}" is longer than ${SLUG_MAX_LENGTH} characters`);
  const values = checkOptionValues(options);
  if (!values.ok) return values;
  const directory = options.directory !== undefined ? folderPath(options.directory, '--directory') : given;
  if (!directory.ok) return directory;
  const format = options.format ?? 'json';
  const file = directory.value === '.' ? `agent.${format}` : `${directory.value}/agent.${format}`;

  const version = options.version ?? DEFAULT_VERSION;
  if (!isExactSemver(version)) return problem(`--version "${version}" must be an exact semantic version such as 0.1.0`);
  const kind = options.kind ?? 'agent';
  const nodes = parseNodes(options.nodes, slug);
  if (!nodes.ok) return nodes;
  const owner = ownerId(options.owner, workspace.packageName);
  if (!owner.ok) return owner;

  let pin: LlmPin | undefined;
  if (kind === 'agent') {
    const made = modelPin(options, owner.value, nodes.value);
    if (!made.ok) return made;
    pin = made.value;
  } else if (
    options.provider !== undefined ||
    options.model !== undefined ||
    options.modelVersion !== undefined ||
    options.tier !== undefined ||
    options.checkpoint !== undefined
  ) {
    return problem(
      'a tool has no model: drop --provider, --model, --modelVersion, --tier and --checkpoint, or use --kind=agent',
    );
  }

  const lifecycle: Lifecycle =
    options.lifecycle ?? (kind === 'tool' ? 'tool-prototype' : nodes.value.length > 0 ? 'composed' : 'mcp-resident');
  const runtime = options.runtime ?? defaultRuntime(pin);
  return ok({
    slug,
    directory: directory.value,
    file,
    format,
    kind,
    nodes: nodes.value,
    lifecycle,
    runtime,
    ...(pin ? { pin } : {}),
    version,
    owner: owner.value,
  });
}

/** `$schema`: the installed package's schema, or the source schema inside the agentdef repository. */
function schemaReference(packageName: unknown, directory: string): string {
  return posix.relative(
    directory === '.' ? '' : directory,
    packageName === 'agentdef' ? SOURCE_SCHEMA : INSTALLED_SCHEMA,
  );
}

/** The definition a plan describes, with the caller's fresh `id` and `versionId`. */
export function scaffoldDefinition(
  plan: ScaffoldPlan,
  workspace: ScaffoldWorkspace,
  ids: { id: string; versionId: string },
): AgentDefinition {
  const agentic = plan.pin !== undefined;
  const keyRef = `keyref:${plan.owner}-agents`;
  const atOrAfter = (stage: Lifecycle) => LIFECYCLE_STAGES.indexOf(plan.lifecycle) >= LIFECYCLE_STAGES.indexOf(stage);
  const keyed = needsProviderKey(plan.pin) ? plan.pin : undefined;
  const bindings: BindingRef[] = keyed
    ? [
        {
          kind: 'secret-ref',
          name: providerKeyName(keyed.providerId),
          ref: `secrets-store://${plan.owner}/${keyed.providerId.replace(/^custom:/, '')}`,
        },
      ]
    : [];

  return {
    $schema: schemaReference(workspace.packageName, plan.directory),
    schemaVersion: 'agent-definition/v1',
    identity: {
      id: ids.id,
      slug: plan.slug,
      name: titleCase(plan.slug),
      versionSemver: plan.version,
      versionId: ids.versionId,
      owner: { kind: 'org', id: plan.owner },
      signingKeyRef: keyRef,
      ...(atOrAfter('kym-registered') ? { kymRef: kymRef(plan.slug, plan.version) } : {}),
    },
    capabilityContract: {
      inputs: [{ kind: 'text', mediaType: 'text/plain', description: 'The request.' }],
      outputs: [{ kind: 'text', mediaType: 'text/plain', description: 'The answer.' }],
      skills: [
        {
          id: `${plan.slug}.run`,
          name: titleCase(plan.slug),
          description: `What ${plan.slug} does (describe it here).`,
          version: plan.version,
          tags: [plan.kind],
        },
      ],
      invariants: [],
    },
    modelSet: plan.pin ? [plan.pin] : [],
    toolInventory:
      plan.kind === 'tool'
        ? [
            {
              id: plan.slug,
              name: plan.slug.replace(/-/g, '_'),
              version: plan.version,
              provenance: 'scripted',
              risk: 'low',
              description: `Runs ${plan.slug}.`,
            },
          ]
        : [],
    composition: plan.nodes.length > 0 ? { kind: 'dag', nodes: plan.nodes, edges: [] } : { kind: 'leaf' },
    memoryContract: {
      refs: [],
      workingSetTokens: 4000,
      contextWindowBudget: 16000,
      compactionPolicy: agentic ? 'summarise' : 'drop',
    },
    telemetryContract: {
      // Named from the start, also at tool-prototype (where no receipt is signed yet): promoting to
      // tool-shipped then needs the key (`agentdef keys generate <keyRef>`) and a benchmark
      // (`agentdef bench-tool`), not an edit.
      receiptSigner: keyRef,
      receiptSchemaVersion: 'receipt/v1',
      telemetryKinds: agentic ? ['events', 'session-report'] : ['events'],
      agenticGate: agentic ? 'agentic' : 'tool-only',
      kymRegistrationRequired: agentic,
    },
    runtimeRequirements: {
      runtimeCapabilityClass: plan.runtime,
      limits: { wallClockMs: 30000 },
      keyCustody: keyed ? 'secrets-store' : 'session',
      bindings,
    },
    lifecycleState: plan.lifecycle,
    metadata: {
      description: `${titleCase(plan.slug)}: ${agentic ? 'an agent' : 'a tool'} generated by agentdef (describe it here).`,
      tags: [plan.kind],
      provenance: { repo: repositoryUrl(workspace.repository, plan.owner), filePath: plan.file },
    },
  };
}

/** The first line of a generated agent.yaml: tells the YAML language server which schema completes it. */
export function yamlSchemaModeline(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}`;
}

/**
 * The file text of a definition. JSON: two spaces and a final newline. YAML: the schema modeline
 * (from `$schema`, which YAML editors do not read as a key), then the rest in document order,
 * never folded, so the file reads back to the same definition.
 */
export function definitionText(definition: AgentDefinition, format: ScaffoldFormat = 'json'): string {
  if (format === 'json') return `${JSON.stringify(definition, null, 2)}\n`;
  const { $schema, ...rest } = definition;
  const body = yamlText(rest, { lineWidth: 0 });
  return $schema === undefined ? body : `${yamlSchemaModeline($schema)}\n${body}`;
}

/** Plan, definition and text in one call. */
export function scaffoldAgent(
  options: ScaffoldOptions,
  workspace: ScaffoldWorkspace,
  ids: { id: string; versionId: string },
): Outcome<{ plan: ScaffoldPlan; definition: AgentDefinition; text: string }> {
  const plan = planScaffold(options, workspace);
  if (!plan.ok) return plan;
  const definition = scaffoldDefinition(plan.value, workspace, ids);
  return ok({ plan: plan.value, definition, text: definitionText(definition, plan.value.format) });
}

/** Where a tool agent's starter implementation goes: `tool.ts` beside its definition. */
export function toolModuleFile(directory: string): string {
  return directory === '.' ? 'tool.ts' : `${directory}/tool.ts`;
}

/** The starter implementation of a scripted tool. */
export function toolModuleText(toolId: string): string {
  return [
    `/** The implementation of the "${toolId}" tool: called with the tool's arguments, returns its result as JSON. */`,
    'export async function run(args: Record<string, unknown>): Promise<unknown> {',
    "  const text = typeof args['text'] === 'string' ? args['text'] : JSON.stringify(args);",
    '  return { echo: text, length: text.length };',
    '}',
    '',
  ].join('\n');
}

/**
 * The workspace's tools.json (`current`: its parsed value, undefined when there is none) with
 * `toolId` mapped to `./<module>` unless already mapped; other content kept, entries sorted.
 */
export function toolsJsonWithTool(current: unknown, toolId: string, module: string): Outcome<string> {
  const tools = current === undefined ? {} : current;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
    return problem('tools.json must hold a JSON object');
  const existing = (tools as { tools?: unknown }).tools ?? {};
  if (typeof existing !== 'object' || existing === null || Array.isArray(existing))
    return problem('tools.json "tools" must be an object of tool ids');
  const entries: Record<string, unknown> = { ...existing };
  if (entries[toolId] === undefined) entries[toolId] = { module: `./${module}`, export: 'run' };
  const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return ok(`${JSON.stringify({ ...tools, tools: sorted }, null, 2)}\n`);
}
