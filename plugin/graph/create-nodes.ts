/**
 * Graph inference: every `agent.json` / `agent.yaml` becomes an Nx project named by its slug,
 * with cacheable `validate`, `plan`, `compile` and `eval` targets (and, with the plugin option
 * `operationalTargets`, `run`, `serve`, `promote`, `publish` and `deploy`), whose inputs are exactly the
 * definitions each one reads: `validate` its own file (and tools.json, which maps its tools); `plan`
 * and `compile` the whole tree, i.e.
 * the file, every pinned workspace child transitively (`^` inputs along the pin edges that
 * `createDependencies` adds: Nx hashes them through every level) and the registry snapshots the
 * tree reaches, with whatever lies behind them (explicit file inputs: a snapshot is no project, so
 * no edge leads past it) and the registry index that vouches for them.
 *
 * Every `application.json` / `application.yaml` becomes a project too (application-project.ts),
 * named by the manifest's id, whose `plan` and `check` inputs are the manifest plus the trees of
 * the agents it composes, resolved the same way. Nx takes one glob per plugin, so one glob covers
 * both file names and each file is handled by its name.
 *
 * It reads and hashes definitions and nothing more: no validation, no compiler, no adapters.
 * An invalid definition or manifest still becomes a project (its `validate` or `check` target
 * reports the problems); only a file that cannot be read at all, two definitions (or manifests)
 * in one folder, a manifest beside a definition, or two definitions stating the same
 * `identity.slug` or `identity.id` (find-duplicate-definitions.ts), and a project name another
 * project already holds or that Nx would read as a built-in property (project-names.ts: a folder's
 * name stands in for an unreadable slug or id) are reported to Nx (once, as
 * an AggregateCreateNodesError that keeps every other project). Of two definitions with one slug
 * the first by path stays a project and the other is left out, so Nx reports agentdef's message
 * (both files, the field to change) instead of its own advice to write a project.json.
 */
import type { CreateNodes, CreateNodesContext, CreateNodesResult, TargetConfiguration } from '@nx/devkit';
import { basename, join, posix } from 'node:path';
import { COMPILE_TARGET_ENV } from './compile-target-env';
import { inferenceCacheKey, openInferenceCache, type InferenceCache } from './inference-cache';
import {
  EXECUTORS,
  normalizePluginOptions,
  PLUGIN_VERSION,
  type AgentdefPluginOptions,
  type NormalizedPluginOptions,
  type TargetKind,
} from './options';
import { summarizeDefinition, type AgentSummary } from './read-agent-summary';
import {
  APPLICATION_FILE_NAMES,
  buildApplicationProject,
  isApplicationFileName,
  type InferredApplication,
} from './application-project';
import { summarizeApplication } from './read-application-summary';
import { findDuplicateDefinitions } from './find-duplicate-definitions';
import { inferenceInDaemon, recordDefinitionWalk } from './definition-walk-record';
import { folderProjectName, refuseProjectNames, type NameClaim } from './project-names';
import { definitionFormat } from '../definition/parse-document';
import {
  decodeSource,
  readDefinitionSource,
  readSourceBytes,
  resolveFolder,
  type ResolvedFolder,
} from '../definition/read-source';
import {
  DEFINITION_FILE_NAMES,
  MCP_FILE,
  pinKey,
  registrySnapshotPath,
  TOOLS_FILE,
  workspaceModulePath,
} from '../definition/workspace-definitions';
import { REGISTRY_INDEX_FILE } from '../registry/registry-layout';
import { deploysText, servedText, targetChoices } from '../targets/targets';
import { EVAL_CASES_FOLDER, EVAL_OUTPUT_ROOT } from '../eval/eval-output';

/** The agent definitions the plugin infers projects from. */
export const AGENT_DEFINITION_GLOB = '**/agent.{json,yaml,yml}';

/** The application manifests the plugin infers projects from. */
export const APPLICATION_MANIFEST_GLOB = '**/application.{json,yaml,yml}';

/** The one glob Nx matches for the plugin: both of the above (`include` in `nx.json` narrows it). */
export const INFERENCE_GLOB = '**/{agent,application}.{json,yaml,yml}';

/** The inferred target that runs a compiled agent, and its executor. */
export const RUN_TARGET = 'run';
export const RUN_EXECUTOR = 'agentdef:run';

/** The inferred target that serves the compiled agent on loopback (`agentdef dev`), whatever its target, and its executor. */
export const SERVE_TARGET = 'serve';
export const SERVE_EXECUTOR = 'agentdef:serve';

/** The inferred target that moves the definition along its lifecycle (`--to=<stage>`), and its executor. */
export const PROMOTE_TARGET = 'promote';
export const PROMOTE_EXECUTOR = 'agentdef:promote';

/** The inferred target that publishes the definition to the registry, and its executor. */
export const PUBLISH_TARGET = 'publish';
export const PUBLISH_EXECUTOR = 'agentdef:publish';

/** The inferred target that deploys the compiled agent with its target's own tool (`--dry-run` prints), and its executor. */
export const DEPLOY_TARGET = 'deploy';
export const DEPLOY_EXECUTOR = 'agentdef:deploy';

/** The inferred target that scores the agent on its eval cases (`agentdef eval`), and its executor. */
export const EVAL_TARGET = 'eval';
export const EVAL_EXECUTOR = 'agentdef:eval';

/** The project-level named input holding a project's own definition file (what `^` reads). */
export const DEFINITION_INPUT = 'agentdefDefinition';

/** Metadata every inferred project carries; `createDependencies` reads the pins from it. */
export interface AgentProjectMetadata {
  /** Workspace-relative path of the definition file. */
  definition: string;
  slug?: string;
  versionSemver?: string;
  pins: AgentSummary['pins'];
  pluginVersion: string;
  optionsHash: string;
  /**
   * On the first agent project only: the digest of the definition walk graph inference recorded
   * while Nx computed this graph (definition-walk-record.ts); the executors take the walk's files
   * from the record instead of walking again.
   */
  walk?: string;
}

export interface InferredAgent {
  /** Workspace-relative, posix. */
  file: string;
  root: string;
  summary: AgentSummary;
}

const posixPath = (path: string) => path.replace(/\\/g, '/');

function projectRoot(file: string): string {
  const root = posix.dirname(posixPath(file));
  return root === '' ? '.' : root;
}

function isInside(file: string, folder: string): boolean {
  return file === folder || file.startsWith(`${folder}/`);
}

/**
 * Reads and summarises one definition, through the cache. `within` is the folder the file must
 * stay inside, resolved once for all the files read from it (resolveFolder), or its path.
 */
function summarize(
  workspaceRoot: string,
  file: string,
  cache: InferenceCache,
  optionsHash: string,
  within: string | ResolvedFolder,
): AgentSummary {
  // Read as the compiler reads: a regular file inside the workspace, size-limited (never a FIFO that blocks Nx).
  const read = readSourceBytes(join(workspaceRoot, file), file, undefined, within);
  if (read.ioError !== undefined) {
    const reason = read.ioError.slice(`cannot read ${file}: `.length);
    throw Object.assign(new Error(reason), reason === 'it is a directory' ? { code: 'EISDIR' } : {});
  }
  // Too large, not UTF-8 or empty: summarised as unparsed.
  const text = (read.bytes === undefined ? undefined : decodeSource(read.bytes, file).text) ?? '';
  const format = definitionFormat(file) ?? 'json';
  const key = inferenceCacheKey(text, format, optionsHash);
  const cached = cache.get(key);
  if (cached) return cached;
  const summary = summarizeDefinition(text, file, format);
  cache.set(key, summary);
  return summary;
}

/**
 * The definitions a tree reaches beyond its root that `^agentdefDefinition` does not cover, as
 * workspace-root file inputs. Pins resolve the way the compiler resolves them (a workspace
 * definition of exactly `slug@version` first, else the registry snapshot
 * `<registryRoot>/<slug>/<version>.json`). A workspace child reached along workspace pins is a
 * dependency of this project (the pin edges of create-dependencies.ts, whichever registration of
 * the plugin inferred it), and Nx hashes `^` inputs along dependencies transitively, so it is not
 * listed: for 1,000 agents the lists were 1.5 MB of project configuration Nx merged, stored and
 * sent to every plugin worker. What lies behind a registry snapshot has no edge (a snapshot is no
 * project): the snapshot, and every definition reached through it, workspace ones included, is
 * listed, with the registry index that vouches for the snapshots.
 */
function compositionInputs(
  agent: InferredAgent,
  byPin: ReadonlyMap<string, InferredAgent>,
  readRegistry: (slug: string, version: string) => AgentSummary | undefined,
  options: NormalizedPluginOptions,
  toolIds: Set<string> = new Set(),
  closures?: Map<InferredAgent, ReadonlySet<string> | null>,
): string[] {
  // The common case, a tree of workspace definitions only: no inputs beyond `^`, and the tool ids
  // of the tree, each subtree's collected once for every agent above it.
  const closed = closures === undefined ? null : workspaceClosureToolIds(agent, byPin, closures, new Set());
  if (closed !== null) {
    for (const id of closed) toolIds.add(id);
    return [];
  }
  const inputs: string[] = [];
  let readsRegistry = false;
  for (const id of agent.summary.toolIds ?? []) toolIds.add(id);
  const seen = new Set<string>([pinKey(agent.summary.slug ?? '', agent.summary.versionSemver ?? '')]);
  // Workspace-only paths first, so a child reached both ways is left to `^` (it is a dependency).
  const behindSnapshots: Array<{ slug: string; version: string }> = [];
  const visit = (pin: { slug: string; version: string }, viaSnapshot: boolean) => {
    const key = pinKey(pin.slug, pin.version);
    if (seen.has(key)) return;
    const project = byPin.get(key);
    if (project) {
      seen.add(key);
      if (viaSnapshot) inputs.push(`{workspaceRoot}/${project.file}`);
      for (const id of project.summary.toolIds ?? []) toolIds.add(id);
      for (const child of project.summary.pins) visit(child, viaSnapshot);
    } else if (!viaSnapshot) behindSnapshots.push(pin);
    else {
      seen.add(key);
      inputs.push(`{workspaceRoot}/${registrySnapshotPath(options.registryRoot, pin.slug, pin.version)}`);
      readsRegistry = true;
      const snapshot = readRegistry(pin.slug, pin.version);
      for (const id of snapshot?.toolIds ?? []) toolIds.add(id);
      for (const child of snapshot?.pins ?? []) visit(child, true);
    }
  };
  for (const pin of agent.summary.pins) visit(pin, false);
  for (const pin of behindSnapshots) visit(pin, true);
  // Resolution checks every snapshot against the digest the index recorded, so the index is an
  // input too: editing only the index changes what the plan says (it may now refuse the pin).
  if (readsRegistry) inputs.push(`{workspaceRoot}/${posix.join(options.registryRoot, REGISTRY_INDEX_FILE)}`);
  return inputs;
}

/**
 * The tool ids of `agent`'s whole tree when every pin in it, transitively, is a workspace
 * definition (so {@link compositionInputs} lists nothing beyond `^`), else null; a cycle gives
 * null too (the full walk judges it). Memoised in `closures` for the agents above.
 */
function workspaceClosureToolIds(
  agent: InferredAgent,
  byPin: ReadonlyMap<string, InferredAgent>,
  closures: Map<InferredAgent, ReadonlySet<string> | null>,
  walking: Set<InferredAgent>,
): ReadonlySet<string> | null {
  const known = closures.get(agent);
  if (known !== undefined) return known;
  if (walking.has(agent)) return null;
  walking.add(agent);
  let ids: Set<string> | null = new Set(agent.summary.toolIds ?? []);
  for (const pin of agent.summary.pins) {
    const child = byPin.get(pinKey(pin.slug, pin.version));
    const below = child === undefined ? null : workspaceClosureToolIds(child, byPin, closures, walking);
    if (below === null) {
      ids = null;
      break;
    }
    for (const id of below) ids.add(id);
  }
  walking.delete(agent);
  closures.set(agent, ids);
  return ids;
}

const TAG_VALUE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * What compiles read besides definitions: the workspace's tools.json and mcp.json, and the
 * skill-package modules tools.json maps (each module's folder, since a module may import its
 * neighbours; a module at the workspace root counts as itself). Read tolerantly: a broken
 * tools.json is the compile's to report.
 */
interface WorkspaceConfigInputs {
  files: string[];
  /** tool id → the input covering its implementation. */
  modules: Map<string, string>;
}

function workspaceConfigInputs(workspaceRoot: string): WorkspaceConfigInputs {
  const files = [`{workspaceRoot}/${MCP_FILE}`, `{workspaceRoot}/${TOOLS_FILE}`];
  const modules = new Map<string, string>();
  let tools: unknown;
  try {
    const source = readDefinitionSource(join(workspaceRoot, TOOLS_FILE), TOOLS_FILE, undefined, workspaceRoot);
    tools = source.text === undefined ? undefined : (JSON.parse(source.text) as { tools?: unknown }).tools;
  } catch {
    return { files, modules };
  }
  if (tools === null || typeof tools !== 'object') return { files, modules };
  for (const [id, entry] of Object.entries(tools as Record<string, { module?: unknown }>)) {
    const module = entry?.module;
    const file = typeof module === 'string' ? workspaceModulePath(module) : undefined;
    if (file === undefined) continue;
    const folder = posix.dirname(file);
    modules.set(id, folder === '.' ? `{workspaceRoot}/${file}` : `{workspaceRoot}/${folder}/**/*`);
  }
  return { files, modules };
}

/** The compile inputs for a tree whose definitions declare `toolIds`. */
function toolInputs(config: WorkspaceConfigInputs, toolIds: ReadonlySet<string>): string[] {
  const modules = new Set<string>();
  for (const id of toolIds) {
    const input = config.modules.get(id);
    if (input !== undefined) modules.add(input);
  }
  return [...config.files, ...[...modules].sort()];
}

/**
 * One inferred project. Every normalised option lands in the project configuration (target
 * names, executor options, outputs), which Nx hashes into each task, so changing an option
 * re-runs every agent task. (Target metadata is not hashed, and the executors' schemas take no
 * extra option, so the plugin version is not stamped: for an installed agentdef Nx hashes the
 * executors' package, i.e. its version, into every task.) Executor options are exactly what
 * each executor's schema accepts.
 */
function buildProject(
  agent: InferredAgent,
  composition: string[],
  options: NormalizedPluginOptions,
  workspaceRoot: string,
  workspaceInputs: readonly string[],
) {
  const { summary } = agent;
  // An unreadable slug falls back to the folder name, so the project (and its failing
  // `validate`) still shows up.
  const name = summary.slug ?? folderProjectName(agent.root, workspaceRoot);
  const definition = `{projectRoot}/${basename(agent.file)}`;
  const resolution = { registryRoot: options.registryRoot, maxDepth: options.maxDepth, maxNodes: options.maxNodes };
  const outputPath = `${options.outputRoot}/{projectName}`;
  // `validate` reads its own file and tools.json (the tool mapping); `plan` and `compile` read the whole tree.
  const ownInputs = [DEFINITION_INPUT, `{workspaceRoot}/${TOOLS_FILE}`];
  const treeInputs = [DEFINITION_INPUT, `^${DEFINITION_INPUT}`, ...composition];

  const target = (
    kind: TargetKind,
    description: string,
    targetOptions: Record<string, unknown>,
    inputs: TargetConfiguration['inputs'],
    outputs: string[],
  ): TargetConfiguration => ({
    executor: EXECUTORS[kind],
    options: { definition, ...targetOptions },
    cache: true,
    inputs,
    outputs,
    metadata: { description, technologies: ['agentdef'] },
  });

  const tags = ['agentdef'];
  for (const value of [summary.runtimeCapabilityClass, summary.lifecycleState]) {
    if (value !== undefined && TAG_VALUE.test(value)) tags.push(`agentdef:${value}`);
  }

  const metadata: AgentProjectMetadata = {
    definition: agent.file,
    ...(summary.slug !== undefined ? { slug: summary.slug } : {}),
    ...(summary.versionSemver !== undefined ? { versionSemver: summary.versionSemver } : {}),
    pins: summary.pins,
    pluginVersion: PLUGIN_VERSION,
    optionsHash: options.hash,
  };

  const { validate, plan, compile } = options.targetNames;
  // The operational targets (`run`, `serve`, `promote`, `publish`, `deploy`) run the CLI's own
  // commands through Nx, for one agent at a time; they are inferred only with the plugin option
  // `operationalTargets` (docs/decisions/0013-operational-targets-opt-in.md: for 1,000 agents they
  // were 43% of the configuration Nx merges, sends to every plugin worker and caches).
  const leftOut = (name: string) => !options.operationalTargets || [validate, plan, compile].includes(name);
  // `run` starts the compiled output (an HB3 job as a local process, or the local launcher); it
  // serves until stopped, so it is never cached. Left out if a renamed target already uses the name.
  const run: Record<string, TargetConfiguration> = leftOut(RUN_TARGET)
    ? {}
    : {
        [RUN_TARGET]: {
          executor: RUN_EXECUTOR,
          options: { outputPath },
          dependsOn: [compile],
          cache: false,
          metadata: {
            description:
              'Runs the compiled agent on this machine (HB3 job or local launcher), serving A2A on a loopback port',
            technologies: ['agentdef'],
          },
        },
      };
  // `serve` compiles (passing `--target` down, see compile-target-flag.ts) and serves any compiled
  // output on loopback with `agentdef dev` (the agentdef:serve executor) until stopped: never
  // cached; `--port=<n>` and `--watch` are its options. It is NOT `continuous`: Nx (23) counts a
  // continuous task that exits on its own as successful when no other task depends on it, so
  // `nx run <agent>:serve` would print `Successfully ran target serve` and exit 0 after dev
  // failed (a port in use, a missing secret). A workspace that wants another target to run
  // alongside it sets `continuous` itself (docs/running-and-calling.md). The watching is
  // `agentdef dev --watch`'s, which follows exactly what the compile read (tool modules and their
  // imports outside the project included). Left out if a renamed target already uses the name.
  const serve: Record<string, TargetConfiguration> = leftOut(SERVE_TARGET)
    ? {}
    : {
        [SERVE_TARGET]: {
          executor: SERVE_EXECUTOR,
          options: { outputPath },
          dependsOn: [compile],
          cache: false,
          metadata: {
            description: `Compiles the agent (--target=…) and serves it on loopback with \`agentdef dev\` (${servedText()}); --watch recompiles and reloads on changes`,
            technologies: ['agentdef'],
          },
        },
      };
  // `promote` changes the definition and appends a signed receipt: never cached; left out if a
  // renamed target already uses the name.
  const promote: Record<string, TargetConfiguration> = leftOut(PROMOTE_TARGET)
    ? {}
    : {
        [PROMOTE_TARGET]: {
          executor: PROMOTE_EXECUTOR,
          options: {
            definition,
            ...(options.requireEval ? { requireEval: true } : {}),
          },
          cache: false,
          metadata: {
            description:
              'Moves the definition to the next lifecycle stage that applies (--to=<stage>, gates checked; a leaf passes composed) or down, appending a signed transition receipt',
            technologies: ['agentdef'],
          },
        },
      };
  // `publish` writes to the registry from a committed definition: never cached; left out if a
  // renamed target already uses the name.
  const publish: Record<string, TargetConfiguration> = leftOut(PUBLISH_TARGET)
    ? {}
    : {
        [PUBLISH_TARGET]: {
          executor: PUBLISH_EXECUTOR,
          options: { definition, registryRoot: options.registryRoot },
          cache: false,
          metadata: {
            description:
              'Publishes the committed definition to the registry: snapshot, signed card, AgentFacts credential, KYM registration',
            technologies: ['agentdef'],
          },
        },
      };
  // `deploy` compiles, then hands the output to wrangler, docker/podman or the user service folder:
  // never cached. Left out if a renamed target already uses the name.
  const deploy: Record<string, TargetConfiguration> = leftOut(DEPLOY_TARGET)
    ? {}
    : {
        [DEPLOY_TARGET]: {
          executor: DEPLOY_EXECUTOR,
          options: { outputPath },
          dependsOn: [compile],
          cache: false,
          metadata: {
            description: `Deploys the compiled agent with its target's own tool (${deploysText()}); --dry-run prints`,
            technologies: ['agentdef'],
          },
        },
      };
  // `eval` compiles and serves the agent itself and asks it every case (replaying the recordings):
  // cacheable on what can change a score, i.e. the compile's inputs (the definition tree, the
  // workspace's tools and MCP servers), the cases and the recordings. Its results and signed
  // receipt are its outputs. Left out if a renamed target already uses the name.
  const recordings = options.evalRecordings.replaceAll('{projectName}', name);
  const evalTarget: Record<string, TargetConfiguration> = [validate, plan, compile].includes(EVAL_TARGET)
    ? {}
    : {
        [EVAL_TARGET]: {
          executor: EVAL_EXECUTOR,
          options: {
            definition,
            out: `${EVAL_OUTPUT_ROOT}/{projectName}`,
            // Workspace-relative (Nx fills in {projectRoot}); the executor replays it when it exists.
            replay: recordings,
          },
          cache: true,
          inputs: [
            ...treeInputs,
            ...workspaceInputs,
            `{projectRoot}/${EVAL_CASES_FOLDER}/**/*`,
            `${recordings.startsWith('{projectRoot}/') ? '' : '{workspaceRoot}/'}${recordings}/**/*`,
          ],
          outputs: ['{options.out}'],
          metadata: {
            description:
              'Scores the agent on its eval cases (evals/*.yaml): compiles, serves, asks every case over A2A replaying its recordings, writes eval.json, junit.xml and a signed eval receipt',
            technologies: ['agentdef'],
          },
        },
      };
  return {
    name,
    tags,
    namedInputs: { [DEFINITION_INPUT]: [definition] },
    targets: {
      [validate]: target(
        'validate',
        'Validates the definition: JSON Schema and semantic rules, every problem at once',
        {},
        ownInputs,
        [],
      ),
      [plan]: target('plan', 'Resolves the pinned children and prints the compile plan', resolution, treeInputs, []),
      [compile]: target(
        'compile',
        `Compiles the agent for its runtime (--target=${targetChoices()})`,
        { target: 'auto', outputPath, ...resolution },
        // `--target` on the command line arrives through this variable (see compile-target-flag.ts)
        [...treeInputs, ...workspaceInputs, { env: COMPILE_TARGET_ENV }],
        // The option itself (as Nx's own plugins declare it): a `--outputPath=…` given on the
        // command line is what Nx caches and restores, not the default folder.
        ['{options.outputPath}'],
      ),
      ...run,
      ...serve,
      ...promote,
      ...publish,
      ...deploy,
      ...evalTarget,
    },
    metadata: {
      description:
        summary.slug !== undefined
          ? `AgentDefinition ${summary.slug}@${summary.versionSemver ?? '?'}`
          : `AgentDefinition ${agent.file} (its slug is unreadable)`,
      technologies: ['agentdef'],
      targetGroups: { agentdef: [validate, plan, compile] },
      agentdef: metadata,
    },
  };
}

function buildProjectWithTools(
  agent: InferredAgent,
  byPin: ReadonlyMap<string, InferredAgent>,
  readRegistry: (slug: string, version: string) => AgentSummary | undefined,
  options: NormalizedPluginOptions,
  workspaceRoot: string,
  config: WorkspaceConfigInputs,
  closures: Map<InferredAgent, ReadonlySet<string> | null>,
) {
  const toolIds = new Set<string>();
  const composition = compositionInputs(agent, byPin, readRegistry, options, toolIds, closures);
  return buildProject(agent, composition, options, workspaceRoot, toolInputs(config, toolIds));
}

/** Nx's createNodes function: agent and application projects from every matched file (the name says which). */
export async function createAgentNodes(
  configFiles: readonly string[],
  rawOptions: AgentdefPluginOptions | undefined,
  context: CreateNodesContext,
): Promise<Array<readonly [string, CreateNodesResult]>> {
  const options = normalizePluginOptions(rawOptions);
  const cache = openInferenceCache(context.workspaceRoot, options.hash);
  const workspaceInputs = workspaceConfigInputs(context.workspaceRoot);
  const errors: Array<[string, Error]> = [];

  // One definition per folder; registry snapshots are never projects.
  const byFolder = new Map<string, string[]>();
  const applicationsByFolder = new Map<string, string[]>();
  // Nx may hand a file twice; order never matters (folders and files are sorted below).
  for (const file of new Set(configFiles.map(posixPath))) {
    if (isInside(file, options.registryRoot)) continue;
    const root = projectRoot(file);
    const folders = isApplicationFileName(basename(file)) ? applicationsByFolder : byFolder;
    folders.set(root, [...(folders.get(root) ?? []), file]);
  }

  const readAgents: InferredAgent[] = [];
  const workspaceFolder = resolveFolder(context.workspaceRoot) ?? context.workspaceRoot;
  for (const [root, files] of [...byFolder].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // One folder, several definition files: the most preferred name wins.
    files.sort((a, b) => DEFINITION_FILE_NAMES.indexOf(basename(a)) - DEFINITION_FILE_NAMES.indexOf(basename(b)));
    const [file, ...others] = files as [string, ...string[]];
    for (const other of others) {
      errors.push([
        other,
        new Error(
          `${other}: ${root} already holds ${file}; a folder holds one agent definition, so move or remove one of them`,
        ),
      ]);
    }
    let summary: AgentSummary;
    try {
      summary = summarize(context.workspaceRoot, file, cache, options.hash, workspaceFolder);
    } catch (error) {
      errors.push([
        file,
        new Error(
          `${file}: cannot read the agent definition (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        ),
      ]);
      continue;
    }
    readAgents.push({ file, root, summary });
  }

  const sameSlug = new Set<string>();
  for (const duplicate of findDuplicateDefinitions(
    readAgents.map((agent) => ({ file: agent.file, ...agent.summary })),
  )) {
    errors.push([duplicate.duplicate.file, new Error(duplicate.message)]);
    if (duplicate.field === 'identity.slug') sameSlug.add(duplicate.duplicate.file);
  }
  const applicationErrors: Array<[string, Error]> = [];
  const readApplications = inferApplications(applicationsByFolder, byFolder, context.workspaceRoot, applicationErrors);

  // One name per project across agents and applications, none Nx would read as a built-in property.
  const named = readAgents.filter((agent) => !sameSlug.has(agent.file));
  const refused = refuseProjectNames([
    ...named.map(
      (agent): NameClaim => ({
        file: agent.file,
        kind: 'agent',
        name: agent.summary.slug ?? folderProjectName(agent.root, context.workspaceRoot),
        stated: agent.summary.slug !== undefined,
        at: agent.summary.slugAt,
      }),
    ),
    ...readApplications.map(
      (app): NameClaim => ({
        file: app.file,
        kind: 'application',
        name: app.summary.id ?? folderProjectName(app.root, context.workspaceRoot),
        stated: app.summary.id !== undefined,
        at: app.summary.idAt,
      }),
    ),
  ]);
  for (const agent of named) if (refused.has(agent.file)) errors.push([agent.file, new Error(refused.get(agent.file))]);
  errors.push(...applicationErrors);
  for (const app of readApplications)
    if (refused.has(app.file)) errors.push([app.file, new Error(refused.get(app.file))]);
  const agents = named.filter((agent) => !refused.has(agent.file));
  const applications = readApplications.filter((app) => !refused.has(app.file));

  const byPin = new Map<string, InferredAgent>();
  for (const agent of agents) {
    if (agent.summary.slug !== undefined && agent.summary.versionSemver !== undefined) {
      byPin.set(pinKey(agent.summary.slug, agent.summary.versionSemver), agent);
    }
  }
  const registrySummaries = new Map<string, AgentSummary | undefined>();
  let registryFolder: string | ResolvedFolder | undefined;
  const readRegistry = (slug: string, version: string): AgentSummary | undefined => {
    const file = registrySnapshotPath(options.registryRoot, slug, version);
    if (!registrySummaries.has(file)) {
      let summary: AgentSummary | undefined;
      try {
        if (registryFolder === undefined) {
          const registry = join(context.workspaceRoot, options.registryRoot);
          registryFolder = resolveFolder(registry) ?? registry;
        }
        summary = summarize(context.workspaceRoot, file, cache, options.hash, registryFolder);
      } catch {
        summary = undefined; // not published (yet): the file input still names it
      }
      registrySummaries.set(file, summary);
    }
    return registrySummaries.get(file);
  };

  const closures = new Map<InferredAgent, ReadonlySet<string> | null>();
  const results: Array<readonly [string, CreateNodesResult]> = agents.map((agent) => [
    agent.file,
    {
      projects: {
        [agent.root]: buildProjectWithTools(
          agent,
          byPin,
          readRegistry,
          options,
          context.workspaceRoot,
          workspaceInputs,
          closures,
        ),
      },
    },
  ]);
  cache.save();
  const first = results[0]?.[1].projects?.[agents[0]?.root ?? ''];
  if (first !== undefined && !inferenceInDaemon()) {
    const walk = recordDefinitionWalk(context.workspaceRoot);
    const agentdef = (first.metadata as { agentdef?: AgentProjectMetadata } | undefined)?.agentdef;
    if (walk !== undefined && agentdef !== undefined) agentdef.walk = walk;
  }

  for (const application of applications) {
    // The agents it composes, resolved like pins: their files and their whole trees are inputs.
    const composing: InferredAgent = {
      file: application.file,
      root: application.root,
      summary: { pins: application.summary.agents, parsed: true },
    };
    const composition = compositionInputs(composing, byPin, readRegistry, options);
    results.push([
      application.file,
      {
        projects: {
          [application.root]: buildApplicationProject(
            application,
            composition,
            options,
            context.workspaceRoot,
            DEFINITION_INPUT,
          ),
        },
      },
    ]);
  }

  if (errors.length > 0) {
    // Loaded only on this rare path: @nx/devkit costs ~0.4 s to load on every Nx command.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AggregateCreateNodesError } = require('@nx/devkit') as typeof import('@nx/devkit');
    throw new AggregateCreateNodesError(errors, results);
  }
  return results;
}

/**
 * Reads every application manifest: one per folder (the most preferred name wins), never in a
 * folder that holds an agent definition (a folder is one project). Not cached: manifests are few
 * and small, and the summary is one parse.
 */
function inferApplications(
  byFolder: ReadonlyMap<string, string[]>,
  agentFolders: ReadonlyMap<string, string[]>,
  workspaceRoot: string,
  errors: Array<[string, Error]>,
): InferredApplication[] {
  const applications: InferredApplication[] = [];
  for (const [root, files] of [...byFolder].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    files.sort((a, b) => APPLICATION_FILE_NAMES.indexOf(basename(a)) - APPLICATION_FILE_NAMES.indexOf(basename(b)));
    const definitions = agentFolders.get(root);
    if (definitions !== undefined) {
      for (const file of files) {
        errors.push([
          file,
          new Error(
            `${file}: ${root} already holds the agent definition ${definitions[0]}; a folder is one project, so move the application manifest to a folder of its own`,
          ),
        ]);
      }
      continue;
    }
    const [file, ...others] = files as [string, ...string[]];
    for (const other of others) {
      errors.push([
        other,
        new Error(
          `${other}: ${root} already holds ${file}; a folder holds one application manifest, so move or remove one of them`,
        ),
      ]);
    }
    const source = readDefinitionSource(join(workspaceRoot, file), file, undefined, workspaceRoot);
    if (source.ioError !== undefined) {
      const reason = source.ioError.slice(`cannot read ${file}: `.length);
      errors.push([
        file,
        new Error(
          `${file}: cannot read the application manifest (${reason === 'it is a directory' ? 'EISDIR' : reason})`,
        ),
      ]);
      continue;
    }
    // Too large, not UTF-8 or empty: summarised as unparsed (its `check` reports why).
    applications.push({ file, root, summary: summarizeApplication(source.text ?? '', file) });
  }
  return applications;
}

export const createNodes: CreateNodes<AgentdefPluginOptions> = [INFERENCE_GLOB, createAgentNodes];

/** The same function under the name older Nx versions look for. */
export const createNodesV2: CreateNodes<AgentdefPluginOptions> = createNodes;
