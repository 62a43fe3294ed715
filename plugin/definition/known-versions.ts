/**
 * What composition pins may resolve to, read from disk for the slugs asked about only: the
 * workspace's definitions of those slugs (their identity, as plugin/compiler/workspace-index.ts
 * reads it) and the snapshots in the registry folder. Files that do not mention a slug are never
 * parsed, so validating definitions without unresolved pins reads nothing more. Never throws.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDefinitionSource } from './read-source';
import type { KnownVersion } from './workspace-checks';
import {
  findDefinitionFiles,
  isSlug,
  readIdentity,
  registrySlugPath,
  registrySnapshotVersion,
  WORKSPACE_DEFAULTS,
} from './workspace-definitions';

export interface KnownVersionsOptions {
  /** Relative to the workspace root; default {@link WORKSPACE_DEFAULTS}.registryRoot. */
  registryRoot?: string;
}

/** slug → the versions of it in the workspace around `workspaceRoot` and in its registry. */
export function readKnownVersions(
  workspaceRoot: string,
  slugs: ReadonlySet<string>,
  options: KnownVersionsOptions = {},
): Map<string, KnownVersion[]> {
  const known = new Map<string, KnownVersion[]>();
  if (slugs.size === 0) return known;
  const add = (slug: string, entry: KnownVersion) => known.set(slug, [...(known.get(slug) ?? []), entry]);
  for (const file of findDefinitionFiles(workspaceRoot)) {
    const source = readDefinitionSource(join(workspaceRoot, file), file, undefined, workspaceRoot);
    const text = source.text;
    if (text === undefined || ![...slugs].some((slug) => text.includes(slug))) continue;
    const identity = readIdentity(text, file);
    if (!('reason' in identity) && slugs.has(identity.slug))
      add(identity.slug, { version: identity.versionSemver, where: `workspace ${file}` });
  }
  const registryRoot = options.registryRoot ?? WORKSPACE_DEFAULTS.registryRoot;
  for (const slug of slugs) {
    if (!isSlug(slug)) continue;
    let names: string[] = [];
    try {
      names = readdirSync(join(workspaceRoot, registrySlugPath(registryRoot, slug)));
    } catch {
      // no snapshots of this slug
    }
    for (const name of names.sort()) {
      const version = registrySnapshotVersion(name);
      if (version !== undefined) add(slug, { version, where: `registry ${registryRoot}` });
    }
  }
  return known;
}
