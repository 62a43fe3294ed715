/**
 * Indexes every definition file of a workspace by slug, reading only the two fields resolution
 * needs (`identity.slug`, `identity.versionSemver`). No validation here: a pin that lands on a
 * file validates that file, located in its own text. Finding the files is
 * plugin/definition/workspace-definitions.ts's; each is read like any definition
 * (plugin/definition/read-source.ts: a regular file inside the workspace, size-limited).
 *
 * Resolution asks the index only about the slugs it pins ({@link PinLookup}): this eager index
 * answers from the whole workspace read and parsed up front, for callers that keep it or list it;
 * workspace-index-lazy.ts answers the same questions for one plan, parsing only the files that
 * can state the slug asked about.
 */
import { join } from 'node:path';
import {
  decodeSource,
  readSourceBytes,
  resolveFolder,
  type DefinitionSource,
  type SourceBytes,
} from '../definition/read-source';
import {
  compareSemver,
  findDefinitionFiles,
  readIdentity,
  type FindDefinitionsOptions,
} from '../definition/workspace-definitions';

export interface WorkspaceEntry {
  slug: string;
  versionSemver: string;
  /** Workspace-relative, posix separators. */
  file: string;
}

export interface UnreadableDefinition {
  file: string;
  reason: string;
}

/** What resolution asks of the workspace's definitions, one pinned slug at a time. */
export interface PinLookup {
  /** The definitions stating `slug`, ascending by version, then by file. */
  definitionsOf(slug: string): readonly WorkspaceEntry[];
  /** Definition files whose slug and version could not be read and whose path has a folder (or file) named `slug`, in walk order. */
  unreadableNamed(slug: string): readonly UnreadableDefinition[];
}

export interface WorkspaceIndex extends PinLookup {
  /** slug → its definitions, ascending by version, then by file. */
  bySlug: ReadonlyMap<string, readonly WorkspaceEntry[]>;
  /** Definition files whose slug and version could not be read (they are reported when pinned). */
  unreadable: readonly UnreadableDefinition[];
}

export type IndexOptions = FindDefinitionsOptions;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Index order: ascending by version, then by file. */
export function byVersionThenFile(a: WorkspaceEntry, b: WorkspaceEntry): number {
  return compareSemver(a.versionSemver, b.versionSemver) || byCodeUnit(a.file, b.file);
}

/** True when `file` lies in a folder named `slug` (or is named so): where an unreadable file may be the slug's. */
export function isNamedFor(file: string, slug: string): boolean {
  return file.split('/').includes(slug);
}

/**
 * Reads workspace definition files as every definition is read (a regular file inside the
 * workspace, size-limited), the workspace's real path resolved once for all of them.
 */
export function definitionReader(workspaceRoot: string): (file: string) => SourceBytes {
  const within = resolveFolder(workspaceRoot) ?? workspaceRoot;
  return (file) => readSourceBytes(join(workspaceRoot, file), file, undefined, within);
}

/** What the index records of one definition file read as `read`: its identity, or why it has none. */
export function identityOfFile(file: string, read: SourceBytes): WorkspaceEntry | UnreadableDefinition {
  const source: DefinitionSource = read.bytes === undefined ? read : decodeSource(read.bytes, file);
  if (source.text === undefined) {
    const why = source.ioError?.slice(`cannot read ${file}: `.length) ?? source.diagnostics[0]?.message ?? 'unreadable';
    return { file, reason: `cannot be read (${why})` };
  }
  const identity = readIdentity(source.text, file);
  return 'reason' in identity ? { file, reason: identity.reason } : { ...identity, file };
}

export function indexWorkspace(workspaceRoot: string, options: IndexOptions = {}): WorkspaceIndex {
  const bySlug = new Map<string, WorkspaceEntry[]>();
  const unreadable: UnreadableDefinition[] = [];
  const read = definitionReader(workspaceRoot);
  for (const file of findDefinitionFiles(workspaceRoot, options)) {
    const found = identityOfFile(file, read(file));
    if ('reason' in found) {
      unreadable.push(found);
      continue;
    }
    const list = bySlug.get(found.slug) ?? [];
    list.push(found);
    bySlug.set(found.slug, list);
  }
  for (const list of bySlug.values()) list.sort(byVersionThenFile);
  return {
    bySlug,
    unreadable,
    definitionsOf: (slug) => bySlug.get(slug) ?? [],
    unreadableNamed: (slug) => unreadable.filter((u) => isNamedFor(u.file, slug)),
  };
}

/** The workspace definitions of `slug` whose version is exactly `version` (more than one is an ambiguity). */
export function lookupWorkspace(index: PinLookup, slug: string, version: string): WorkspaceEntry[] {
  return index.definitionsOf(slug).filter((e) => e.versionSemver === version);
}
