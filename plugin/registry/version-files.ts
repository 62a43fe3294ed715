/**
 * The files of one published version in a folder registry (`<registryRoot>/<slug>/`, names in
 * registry-layout.ts and plugin/definition/workspace-definitions.ts): reading the snapshot's bytes
 * as stored, and writing one of the version's files. A read is refused for anything but a regular
 * file inside the registry; a write goes through registry-write.ts, never outside the registry.
 * `root` is the registry's absolute path, `displayRoot` how messages name it (never absolute).
 */
import { join } from 'node:path';
import { readSourceBytes, type SourceBytes } from '../definition/read-source';
import { registrySnapshotPath } from '../definition/workspace-definitions';
import { type FileWrite, writeFileCarefully } from './registry-write';

/** The stored snapshot of `slug@version` exactly as it is on disk (unchecked against the index), and its name in messages. */
export function readStoredSnapshot(
  root: string,
  displayRoot: string,
  slug: string,
  version: string,
): { file: string; read: SourceBytes } {
  const file = registrySnapshotPath(displayRoot, slug, version);
  return { file, read: readSourceBytes(join(registrySnapshotPath(root, slug, version)), file, undefined, root) };
}

/** Writes `file.name` into the folder of `slug` (see registry-write.ts for `mode`); `shown` names it in messages. */
export function writeVersionFile(
  root: string,
  displayRoot: string,
  slug: string,
  file: { name: string; text: string },
  mode: 'replace' | 'create',
): { shown: string; result: FileWrite } {
  const shown = `${displayRoot}/${slug}/${file.name}`;
  return { shown, result: writeFileCarefully(join(root, slug, file.name), file.text, mode, shown, root) };
}
