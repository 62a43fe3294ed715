/**
 * Mirrors every composition edge into the Nx project graph: a dependency from each agent to every
 * agent project it pins, and from each application to every agent project it composes (a
 * registered-agent node). A pin or a composed agent matches a project only at exactly that
 * project's `versionSemver`; any other version resolves from the registry and is no project edge.
 * So `nx affected` reaches an application when an agent it composes (or anything below it)
 * changes, and `nx graph` draws applications above their agents.
 *
 * The edges are implicit, never static. Nx binds a static edge to its `sourceFile` and, for a file
 * whose hash is unchanged since the last graph, replaces whatever this function returned with
 * the edges it cached for that file (nx 23 build-project-graph.js: `f.deps = [...cached.deps]`
 * for every cached file). But an edge here depends on two files, the declaring definition and
 * the pinned child's: a child created, renamed to another version or removed after its parent
 * leaves the parent's file unchanged, and a static edge would stay stale until `nx reset`. Nx
 * keeps implicit edges out of the file map and takes them afresh from every run (the builder's
 * `calculateAlreadySetTargetDeps` keeps only implicit ones), so the graph follows the pins
 * whatever order the files appear in. `nx affected` and `^` inputs follow every edge type alike.
 *
 * It reads no file: the pins and composed agents come from the metadata `createNodes` stamped on
 * each project. `context.projects` is keyed by project name (a project.json may rename one).
 */
// Type-only: graph inference runs on every Nx command, and loading @nx/devkit costs ~0.4 s.
import type { CreateDependencies, ImplicitDependency, RawProjectGraphDependency } from '@nx/devkit';
import type { ApplicationProjectMetadata } from './application-project';
import type { AgentProjectMetadata } from './create-nodes';
import type { AgentdefPluginOptions } from './options';
import { pinKey, SLUG_PATTERN } from '../definition/workspace-definitions';
import { field, word } from './summary-fields';

/**
 * The well-formed `{ slug, version }` entries of a pins or agents list. The metadata is the
 * plugin's own, but Nx merges a project.json's `metadata` over it, so anything may stand there.
 */
function wellFormedRefs(refs: readonly unknown[]): Array<{ slug: string; version: string }> {
  const out: Array<{ slug: string; version: string }> = [];
  for (const ref of refs) {
    const slug = word(field(ref, 'slug'), SLUG_PATTERN);
    const version = word(field(ref, 'version'));
    if (slug !== undefined && version !== undefined) out.push({ slug, version });
  }
  return out;
}

function agentMetadata(metadata: unknown): AgentProjectMetadata | undefined {
  const value = (metadata as { agentdef?: unknown } | undefined)?.agentdef;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<AgentProjectMetadata>;
  return typeof candidate.definition === 'string' && Array.isArray(candidate.pins)
    ? (candidate as AgentProjectMetadata)
    : undefined;
}

function applicationMetadata(metadata: unknown): ApplicationProjectMetadata | undefined {
  const value = (metadata as { agentdefApplication?: unknown } | undefined)?.agentdefApplication;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<ApplicationProjectMetadata>;
  return typeof candidate.manifest === 'string' && Array.isArray(candidate.agents)
    ? (candidate as ApplicationProjectMetadata)
    : undefined;
}

/** A project that composes agents, and each `{ slug, version }` it names. */
interface Composer {
  name: string;
  refs: ReadonlyArray<{ slug: string; version: string }>;
}

export const createDependencies: CreateDependencies<AgentdefPluginOptions> = (_options, context) => {
  // Nx's type demands the whole context; this reads `projects` only (never the file map).
  const composers: Composer[] = [];
  const byPin = new Map<string, string[]>();
  for (const [name, project] of Object.entries(context.projects)) {
    const agent = agentMetadata(project.metadata);
    if (agent) {
      composers.push({ name, refs: wellFormedRefs(agent.pins) });
      const slug = word(agent.slug, SLUG_PATTERN);
      const version = word(agent.versionSemver);
      if (slug !== undefined && version !== undefined) {
        const key = pinKey(slug, version);
        byPin.set(key, [...(byPin.get(key) ?? []), name]);
      }
      continue;
    }
    const application = applicationMetadata(project.metadata);
    if (application) composers.push({ name, refs: wellFormedRefs(application.agents) });
  }
  return composers.flatMap((composer) => edgesOf(composer, byPin));
};

function edgesOf({ name, refs }: Composer, byPin: ReadonlyMap<string, string[]>): RawProjectGraphDependency[] {
  const dependencies: RawProjectGraphDependency[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    for (const target of byPin.get(pinKey(ref.slug, ref.version)) ?? []) {
      if (target === name || seen.has(target)) continue;
      seen.add(target);
      // A string literal: the DependencyType enum lives in @nx/devkit, which this file does not load.
      const edge: ImplicitDependency = { source: name, target, type: 'implicit' as ImplicitDependency['type'] };
      dependencies.push(edge);
    }
  }
  return dependencies;
}
