/**
 * The workspace index a plan or compile task hands the compiler, built from the project graph Nx
 * gives every executor: each agent project that agentdef's graph inference made carries its
 * definition file, slug and version in its metadata (`metadata.agentdef`), read from the file as
 * it was when Nx computed the graph for this command, so the compiler need not read those files
 * again (workspace-index-known.ts). The definition files themselves are those graph inference's
 * own walk found while Nx computed this graph (definition-walk-record.ts: every folder, those Nx
 * ignores included), taken from its record when the graph holds the record's digest; without
 * one (a graph from the Nx daemon, a record another command replaced) the index walks the
 * workspace itself (its folder listings kept in Nx's workspace data directory, each proven
 * current by one `stat`). Either way it reads every definition the graph does not hold: those in
 * folders Nx ignores, those excluded from the plugin, and any whose metadata lacks a slug or
 * version. So a duplicate `slug@version` that Nx cannot see (one
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
import { readDefinitionWalkRecord, walkCachePathFor } from '../plugin/graph/definition-walk-record';
import { PLUGIN_VERSION } from '../plugin/graph/options';
import { WORD } from '../plugin/graph/summary-fields';

export { walkCachePathFor };

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
  return readGraph(graph).known;
}

/**
 * The digest of the definition walk graph inference recorded for `graph` (definition-walk-record.ts),
 * when its agent projects state exactly one; undefined when none does, or two differ.
 */
export function recordedWalkOf(graph: ProjectGraphLike): string | undefined {
  return readGraph(graph).walk;
}

const WALK_DIGEST = /^[A-Za-z0-9_-]{43}$/;

function readGraph(graph: ProjectGraphLike): { known: Map<string, KnownIdentity>; walk: string | undefined } {
  const known = new Map<string, KnownIdentity>();
  const claimed = new Set<string>();
  let walk: string | undefined;
  let refused = 0;
  const nodes = own(graph, 'nodes');
  if (typeof nodes !== 'object' || nodes === null) return { known, walk };
  for (const node of Object.values(nodes)) {
    const metadata = own(own(own(node, 'data'), 'metadata'), 'agentdef');
    if (own(metadata, 'pluginVersion') !== PLUGIN_VERSION) continue;
    const stated = own(metadata, 'walk');
    if (stated !== undefined) {
      if (typeof stated === 'string' && WALK_DIGEST.test(stated) && (walk === undefined || walk === stated))
        walk = stated;
      else refused++; // malformed, or a second digest: no record is taken
    }
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
  return { known, walk: refused === 0 ? walk : undefined };
}

/** The index for a task of `context`'s workspace, or undefined when the graph knows no agent. */
export function graphPinLookup(
  context: Pick<ExecutorContext, 'root' | 'projectGraph'>,
  stats?: KnownIndexStats,
): PinLookup | undefined {
  const { known, walk } = readGraph(context.projectGraph);
  if (known.size === 0) return undefined;
  return knownIdentityIndex(context.root, known, {
    walkCachePath: walkCachePathFor(context.root),
    ...(walk !== undefined ? { recordedWalk: () => readDefinitionWalkRecord(context.root, walk) } : {}),
    ...(stats ? { stats } : {}),
  });
}
