/**
 * The plugin's options as written in `nx.json`, their defaults, and the normalised form every
 * other graph module reads (agents and application manifests each have their own target names). The normalised options carry a stable hash: it keys the inference
 * cache, and it is stamped on every inferred target so that changing an option changes the
 * task hash of every agent task.
 */
import { hashArray } from '../definition/content-hash';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';

/**
 * The version of agentdef that inferred the graph; part of every inference cache key. Read from
 * the package's own package.json (two folders up, in the sources and in the built package alike).
 */
export const PLUGIN_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

/** The executors the inferred targets run, as `<package>:<executor>`. */
export const EXECUTORS = {
  validate: 'agentdef:validate',
  plan: 'agentdef:plan',
  compile: 'agentdef:compile',
} as const;

export type TargetKind = keyof typeof EXECUTORS;

/** The executors the targets inferred for an application manifest run. */
export const APPLICATION_EXECUTORS = {
  plan: 'agentdef:application-plan',
  execute: 'agentdef:application-execute',
  check: 'agentdef:application-check',
} as const;

export type ApplicationTargetKind = keyof typeof APPLICATION_EXECUTORS;

/** Options of the `agentdef` entry in `nx.json` `plugins` (every field optional). */
export interface AgentdefPluginOptions {
  /** The names of the inferred targets, e.g. `{ "compile": "build-agent" }`. */
  targetNames?: Partial<Record<TargetKind, string>>;
  /** The names of the targets inferred for application manifests, e.g. `{ "plan": "plan-app" }`. */
  applicationTargetNames?: Partial<Record<ApplicationTargetKind, string>>;
  /** Where compiled agents go, relative to the workspace root: `<outputRoot>/<project>`. */
  outputRoot?: string;
  /** The immutable registry of published definitions, relative to the workspace root. */
  registryRoot?: string;
  /** The deepest composition the compiler resolves before it fails. */
  maxDepth?: number;
  /** The most definitions one resolved tree may hold. */
  maxNodes?: number;
  /** The reference gateway owner's approved-artifacts folder for application targets, relative to the workspace root. */
  approvedArtifacts?: string;
  /** Every agent's `promote` to tool-shipped or mcp-resident needs a passing eval receipt of that exact definition. */
  requireEval?: boolean;
  /** The recordings each agent's `eval` replays (and hashes): a workspace folder, `{projectRoot}` and `{projectName}` filled in; default `{projectRoot}/recordings`. */
  evalRecordings?: string;
  /**
   * Also infer each agent's operational targets (`run`, `serve`, `promote`, `publish`, `deploy`),
   * which run the CLI's commands through Nx; default false (docs/decisions/0013-operational-targets-opt-in.md).
   */
  operationalTargets?: boolean;
}

export interface NormalizedPluginOptions {
  targetNames: Record<TargetKind, string>;
  applicationTargetNames: Record<ApplicationTargetKind, string>;
  outputRoot: string;
  registryRoot: string;
  maxDepth: number;
  maxNodes: number;
  approvedArtifacts: string;
  requireEval: boolean;
  evalRecordings: string;
  operationalTargets: boolean;
  /** A stable hash of the fields above (not of the plugin version). */
  hash: string;
}

/** The defaults of the agent options (the folders and bounds are the workspace defaults). */
export const DEFAULT_PLUGIN_OPTIONS: Omit<
  NormalizedPluginOptions,
  'hash' | 'applicationTargetNames' | 'approvedArtifacts' | 'requireEval' | 'evalRecordings' | 'operationalTargets'
> = {
  targetNames: { validate: 'validate', plan: 'plan', compile: 'compile' },
  outputRoot: WORKSPACE_DEFAULTS.outputRoot,
  registryRoot: WORKSPACE_DEFAULTS.registryRoot,
  maxDepth: WORKSPACE_DEFAULTS.maxDepth,
  maxNodes: WORKSPACE_DEFAULTS.maxNodes,
};

/** The recordings an agent's `eval` target replays by default: the CLI's default, beside the definition. */
export const DEFAULT_EVAL_RECORDINGS = '{projectRoot}/recordings';

/** `evalRecordings`: a workspace folder in which `{projectRoot}` (only at the start) and `{projectName}` may stand. */
function normalizeRecordings(value: unknown): string {
  if (value === undefined) return DEFAULT_EVAL_RECORDINGS;
  if (typeof value !== 'string')
    throw new Error(`agentdef plugin option \`evalRecordings\` must be a string, not ${JSON.stringify(value)}`);
  const rooted = value.startsWith('{projectRoot}/');
  const rest = rooted ? value.slice('{projectRoot}/'.length) : value;
  const folder = normalizeFolder(rest.replaceAll('{projectName}', 'p'), 'evalRecordings', '');
  if (/[{}]/.test(folder))
    throw new Error(
      `agentdef plugin option \`evalRecordings\` may hold {projectRoot} (at its start) and {projectName} only, not ${JSON.stringify(value)}`,
    );
  return `${rooted ? '{projectRoot}/' : ''}${normalizeFolder(rest, 'evalRecordings', '')}`;
}

/** A true-or-false option, false when absent. */
function flag(value: unknown, field: string): boolean {
  if (value !== undefined && typeof value !== 'boolean')
    throw new Error(`agentdef plugin option \`${field}\` must be true or false, not ${JSON.stringify(value)}`);
  return value === true;
}

/** The CLI's default approved-artifacts folder (`--artifacts`), spelled here because the graph layer imports no shell. */
export const DEFAULT_APPROVED_ARTIFACTS = 'approved-artifacts';

/** The default names of the targets inferred for application manifests. */
export const DEFAULT_APPLICATION_TARGET_NAMES: Readonly<Record<ApplicationTargetKind, string>> = {
  plan: 'plan',
  execute: 'execute',
  check: 'check',
};

/** A workspace-relative POSIX folder: no `./`, no trailing `/`, never absolute, never `..`. */
function normalizeFolder(value: unknown, field: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string')
    throw new Error(`agentdef plugin option \`${field}\` must be a string, not ${JSON.stringify(value)}`);
  const folder = value
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
  if (
    folder === '' ||
    folder === '.' ||
    folder.startsWith('/') ||
    /^[A-Za-z]:/.test(folder) ||
    folder.split('/').includes('..')
  ) {
    throw new Error(
      `agentdef plugin option \`${field}\` must be a folder inside the workspace (relative, no \`..\`), not ${JSON.stringify(value)}`,
    );
  }
  return folder;
}

function positiveInteger(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(`agentdef plugin option \`${field}\` must be a positive integer, not ${JSON.stringify(value)}`);
  }
  return value;
}

const TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9:_.-]*$/;

/** One `targetNames`-like option: known kinds only, valid names, no two targets with one name. */
function normalizeTargetNames<Kind extends string>(
  value: unknown,
  field: string,
  defaults: Readonly<Record<Kind, string>>,
  example: string,
): Record<Kind, string> {
  const rawNames = (value ?? {}) as Record<string, unknown>;
  if (typeof rawNames !== 'object' || rawNames === null || Array.isArray(rawNames)) {
    throw new Error(`agentdef plugin option \`${field}\` must be an object such as ${example}`);
  }
  const names: Record<Kind, string> = { ...defaults };
  for (const [kind, name] of Object.entries(rawNames)) {
    if (!Object.hasOwn(defaults, kind))
      throw new Error(
        `agentdef plugin option \`${field}.${kind}\` is unknown; allowed: ${Object.keys(defaults).join(', ')}`,
      );
    if (name === undefined) continue;
    if (typeof name !== 'string' || !TARGET_NAME.test(name)) {
      throw new Error(`agentdef plugin option \`${field}.${kind}\` must be a target name, not ${JSON.stringify(name)}`);
    }
    names[kind as Kind] = name;
  }
  const all = Object.values<string>(names);
  if (new Set(all).size !== all.length) {
    throw new Error(`agentdef plugin option \`${field}\` gives two targets the same name: ${JSON.stringify(names)}`);
  }
  return names;
}

/**
 * Fills in the defaults and checks the options. Throws on an option that cannot work (Nx reports
 * it as a plugin configuration error); never guesses.
 */
export function normalizePluginOptions(options: AgentdefPluginOptions | undefined | null): NormalizedPluginOptions {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new Error(
      `agentdef plugin options (the \`options\` of its \`nx.json\` \`plugins\` entry) must be an object such as { "outputRoot": "dist/agents" }, not ${Array.isArray(options) ? 'an array' : `a ${typeof options}`}`,
    );
  }
  const raw = (options ?? {}) as Record<string, unknown>;
  const known = new Set([
    'targetNames',
    'applicationTargetNames',
    'outputRoot',
    'registryRoot',
    'maxDepth',
    'maxNodes',
    'approvedArtifacts',
    'requireEval',
    'evalRecordings',
    'operationalTargets',
  ]);
  const unknown = Object.keys(raw).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new Error(
      `agentdef plugin: unknown option(s) ${unknown.map((k) => `\`${k}\``).join(', ')}; allowed: ${[...known].join(', ')}`,
    );
  }

  const targetNames = normalizeTargetNames(
    raw.targetNames,
    'targetNames',
    DEFAULT_PLUGIN_OPTIONS.targetNames,
    '{ "compile": "build-agent" }',
  );
  const applicationTargetNames = normalizeTargetNames(
    raw.applicationTargetNames,
    'applicationTargetNames',
    DEFAULT_APPLICATION_TARGET_NAMES,
    '{ "plan": "plan-app" }',
  );

  const outputRoot = normalizeFolder(raw.outputRoot, 'outputRoot', DEFAULT_PLUGIN_OPTIONS.outputRoot);
  const registryRoot = normalizeFolder(raw.registryRoot, 'registryRoot', DEFAULT_PLUGIN_OPTIONS.registryRoot);
  const maxDepth = positiveInteger(raw.maxDepth, 'maxDepth', DEFAULT_PLUGIN_OPTIONS.maxDepth);
  const maxNodes = positiveInteger(raw.maxNodes, 'maxNodes', DEFAULT_PLUGIN_OPTIONS.maxNodes);
  const approvedArtifacts = normalizeFolder(raw.approvedArtifacts, 'approvedArtifacts', DEFAULT_APPROVED_ARTIFACTS);

  const requireEval = flag(raw.requireEval, 'requireEval');
  const evalRecordings = normalizeRecordings(raw.evalRecordings);
  const operationalTargets = flag(raw.operationalTargets, 'operationalTargets');

  const normalized = {
    targetNames,
    applicationTargetNames,
    outputRoot,
    registryRoot,
    maxDepth,
    maxNodes,
    approvedArtifacts,
    requireEval,
    evalRecordings,
    operationalTargets,
  };
  return { ...normalized, hash: hashOptions(normalized) };
}

/** Stable across key order: the fields are listed explicitly. */
function hashOptions(options: Omit<NormalizedPluginOptions, 'hash' | 'operationalTargets'>): string {
  const { targetNames: t, applicationTargetNames: a } = options;
  return hashArray([
    'agentdef-plugin-options/v1',
    `targetNames=${t.validate},${t.plan},${t.compile}`,
    `applicationTargetNames=${a.plan},${a.execute},${a.check}`,
    `outputRoot=${options.outputRoot}`,
    `registryRoot=${options.registryRoot}`,
    `maxDepth=${options.maxDepth}`,
    `maxNodes=${options.maxNodes}`,
    `approvedArtifacts=${options.approvedArtifacts}`,
    // Only when not the default: the hash of a workspace without them stays what it was.
    ...(options.requireEval ? ['requireEval=true'] : []),
    ...(options.evalRecordings !== DEFAULT_EVAL_RECORDINGS ? [`evalRecordings=${options.evalRecordings}`] : []),
    // Not `operationalTargets`: it adds uncached targets and changes no summary, input or option of
    // the others, so neither the inference cache nor a task hash depends on it.
  ]);
}
