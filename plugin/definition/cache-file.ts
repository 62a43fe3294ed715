/**
 * The files agentdef keeps between Nx runs in Nx's workspace data (the graph's inference cache,
 * the definition walk's folder listings): untrusted data, read and written defensively. Reading
 * takes only a regular file (never through a symbolic link, which could lead anywhere, or to a FIFO
 * that would block Nx; never a FIFO or device: opened without blocking, then checked), never one
 * past its size bound; writing replaces the file atomically, and a cache that cannot be written is
 * no error. The callers check every value of what they read for its shape.
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** The text of the cache file at `path`, or undefined (absent, not a regular file, larger than `maxBytes`, unreadable). */
export function readCacheText(path: string, maxBytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    // Only the size it had when checked: a file still growing cannot push the read past the bound.
    const bytes = Buffer.alloc(stat.size);
    let length = 0;
    for (let read = -1; read !== 0 && length < bytes.length; length += read)
      read = readSync(fd, bytes, length, bytes.length - length, length);
    return bytes.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `value` as the JSON cache file at `path`, replaced atomically; a failure leaves no temp file and is ignored. */
export function writeCacheJson(path: string, value: unknown): void {
  writeCacheText(path, JSON.stringify(value));
}

/** `text` as the cache file at `path`, replaced atomically; a failure leaves no temp file and is ignored. */
export function writeCacheText(path: string, text: string): void {
  replaceCacheEntry(path, (temp) => writeFileSync(temp, text, { flag: 'wx' }));
}

/**
 * Makes the entry at `path` with `make` (which creates the new entry at the temp path it is given)
 * and renames it over `path`, replacing whatever stands at `path` itself, never a link's target.
 * True when it was replaced; on failure no temp entry is left and nothing throws.
 */
export function replaceCacheEntry(path: string, make: (temp: string) => void): boolean {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    make(temp);
    renameSync(temp, path);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // no temp entry could be made (the folder is not one): nothing to remove
    }
    return false;
  }
}

/** `key` of `value` when it is a plain object holding it as its own property. */
export function ownField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
