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
 * is this, lists these entries", every shape is checked (a listed name is never empty, `.` or
 * `..`, a skipped folder or a file the walk does not look for, and each list is in order), and a
 * broken, foreign or oversized cache file is an empty one. Only a regular file is read (never through a link, never a FIFO), and a
 * write replaces the file atomically. Never throws.
 */
import { ownField, readCacheText, writeCacheJson } from './cache-file';
import { readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { DEFINITION_FILE_NAMES, SKIPPED_DIRECTORIES, type FindDefinitionsOptions } from './workspace-definitions';

/** A listing is proof only when its folder's times are this much older than the listing. */
export const RACY_MS = 2000;

/** A cache file larger than this is not read (200 folders take about 17 KiB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

const CACHE_FORMAT = 'agentdef-definition-walk/v2';

const NO_THROW = { throwIfNoEntry: false } as const;

/** Bytes of one folder's stat in the cache: `ino`, `mtimeMs`, `ctimeMs`, each a little-endian float64. */
const STAT_BYTES = 24;

/**
 * The cache file. Each kept folder is one entry, in the order the walk met them: its stat in
 * `stats` (base64 of {@link STAT_BYTES} per entry, so reading the numbers costs no parsing) and
 * `${folder}\0${sub-folders joined by "/"}\0${definition files joined by "/"}` in `entries` (a
 * name holds neither `/` nor NUL). One string per folder keeps the parse of the file, which every
 * plan pays for the whole workspace, small.
 */
interface CacheFile {
  format: string;
  /** What the listings were made for: the skipped folder names and the file names looked for. */
  walk: string;
  stats: string;
  entries: string[];
}

/** One folder as listed: the sub-folders the walk enters and the definition files it holds, each sorted. */
interface Listing {
  folders: string[];
  files: string[];
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

/** The cache's entries and their stats for this walk (each entry checked when its folder is met), or none. */
interface Stored {
  entries: string[];
  stats: Buffer;
  /** `stats`, read as numbers. */
  view: DataView;
}

function readStored(path: string, walk: string): Stored | undefined {
  const text = readCacheText(path, MAX_CACHE_BYTES);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (ownField(data, 'format') !== CACHE_FORMAT || ownField(data, 'walk') !== walk) return undefined;
  const entries = ownField(data, 'entries');
  const stats = ownField(data, 'stats');
  if (!Array.isArray(entries) || typeof stats !== 'string') return undefined;
  const bytes = Buffer.from(stats, 'base64');
  return bytes.length === entries.length * STAT_BYTES
    ? { entries, stats: bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.length) }
    : undefined;
}

/** The names of one part of an entry, when each is a name the walk could have listed there, in strictly ascending order. */
function namesOf(part: string, set: ReadonlySet<string>, inSet: boolean): string[] | undefined {
  if (part === '') return [];
  if (!part.includes('/')) return part === '.' || part === '..' || set.has(part) !== inSet ? undefined : [part];
  const names = part.split('/');
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name === '' || name === '.' || name === '..' || set.has(name) !== inSet) return undefined;
    if (i > 0 && !((names[i - 1] as string) < name)) return undefined;
  }
  return names;
}

/** A folder listed in this walk, kept for the next one. */
interface NewEntry {
  entry: string;
  stat: [number, number, number];
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
  const stored = readStored(cachePath, walk);
  const prefix = root.endsWith(sep) ? root : root + sep;
  // What is kept for the next walk, in the order the walk meets the folders: a stored entry's
  // index (entry and stat as stored), or a folder listed now.
  const kept: Array<number | NewEntry> = [];
  let changed = false;
  const found: string[] = [];
  // The stored entries are met in their order while nothing changed; any other folder is looked up.
  let next = 0;
  let byFolder: Map<string, number> | undefined;
  const storedIndexOf = (relDir: string): number | undefined => {
    if (stored === undefined) return undefined;
    const at = stored.entries[next];
    if (typeof at === 'string' && at.charCodeAt(relDir.length) === 0 && at.startsWith(relDir)) return next++;
    if (byFolder === undefined) {
      byFolder = new Map();
      for (let i = 0; i < stored.entries.length; i++) {
        const entry = stored.entries[i];
        if (typeof entry !== 'string') continue;
        const end = entry.indexOf('\0');
        if (end < 0) continue;
        const folder = entry.slice(0, end);
        if (!byFolder.has(folder)) byFolder.set(folder, i);
      }
    }
    const index = byFolder.get(relDir);
    if (index !== undefined) next = index + 1;
    return index;
  };
  /** The stored listing at `index` (its entry begins with `relDir` and NUL) when `info` is the stat it was listed with and it has the shape of one. */
  const storedListing = (index: number, relDir: string, info: { ino: number; mtimeMs: number; ctimeMs: number }) => {
    const view = (stored as Stored).view;
    const at = index * STAT_BYTES;
    if (
      view.getFloat64(at, true) !== info.ino ||
      view.getFloat64(at + 8, true) !== info.mtimeMs ||
      view.getFloat64(at + 16, true) !== info.ctimeMs
    )
      return undefined;
    const entry = (stored as Stored).entries[index] as string;
    const start = relDir.length + 1;
    const between = entry.indexOf('\0', start);
    if (between < 0 || entry.indexOf('\0', between + 1) >= 0) return undefined;
    const folders = namesOf(entry.slice(start, between), skip, false);
    const files = namesOf(entry.slice(between + 1), names, true);
    return folders !== undefined && files !== undefined ? { folders, files } : undefined;
  };

  const list = (path: string, times: number): Listing & { racy: boolean } => {
    const listedAt = Date.now(); // before the listing begins: a change after it shows in the times
    const listing = { folders: [] as string[], files: [] as string[], racy: times >= listedAt - racyMs };
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
    const index = storedIndexOf(relDir);
    if (info === undefined || !info.isDirectory()) {
      if (index !== undefined) changed = true;
      return;
    }
    const known = index === undefined ? undefined : storedListing(index, relDir, info);
    let listing: Listing;
    if (known !== undefined) {
      stats.reused++;
      listing = known;
      kept.push(index as number);
    } else {
      stats.listed++;
      changed = true;
      const listed = list(path, Math.max(info.mtimeMs, info.ctimeMs));
      listing = listed;
      if (!listed.racy)
        kept.push({
          entry: `${relDir}\0${listed.folders.join('/')}\0${listed.files.join('/')}`,
          stat: [info.ino, info.mtimeMs, info.ctimeMs],
        });
    }
    // Entries in sorted order, folders and files interleaved as the plain walk meets them.
    const { files, folders } = listing;
    const base = relDir === '' ? '' : `${relDir}/`;
    if (folders.length === 0) {
      for (const file of files) found.push(base + file);
      return;
    }
    let f = 0;
    let d = 0;
    while (f < files.length || d < folders.length) {
      const file = files[f];
      const folder = folders[d];
      if (folder === undefined || (file !== undefined && file < folder)) {
        found.push(base + file);
        f++;
      } else {
        visit(base + folder);
        d++;
      }
    }
  };
  visit('');
  // Rewritten when a folder was listed, or the file holds anything but the listings kept (gone folders, broken entries).
  if (changed || kept.length !== (stored === undefined ? 0 : stored.entries.length))
    writeStored(cachePath, walk, kept, stored);
  return found;
}

function writeStored(path: string, walk: string, kept: Array<number | NewEntry>, stored: Stored | undefined): void {
  const bytes = Buffer.alloc(kept.length * STAT_BYTES);
  const entries: string[] = [];
  kept.forEach((item, i) => {
    if (typeof item === 'number') {
      (stored as Stored).stats.copy(bytes, i * STAT_BYTES, item * STAT_BYTES, (item + 1) * STAT_BYTES);
      entries.push((stored as Stored).entries[item] as string);
    } else {
      item.stat.forEach((value, k) => bytes.writeDoubleLE(value, i * STAT_BYTES + k * 8));
      entries.push(item.entry);
    }
  });
  const file: CacheFile = { format: CACHE_FORMAT, walk, stats: bytes.toString('base64'), entries };
  writeCacheJson(path, file);
}
