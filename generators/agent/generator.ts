/**
 * `nx g agentdef:agent <name>`: writes a new `agent.json` (or, with `--format yaml`, an
 * `agent.yaml` whose first line names the schema for editors) that passes the JSON Schema and every
 * semantic rule, or writes nothing and says why. The definition is checked with the definition
 * layer's own validator before it touches the tree, so a generated file never fails `validate`.
 *
 * Where it goes: `name` may be a slug (`summarizer` → `summarizer/agent.json`) or a folder path
 * whose last segment is the slug (`agents/summarizer` → `agents/summarizer/agent.json`), like
 * Nx's own generators; `--directory` names the folder explicitly. Paths are relative to the
 * workspace root. Every `--nodes` pin must resolve (a workspace definition at exactly that
 * version, or a registry snapshot), and every check runs before the first write, so a refusal
 * leaves nothing behind.
 *
 * What it writes is plugin/definition/scaffold.ts's; this file is the Tree I/O around it.
 */
import { readJson, readNxJson, type GeneratorCallback, type Tree } from '@nx/devkit';
import { ulid } from 'ulid';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import {
  folderPath,
  planScaffold,
  scaffoldDefinition,
  definitionText,
  toolModuleFile,
  toolModuleText,
  toolsJsonWithTool,
  type Outcome,
  type ScaffoldWorkspace,
} from '../../plugin/definition/scaffold';
import { DEFINITION_FILE_NAMES, TOOLS_FILE, WORKSPACE_DEFAULTS } from '../../plugin/definition/workspace-definitions';
import { isAgentdefPlugin } from '../init/generator';
import type { AgentGeneratorSchema } from './schema';
import { newProjectProblem, readWorkspaceAgents, takenSlug, unresolvedPin } from './workspace-agents';

/** A generator error: Nx prints the message and writes nothing. */
function refuse(message: string): never {
  throw new Error(`agentdef:agent: ${message}`);
}

function unwrap<T>(outcome: Outcome<T>): T {
  return outcome.ok ? outcome.value : refuse(outcome.problem);
}

/**
 * The value of `--version` on the command line. The Nx CLI declares a global boolean `--version`
 * (for `nx --version`), so yargs hands a generator `false` instead of `--version=1.2.0`.
 */
export function versionFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  argv.forEach((arg, i) => {
    if (arg.startsWith('--version=')) found = arg.slice('--version='.length);
    else if (arg === '--version' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) found = argv[i + 1];
  });
  return found;
}

/** The workspace package.json's `name` and `repository`, when there is one. */
function readWorkspace(tree: Tree): ScaffoldWorkspace {
  if (!tree.exists('package.json')) return {};
  const json = readJson<{ name?: unknown; repository?: unknown }>(tree, 'package.json');
  return { packageName: json.name, repository: json.repository };
}

/** The registry folder the plugin is configured with (its published slugs are taken too). */
function registryRoot(tree: Tree): string {
  for (const entry of readNxJson(tree)?.plugins ?? []) {
    if (typeof entry === 'string') continue;
    const configured = (entry.options as { registryRoot?: unknown } | undefined)?.registryRoot;
    if (isAgentdefPlugin(entry) && typeof configured === 'string')
      return unwrap(folderPath(configured, 'registryRoot'));
  }
  return WORKSPACE_DEFAULTS.registryRoot;
}

export async function agentGenerator(tree: Tree, options: AgentGeneratorSchema): Promise<GeneratorCallback> {
  const version = typeof options.version === 'string' ? options.version : versionFromArgv(process.argv);
  const workspace = readWorkspace(tree);
  const plan = unwrap(planScaffold({ ...options, version }, workspace));
  const agents = readWorkspaceAgents(tree, registryRoot(tree));
  const where = takenSlug(tree, agents, plan.slug);
  if (where !== undefined) refuse(`an agent with slug "${plan.slug}" already exists (${where}); choose another name`);
  for (const name of DEFINITION_FILE_NAMES) {
    const sibling = plan.directory === '.' ? name : `${plan.directory}/${name}`;
    if (tree.exists(sibling))
      refuse(`${sibling} already exists: one folder holds one agent definition; choose another --directory`);
  }
  const project = newProjectProblem(tree, plan.slug, plan.directory);
  if (project !== undefined) refuse(`${project}. Nothing was written`);
  for (const node of plan.nodes) {
    const unresolved = unresolvedPin(tree, agents, node.slug, node.version);
    if (unresolved !== undefined) refuse(`${unresolved}. Nothing was written`);
  }

  const id = ulid();
  const text = definitionText(scaffoldDefinition(plan, workspace, { id, versionId: ulid() }), plan.format);
  const result = validateDefinitionSource(text, plan.file, plan.format);
  if (!result.valid || hasErrors(result.diagnostics)) {
    const report = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([[plan.file, text]]) });
    refuse(`these options do not make a valid definition, so nothing was written:\n${report}`);
  }
  const toolFiles = plan.kind === 'tool' ? toolImplementationFiles(tree, plan.directory, plan.slug) : [];
  tree.write(plan.file, text);
  for (const file of toolFiles) tree.write(file.path, file.text);
  return () => {};
}

/**
 * A tool agent's scripted tool needs an implementation to compile: a starter module beside the
 * definition (unless one is there) and the workspace's tools.json mapping it (created or
 * extended, never replaced). Computed before anything is written, so a bad tools.json refuses
 * the whole run.
 */
function toolImplementationFiles(tree: Tree, directory: string, toolId: string): { path: string; text: string }[] {
  const module = toolModuleFile(directory);
  const current = tree.exists(TOOLS_FILE) ? readJson(tree, TOOLS_FILE) : undefined;
  const tools = { path: TOOLS_FILE, text: unwrap(toolsJsonWithTool(current, toolId, module)) };
  return tree.exists(module) ? [tools] : [{ path: module, text: toolModuleText(toolId) }, tools];
}

export default agentGenerator;
