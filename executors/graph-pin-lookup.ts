/**
 * The workspace index a plan or compile task hands the compiler, built from the project graph Nx
 * gives every executor: each agent project that agentdef's graph inference made carries its
 * definition file, slug and version in its metadata (`metadata.agentdef`), read from the file as
 * it was when Nx computed the graph for this command, so the compiler need not read those files
 * again (workspace-index-known.ts). It still walks the workspace itself (its folder listings kept
 * in Nx's workspace data directory, each proven current by one `stat`), and reads every definition
 * the graph does not hold: those in folders Nx ignores, those excluded from the plugin, and any
 * whose metadata lacks a slug or version. So a duplicate `slug@version` that Nx cannot see (one
 * copy in a git-ignored folder, say) is reported as `agentdef plan` reports it. (A duplicate Nx
 * can see never reaches an executor: graph inference reports it and Nx runs no task.)
 *
 * Only well-formed metadata of this agentdef version counts; a file claimed by two projects, or
 * anything else, is read instead. Without a graph, or with no agent project in it, the compiler's
 * own index is used (undefined here).
 */
import type { ExecutorContext } from '@nx/devkit';
import { join } from 'node:path';
import type { KnownIdentity } from '../plugin/compiler/workspace-index-known';
import { knownIdentityIndex, type KnownIndexStats } from '../plugin/compiler/workspace-index-known';
import type { PinLookup } from '../plugin/compiler/workspace-index';
import {
  openValidatedDefinitionStore,
  type ValidatedDefinitionStore,
} from '../plugin/compiler/validated-definition-store';
import { SLUG_PATTERN } from '../plugin/definition/workspace-definitions';
import { workspaceDataDirectoryFor } from '../plugin/graph/inference-cache';
import { PLUGIN_VERSION } from '../plugin/graph/options';
import { WORD } from '../plugin/graph/summary-fields';

/** The walk's folder listings, next to graph inference's cache in Nx's workspace data directory (`nx reset` clears both). */
export function walkCachePathFor(workspaceRoot: string): string {
  return join(workspaceDataDirectoryFor(workspaceRoot), 'agentdef-definition-walk.json');
}

/**
 * The clean validations a plan or compile task keeps for the next one (validated-definition-store.ts),
 * beside the walk's listings; the task saves it when done.
 */
export function validatedDefinitionStoreFor(workspaceRoot: string): ValidatedDefinitionStore {
  return openValidatedDefinitionStore(
    join(workspaceDataDirectoryFor(workspaceRoot), 'agentdef-validated-definitions'),
    PLUGIN_VERSION,
  );
}

/** The project graph, as far as this file reads it. */
export type ProjectGraphLike = Pick<ExecutorContext, 'projectGraph'>['projectGraph'] | undefined;

/** `key` of a plain object when it holds it as its own data property (an accessor is never run). */
const own = (value: unknown, key: string): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
};

/** No empty, `.` or `..` segment and no backslash: a workspace-relative posix path as graph inference writes one. */
const WORKSPACE_FILE = /^(?!\.\.?(?:\/|$))[^/\\]+(?:\/(?!\.\.?(?:\/|$))[^/\\]+)*$/;
const isWorkspaceFile = (file: string) => WORKSPACE_FILE.test(file);

/** The definition file → identity of every agent project in `graph` whose metadata states both. */
export function knownIdentitiesOf(graph: ProjectGraphLike): Map<string, KnownIdentity> {
  const known = new Map<string, KnownIdentity>();
  const claimed = new Set<string>();
  const nodes = own(graph, 'nodes');
  if (typeof nodes !== 'object' || nodes === null) return known;
  for (const node of Object.values(nodes)) {
    const metadata = own(own(own(node, 'data'), 'metadata'), 'agentdef');
    if (own(metadata, 'pluginVersion') !== PLUGIN_VERSION) continue;
    const file = own(metadata, 'definition');
    const slug = own(metadata, 'slug');
    const versionSemver = own(metadata, 'versionSemver');
    if (typeof file !== 'string' || !isWorkspaceFile(file)) continue;
    if (claimed.has(file)) {
      known.delete(file); // two projects claim one file: read it instead
      continue;
    }
    claimed.add(file);
    if (
      typeof slug === 'string' &&
      SLUG_PATTERN.test(slug) &&
      typeof versionSemver === 'string' &&
      WORD.test(versionSemver)
    )
      known.set(file, { slug, versionSemver });
  }
  return known;
}

/** The index for a task of `context`'s workspace, or undefined when the graph knows no agent. */
export function graphPinLookup(
  context: Pick<ExecutorContext, 'root' | 'projectGraph'>,
  stats?: KnownIndexStats,
): PinLookup | undefined {
  const known = knownIdentitiesOf(context.projectGraph);
  if (known.size === 0) return undefined;
  return knownIdentityIndex(context.root, known, {
    walkCachePath: walkCachePathFor(context.root),
    ...(stats ? { stats } : {}),
  });
}
