/**
 * A folder registry's files as `agentdef registry verify` walks them: the snapshot files present
 * (`<slug>/<version>.json`), listed once, and any file by its name relative to the registry's
 * root, read when asked. An entry named like a slug that is no folder (a dangling link, a FIFO, a
 * file) holds no snapshots: it never stops the check of the others. Every read is of a regular
 * file inside the registry, bounded (plugin/definition/read-source.ts). What is checked, and how,
 * is plugin/trust/registry-verify.ts's: it reads through {@link RegistryFiles} only.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceBytes } from '../definition/read-source';
import { isSlug, registrySnapshotVersion } from '../definition/workspace-definitions';

/** The registry's files, by name relative to its root (`<slug>/<file>`). */
export interface RegistryFiles {
  /** Every snapshot file present: `<slug>/<version>.json`. */
  snapshots: { slug: string; version: string }[];
  /** A file's bytes; undefined when it is missing; a string when it cannot be read (the reason). */
  read(name: string): Uint8Array | undefined | string;
}

/** Whether `path` is a folder (links followed); false for a dangling link or anything unreadable. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The snapshot files of a registry folder (files named `<slug>/<version>.json`), sorted. */
function listSnapshots(root: string): { slug: string; version: string }[] {
  const out: { slug: string; version: string }[] = [];
  for (const slug of readdirSync(root).sort()) {
    if (!isSlug(slug) || !isFolder(join(root, slug))) continue;
    for (const name of readdirSync(join(root, slug)).sort()) {
      const version = registrySnapshotVersion(name);
      if (version !== undefined) out.push({ slug, version });
    }
  }
  return out;
}

/**
 * Why `root` is not a registry folder to read, or undefined: it must be a real folder, not a
 * symbolic link (to /dev, to another registry: what would be verified is not what was named),
 * nor a file, device or FIFO. Never throws.
 */
export function registryRootProblem(root: string, displayRoot: string): string | undefined {
  try {
    const stat = lstatSync(root);
    if (stat.isSymbolicLink())
      return `${displayRoot} is a symbolic link: registry verify reads only a real folder; name the folder itself`;
    if (!stat.isDirectory()) return `${displayRoot} is not a folder`;
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ENOENT'
      ? `cannot read the registry ${displayRoot}`
      : `cannot read the registry ${displayRoot} (${code ?? 'error'})`;
  }
}

/**
 * The files of the registry at `root` (absolute; `displayRoot` names it in messages). Throws when
 * `root` is not a real folder ({@link registryRootProblem}: the message says why) or cannot be listed.
 */
export function folderRegistryFiles(root: string, displayRoot: string): RegistryFiles {
  const problem = registryRootProblem(root, displayRoot);
  if (problem !== undefined) throw new Error(problem);
  return {
    snapshots: listSnapshots(root),
    read: (name) => {
      const read = readSourceBytes(join(root, name), `${displayRoot}/${name}`, undefined, root);
      if (read.missing) return undefined;
      return read.bytes ?? read.ioError ?? 'too large';
    },
  };
}
