/**
 * Mirrors every composition edge into the Nx project graph: a static dependency from each agent
 * to every agent project it pins, bound to the definition file that declares the pin, and from
 * each application to every agent project it composes (a registered-agent node), bound to the
 * manifest. A pin or a composed agent matches a project only at exactly that project's
 * `versionSemver`; any other version resolves from the registry and is no project edge. So
 * `nx affected` reaches an application when an agent it composes (or anything below it) changes,
 * and `nx graph` draws applications above their agents.
 *
 * It reads no file: the pins and composed agents come from the metadata `createNodes` stamped on
 * each project. `context.projects` is keyed by project name (a project.json may rename one).
 */
// Type-only: graph inference runs on every Nx command, and loading @nx/devkit costs ~0.4 s.
import type { CreateDependencies, CreateDependenciesContext, RawProjectGraphDependency } from '@nx/devkit';
import { posix } from 'node:path';
import type { ApplicationProjectMetadata } from './application-project';
import type { AgentProjectMetadata } from './create-nodes';
import type { AgentdefPluginOptions } from './options';
import { pinKey } from '../definition/workspace-definitions';

function agentMetadata(metadata: unknown): AgentProjectMetadata | undefined {
  const value = (metadata as { agentdef?: unknown } | undefined)?.agentdef;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<AgentProjectMetadata>;
  return typeof candidate.definition === 'string' && Array.isArray(candidate.pins) ? (candidate as AgentProjectMetadata) : undefined;
}

function applicationMetadata(metadata: unknown): ApplicationProjectMetadata | undefined {
  const value = (metadata as { agentdefApplication?: unknown } | undefined)?.agentdefApplication;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<ApplicationProjectMetadata>;
  return typeof candidate.manifest === 'string' && Array.isArray(candidate.agents) ? (candidate as ApplicationProjectMetadata) : undefined;
}

/** A project that composes agents: the file declaring them, and each `{ slug, version }`. */
interface Composer {
  name: string;
  sourceFile: string;
  refs: ReadonlyArray<{ slug: string; version: string }>;
}

export const createDependencies: CreateDependencies<AgentdefPluginOptions> = (_options, context) => {
  const composers: Composer[] = [];
  const byPin = new Map<string, string[]>();
  for (const [name, project] of Object.entries(context.projects)) {
    const agent = agentMetadata(project.metadata);
    if (agent) {
      // The definition sits at the project's root (a project.json may rename, never move, it).
      composers.push({ name, sourceFile: posix.join(project.root, posix.basename(agent.definition)), refs: agent.pins });
      if (agent.slug !== undefined && agent.versionSemver !== undefined) {
        const key = pinKey(agent.slug, agent.versionSemver);
        byPin.set(key, [...(byPin.get(key) ?? []), name]);
      }
      continue;
    }
    const application = applicationMetadata(project.metadata);
    if (application) composers.push({ name, sourceFile: posix.join(project.root, posix.basename(application.manifest)), refs: application.agents });
  }
  return composers.flatMap((composer) => edgesOf(composer, byPin, context));
};

function edgesOf({ name, sourceFile, refs }: Composer, byPin: ReadonlyMap<string, string[]>, context: CreateDependenciesContext): RawProjectGraphDependency[] {
  // Nx only accepts a static edge whose sourceFile it tracks for the source project (a
  // git-ignored definition or manifest has no file to bind the edge to).
  if (!(context.fileMap.projectFileMap[name] ?? []).some((f) => f.file === sourceFile)) return [];
  const dependencies: RawProjectGraphDependency[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    for (const target of byPin.get(pinKey(ref.slug, ref.version)) ?? []) {
      if (target === name || seen.has(target)) continue;
      seen.add(target);
      dependencies.push({ source: name, target, type: 'static' as RawProjectGraphDependency['type'], sourceFile });
    }
  }
  return dependencies;
}
