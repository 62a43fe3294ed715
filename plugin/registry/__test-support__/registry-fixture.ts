/**
 * Tests that hand-craft a registry folder record its snapshots through the index writer
 * (registry-index.ts), as `agentdef publish` does, so resolution's digest check passes for them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { registrySnapshotVersion, WORKSPACE_DEFAULTS } from '../../definition/workspace-definitions';
import { readRegistryIndex, snapshotSha256, withIndexEntry, writeRegistryIndex } from '../registry-index';

function identityOf(bytes: Buffer): { id: string; versionId: string } {
  try {
    const identity = (JSON.parse(bytes.toString('utf8')) as { identity?: { id?: unknown; versionId?: unknown } })
      .identity;
    return {
      id: typeof identity?.id === 'string' ? identity.id : '',
      versionId: typeof identity?.versionId === 'string' ? identity.versionId : '',
    };
  } catch {
    return { id: '', versionId: '' };
  }
}

/** Records every `<slug>/<version>.json` regular file below the registry in its index.json (no registry folder: nothing to do). */
export function indexRegistrySnapshots(
  workspaceRoot: string,
  registryRoot: string = WORKSPACE_DEFAULTS.registryRoot,
): void {
  const root = join(workspaceRoot, registryRoot);
  if (!existsSync(root)) return;
  const read = readRegistryIndex(root, registryRoot);
  if (!read.ok) throw new Error(read.problem);
  let index = read.index;
  for (const slug of readdirSync(root).sort()) {
    if (!statSync(join(root, slug)).isDirectory()) continue;
    for (const name of readdirSync(join(root, slug)).sort()) {
      const version = registrySnapshotVersion(name);
      const path = join(root, slug, name);
      if (version === undefined || !statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      index = withIndexEntry(index, { slug, version, ...identityOf(bytes), sha256: snapshotSha256(bytes) });
    }
  }
  const written = writeRegistryIndex(root, registryRoot, index);
  if (!written.ok) throw new Error(written.error);
}
