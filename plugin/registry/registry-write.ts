/**
 * Writing a file into a folder registry (the index, a snapshot, its signed exports) so that a
 * reader never sees a torn file and nothing is written outside the registry: the bytes go to a
 * temp file beside the destination, are flushed, and then the temp file is renamed over the
 * destination (`replace`) or hard-linked to its name (`create`: an existing file is never
 * overwritten), with termination signals held back for that one step
 * (plugin/definition/defer-signals.ts). The destination's folder must be a folder whose real path
 * is inside the registry's. Never throws; messages name files as shown, never an absolute path.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { withSignalsDeferred } from '../definition/defer-signals';

export type FileWrite = { ok: true } | { ok: false; error: string };

/** True when `path` is `root` or below it (both real paths). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/**
 * Why `folder` may not be written into as a folder of the registry at `within`, or undefined:
 * it must be a folder (not a file) whose real path (links resolved) is inside the registry's. A
 * missing folder is fine (it is created). Never names where a link points.
 */
export function registryFolderProblem(folder: string, within: string, shown: string): string | undefined {
  try {
    const stat = lstatSync(folder);
    if (!stat.isDirectory() && !stat.isSymbolicLink()) return `${shown} is not a folder`;
    if (stat.isSymbolicLink() && !existsSync(folder))
      return `${shown} is a link that leads to nothing: agentdef never writes through it`;
    if (!isInside(realpathSync.native(within), realpathSync.native(folder)))
      return `${shown} is a link to a folder outside the registry: agentdef never writes through it`;
    if (!statSync(folder).isDirectory()) return `${shown} is not a folder`;
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ENOENT' ? undefined : `${shown} cannot be inspected (${code ?? 'error'})`;
  }
}

/**
 * Writes `bytes` to `path` through a temp file beside it: flushed, then renamed over `path`
 * (`replace`), or linked to `path` so an existing file is never overwritten (`create`: fails
 * with EEXIST). Creates the parent folder; with `within` (the registry root), the parent folder
 * must be inside it ({@link registryFolderProblem}), checked before and after it is created.
 * Never throws; the message names `shown`, never an absolute path.
 */
export function writeFileCarefully(
  path: string,
  bytes: Uint8Array | string,
  mode: 'replace' | 'create',
  shown: string,
  within?: string,
): FileWrite {
  const folder = dirname(path);
  const temp = join(folder, `.${randomBytes(6).toString('hex')}.agentdef-tmp`);
  const shownFolder = shown.includes('/') ? shown.slice(0, shown.lastIndexOf('/')) : '.';
  try {
    if (within !== undefined) {
      const problem = registryFolderProblem(folder, within, shownFolder);
      if (problem !== undefined) return { ok: false, error: problem };
    }
    mkdirSync(folder, { recursive: true });
    if (within !== undefined) {
      const problem = registryFolderProblem(folder, within, shownFolder);
      if (problem !== undefined) return { ok: false, error: problem };
    }
    const fd = openSync(temp, 'wx', 0o644);
    try {
      const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
      let offset = 0;
      while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    withSignalsDeferred(() => {
      if (mode === 'replace') renameSync(temp, path);
      else linkSync(temp, path);
    });
    return { ok: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      ok: false,
      error:
        code === 'EEXIST' ? `${shown} already exists` : `cannot write ${shown} (${code ?? (error as Error).message})`,
    };
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // renamed away, or never created
    }
  }
}
