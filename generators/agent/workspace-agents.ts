/**
 * The agents a generator's Tree already holds: every definition file's slug and version (read
 * from the Tree, so earlier changes of the same run count), and the registry's published
 * snapshots. Answers the two questions `nx g agentdef:agent` asks before writing: is this slug
 * taken, and does each `--nodes` pin resolve the way `plan` and `compile` will resolve it.
 */
import { visitNotIgnoredFiles, type Tree } from '@nx/devkit';
import { posix } from 'node:path';
import { nearestName } from '../../plugin/definition/nearest-name';
import {
  DEFINITION_FILE_NAMES,
  isDefinitionFileName,
  pinKey,
  registrySlugPath,
  registrySnapshotPath,
  registrySnapshotVersion,
  sortVersions,
} from '../../plugin/definition/workspace-definitions';
import { APPLICATION_FILE_NAMES, isApplicationFileName } from '../../plugin/graph/application-project';
import { newProjectNameProblem, type NameClaim } from '../../plugin/graph/project-names';
import { summarizeDefinition } from '../../plugin/graph/read-agent-summary';
import { summarizeApplication } from '../../plugin/graph/read-application-summary';

export interface WorkspaceAgent {
  slug: string;
  versionSemver?: string;
  /** Workspace-relative path of the definition file. */
  file: string;
}

export interface WorkspaceAgents {
  definitions: readonly WorkspaceAgent[];
  registryRoot: string;
}

/** Every definition file in the Tree (ignored folders skipped, as Nx skips them), with its slug. */
export function readWorkspaceAgents(tree: Tree, registryRoot: string): WorkspaceAgents {
  const definitions: WorkspaceAgent[] = [];
  visitNotIgnoredFiles(tree, '.', (file) => {
    if (!isDefinitionFileName(posix.basename(file))) return;
    const text = tree.read(file, 'utf-8');
    if (text === null) return;
    const summary = summarizeDefinition(text, file);
    if (summary.slug !== undefined)
      definitions.push({
        slug: summary.slug,
        file,
        ...(summary.versionSemver !== undefined ? { versionSemver: summary.versionSemver } : {}),
      });
  });
  return { definitions, registryRoot };
}

/** The versions of `slug` the registry folder publishes. */
function publishedVersions(tree: Tree, agents: WorkspaceAgents, slug: string): string[] {
  const folder = registrySlugPath(agents.registryRoot, slug);
  if (!tree.exists(folder)) return [];
  return tree.children(folder).flatMap((name) => registrySnapshotVersion(name) ?? []);
}

/** Where `slug` is already taken: a definition declaring it, or a registry folder publishing it. */
export function takenSlug(tree: Tree, agents: WorkspaceAgents, slug: string): string | undefined {
  const defined = agents.definitions.find((agent) => agent.slug === slug);
  if (defined !== undefined) return defined.file;
  const folder = registrySlugPath(agents.registryRoot, slug);
  return tree.exists(folder) && tree.children(folder).length > 0 ? folder : undefined;
}

/**
 * Why `slug@version` resolves to nothing (no workspace definition at exactly that version, no
 * registry snapshot), with what does exist and the nearest slug; undefined when it resolves.
 */
export function unresolvedPin(tree: Tree, agents: WorkspaceAgents, slug: string, version: string): string | undefined {
  if (agents.definitions.some((agent) => agent.slug === slug && agent.versionSemver === version)) return undefined;
  if (tree.exists(registrySnapshotPath(agents.registryRoot, slug, version))) return undefined;
  const versions = sortVersions(
    new Set([
      ...agents.definitions.filter((agent) => agent.slug === slug).flatMap((agent) => agent.versionSemver ?? []),
      ...publishedVersions(tree, agents, slug),
    ]),
  );
  const pin = pinKey(slug, version);
  if (versions.length > 0)
    return `--nodes pins ${pin}, which does not resolve: ${slug} exists at ${versions.join(', ')} only; pin one of those versions`;
  const guess = nearestName(
    slug,
    agents.definitions.map((agent) => agent.slug),
  );
  const hint = guess !== undefined ? `did you mean ${guess}? ` : '';
  return `--nodes pins ${pin}, which does not resolve: no agent definition in the workspace has the slug "${slug}" and ${registrySnapshotPath(agents.registryRoot, slug, version)} does not exist; ${hint}create the child first (nx g agentdef:agent ${slug}), then pin it`;
}

/** The project names the Tree's agent definitions (slugs) and application manifests (ids) state. */
function projectNames(tree: Tree): Pick<NameClaim, 'file' | 'kind' | 'name'>[] {
  const names: Pick<NameClaim, 'file' | 'kind' | 'name'>[] = [];
  visitNotIgnoredFiles(tree, '.', (file) => {
    const base = posix.basename(file);
    const agent = isDefinitionFileName(base);
    if (!agent && !isApplicationFileName(base)) return;
    const text = tree.read(file, 'utf-8');
    if (text === null) return;
    const name = agent ? summarizeDefinition(text, file).slug : summarizeApplication(text, file).id;
    if (name !== undefined) names.push({ file, kind: agent ? 'agent' : 'application', name });
  });
  return names.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Why a generator cannot create a project named `name` whose file goes in `directory`: graph
 * inference would refuse it, and with it every nx command in the workspace, when the name is one
 * Nx reads as a built-in property (`constructor`), when an agent or an application already has
 * it, or when the folder is already an agent's or an application's project. Undefined when it can.
 */
export function newProjectProblem(tree: Tree, name: string, directory: string): string | undefined {
  for (const fileName of [...DEFINITION_FILE_NAMES, ...APPLICATION_FILE_NAMES]) {
    const file = directory === '.' ? fileName : `${directory}/${fileName}`;
    if (tree.exists(file))
      return `${directory} is already the project of ${file}, and a folder is one project; choose another --directory`;
  }
  return newProjectNameProblem(name, projectNames(tree));
}
