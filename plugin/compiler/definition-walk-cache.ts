/**
 * `findDefinitionFiles` with each folder's listing kept in a cache file between processes: a
 * folder is listed again only when its `stat` differs from the one taken before it was listed
 * last (inode, modification and change times). Adding, removing or renaming an entry changes a
 * folder's modification time, and changing either time or the folder's permissions changes its
 * change time, which no one can set back; so a folder whose `stat` is unchanged still holds the
 * entries listed, and the result equals `findDefinitionFiles(root, options)` (same files, same
 * order), at the cost of one `stat` per folder instead of a listing.
 *
 * Racy folders: a folder changed within the clock tick after it was listed would keep its times,
 * so a listing is kept as proof only when the folder's times lie at least {@link RACY_MS} before
 * the listing began (as git does with its index); a newer one is listed again on the next walk.
 * The cache is data anyone can write: nothing in it is trusted beyond "this folder, if its stat
 * is this, lists these entries", every shape is checked, and a broken, foreign or oversized cache
 * file is an empty one. Only a regular file is read (never through a link, never a FIFO), and a
 * write replaces the file atomically. Never throws.
 */
import { ownField, readCacheText, writeCacheJson } from '../definition/cache-file';
import { readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import {
  DEFINITION_FILE_NAMES,
  SKIPPED_DIRECTORIES,
  type FindDefinitionsOptions,
} from '../definition/workspace-definitions';

/** A listing is proof only when its folder's times are this much older than the listing. */
export const RACY_MS = 2000;

/** A cache file larger than this is not read (200 folders take about 20 KiB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

const CACHE_FORMAT = 'agentdef-definition-walk/v1';

const NO_THROW = { throwIfNoEntry: false } as const;

/** One folder as listed: its stat when listed, the sub-folders the walk enters and the definition files it holds, each sorted. */
interface Listing {
  /** `[ino, mtimeMs, ctimeMs]`, or empty when the listing proves nothing (racy). */
  stat: number[];
  folders: string[];
  files: string[];
}

interface CacheFile {
  format: string;
  /** What the listings were made for: the skipped folder names and the file names looked for. */
  walk: string;
  listings: Record<string, Listing>;
}

export interface CachedWalkOptions extends FindDefinitionsOptions {
  /** How much older than the listing a folder's times must be for the listing to be kept as proof (default {@link RACY_MS}). */
  racyMs?: number;
}

export interface WalkCacheStats {
  /** Folders whose listing came from the cache. */
  reused: number;
  /** Folders listed. */
  listed: number;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const isStat = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length === 3 && value.every((item) => typeof item === 'number');

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The cache's stored listings for this walk (each checked for its shape when its folder is met), or none. */
function readListings(path: string, walk: string): Record<string, unknown> | undefined {
  const text = readCacheText(path, MAX_CACHE_BYTES);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (ownField(data, 'format') !== CACHE_FORMAT || ownField(data, 'walk') !== walk) return undefined;
  const stored = ownField(data, 'listings');
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored)
    ? (stored as Record<string, unknown>)
    : undefined;
}

/** The stored listing of `folder`, when it has the shape of one. */
function listingOf(stored: Record<string, unknown> | undefined, folder: string): Listing | undefined {
  const value = ownField(stored, folder);
  if (value === undefined) return undefined;
  const stat = ownField(value, 'stat');
  const folders = ownField(value, 'folders');
  const files = ownField(value, 'files');
  return isStat(stat) && isStringArray(folders) && isStringArray(files) ? { stat, folders, files } : undefined;
}

function writeListings(path: string, walk: string, listings: Map<string, Listing>): void {
  const file: CacheFile = { format: CACHE_FORMAT, walk, listings: Object.fromEntries(listings) };
  writeCacheJson(path, file);
}

/**
 * Root-relative posix paths of every definition file below `root`, exactly as
 * `findDefinitionFiles(root, options)` returns them, with folder listings kept in `cachePath`.
 */
export function findDefinitionFilesCached(
  root: string,
  cachePath: string,
  options: CachedWalkOptions = {},
  stats: WalkCacheStats = { reused: 0, listed: 0 },
): string[] {
  const racyMs = options.racyMs ?? RACY_MS;
  const skipped = options.skipDirectories ?? SKIPPED_DIRECTORIES;
  const fileNames = options.fileNames ?? DEFINITION_FILE_NAMES;
  const skip = new Set(skipped);
  const names = new Set(fileNames);
  const walk = JSON.stringify([[...skipped].sort(byCodeUnit), [...fileNames].sort(byCodeUnit)]);
  const stored = readListings(cachePath, walk);
  const prefix = root.endsWith(sep) ? root : root + sep;
  const kept = new Map<string, Listing>();
  let changed = false;
  const found: string[] = [];

  const list = (path: string, stat: number[], times: number): Listing => {
    const listedAt = Date.now(); // before the listing begins: a change after it shows in the times
    const listing: Listing = { stat, folders: [], files: [] };
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return listing; // unreadable: nothing below it, as findDefinitionFiles
    }
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) listing.folders.push(entry.name);
      } else if (entry.isFile() && names.has(entry.name)) listing.files.push(entry.name);
    }
    if (times >= listedAt - racyMs) listing.stat = [];
    return listing;
  };

  const visit = (relDir: string) => {
    const path = relDir === '' ? root : prefix + relDir;
    let info: ReturnType<typeof statSync>;
    try {
      info = statSync(path, NO_THROW);
    } catch {
      info = undefined; // not reachable: not listable either
    }
    if (info === undefined || !info.isDirectory()) {
      if (ownField(stored, relDir) !== undefined) changed = true;
      return;
    }
    const known = listingOf(stored, relDir);
    let listing: Listing;
    if (
      known !== undefined &&
      known.stat[0] === info.ino &&
      known.stat[1] === info.mtimeMs &&
      known.stat[2] === info.ctimeMs
    ) {
      stats.reused++;
      listing = known;
    } else {
      stats.listed++;
      changed = true;
      listing = list(path, [info.ino, info.mtimeMs, info.ctimeMs], Math.max(info.mtimeMs, info.ctimeMs));
    }
    if (listing.stat.length > 0) kept.set(relDir, listing);
    // Entries in sorted order, folders and files interleaved as the plain walk meets them.
    let f = 0;
    let d = 0;
    while (f < listing.files.length || d < listing.folders.length) {
      const file = listing.files[f];
      const folder = listing.folders[d];
      if (folder === undefined || (file !== undefined && file < folder)) {
        found.push(relDir === '' ? (file as string) : `${relDir}/${file}`);
        f++;
      } else {
        visit(relDir === '' ? folder : `${relDir}/${folder}`);
        d++;
      }
    }
  };
  visit('');
  // Rewritten when a folder was listed, or the file holds anything but the listings kept (gone folders, broken entries).
  if (changed || kept.size !== (stored === undefined ? 0 : Object.keys(stored).length))
    writeListings(cachePath, walk, kept);
  return found;
}
