/**
 * Definitions in a workspace: the file names, the one directory walker and its skip list, the
 * slug and exact-semver patterns of the schema, semver ordering, the registry layout, the
 * identity read that indexing needs, the workspace root and the workspace defaults. Graph
 * inference, the compiler, the CLI and the generator all read these from here.
 *
 * Light on purpose (Nx loads graph inference on every command): node:fs, node:path and the
 * definition layer's parser only (which loads `yaml` on first use). Nothing here throws on bad input.
 */
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { definitionFormat, parseDefinitionText } from './parse-document';

/** The defaults shared by the plugin options, the executors and the compiler. */
export const WORKSPACE_DEFAULTS = {
  /** The immutable registry of published definitions, relative to the workspace root. */
  registryRoot: 'registry/agents',
  /** Where compiled agents go: `<outputRoot>/<slug or project>`. */
  outputRoot: 'dist/agents',
  /** The deepest composition resolution follows (the root is depth 0). */
  maxDepth: 16,
  /** The most definitions one resolved tree may hold, the root included. */
  maxNodes: 512,
} as const;

/** Where the workspace maps bundled tools to their code, and MCP servers to a command or a URL. */
export const TOOLS_FILE = 'tools.json';
export const MCP_FILE = 'mcp.json';

/**
 * The workspace-relative posix path of a tools.json module inside the workspace (`./tools/x.ts`
 * → `tools/x.ts`); undefined for a package name or a path that leaves the workspace. Graph
 * inference (the module is a compile input) and the compiler (the module must exist) both ask here.
 */
export function workspaceModulePath(module: string): string | undefined {
  if (!module.startsWith('./') || module.split('/').includes('..')) return undefined;
  return posix.normalize(module.slice(2));
}

/** The default compile output folder of an agent: `dist/agents/<slug>`. */
export function defaultOutputDir(slug: string): string {
  return `${WORKSPACE_DEFAULTS.outputRoot}/${slug}`;
}

/** The names a definition file may have, in order of preference when one folder holds several. */
export const DEFINITION_FILE_NAMES: readonly string[] = ['agent.json', 'agent.yaml', 'agent.yml'];

export function isDefinitionFileName(name: string): boolean {
  return DEFINITION_FILE_NAMES.includes(name);
}

/** The names an application manifest may have, in order of preference when one folder holds several. */
export const APPLICATION_FILE_NAMES: readonly string[] = ['application.json', 'application.yaml', 'application.yml'];

export function isApplicationFileName(name: string): boolean {
  return APPLICATION_FILE_NAMES.includes(name);
}

/** The `schemaVersion` every application manifest carries (a test keeps it equal to the manifest schema's). */
export const APPLICATION_MANIFEST_SCHEMA_VERSION = 'agentdef.application-manifest/v1';

/**
 * Whether a document is an application manifest: named like one, or, under another name, a parsed
 * value whose `schemaVersion` says it is one (an AgentDefinition's never does).
 */
export function isApplicationManifest(fileName: string, value?: unknown): boolean {
  if (isApplicationFileName(fileName)) return true;
  if (isDefinitionFileName(fileName) || value === null || typeof value !== 'object' || Array.isArray(value))
    return false;
  return (value as { schemaVersion?: unknown }).schemaVersion === APPLICATION_MANIFEST_SCHEMA_VERSION;
}

/**
 * Folders never searched for definitions: dependencies, VCS and Nx state, build output and
 * scratch space. Other dot-folders are searched, as Nx's own file map (and so graph inference)
 * sees them too.
 */
export const SKIPPED_DIRECTORIES: readonly string[] = ['.git', '.nx', 'dist', 'node_modules', 'tmp'];

export interface FindDefinitionsOptions {
  /** Directory names never entered (default {@link SKIPPED_DIRECTORIES}). */
  skipDirectories?: readonly string[];
  /** The file names to find (default {@link DEFINITION_FILE_NAMES}). */
  fileNames?: readonly string[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Root-relative posix paths of every definition file below `root`, sorted by code unit at each
 * level. Symbolic links are not followed (no loops, one path per file); unreadable folders are skipped.
 */
export function findDefinitionFiles(root: string, options: FindDefinitionsOptions = {}): string[] {
  const skip = new Set(options.skipDirectories ?? SKIPPED_DIRECTORIES);
  const names = new Set(options.fileNames ?? DEFINITION_FILE_NAMES);
  const found: string[] = [];
  const walk = (relDir: string) => {
    let entries;
    try {
      entries = readdirSync(relDir === '' ? root : join(root, relDir), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(rel);
      } else if (entry.isFile() && names.has(entry.name)) {
        found.push(rel);
      }
    }
  };
  walk('');
  return found;
}

/** `$defs/Slug` of the schema (a test keeps these equal to the schema). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 64;
/** `$defs/Semver` of the schema: groups 1-3 major, minor, patch; 4 pre-release; 5 build. */
export const EXACT_SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
export const SEMVER_MAX_LENGTH = 128;

/** A slug the schema accepts (pattern and length). */
export function isSlug(value: string): boolean {
  return value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}

/** An exact version the schema accepts (pattern and length): no ranges, no tags. */
export function isExactSemver(version: string): boolean {
  return parseSemver(version) !== undefined;
}

function parseSemver(version: string): RegExpExecArray | undefined {
  return version.length <= SEMVER_MAX_LENGTH ? (EXACT_SEMVER_PATTERN.exec(version) ?? undefined) : undefined;
}

function compareNumeric(a: string, b: string): number {
  return a.length - b.length || byCodeUnit(a, b);
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return compareNumeric(a, b);
  if (an) return -1;
  if (bn) return 1;
  return byCodeUnit(a, b);
}

/**
 * Semver 2.0.0 §11 precedence, only to list versions in a readable order (pins are matched
 * exactly, never by range). Invalid versions sort after valid ones, by string; build metadata
 * breaks ties by string.
 */
export function compareSemver(a: string, b: string): number {
  const ma = parseSemver(a);
  const mb = parseSemver(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : byCodeUnit(a, b);
  for (let i = 1; i <= 3; i++) {
    const c = compareNumeric(ma[i]!, mb[i]!);
    if (c !== 0) return c;
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === undefined || pb === undefined) {
    if (pa !== pb) return pa === undefined ? 1 : -1;
  } else {
    const ia = pa.split('.');
    const ib = pb.split('.');
    for (let i = 0; i < Math.max(ia.length, ib.length); i++) {
      if (ia[i] === undefined) return -1;
      if (ib[i] === undefined) return 1;
      const c = compareIdentifiers(ia[i]!, ib[i]!);
      if (c !== 0) return c;
    }
  }
  return byCodeUnit(a, b);
}

/** Distinct versions in ascending semver order. */
export function sortVersions(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareSemver);
}

/**
 * `slug@version`: what a pin and a definition's identity are matched on, exactly (never by
 * range). A pin resolves to the workspace definition with that key, else to its registry snapshot.
 */
export function pinKey(slug: string, version: string): string {
  return `${slug}@${version}`;
}

/** The KYM reference of `slug@version`: `kym://agents/<slug>@<version>`. */
export function kymRef(slug: string, version: string): string {
  return `kym://agents/${pinKey(slug, version)}`;
}

/** The folder holding every published version of `slug`: `<registryRoot>/<slug>`. */
export function registrySlugPath(registryRoot: string, slug: string): string {
  return `${registryRoot}/${slug}`;
}

/** The snapshot of `slug@version`: `<registryRoot>/<slug>/<version>.json` (posix separators). */
export function registrySnapshotPath(registryRoot: string, slug: string, version: string): string {
  return `${registrySlugPath(registryRoot, slug)}/${version}.json`;
}

/** The version a file name in a slug's registry folder holds, or undefined when it is no snapshot. */
export function registrySnapshotVersion(fileName: string): string | undefined {
  if (!fileName.endsWith('.json')) return undefined;
  const version = fileName.slice(0, -'.json'.length);
  return isExactSemver(version) ? version : undefined;
}

export interface DefinitionIdentity {
  slug: string;
  versionSemver: string;
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

/**
 * Reads `identity.slug` and `identity.versionSemver` from a definition's text with the
 * definition layer's parser, without validating them: any strings are returned as stated.
 * The format follows the file name (`.json`, else YAML).
 */
export function readIdentity(text: string, file: string): DefinitionIdentity | { reason: string } {
  let parsed: ReturnType<typeof parseDefinitionText>;
  try {
    parsed = parseDefinitionText(
      text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
      file,
      definitionFormat(file) ?? 'yaml',
    );
  } catch (error) {
    return { reason: `cannot be parsed (${String((error as Error)?.message ?? error).split('\n')[0]})` };
  }
  const first = parsed.diagnostics[0];
  if (!parsed.document) {
    if (first === undefined || first.rule === 'not-an-object')
      return { reason: 'has no string identity.slug and identity.versionSemver' };
    return { reason: `cannot be parsed (line ${first.line}: ${first.message})` };
  }
  const identity = field(parsed.document.value, 'identity');
  const slug = field(identity, 'slug');
  const versionSemver = field(identity, 'versionSemver');
  if (typeof slug !== 'string' || typeof versionSemver !== 'string')
    return { reason: 'has no string identity.slug and identity.versionSemver' };
  return { slug, versionSemver };
}

/** The workspace root for a file or folder (see workspace-root.ts). */
export { findWorkspaceRoot } from './workspace-root';
