/**
 * Finds every definition file of a workspace and indexes it by slug, reading only the two fields
 * resolution needs (`identity.slug`, `identity.versionSemver`). No validation here: a pin that
 * lands on a file validates that file, located in its own text.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { compareSemver } from './semver';

export const DEFINITION_FILE_NAMES: readonly string[] = ['agent.json', 'agent.yaml', 'agent.yml'];
export const SKIPPED_DIRECTORIES: readonly string[] = ['node_modules', 'dist', '.nx', 'tmp', '.git'];

export interface WorkspaceEntry {
  slug: string;
  versionSemver: string;
  /** Workspace-relative, posix separators. */
  file: string;
}

export interface WorkspaceIndex {
  /** slug → its definitions, ascending by version, then by file. */
  bySlug: ReadonlyMap<string, readonly WorkspaceEntry[]>;
  /** Definition files whose slug and version could not be read (they are reported when pinned). */
  unreadable: readonly { file: string; reason: string }[];
}

export interface IndexOptions {
  /** Directory names never entered (default {@link SKIPPED_DIRECTORIES}). */
  skipDirectories?: readonly string[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Workspace-relative posix paths of every definition file below `workspaceRoot`, in a stable order. */
export function findDefinitionFiles(workspaceRoot: string, options: IndexOptions = {}): string[] {
  const skip = new Set(options.skipDirectories ?? SKIPPED_DIRECTORIES);
  const found: string[] = [];
  const walk = (relDir: string) => {
    let entries;
    try {
      entries = readdirSync(relDir === '' ? workspaceRoot : join(workspaceRoot, relDir), { withFileTypes: true });
    } catch {
      return; // unreadable directories hold nothing we can resolve to
    }
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      // Symbolic links are not followed: no loops, and every file has one workspace path.
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(rel);
      } else if (entry.isFile() && DEFINITION_FILE_NAMES.includes(entry.name)) {
        found.push(rel);
      }
    }
  };
  walk('');
  return found;
}

/** Reads `identity.slug` and `identity.versionSemver` from a definition's text, without validating it. */
export function readIdentity(text: string, file: string): { slug: string; versionSemver: string } | { reason: string } {
  let value: unknown;
  try {
    value = file.endsWith('.json') ? JSON.parse(text.replace(/^\uFEFF/, '')) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    return { reason: `cannot be parsed (${(error as Error).message.split('\n')[0]})` };
  }
  const identity = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['identity'] : undefined;
  const fields = identity !== null && typeof identity === 'object' ? (identity as Record<string, unknown>) : {};
  const slug = fields['slug'];
  const versionSemver = fields['versionSemver'];
  if (typeof slug !== 'string' || typeof versionSemver !== 'string') return { reason: 'has no string identity.slug and identity.versionSemver' };
  return { slug, versionSemver };
}

export function indexWorkspace(workspaceRoot: string, options: IndexOptions = {}): WorkspaceIndex {
  const bySlug = new Map<string, WorkspaceEntry[]>();
  const unreadable: { file: string; reason: string }[] = [];
  for (const file of findDefinitionFiles(workspaceRoot, options)) {
    let text: string;
    try {
      text = readFileSync(join(workspaceRoot, file), 'utf8');
    } catch (error) {
      unreadable.push({ file, reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    const identity = readIdentity(text, file);
    if ('reason' in identity) {
      unreadable.push({ file, reason: identity.reason });
      continue;
    }
    const list = bySlug.get(identity.slug) ?? [];
    list.push({ ...identity, file });
    bySlug.set(identity.slug, list);
  }
  for (const list of bySlug.values()) list.sort((a, b) => compareSemver(a.versionSemver, b.versionSemver) || byCodeUnit(a.file, b.file));
  return { bySlug, unreadable };
}

/** The workspace definitions of `slug` whose version is exactly `version` (more than one is an ambiguity). */
export function lookupWorkspace(index: WorkspaceIndex, slug: string, version: string): WorkspaceEntry[] {
  return (index.bySlug.get(slug) ?? []).filter((e) => e.versionSemver === version);
}

/**
 * The workspace root for a file or folder: the nearest ancestor (itself included) holding
 * `nx.json`, else the nearest holding `package.json`, else undefined.
 */
export function findWorkspaceRoot(start: string): string | undefined {
  let packageRoot: string | undefined;
  let dir = resolvePath(start);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (packageRoot === undefined && existsSync(join(dir, 'package.json'))) packageRoot = dir;
    const parent = dirname(dir);
    if (parent === dir) return packageRoot;
    dir = parent;
  }
}
