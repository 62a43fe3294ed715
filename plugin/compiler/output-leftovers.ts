/**
 * What the output swap (write-output.ts) leaves beside a destination, and putting back a previous
 * output that a writer killed between the swap's two renames left aside. A leaf (it imports only
 * the output marker's guard and node), so every reader of an output folder (the target table's
 * `outputTarget`, which `run`, `dev`, `deploy` and the model session all use) restores the folder
 * before reading it, as the next write does.
 *
 * The swap names its folders `.<dest>.tmp-<pid>-<8 hex>` (the new output) and
 * `.<dest>.old-<pid>-<8 hex>` (the previous one, moved aside). The previous output is whole at its
 * aside name from the first rename on, so when the destination is missing and the aside's writer is
 * gone, moving it back is always right. Only a folder provably agentdef's is moved (leftoverKind),
 * only onto a destination that does not exist in any form, never while a writer of it still runs;
 * nothing is ever deleted here.
 */
import { lstatSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { OUTPUT_MARKER, parseMarker } from './output-guard';

/** Temp and aside folders of writes of this process that are running now (not leftovers). */
export const inFlight = new Set<string>();

/** The swap's folder `name` beside a destination called `destinationBase`: which kind and whose, or undefined. */
export function leftoverName(destinationBase: string, name: string): { kind: 'tmp' | 'old'; pid: number } | undefined {
  const prefix = `.${destinationBase}.`;
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(tmp|old)-(\d+)-[0-9a-f]{8}$/.exec(name.slice(prefix.length));
  return match ? { kind: match[1] as 'tmp' | 'old', pid: Number(match[2]) } : undefined;
}

/** Whether process `pid` of this machine still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the write that made the swap folder at `path` (by process `pid`) may still be running. */
export function writerRunning(path: string, pid: number): boolean {
  return inFlight.has(path) || (pid !== process.pid && alive(pid));
}

/**
 * What a folder with one of the writer's temp or aside names holds: `output` when its marker is
 * whole and it holds nothing the marker does not list, `unfinished` when it is empty or holds only a
 * marker cut short (the writer died right after creating it), otherwise `undefined`: not provably
 * the writer's, so it is never touched. A link is never the writer's.
 */
export function leftoverKind(path: string): 'output' | 'unfinished' | undefined {
  try {
    if (!lstatSync(path).isDirectory()) return undefined;
    const entries = readdirSync(path);
    if (entries.length === 0) return 'unfinished';
    const markerPath = join(path, OUTPUT_MARKER);
    if (!lstatSync(markerPath).isFile()) return undefined;
    const listed = parseMarker(readFileSync(markerPath, 'utf8'));
    if (!listed) return entries.length === 1 ? 'unfinished' : undefined;
    const tops = new Set(listed.map((file) => file.split('/')[0]));
    return entries.every((entry) => entry === OUTPUT_MARKER || tops.has(entry)) ? 'output' : undefined;
  } catch {
    return undefined;
  }
}

export type RestoreResult =
  /** The destination exists (in any form): nothing was looked at or moved. */
  | { state: 'present' }
  /** The destination was missing; the previous output, left aside by a writer that is gone, is back. */
  | { state: 'restored'; from: string }
  /** The destination is missing because a writer that still runs (process `pid`) is between its two renames. */
  | { state: 'busy'; pid: number }
  /** The destination is missing and nothing beside it is provably a previous output to put back. */
  | { state: 'missing' };

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts back the previous output of `destination` when a writer was killed between the swap's two
 * renames. Idempotent, and safe against a concurrent writer or restorer: it moves nothing while a
 * writer of this destination that still runs has its previous output aside (that writer is between
 * its renames and puts its new output in place itself), moves only with one rename onto a name
 * that does not exist (a rename that loses a race to another writer or restorer fails and changes
 * nothing), and deletes nothing. Never throws.
 */
export function restoreOutputFolder(destinationPath: string): RestoreResult {
  const destination = resolve(destinationPath);
  const parent = dirname(destination);
  const base = basename(destination);
  if (base === '' || parent === destination || exists(destination)) return { state: 'present' };
  let names: string[];
  try {
    if (!statSync(parent).isDirectory()) return { state: 'missing' };
    names = readdirSync(parent).sort();
  } catch {
    return { state: 'missing' };
  }
  const asides: string[] = [];
  for (const name of names) {
    const leftover = leftoverName(base, name);
    if (leftover?.kind !== 'old') continue;
    if (writerRunning(join(parent, name), leftover.pid)) return { state: 'busy', pid: leftover.pid };
    asides.push(name);
  }
  for (const name of asides) {
    const path = join(parent, name);
    if (leftoverKind(path) !== 'output') continue;
    try {
      renameSync(path, destination);
      return { state: 'restored', from: name };
    } catch {
      // Another writer or restorer got there first (or the folder went away): nothing changed.
      if (exists(destination)) return { state: 'present' };
    }
  }
  return { state: 'missing' };
}
