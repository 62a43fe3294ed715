/**
 * A `kym://agents/<slug>@<version>` reference given where a command takes a definition file: it
 * names the registry snapshot, checked against the registry index's digest (registry.ts) before
 * the command reads it. Returns the snapshot's absolute path, or what went wrong.
 */
import { isAbsolute, resolve } from 'node:path';
import { FolderRegistry, parseKymRef } from '../registry/agent-registry';
import { findWorkspaceRoot, registrySnapshotPath, WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';

export const KYM_PREFIX = 'kym://';

export type KymTarget = { ok: true; file: string; workspaceRoot: string } | { ok: false; code: 1 | 2; message: string };

/** Resolves `ref` in the registry `registry` (a folder relative to `cwd`), else the workspace's default registry. */
export async function resolveKymTarget(ref: string, cwd: string, registry: string | undefined): Promise<KymTarget> {
  const parsed = parseKymRef(ref);
  if (!parsed)
    return {
      ok: false,
      code: 2,
      message: `"${ref.slice(0, 120)}" is not a KYM reference: kym://agents/<slug>@<exact version>`,
    };
  const workspaceRoot = findWorkspaceRoot(cwd) ?? cwd;
  const registryRoot = registry !== undefined ? resolve(cwd, registry) : WORKSPACE_DEFAULTS.registryRoot;
  const folder = new FolderRegistry({ workspaceRoot, registryRoot });
  try {
    const hit = await folder.resolve(parsed.slug, parsed.version);
    if (!hit) return { ok: false, code: 1, message: `${ref} is not in the ${folder.description}` };
  } catch (error) {
    return { ok: false, code: 1, message: (error as Error).message };
  }
  const root = isAbsolute(registryRoot) ? registryRoot : resolve(workspaceRoot, registryRoot);
  return { ok: true, file: registrySnapshotPath(root, parsed.slug, parsed.version), workspaceRoot };
}
