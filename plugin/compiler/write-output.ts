/**
 * Writes one compile output folder atomically: every file goes into a sibling temp folder first,
 * then the temp folder is renamed over the destination (the previous output is moved aside and
 * removed afterwards). Any failure leaves the previous output exactly as it was. Never throws.
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EmittedFile } from './targets';

/** The file-system calls the writer makes; tests replace some to inject failures. */
export interface OutputFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, contents: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  /** Resolves true when something exists at `path` (not following a final symlink). */
  exists(path: string): Promise<boolean>;
}

export const nodeOutputFs: OutputFs = {
  mkdir: (path, options) => nodeFs.mkdir(path, options),
  writeFile: (path, contents) => nodeFs.writeFile(path, contents, 'utf8'),
  rename: (from, to) => nodeFs.rename(from, to),
  rm: (path, options) => nodeFs.rm(path, options),
  exists: (path) =>
    nodeFs.lstat(path).then(
      () => true,
      () => false,
    ),
};

export interface WriteOutputOptions {
  fs?: Partial<OutputFs>;
  /** How messages name the destination (default: its base name); never an absolute path in output. */
  displayName?: string;
}

export type WriteOutputResult = { ok: true; warning?: string } | { ok: false; error: string };

/** A safe relative output path: posix, no `..`, no empty or `.` segments, not absolute. */
export function checkOutputPath(path: string): string | undefined {
  if (path === '' || path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path) || path.includes('\0')) return `"${path}" is not a relative posix path`;
  if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) return `"${path}" has an empty, "." or ".." segment`;
  return undefined;
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}${e.syscall ? ` (${e.syscall})` : ''}` : String(e.message ?? error);
}

export async function writeOutputAtomic(destination: string, files: readonly EmittedFile[], options: WriteOutputOptions = {}): Promise<WriteOutputResult> {
  const fs: OutputFs = { ...nodeOutputFs, ...options.fs };
  const name = options.displayName ?? basename(destination);

  const seen = new Set<string>();
  for (const file of files) {
    const problem = checkOutputPath(file.path);
    if (problem) return { ok: false, error: `cannot write ${name}: ${problem}` };
    if (seen.has(file.path)) return { ok: false, error: `cannot write ${name}: "${file.path}" is emitted twice` };
    seen.add(file.path);
  }
  // A directory and a file of the same name cannot both exist.
  for (const path of seen) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (seen.has(prefix)) return { ok: false, error: `cannot write ${name}: "${prefix}" is both a file and a folder` };
    }
  }

  const parent = dirname(destination);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.${basename(destination)}.tmp-${suffix}`);
  const aside = join(parent, `.${basename(destination)}.old-${suffix}`);

  try {
    await fs.mkdir(parent, { recursive: true });
    await fs.mkdir(temp, { recursive: true });
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    return { ok: false, error: `cannot write ${name}: cannot create a temporary folder beside it: ${describe(error)}` };
  }

  let current = '';
  try {
    for (const file of files) {
      current = file.path;
      const target = join(temp, ...file.path.split('/'));
      await fs.mkdir(dirname(target), { recursive: true });
      await fs.writeFile(target, file.contents);
    }
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    return { ok: false, error: `cannot write ${name}/${current}: ${describe(error)}; the previous output is unchanged` };
  }

  let movedAside = false;
  try {
    if (await fs.exists(destination)) {
      await fs.rename(destination, aside);
      movedAside = true;
    }
    await fs.rename(temp, destination);
  } catch (error) {
    let restore = '';
    if (movedAside) {
      try {
        await fs.rename(aside, destination);
      } catch (restoreError) {
        restore = `; the previous output could not be moved back and is kept at ${basename(aside)} (${describe(restoreError)})`;
      }
    }
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    return { ok: false, error: `cannot replace ${name}: ${describe(error)}${restore || '; the previous output is unchanged'}` };
  }

  if (movedAside) {
    try {
      await fs.rm(aside, { recursive: true, force: true });
    } catch (error) {
      return { ok: true, warning: `the new output is in place, but the previous one could not be removed from ${basename(aside)}: ${describe(error)}` };
    }
  }
  return { ok: true };
}
