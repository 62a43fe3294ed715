/**
 * Mirrors every composition edge into the Nx project graph: a static dependency from each agent
 * to every agent project it pins, bound to the definition file that declares the pin. A pin
 * matches a project only at exactly that project's `versionSemver`; any other pin resolves from
 * the registry and is no project edge.
 *
 * It reads no file: the pins come from the metadata `createNodes` stamped on each project.
 */
// Type-only: graph inference runs on every Nx command, and loading @nx/devkit costs ~0.4 s.
import type { CreateDependencies, RawProjectGraphDependency } from '@nx/devkit';
import { posix } from 'node:path';
import type { AgentProjectMetadata } from './create-nodes';
import type { AgentdefPluginOptions } from './options';
import { pinKey } from '../definition/workspace-definitions';

function agentMetadata(metadata: unknown): AgentProjectMetadata | undefined {
  const value = (metadata as { agentdef?: unknown } | undefined)?.agentdef;
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<AgentProjectMetadata>;
  return typeof candidate.definition === 'string' && Array.isArray(candidate.pins) ? (candidate as AgentProjectMetadata) : undefined;
}

export const createDependencies: CreateDependencies<AgentdefPluginOptions> = (_options, context) => {
  const agents: Array<{ name: string; sourceFile: string; meta: AgentProjectMetadata }> = [];
  const byPin = new Map<string, string[]>();
  for (const [name, project] of Object.entries(context.projects)) {
    const meta = agentMetadata(project.metadata);
    if (!meta) continue;
    // The definition sits at the project's root (a project.json may rename, never move, it).
    const sourceFile = posix.join(project.root, posix.basename(meta.definition));
    agents.push({ name, sourceFile, meta });
    if (meta.slug !== undefined && meta.versionSemver !== undefined) {
      const key = pinKey(meta.slug, meta.versionSemver);
      byPin.set(key, [...(byPin.get(key) ?? []), name]);
    }
  }

  const dependencies: RawProjectGraphDependency[] = [];
  const seen = new Set<string>();
  for (const { name, sourceFile, meta } of agents) {
    for (const pin of meta.pins) {
      for (const target of byPin.get(pinKey(pin.slug, pin.version)) ?? []) {
        const key = `${name}\u0000${target}`;
        if (target === name || seen.has(key)) continue;
        seen.add(key);
        const dependency: RawProjectGraphDependency = { source: name, target, type: 'static' as RawProjectGraphDependency['type'], sourceFile };
        // Nx only accepts a static edge whose sourceFile it tracks for the source project (a
        // git-ignored definition has no file to bind the edge to).
        if (!(context.fileMap.projectFileMap[name] ?? []).some((f) => f.file === sourceFile)) continue;
        dependencies.push(dependency);
      }
    }
  }
  return dependencies;
};
