/**
 * `nx g agentdef:agent <name>`: writes a new `agent.json` that passes the JSON Schema and every
 * semantic rule, or writes nothing and says why. The definition is checked with the definition
 * layer's own validator before it touches the tree, so a generated file never fails `validate`.
 *
 * Where it goes: `name` may be a slug (`summarizer` → `summarizer/agent.json`) or a folder path
 * whose last segment is the slug (`agents/summarizer` → `agents/summarizer/agent.json`), like
 * Nx's own generators; `--directory` names the folder explicitly. Paths are relative to the
 * workspace root.
 *
 * What it writes is plugin/definition/scaffold.ts's; this file is the Tree I/O around it.
 */
import { readJson, readNxJson, visitNotIgnoredFiles, type GeneratorCallback, type Tree } from '@nx/devkit';
import { posix } from 'node:path';
import { ulid } from 'ulid';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import { folderPath, planScaffold, scaffoldDefinition, definitionText, toolModuleFile, toolModuleText, toolsJsonWithTool, type Outcome, type ScaffoldWorkspace } from '../../plugin/definition/scaffold';
import { DEFINITION_FILE_NAMES, isDefinitionFileName, registrySlugPath, WORKSPACE_DEFAULTS } from '../../plugin/definition/workspace-definitions';
import { summarizeDefinition } from '../../plugin/graph/read-agent-summary';
import { isAgentdefPlugin } from '../init/generator';
import { TOOLS_FILE } from '../../plugin/definition/workspace-definitions';
import type { AgentGeneratorSchema } from './schema';

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
    if (isAgentdefPlugin(entry) && typeof configured === 'string') return unwrap(folderPath(configured, 'registryRoot'));
  }
  return WORKSPACE_DEFAULTS.registryRoot;
}

/** Where `slug` already exists: a definition declaring it, or a registry folder publishing it. */
function existingSlug(tree: Tree, slug: string): string | undefined {
  let found: string | undefined;
  visitNotIgnoredFiles(tree, '.', (file) => {
    if (found !== undefined || !isDefinitionFileName(posix.basename(file))) return;
    const text = tree.read(file, 'utf-8');
    if (text !== null && summarizeDefinition(text, file).slug === slug) found = file;
  });
  if (found !== undefined) return found;
  const published = registrySlugPath(registryRoot(tree), slug);
  return tree.exists(published) && tree.children(published).length > 0 ? published : undefined;
}

export async function agentGenerator(tree: Tree, options: AgentGeneratorSchema): Promise<GeneratorCallback> {
  const version = typeof options.version === 'string' ? options.version : versionFromArgv(process.argv);
  const workspace = readWorkspace(tree);
  const plan = unwrap(planScaffold({ ...options, version }, workspace));
  const where = existingSlug(tree, plan.slug);
  if (where !== undefined) refuse(`an agent with slug "${plan.slug}" already exists (${where}); choose another name`);
  for (const name of DEFINITION_FILE_NAMES) {
    const sibling = plan.directory === '.' ? name : `${plan.directory}/${name}`;
    if (tree.exists(sibling)) refuse(`${sibling} already exists: one folder holds one agent definition; choose another --directory`);
  }

  const id = ulid();
  const text = definitionText(scaffoldDefinition(plan, workspace, { id, versionId: ulid() }));
  const result = validateDefinitionSource(text, plan.file, 'json');
  if (!result.valid || hasErrors(result.diagnostics)) {
    const report = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([[plan.file, text]]) });
    refuse(`these options do not make a valid definition, so nothing was written:\n${report}`);
  }
  tree.write(plan.file, text);
  if (plan.kind === 'tool') scaffoldToolImplementation(tree, plan.directory, plan.slug);
  return () => {};
}

/**
 * A tool agent's scripted tool needs an implementation to compile: write a starter module beside
 * the definition and map it in the workspace's tools.json (created or extended, never replaced).
 */
function scaffoldToolImplementation(tree: Tree, directory: string, toolId: string): void {
  const module = toolModuleFile(directory);
  if (!tree.exists(module)) tree.write(module, toolModuleText(toolId));
  const current = tree.exists(TOOLS_FILE) ? readJson(tree, TOOLS_FILE) : undefined;
  tree.write(TOOLS_FILE, unwrap(toolsJsonWithTool(current, toolId, module)));
}

export default agentGenerator;
