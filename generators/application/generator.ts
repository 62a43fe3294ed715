/**
 * `nx g agentdef:application <name> --agents=<slug>@<version>,…`: writes a new
 * `<directory>/<name>/application.json` composing existing agents, valid as written, or writes
 * nothing and says why. What it writes is scaffold-manifest.ts's; this file is the Tree I/O
 * around it and the checks that need the workspace:
 *
 * - every agent resolves to exactly one workspace definition of exactly that slug and version
 *   (`indexWorkspace` / `lookupWorkspace`, the compiler's own resolution; the definitions are read
 *   from the workspace on disk);
 * - the file does not exist yet, its folder holds no agent definition (a folder is one project),
 *   and no agent or application already has the id (it names the Nx project);
 * - the manifest passes the manifest validator with the built-in catalog, and every node's
 *   configuration its component's closed schema.
 *
 * Beside the manifest it writes `inputs.json` (a sample question, unless the file exists), the
 * entrypoint values `check` runs its offline dry-run with.
 *
 * When the agentdef plugin is registered in `nx.json` with an `include` list that names no
 * application file, the application globs are added to it, so the new manifest becomes a project.
 */
import { logger, readNxJson, updateNxJson, visitNotIgnoredFiles, type GeneratorCallback, type Tree } from '@nx/devkit';
import { posix } from 'node:path';
import { builtinCatalog, catalogView, componentConfigFindings } from '../../plugin/application/catalog';
import { validateApplicationManifestText } from '../../plugin/application/manifest-validate';
import { indexWorkspace, lookupWorkspace } from '../../plugin/compiler/workspace-index';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import type { Outcome } from '../../plugin/definition/scaffold';
import { DEFINITION_FILE_NAMES } from '../../plugin/definition/workspace-definitions';
import { APPLICATION_FILE_NAMES, isApplicationFileName } from '../../plugin/graph/application-project';
import { summarizeApplication } from '../../plugin/graph/read-application-summary';
import { newProjectProblem } from '../agent/workspace-agents';
import { isAgentdefPlugin } from '../init/generator';
import {
  INPUTS_FILE,
  manifestText,
  planApplicationScaffold,
  sampleInputsText,
  scaffoldManifest,
  type ApplicationScaffoldPlan,
} from './scaffold-manifest';
import type { ApplicationGeneratorSchema } from './schema';

/** The `include` globs that make application manifests projects. */
export const APPLICATION_INCLUDE: readonly string[] = APPLICATION_FILE_NAMES.map((name) => `**/${name}`);

/** A generator error: Nx prints the message and writes nothing. */
function refuse(message: string): never {
  throw new Error(`agentdef:application: ${message}`);
}

function unwrap<T>(outcome: Outcome<T>): T {
  return outcome.ok ? outcome.value : refuse(outcome.problem);
}

const inFolder = (directory: string, name: string) => (directory === '.' ? name : `${directory}/${name}`);

/** Refuses an existing manifest, or a folder that is already an agent's project. */
function checkDestination(tree: Tree, plan: ApplicationScaffoldPlan): void {
  for (const name of APPLICATION_FILE_NAMES) {
    const file = inFolder(plan.directory, name);
    if (tree.exists(file))
      refuse(`${file} already exists, and an application is never overwritten; choose another name or --directory`);
  }
  for (const name of DEFINITION_FILE_NAMES) {
    const file = inFolder(plan.directory, name);
    if (tree.exists(file))
      refuse(
        `${plan.directory} holds the agent definition ${file}, and a folder is one project; choose another name or --directory`,
      );
  }
}

/** Refuses every agent that does not resolve to exactly one workspace definition; returns the index for the id check. */
function resolveAgents(tree: Tree, plan: ApplicationScaffoldPlan) {
  const index = indexWorkspace(tree.root);
  for (const { slug, version } of plan.agents) {
    const hits = lookupWorkspace(index, slug, version);
    if (hits.length === 1) continue;
    if (hits.length > 1)
      refuse(
        `${slug}@${version} is defined more than once (${hits.map((h) => h.file).join(', ')}); keep one definition per slug and version`,
      );
    const versions = (index.bySlug.get(slug) ?? []).map((e) => e.versionSemver);
    const known =
      versions.length > 0
        ? `the workspace defines ${slug} at ${[...new Set(versions)].join(', ')} only`
        : `no agent definition in the workspace has the slug ${slug}`;
    refuse(
      `${slug}@${version} does not resolve to an agent definition in the workspace (${known}); an application composes exact versions of existing agents`,
    );
  }
  return index;
}

/** Refuses an id that already names an agent or another application (both are Nx project names). */
function checkIdIsFree(tree: Tree, plan: ApplicationScaffoldPlan, index: ReturnType<typeof indexWorkspace>): void {
  const agent = index.bySlug.get(plan.id)?.[0];
  if (agent !== undefined)
    refuse(
      `an agent with slug "${plan.id}" already exists (${agent.file}); the id names an Nx project, so choose another name`,
    );
  let found: string | undefined;
  visitNotIgnoredFiles(tree, '.', (file) => {
    if (found !== undefined || !isApplicationFileName(posix.basename(file))) return;
    const text = tree.read(file, 'utf-8');
    if (text !== null && summarizeApplication(text, file).id === plan.id) found = file;
  });
  if (found !== undefined) refuse(`an application with id "${plan.id}" already exists (${found}); choose another name`);
}

/** Adds the application globs to an agentdef registration whose `include` names no application file; says whether it did. */
export function includeApplications(tree: Tree): boolean {
  const nxJson = readNxJson(tree);
  if (!nxJson?.plugins) return false;
  let changed = false;
  nxJson.plugins = nxJson.plugins.map((entry) => {
    if (typeof entry === 'string' || !isAgentdefPlugin(entry) || entry.include === undefined) return entry;
    if (entry.include.some((glob) => glob.includes('application.'))) return entry;
    changed = true;
    return { ...entry, include: [...entry.include, ...APPLICATION_INCLUDE] };
  });
  if (changed) updateNxJson(tree, nxJson);
  return changed;
}

export async function applicationGenerator(
  tree: Tree,
  options: ApplicationGeneratorSchema,
): Promise<GeneratorCallback> {
  const plan = unwrap(planApplicationScaffold(options));
  checkDestination(tree, plan);
  const index = resolveAgents(tree, plan);
  checkIdIsFree(tree, plan, index);
  const project = newProjectProblem(tree, plan.id, plan.directory);
  if (project !== undefined) refuse(`${project}. Nothing was written`);

  const catalog = builtinCatalog();
  const manifest = unwrap(scaffoldManifest(plan, catalog));
  const text = manifestText(manifest);
  const result = validateApplicationManifestText(text, plan.file, 'json', {
    catalog: catalogView(catalog),
    activeDigests: { catalogDigest: catalog.catalogDigest, adapterPolicyDigest: catalog.adapterPolicyDigest },
  });
  const configProblems = manifest.nodes.flatMap((node, i) =>
    componentConfigFindings(catalog, node.component.id, node.component.revision, node.config, `/nodes/${i}/config`),
  );
  if (!result.valid || configProblems.length > 0) {
    const report = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([[plan.file, text]]) });
    const configs = configProblems.map((f) => `${f.path}: ${f.message}`).join('\n');
    refuse(`these options do not make a valid application manifest, so nothing was written:\n${report}${configs}`);
  }
  tree.write(plan.file, text);
  const inputs = inFolder(plan.directory, INPUTS_FILE);
  if (!tree.exists(inputs)) tree.write(inputs, sampleInputsText());
  if (includeApplications(tree))
    logger.info(
      `agentdef:application: added ${APPLICATION_INCLUDE.join(', ')} to the agentdef plugin's include in nx.json, so ${plan.file} becomes a project`,
    );
  return () => {};
}

export default applicationGenerator;
