/**
 * The one writer of output folders. It first asks the guard (output-guard.ts) whether the
 * destination is agentdef's to replace, and refuses anything else before a byte moves. Then it
 * writes atomically: every file, and the marker that lists them, goes into a sibling temp folder,
 * and the temp folder is renamed over the destination (the previous output is moved aside and
 * removed afterwards). Any failure leaves the previous output exactly as it was; what a crash
 * between the two renames leaves behind is recovered by the next write. Never throws.
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkDestination, markerContents, OUTPUT_MARKER, parseMarker } from './output-guard';
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
  /** Absolute workspace root: the guard never lets the output replace, hold or escape it. */
  workspaceRoot: string;
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

/** Whether process `pid` of this machine still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Leftovers of a write that died between its renames: a previous output moved aside while the
 * destination is missing is moved back; temp and aside folders of dead writers that carry the
 * marker are removed. Folders without the marker, or of a writer still running, are left alone.
 */
async function recoverLeftovers(destination: string, fs: OutputFs): Promise<void> {
  const parent = dirname(destination);
  const prefix = `.${basename(destination)}.`;
  let names: string[];
  try {
    names = (await nodeFs.readdir(parent)).filter((n) => n.startsWith(prefix)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^\.(tmp|old)-(\d+)-[0-9a-f]{8}$/.exec(name.slice(prefix.length - 1));
    if (!match || alive(Number(match[2]))) continue;
    const path = join(parent, name);
    const marker = await nodeFs.readFile(join(path, OUTPUT_MARKER), 'utf8').catch(() => undefined);
    if (marker === undefined || !parseMarker(marker)) continue;
    if (match[1] === 'old' && !(await fs.exists(destination))) {
      await fs.rename(path, destination).catch(() => undefined);
      continue;
    }
    await fs.rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

export async function writeOutputAtomic(destinationPath: string, files: readonly EmittedFile[], options: WriteOutputOptions): Promise<WriteOutputResult> {
  const fs: OutputFs = { ...nodeOutputFs, ...options.fs };
  const destination = resolve(destinationPath);
  const name = options.displayName ?? basename(destination);

  const seen = new Set<string>();
  for (const file of files) {
    const problem = checkOutputPath(file.path);
    if (problem) return { ok: false, error: `cannot write ${name}: ${problem}` };
    if (file.path === OUTPUT_MARKER) return { ok: false, error: `cannot write ${name}: "${OUTPUT_MARKER}" is the writer's own marker` };
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

  try {
    await recoverLeftovers(destination, fs);
    const refusal = await checkDestination({ destination, workspaceRoot: resolve(options.workspaceRoot), display: name });
    if (refusal) return { ok: false, error: refusal };
  } catch (error) {
    return { ok: false, error: `cannot write ${name}: cannot inspect the destination: ${describe(error)}` };
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

  let current = OUTPUT_MARKER;
  try {
    // The marker first: a temp folder left by a crash is then recognisably the writer's own.
    await fs.writeFile(join(temp, OUTPUT_MARKER), markerContents([...seen]));
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
