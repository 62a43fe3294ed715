/**
 * The one writer of output folders. It first asks the guard (output-guard.ts) whether the
 * destination is agentdef's to replace, and refuses anything else before a byte moves. Then it
 * writes atomically: every file, and the marker that lists them, goes into a sibling temp folder,
 * and the temp folder is renamed over the destination (the previous output is moved aside and
 * removed afterwards). The two renames run back to back, synchronously, with SIGINT/SIGTERM/SIGHUP
 * held until both are done, so the destination is always the previous or the new output. Any
 * failure leaves the previous output exactly as it was; what a SIGKILL between the two renames
 * leaves behind is moved back by the next write or the next reader of the output
 * (output-leftovers.ts), and dead writers' leftovers are removed by the next write. Never throws.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { withSignalsDeferred } from '../definition/defer-signals';
import { checkDestination, markerContents, OUTPUT_MARKER } from './output-guard';
import { inFlight, leftoverKind, leftoverName, writerRunning } from './output-leftovers';
import type { EmittedFile } from '../targets/target';

/** The file-system calls the writer makes; tests replace some to inject failures. */
export interface OutputFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, contents: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** The swap's two renames are synchronous, back to back: no other code runs between them. */
  renameSync(from: string, to: string): void;
  existsSync(path: string): boolean;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  /** Resolves true when something exists at `path` (not following a final symlink). */
  exists(path: string): Promise<boolean>;
}

function existsSync(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Node's file system. Folders and files of the new output are made synchronously behind the
 * promises the interface asks for: they are small, and an asynchronous call costs a round trip
 * through the thread pool that took longer than the call itself. The rest stays asynchronous, so
 * a termination signal held during the swap takes effect while the previous output is removed.
 */
export const nodeOutputFs: OutputFs = {
  mkdir: async (path, options) => mkdirSync(path, options),
  writeFile: async (path, contents) => writeFileSync(path, contents, 'utf8'),
  rename: (from, to) => nodeFs.rename(from, to),
  renameSync: (from, to) => renameSync(from, to),
  existsSync,
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
  if (path === '' || path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path) || path.includes('\0'))
    return `"${path}" is not a relative posix path`;
  if (path.split('/').some((s) => s === '' || s === '.' || s === '..'))
    return `"${path}" has an empty, "." or ".." segment`;
  return undefined;
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}${e.syscall ? ` (${e.syscall})` : ''}` : String(e.message ?? error);
}

/**
 * Removes a folder of the writer's own with its marker last, so that a removal cut short still
 * leaves a folder the next write recognises as the writer's and finishes removing.
 */
async function removeOwnFolder(path: string, fs: OutputFs): Promise<void> {
  const entries = (await nodeFs.readdir(path)).filter((entry) => entry !== OUTPUT_MARKER);
  const failed = firstRejection(
    await Promise.allSettled(entries.map((entry) => fs.rm(join(path, entry), { recursive: true, force: true }))),
  );
  if (failed) throw failed.reason;
  await fs.rm(path, { recursive: true, force: true });
}

/** The first rejected result, in the order the calls were made (so a failure is reported as if they had run one by one). */
function firstRejection(
  results: readonly PromiseSettledResult<unknown>[],
): { index: number; reason: unknown } | undefined {
  const index = results.findIndex((result) => result.status === 'rejected');
  return index < 0 ? undefined : { index, reason: (results[index] as PromiseRejectedResult).reason };
}

/**
 * Leftovers of writes that died: a previous output moved aside while the destination is missing
 * (a SIGKILL between the swap's two renames) is moved back; temp and aside folders of dead writers
 * are removed when they are provably the writer's (leftoverKind). This process's own count as dead
 * unless a write of it is running now. Anything else, or a writer still running, is left alone.
 * Readers of an output put the previous output back the same way (restoreOutputFolder).
 */
async function recoverLeftovers(destination: string, fs: OutputFs): Promise<void> {
  const parent = dirname(destination);
  const base = basename(destination);
  let names: string[];
  try {
    names = (await nodeFs.readdir(parent)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const leftover = leftoverName(base, name);
    const path = join(parent, name);
    if (!leftover || writerRunning(path, leftover.pid)) continue;
    const kind = leftoverKind(path);
    if (kind === undefined) continue;
    if (kind === 'output' && leftover.kind === 'old' && !(await fs.exists(destination))) {
      await fs.rename(path, destination).catch(() => undefined);
      continue;
    }
    await removeOwnFolder(path, fs).catch(() => undefined);
  }
}

export async function writeOutputAtomic(
  destinationPath: string,
  files: readonly EmittedFile[],
  options: WriteOutputOptions,
): Promise<WriteOutputResult> {
  const fs: OutputFs = { ...nodeOutputFs, ...options.fs };
  const destination = resolve(destinationPath);
  const name = options.displayName ?? basename(destination);

  const seen = new Set<string>();
  for (const file of files) {
    const problem = checkOutputPath(file.path);
    if (problem) return { ok: false, error: `cannot write ${name}: ${problem}` };
    if (file.path === OUTPUT_MARKER)
      return { ok: false, error: `cannot write ${name}: "${OUTPUT_MARKER}" is the writer's own marker` };
    if (seen.has(file.path)) return { ok: false, error: `cannot write ${name}: "${file.path}" is emitted twice` };
    seen.add(file.path);
  }
  // A directory and a file of the same name cannot both exist.
  for (const path of seen) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (seen.has(prefix))
        return { ok: false, error: `cannot write ${name}: "${prefix}" is both a file and a folder` };
    }
  }

  try {
    await recoverLeftovers(destination, fs);
    const refusal = await checkDestination({
      destination,
      workspaceRoot: resolve(options.workspaceRoot),
      display: name,
    });
    if (refusal) return { ok: false, error: refusal };
  } catch (error) {
    return { ok: false, error: `cannot write ${name}: cannot inspect the destination: ${describe(error)}` };
  }

  const parent = dirname(destination);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.${basename(destination)}.tmp-${suffix}`);
  const aside = join(parent, `.${basename(destination)}.old-${suffix}`);

  inFlight.add(temp);
  inFlight.add(aside);
  try {
    return await writeAndSwap({ destination, parent, temp, aside, name, files, paths: [...seen] }, fs);
  } finally {
    inFlight.delete(temp);
    inFlight.delete(aside);
  }
}

interface Swap {
  destination: string;
  parent: string;
  temp: string;
  aside: string;
  name: string;
  files: readonly EmittedFile[];
  paths: string[];
}

/** Writes the files into `temp`, swaps it in for `destination` and removes the previous output. */
async function writeAndSwap(
  { destination, parent, temp, aside, name, files, paths }: Swap,
  fs: OutputFs,
): Promise<WriteOutputResult> {
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
    await fs.writeFile(join(temp, OUTPUT_MARKER), markerContents(paths));
    // The folders side by side, each once; then the files side by side (a round trip each, not one
    // per file). A failure names the first file, in the files' order, that could not be written.
    const firstFileIn = new Map<string, string>(); // folder → the first file written into it
    for (const file of files) {
      const folder = dirname(join(temp, ...file.path.split('/')));
      if (folder !== temp && !firstFileIn.has(folder)) firstFileIn.set(folder, file.path);
    }
    const folders = [...firstFileIn.keys()];
    const unmade = firstRejection(
      await Promise.allSettled(folders.map((folder) => fs.mkdir(folder, { recursive: true }))),
    );
    if (unmade) {
      current = firstFileIn.get(folders[unmade.index]!)!;
      throw unmade.reason;
    }
    const failed = firstRejection(
      await Promise.allSettled(files.map((file) => fs.writeFile(join(temp, ...file.path.split('/')), file.contents))),
    );
    if (failed) {
      current = files[failed.index]!.path;
      throw failed.reason;
    }
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    return {
      ok: false,
      error: `cannot write ${name}/${current}: ${describe(error)}; the previous output is unchanged`,
    };
  }

  // The swap: the previous output moves aside and the new one takes its place in two renames with
  // nothing in between (synchronous, termination signals held until both are done), so the
  // destination is missing only if the process is SIGKILLed between two system calls; the next
  // write (recoverLeftovers) or reader (restoreOutputFolder) then moves the previous output back.
  const swap = withSignalsDeferred((): { movedAside: boolean; error?: string } => {
    let movedAside = false;
    try {
      if (fs.existsSync(destination)) {
        fs.renameSync(destination, aside);
        movedAside = true;
      }
      fs.renameSync(temp, destination);
      return { movedAside };
    } catch (error) {
      let restore = '';
      if (movedAside) {
        try {
          fs.renameSync(aside, destination);
        } catch (restoreError) {
          restore = `; the previous output could not be moved back and is kept at ${basename(aside)} (${describe(restoreError)})`;
        }
      }
      return {
        movedAside,
        error: `cannot replace ${name}: ${describe(error)}${restore || '; the previous output is unchanged'}`,
      };
    }
  });
  if (swap.error !== undefined) {
    await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    return { ok: false, error: swap.error };
  }
  const movedAside = swap.movedAside;

  if (movedAside) {
    try {
      await removeOwnFolder(aside, fs);
    } catch (error) {
      return {
        ok: true,
        warning: `the new output is in place, but the previous one could not be removed from ${basename(aside)}: ${describe(error)}`,
      };
    }
  }
  return { ok: true };
}
