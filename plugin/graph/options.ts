/**
 * The plugin's options as written in `nx.json`, their defaults, and the normalised form every
 * other graph module reads. The normalised options carry a stable hash: it keys the inference
 * cache, and it is stamped on every inferred target so that changing an option changes the
 * task hash of every agent task.
 */
import { hashArray } from './hash';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';

/**
 * The version of agentdef that inferred the graph; part of every inference cache key. Read from
 * the package's own package.json (two folders up, in the sources and in the built package alike).
 */
export const PLUGIN_VERSION: string = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** The executors the inferred targets run, as `<package>:<executor>`. */
export const EXECUTORS = {
  validate: 'agentdef:validate',
  plan: 'agentdef:plan',
  compile: 'agentdef:compile',
} as const;

export type TargetKind = keyof typeof EXECUTORS;

/** Options of the `agentdef` entry in `nx.json` `plugins` (every field optional). */
export interface AgentdefPluginOptions {
  /** The names of the inferred targets, e.g. `{ "compile": "build-agent" }`. */
  targetNames?: Partial<Record<TargetKind, string>>;
  /** Where compiled agents go, relative to the workspace root: `<outputRoot>/<project>`. */
  outputRoot?: string;
  /** The immutable registry of published definitions, relative to the workspace root. */
  registryRoot?: string;
  /** The deepest composition the compiler resolves before it fails. */
  maxDepth?: number;
  /** The most definitions one resolved tree may hold. */
  maxNodes?: number;
}

export interface NormalizedPluginOptions {
  targetNames: Record<TargetKind, string>;
  outputRoot: string;
  registryRoot: string;
  maxDepth: number;
  maxNodes: number;
  /** A stable hash of the fields above (not of the plugin version). */
  hash: string;
}

export const DEFAULT_PLUGIN_OPTIONS: Omit<NormalizedPluginOptions, 'hash'> = {
  targetNames: { validate: 'validate', plan: 'plan', compile: 'compile' },
  outputRoot: WORKSPACE_DEFAULTS.outputRoot,
  registryRoot: WORKSPACE_DEFAULTS.registryRoot,
  maxDepth: WORKSPACE_DEFAULTS.maxDepth,
  maxNodes: WORKSPACE_DEFAULTS.maxNodes,
};

/** A workspace-relative POSIX folder: no `./`, no trailing `/`, never absolute, never `..`. */
function normalizeFolder(value: unknown, field: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new Error(`agentdef plugin option \`${field}\` must be a string, not ${JSON.stringify(value)}`);
  const folder = value
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/{2,}/g, '/');
  if (folder === '' || folder === '.' || folder.startsWith('/') || /^[A-Za-z]:/.test(folder) || folder.split('/').includes('..')) {
    throw new Error(`agentdef plugin option \`${field}\` must be a folder inside the workspace (relative, no \`..\`), not ${JSON.stringify(value)}`);
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

/**
 * Fills in the defaults and checks the options. Throws on an option that cannot work (Nx reports
 * it as a plugin configuration error); never guesses.
 */
export function normalizePluginOptions(options: AgentdefPluginOptions | undefined | null): NormalizedPluginOptions {
  const raw = (options ?? {}) as Record<string, unknown>;
  const known = new Set(['targetNames', 'outputRoot', 'registryRoot', 'maxDepth', 'maxNodes']);
  const unknown = Object.keys(raw).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new Error(`agentdef plugin: unknown option(s) ${unknown.map((k) => `\`${k}\``).join(', ')}; allowed: ${[...known].join(', ')}`);
  }

  const rawNames = (raw.targetNames ?? {}) as Record<string, unknown>;
  if (typeof rawNames !== 'object' || rawNames === null || Array.isArray(rawNames)) {
    throw new Error('agentdef plugin option `targetNames` must be an object such as { "compile": "build-agent" }');
  }
  const targetNames = { ...DEFAULT_PLUGIN_OPTIONS.targetNames };
  for (const [kind, name] of Object.entries(rawNames)) {
    if (!(kind in EXECUTORS)) throw new Error(`agentdef plugin option \`targetNames.${kind}\` is unknown; allowed: ${Object.keys(EXECUTORS).join(', ')}`);
    if (name === undefined) continue;
    if (typeof name !== 'string' || !TARGET_NAME.test(name)) {
      throw new Error(`agentdef plugin option \`targetNames.${kind}\` must be a target name, not ${JSON.stringify(name)}`);
    }
    targetNames[kind as TargetKind] = name;
  }
  const names = Object.values(targetNames);
  if (new Set(names).size !== names.length) {
    throw new Error(`agentdef plugin option \`targetNames\` gives two targets the same name: ${JSON.stringify(targetNames)}`);
  }

  const outputRoot = normalizeFolder(raw.outputRoot, 'outputRoot', DEFAULT_PLUGIN_OPTIONS.outputRoot);
  const registryRoot = normalizeFolder(raw.registryRoot, 'registryRoot', DEFAULT_PLUGIN_OPTIONS.registryRoot);
  const maxDepth = positiveInteger(raw.maxDepth, 'maxDepth', DEFAULT_PLUGIN_OPTIONS.maxDepth);
  const maxNodes = positiveInteger(raw.maxNodes, 'maxNodes', DEFAULT_PLUGIN_OPTIONS.maxNodes);

  const normalized = { targetNames, outputRoot, registryRoot, maxDepth, maxNodes };
  return { ...normalized, hash: hashOptions(normalized) };
}

/** Stable across key order: the fields are listed explicitly. */
function hashOptions(options: Omit<NormalizedPluginOptions, 'hash'>): string {
  const { targetNames: t } = options;
  return hashArray([
    'agentdef-plugin-options/v1',
    `targetNames=${t.validate},${t.plan},${t.compile}`,
    `outputRoot=${options.outputRoot}`,
    `registryRoot=${options.registryRoot}`,
    `maxDepth=${options.maxDepth}`,
    `maxNodes=${options.maxNodes}`,
  ]);
}
