/**
 * `nx g agentdef:import-card --card=<file> [--directory=<folder>] [--slug=<slug>]`: retrofits an AgentDefinition
 * from an existing A2A AgentCard (docs/decisions/0002-legacy-import.md). The import itself is
 * plugin/trust/import-card.ts; this file is the Tree I/O around it: read the card, pick the folder,
 * write `<folder>/agent.json`, and print the fields the owner must complete and what was noticed
 * about the card. A card that is not a JSON object, or a folder that already holds a definition,
 * writes nothing and says why.
 */
import { logger, readJson, type GeneratorCallback, type Tree } from '@nx/devkit';
import { ulid } from 'ulid';
import { folderPath } from '../../plugin/definition/scaffold';
import { DEFINITION_FILE_NAMES, isSlug, SLUG_MAX_LENGTH } from '../../plugin/definition/workspace-definitions';
import { folderProjectName } from '../../plugin/graph/project-names';
import { newProjectProblem } from '../agent/workspace-agents';
import { formatImportReport, importCard, isTodoMarker } from '../../plugin/trust/import-card';
import type { ImportCardGeneratorSchema } from './schema';

/** A generator error: Nx prints the message and writes nothing. */
function refuse(message: string): never {
  throw new Error(`agentdef:import-card: ${message}`);
}

/** The workspace package.json's repository URL, when it names one. */
function repositoryOf(tree: Tree): string | undefined {
  if (!tree.exists('package.json')) return undefined;
  const { repository } = readJson<{ repository?: unknown }>(tree, 'package.json');
  const url = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null | undefined)?.url;
  return typeof url === 'string' && url.trim() !== '' ? url.trim() : undefined;
}

function readCard(tree: Tree, file: string): unknown {
  const text = tree.exists(file) ? tree.read(file, 'utf-8') : null;
  if (text === null) refuse(`cannot read the card ${file}: no such file in the workspace`);
  try {
    return JSON.parse(text);
  } catch (error) {
    return refuse(`the card ${file} is not JSON: ${(error as Error).message}`);
  }
}

export async function importCardGenerator(tree: Tree, options: ImportCardGeneratorSchema): Promise<GeneratorCallback> {
  const cardFile = folderPath(String(options.card ?? ''), '--card');
  if (!cardFile.ok) refuse(cardFile.problem);
  const card = readCard(tree, cardFile.value);

  // The slug decides the default folder, and the folder decides provenance.filePath: import once to learn it.
  if (options.slug !== undefined && !isSlug(String(options.slug))) {
    refuse(
      `--slug must be a kebab-case slug of at most ${SLUG_MAX_LENGTH} characters (lower-case letters and digits joined by single hyphens), not ${JSON.stringify(String(options.slug))}`,
    );
  }
  const ids = { id: ulid(), versionId: ulid() };
  const repository = repositoryOf(tree);
  const chosen = {
    ...(repository ? { repository } : {}),
    ...(options.slug !== undefined ? { slug: String(options.slug) } : {}),
  };
  const probe = importCard(card, { ids, ...chosen });
  if (!probe.ok) refuse(formatImportReport(probe, cardFile.value).trimEnd());
  const slug = (probe.definition.identity as Record<string, unknown>).slug;
  if (options.directory === undefined && (typeof slug !== 'string' || isTodoMarker(slug)))
    refuse("the card's name gives no slug: pass --directory=<folder>");
  const directory = folderPath(options.directory ?? String(slug), '--directory');
  if (!directory.ok) refuse(directory.problem);
  for (const name of DEFINITION_FILE_NAMES) {
    const existing = directory.value === '.' ? name : `${directory.value}/${name}`;
    if (tree.exists(existing))
      refuse(`${existing} already exists: one folder holds one agent definition; choose another --directory`);
  }
  const file = directory.value === '.' ? 'agent.json' : `${directory.value}/agent.json`;
  // The project's name: the slug, or (a TODO slug) the folder's name, as graph inference names it.
  const name = typeof slug === 'string' && !isTodoMarker(slug) ? slug : folderProjectName(directory.value, tree.root);
  const project = newProjectProblem(tree, name, directory.value);
  if (project !== undefined)
    refuse(
      `the imported agent's project: ${project} (${options.slug !== undefined ? 'the slug given with --slug' : "the slug comes from the card's name; pass --slug=<another>"}). Nothing was written`,
    );

  const result = importCard(card, { ids, file, ...chosen });
  if (!result.ok) refuse(formatImportReport(result, cardFile.value).trimEnd());
  tree.write(file, `${JSON.stringify(result.definition, null, 2)}\n`);
  logger.info(`${file}:\n${formatImportReport(result, cardFile.value)}`);
  return () => {};
}

export default importCardGenerator;
