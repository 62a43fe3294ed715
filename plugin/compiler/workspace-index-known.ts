/**
 * The workspace index of one plan when the caller already knows most definitions' identities (the
 * Nx executors: graph inference read every definition Nx sees, and each agent project's metadata
 * holds its file, slug and version). It answers {@link PinLookup} exactly as `indexWorkspace`
 * would for the same files, provided each known identity is what `readIdentity` gives for the file
 * as it is now:
 *  - the files are the compiler's own walk (`findDefinitionFiles`, here with its folder listings
 *    kept between runs, definition-walk-cache.ts, or that same walk's result as graph inference
 *    recorded it for this Nx command, `recordedWalk`), not the caller's list of known identities:
 *    a definition the caller never saw (in a folder Nx ignores, excluded from the plugin, or left
 *    out of the graph as the second of two with one slug) is found and read, and a known file the walk does not reach
 *    (below `dist`, `tmp`, ...) is not counted;
 *  - a walked file with a known identity is not read; every other walked file is read and its
 *    identity taken as `indexWorkspace` takes it (`identityOfFile`).
 * Nothing is walked or read until the first question (a plan without pins asks none). Never throws.
 */
import { findDefinitionFiles } from '../definition/workspace-definitions';
import { findDefinitionFilesCached, type WalkCacheStats } from '../definition/definition-walk-cache';
import {
  byVersionThenFile,
  definitionReader,
  identityOfFile,
  isNamedFor,
  type IndexOptions,
  type PinLookup,
  type UnreadableDefinition,
  type WorkspaceEntry,
} from './workspace-index';

/** A definition's identity as `readIdentity` reads it: both fields strings. */
export interface KnownIdentity {
  slug: string;
  versionSemver: string;
}

export interface KnownIndexOptions extends IndexOptions {
  /** Where the walk keeps its folder listings (definition-walk-cache.ts); without it, the plain walk. */
  walkCachePath?: string;
  /**
   * The walk's result as the caller already has it (the files graph inference's walk found for
   * this Nx command, definition-walk-record.ts; a walk with these same options), asked for once
   * at the first question; when it answers undefined, the index walks.
   */
  recordedWalk?: () => readonly string[] | undefined;
  /** Filled in as the index is built: what the walk reused and listed, and how many files were read. */
  stats?: KnownIndexStats;
}

export interface KnownIndexStats extends WalkCacheStats {
  /** Walked files whose identity was known. */
  known: number;
  /** Walked files read for their identity. */
  read: number;
  /** The files came from the caller's recorded walk (nothing walked). */
  recorded?: boolean;
}

/**
 * A {@link PinLookup} over the workspace's definitions, taking the identity of each file in
 * `known` (workspace-relative posix path → identity) instead of reading it.
 */
export function knownIdentityIndex(
  workspaceRoot: string,
  known: ReadonlyMap<string, KnownIdentity>,
  options: KnownIndexOptions = {},
): PinLookup {
  /**
   * The walked files with an identity, in walk order, and the unreadable ones. A plan asks for a
   * few slugs (its pins): each one's entries are picked out of the identities when first asked,
   * not every slug's list built up front.
   */
  let built:
    | { entries: WorkspaceEntry[]; bySlug: Map<string, WorkspaceEntry[]>; unreadable: UnreadableDefinition[] }
    | undefined;
  const build = () => {
    if (built) return built;
    const stats = options.stats ?? { reused: 0, listed: 0, known: 0, read: 0 };
    const walkOptions = {
      ...(options.skipDirectories ? { skipDirectories: options.skipDirectories } : {}),
      ...(options.fileNames ? { fileNames: options.fileNames } : {}),
    };
    const recorded = options.recordedWalk?.();
    if (recorded !== undefined) stats.recorded = true;
    const walked =
      recorded ??
      (options.walkCachePath === undefined
        ? findDefinitionFiles(workspaceRoot, walkOptions)
        : findDefinitionFilesCached(workspaceRoot, options.walkCachePath, walkOptions, stats));
    const entries: WorkspaceEntry[] = [];
    const unreadable: UnreadableDefinition[] = [];
    let read: ReturnType<typeof definitionReader> | undefined;
    for (const file of walked) {
      const identity = known.get(file);
      if (identity !== undefined) {
        stats.known++;
        entries.push({ slug: identity.slug, versionSemver: identity.versionSemver, file });
        continue;
      }
      stats.read++;
      read ??= definitionReader(workspaceRoot);
      const found = identityOfFile(file, read(file));
      if ('reason' in found) unreadable.push(found);
      else entries.push(found);
    }
    built = { entries, bySlug: new Map(), unreadable };
    return built;
  };
  return {
    definitionsOf: (slug) => {
      const { entries, bySlug } = build();
      let list = bySlug.get(slug);
      if (list === undefined) {
        list = entries.filter((entry) => entry.slug === slug).sort(byVersionThenFile);
        bySlug.set(slug, list);
      }
      return list;
    },
    unreadableNamed: (slug) => build().unreadable.filter((u) => isNamedFor(u.file, slug)),
  };
}
