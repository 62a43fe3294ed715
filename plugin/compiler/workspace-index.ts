/**
 * Indexes every definition file of a workspace by slug, reading only the two fields resolution
 * needs (`identity.slug`, `identity.versionSemver`). No validation here: a pin that lands on a
 * file validates that file, located in its own text. Finding the files is
 * plugin/definition/workspace-definitions.ts's; each is read like any definition
 * (plugin/definition/read-source.ts: a regular file inside the workspace, size-limited).
 */
import { join } from 'node:path';
import { readDefinitionSource } from '../definition/read-source';
import { compareSemver, findDefinitionFiles, readIdentity, type FindDefinitionsOptions } from '../definition/workspace-definitions';

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

export type IndexOptions = FindDefinitionsOptions;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function indexWorkspace(workspaceRoot: string, options: IndexOptions = {}): WorkspaceIndex {
  const bySlug = new Map<string, WorkspaceEntry[]>();
  const unreadable: { file: string; reason: string }[] = [];
  for (const file of findDefinitionFiles(workspaceRoot, options)) {
    const source = readDefinitionSource(join(workspaceRoot, file), file, undefined, workspaceRoot);
    if (source.text === undefined) {
      const why = source.ioError?.slice(`cannot read ${file}: `.length) ?? source.diagnostics[0]?.message ?? 'unreadable';
      unreadable.push({ file, reason: `cannot be read (${why})` });
      continue;
    }
    const identity = readIdentity(source.text, file);
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
