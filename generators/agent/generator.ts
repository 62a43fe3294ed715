/**
 * `nx g agentdef:agent <name>`: writes a new `agent.json` that passes the JSON Schema and every
 * semantic rule, or writes nothing and says why. The definition is checked with the definition
 * layer's own validator before it touches the tree, so a generated file never fails `validate`.
 *
 * Where it goes: `name` may be a slug (`summarizer` → `summarizer/agent.json`) or a folder path
 * whose last segment is the slug (`agents/summarizer` → `agents/summarizer/agent.json`), like
 * Nx's own generators; `--directory` names the folder explicitly. Paths are relative to the
 * workspace root.
 */
import { readJson, readNxJson, visitNotIgnoredFiles, type GeneratorCallback, type Tree } from '@nx/devkit';
import { posix } from 'node:path';
import { ulid } from 'ulid';
import type { AgentDefinition, AgentRef, BindingRef, LlmPin } from '../../plugin/schema/generated/agent-definition.types';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import { summarizeDefinition } from '../../plugin/graph/read-agent-summary';
import { DEFAULT_PLUGIN_OPTIONS } from '../../plugin/graph/options';
import { isAgentdefPlugin } from '../init/generator';
import { TOOLS_FILE } from '../../plugin/compiler/workspace-config';
import type { AgentGeneratorSchema } from './schema';

type Lifecycle = AgentDefinition['lifecycleState'];
type RuntimeClass = AgentDefinition['runtimeRequirements']['runtimeCapabilityClass'];
type Tier = NonNullable<LlmPin['tier']>;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const DEFINITION_FILES = new Set(['agent.json', 'agent.yaml', 'agent.yml']);
const INSTALLED_SCHEMA = 'node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json';
const SOURCE_SCHEMA = 'plugin/schema/agent-definition.v1.schema.json';

/** The model each provider gets when `--model` is not given: id and exact version. */
const DEFAULT_MODELS: Readonly<Record<string, { model: string; version: string }>> = {
  openai: { model: 'gpt-4o-mini', version: '2024-07-18' },
  anthropic: { model: 'claude-3-5-haiku', version: '20241022' },
  'local-ollama': { model: 'llama3.1', version: '8b' },
};

/** A generator error: Nx prints the message and writes nothing. */
function refuse(message: string): never {
  throw new Error(`agentdef:agent: ${message}`);
}

function folderPath(value: string, what: string): string {
  const folder = value.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '').replace(/\/{2,}/g, '/');
  if (folder.startsWith('/') || /^[A-Za-z]:/.test(folder) || folder.split('/').includes('..')) {
    refuse(`${what} "${value}" must be a folder inside the workspace (relative to its root, without "..")`);
  }
  return folder === '' ? '.' : folder;
}

function titleCase(slug: string): string {
  return slug
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function parseNodes(value: string | undefined, self: string): AgentRef[] {
  if (value === undefined || value.trim() === '') return [];
  const nodes: AgentRef[] = [];
  for (const raw of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const at = raw.lastIndexOf('@');
    const slug = at > 0 ? raw.slice(0, at) : raw;
    const version = at > 0 ? raw.slice(at + 1) : '';
    if (!SLUG.test(slug) || !SEMVER.test(version)) {
      refuse(`--nodes entry "${raw}" must be slug@version with an exact version, e.g. write-router@1.4.0`);
    }
    if (slug === self) refuse(`--nodes pins "${raw}", the agent itself: a definition never pins itself`);
    if (nodes.some((n) => n.slug === slug)) refuse(`--nodes pins "${slug}" twice: each child appears once`);
    nodes.push({ slug, version });
  }
  return nodes;
}

/**
 * The value of `--version` on the command line. The Nx CLI declares a global boolean `--version`
 * (for `nx --version`), so yargs hands a generator `false` instead of `--version=1.2.0`.
 */
export function versionFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  argv.forEach((arg, i) => {
    if (arg.startsWith('--version=')) found = arg.slice('--version='.length);
    else if (arg === '--version' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) found = argv[i + 1];
  });
  return found;
}

/** The owner id: `--owner`, else the workspace package's scope or name, made a valid id. */
function ownerId(tree: Tree, option: string | undefined): string {
  if (option !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(option)) refuse(`--owner "${option}" must be letters, digits, ".", "_" or "-" (up to 128)`);
    return option;
  }
  const name = tree.exists('package.json') ? (readJson<{ name?: unknown }>(tree, 'package.json').name as string | undefined) : undefined;
  const base = typeof name === 'string' ? (name.startsWith('@') ? name.slice(1).split('/')[0]! : name) : '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128);
  return cleaned === '' ? 'my-org' : cleaned;
}

function repositoryUrl(tree: Tree, owner: string): string {
  if (tree.exists('package.json')) {
    const repository = readJson<{ repository?: unknown }>(tree, 'package.json').repository;
    const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url.trim() !== '') return url.trim();
  }
  return `https://example.invalid/${owner}`; // RFC 2606: plainly a placeholder until the repo has a URL
}

/** The registry folder the plugin is configured with (its published slugs are taken too). */
function registryRoot(tree: Tree): string {
  for (const entry of readNxJson(tree)?.plugins ?? []) {
    if (typeof entry === 'string') continue;
    const configured = (entry.options as { registryRoot?: unknown } | undefined)?.registryRoot;
    if (isAgentdefPlugin(entry) && typeof configured === 'string') return folderPath(configured, 'registryRoot');
  }
  return DEFAULT_PLUGIN_OPTIONS.registryRoot;
}

/** Where `slug` already exists: a definition declaring it, or a registry folder publishing it. */
function existingSlug(tree: Tree, slug: string): string | undefined {
  let found: string | undefined;
  visitNotIgnoredFiles(tree, '.', (file) => {
    if (found !== undefined || !DEFINITION_FILES.has(posix.basename(file))) return;
    const text = tree.read(file, 'utf-8');
    if (text !== null && summarizeDefinition(text, file).slug === slug) found = file;
  });
  if (found !== undefined) return found;
  const published = `${registryRoot(tree)}/${slug}`;
  return tree.exists(published) && tree.children(published).length > 0 ? published : undefined;
}

function providerSecretName(provider: string): string {
  return `${provider.replace(/^custom:/, '').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_API_KEY`;
}

interface Resolved {
  slug: string;
  directory: string;
  file: string;
  kind: 'tool' | 'agent';
  nodes: AgentRef[];
  lifecycle: Lifecycle;
  runtime: RuntimeClass;
  pin?: LlmPin;
  version: string;
  owner: string;
}

function resolveOptions(tree: Tree, options: AgentGeneratorSchema): Resolved {
  const given = folderPath(String(options.name ?? ''), 'name');
  const slug = posix.basename(given);
  if (!SLUG.test(slug)) refuse(`"${slug}" is not a valid slug: use lowercase kebab-case (a-z, 0-9, single hyphens), e.g. "code-search"`);
  if (slug.length > 64) refuse(`"${slug}" is longer than 64 characters`);
  const directory = options.directory !== undefined ? folderPath(options.directory, '--directory') : given;
  const file = directory === '.' ? 'agent.json' : `${directory}/agent.json`;

  const version = (typeof options.version === 'string' ? options.version : versionFromArgv(process.argv)) ?? '0.1.0';
  if (!SEMVER.test(version)) refuse(`--version "${version}" must be an exact semantic version such as 0.1.0`);
  const kind = options.kind ?? 'agent';
  const nodes = parseNodes(options.nodes, slug);
  const owner = ownerId(tree, options.owner);

  let pin: LlmPin | undefined;
  if (kind === 'agent') {
    const tier: Tier = options.tier ?? (options.provider === 'local-ollama' ? 'local' : 'small');
    const provider = options.provider ?? (tier === 'local' ? 'local-ollama' : 'openai');
    const [modelFromOption, versionFromModel] = options.model?.includes('@') ? [options.model.slice(0, options.model.lastIndexOf('@')), options.model.slice(options.model.lastIndexOf('@') + 1)] : [options.model, undefined];
    const fallback = DEFAULT_MODELS[provider];
    const modelId = modelFromOption ?? fallback?.model ?? refuse(`--provider "${provider}" has no default model: pass --model=<id>[@<version>]`);
    const modelVersion = options.modelVersion ?? versionFromModel ?? (modelId === fallback?.model ? fallback.version : '1');
    const role: LlmPin['role'] = nodes.length > 0 ? 'router' : tier === 'tuned' ? 'specialist' : 'primary';
    pin = { role, modelId, modelVersion, providerId: provider, samplingParams: { temperature: 0 }, tier };
    if (tier === 'tuned') pin.checkpointId = options.checkpoint ?? `ckpt:${owner}/${modelId}/${modelVersion}`;
    else if (options.checkpoint !== undefined) refuse('--checkpoint applies to a tuned model only (--tier=tuned)');
  } else if (options.provider !== undefined || options.model !== undefined || options.modelVersion !== undefined || options.tier !== undefined || options.checkpoint !== undefined) {
    refuse('a tool has no model: drop --provider, --model, --modelVersion, --tier and --checkpoint, or use --kind=agent');
  }

  const lifecycle: Lifecycle = options.lifecycle ?? (kind === 'tool' ? 'tool-prototype' : nodes.length > 0 ? 'composed' : 'mcp-resident');
  const local = pin !== undefined && (pin.tier === 'local' || pin.providerId === 'local-ollama');
  const runtime: RuntimeClass = options.runtime ?? (local ? 'local-host-required' : pin?.tier === 'tuned' ? 'container-required' : 'workers-preferred');
  return { slug, directory, file, kind, nodes, lifecycle, runtime, ...(pin ? { pin } : {}), version, owner };
}

function schemaReference(tree: Tree, directory: string): string {
  const isSelf = tree.exists('package.json') && readJson<{ name?: unknown }>(tree, 'package.json').name === 'agentdef';
  return posix.relative(directory === '.' ? '' : directory, isSelf ? SOURCE_SCHEMA : INSTALLED_SCHEMA);
}

/** The definition the options describe. Pure apart from the two fresh ULIDs. */
function buildDefinition(tree: Tree, r: Resolved): AgentDefinition {
  const agentic = r.pin !== undefined;
  const keyRef = `keyref:${r.owner}-agents`;
  const stages: Lifecycle[] = ['tool-prototype', 'tool-shipped', 'mcp-resident', 'kym-registered', 'composed', 'marketplace-published'];
  const atOrAfter = (stage: Lifecycle) => stages.indexOf(r.lifecycle) >= stages.indexOf(stage);
  const remoteKey = r.pin !== undefined && r.pin.providerId !== 'local-ollama' && r.pin.tier !== 'local';
  const bindings: BindingRef[] = remoteKey
    ? [{ kind: 'secret-ref', name: providerSecretName(r.pin!.providerId), ref: `secrets-store://${r.owner}/${r.pin!.providerId.replace(/^custom:/, '')}` }]
    : [];

  return {
    $schema: schemaReference(tree, r.directory),
    schemaVersion: 'agent-definition/v1',
    identity: {
      id: ulid(),
      slug: r.slug,
      name: titleCase(r.slug),
      versionSemver: r.version,
      versionId: ulid(),
      owner: { kind: 'org', id: r.owner },
      signingKeyRef: keyRef,
      ...(atOrAfter('kym-registered') ? { kymRef: `kym://agents/${r.slug}@${r.version}` } : {}),
    },
    capabilityContract: {
      inputs: [{ kind: 'text', mediaType: 'text/plain', description: 'The request.' }],
      outputs: [{ kind: 'text', mediaType: 'text/plain', description: 'The answer.' }],
      skills: [
        {
          id: `${r.slug}.run`,
          name: titleCase(r.slug),
          description: `What ${r.slug} does (describe it here).`,
          version: r.version,
          tags: [r.kind],
        },
      ],
      invariants: [],
    },
    modelSet: r.pin ? [r.pin] : [],
    toolInventory:
      r.kind === 'tool'
        ? [{ id: r.slug, name: r.slug.replace(/-/g, '_'), version: r.version, provenance: 'scripted', risk: 'low', description: `Runs ${r.slug}.` }]
        : [],
    composition: r.nodes.length > 0 ? { kind: 'dag', nodes: r.nodes, edges: [] } : { kind: 'leaf' },
    memoryContract: { refs: [], workingSetTokens: 4000, contextWindowBudget: 16000, compactionPolicy: agentic ? 'summarise' : 'drop' },
    telemetryContract: {
      receiptSigner: r.lifecycle === 'tool-prototype' ? null : keyRef,
      receiptSchemaVersion: 'receipt/v1',
      telemetryKinds: agentic ? ['events', 'session-report'] : ['events'],
      agenticGate: agentic ? 'agentic' : 'tool-only',
      kymRegistrationRequired: agentic,
    },
    runtimeRequirements: {
      runtimeCapabilityClass: r.runtime,
      limits: { wallClockMs: 30000 },
      keyCustody: remoteKey ? 'secrets-store' : 'session',
      bindings,
    },
    lifecycleState: r.lifecycle,
    metadata: {
      description: `${titleCase(r.slug)}: ${agentic ? 'an agent' : 'a tool'} generated by agentdef (describe it here).`,
      tags: [r.kind],
      provenance: { repo: repositoryUrl(tree, r.owner), filePath: r.file },
    },
  };
}

export async function agentGenerator(tree: Tree, options: AgentGeneratorSchema): Promise<GeneratorCallback> {
  const resolved = resolveOptions(tree, options);
  const where = existingSlug(tree, resolved.slug);
  if (where !== undefined) refuse(`an agent with slug "${resolved.slug}" already exists (${where}); choose another name`);
  for (const name of DEFINITION_FILES) {
    const sibling = resolved.directory === '.' ? name : `${resolved.directory}/${name}`;
    if (tree.exists(sibling)) refuse(`${sibling} already exists: one folder holds one agent definition; choose another --directory`);
  }

  const text = `${JSON.stringify(buildDefinition(tree, resolved), null, 2)}\n`;
  const result = validateDefinitionSource(text, resolved.file, 'json');
  if (!result.valid || hasErrors(result.diagnostics)) {
    const report = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([[resolved.file, text]]) });
    refuse(`these options do not make a valid definition, so nothing was written:\n${report}`);
  }
  tree.write(resolved.file, text);
  if (resolved.kind === 'tool') scaffoldToolImplementation(tree, resolved.directory, resolved.slug);
  return () => {};
}

/**
 * A tool agent's scripted tool needs an implementation to compile: write a starter module beside
 * the definition and map it in the workspace's tools.json (created or extended, never replaced).
 */
function scaffoldToolImplementation(tree: Tree, directory: string, toolId: string): void {
  const module = directory === '.' ? 'tool.ts' : `${directory}/tool.ts`;
  if (!tree.exists(module)) {
    tree.write(
      module,
      [
        `/** The implementation of the "${toolId}" tool: called with the tool's arguments, returns its result as JSON. */`,
        'export async function run(args: Record<string, unknown>): Promise<unknown> {',
        "  const text = typeof args['text'] === 'string' ? args['text'] : JSON.stringify(args);",
        '  return { echo: text, length: text.length };',
        '}',
        '',
      ].join('\n'),
    );
  }
  const tools = tree.exists(TOOLS_FILE) ? (readJson(tree, TOOLS_FILE) as { tools?: Record<string, unknown> }) : {};
  const entries = { ...(tools.tools ?? {}) };
  if (entries[toolId] === undefined) entries[toolId] = { module: `./${module}`, export: 'run' };
  const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  tree.write(TOOLS_FILE, `${JSON.stringify({ ...tools, tools: sorted }, null, 2)}\n`);
}

export default agentGenerator;
