/**
 * `agentdef registry verify [--registry dir] [--format text|json]`: every snapshot of the folder
 * registry against the digest its index recorded, and every export's signature (card, AgentFacts
 * credential, KYM registration), via trust/registry-verify.ts over the folder's files
 * (registry/registry-files.ts). Says exactly which file failed and why, and every recorded key
 * rotation. The registry must be a real folder (a symbolic link is refused). Exit 0 verified (or
 * an empty registry: an index that records nothing, said so), 1 not verified or nothing to verify
 * (no index and no snapshot), 2 unreadable (no registry, a link, an unreadable index) or usage.
 * `agentdef registry rank --skill <tag>`: see {@link runRegistryRank}.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { findWorkspaceRoot, WORKSPACE_DEFAULTS } from '../../definition/workspace-definitions';
import { folderRegistryFiles, type RegistryFiles } from '../../registry/registry-files';
import { readRegistryIndex } from '../../registry/registry-index';
import { REGISTRY_INDEX_FILE } from '../../registry/registry-layout';
import { verifyRegistry } from '../../trust/registry-verify';
import { publishedCandidates } from '../../trust/registry-candidates';
import { rankCandidates } from '../../reputation/rank-candidates';
import { EXIT, type CliIo } from '../io';
import { REGISTRY } from '../specs/registry';
import { parseCommand, subcommandError, subcommandOf, usageError } from '../usage';

const toPosix = (path: string) => path.split(sep).join('/');

/** The registry folder `--registry` names (relative to the working folder), else the workspace's, and how it is shown. */
function registryFolder(io: CliIo, given: string | undefined): { root: string; displayRoot: string } {
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  const configured = given ?? WORKSPACE_DEFAULTS.registryRoot;
  const root =
    given !== undefined
      ? resolve(io.cwd, configured)
      : isAbsolute(configured)
        ? configured
        : resolve(workspaceRoot, configured);
  return { root, displayRoot: toPosix(relative(workspaceRoot, root)) || '.' };
}

export async function runRegistryCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (subcommandOf(REGISTRY, sub) === undefined) return subcommandError(io, REGISTRY, sub);
  if (sub === 'rank') return runRegistryRank(rest, io);
  const parsed = parseCommand(io, REGISTRY.subcommands.verify, rest);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  const { root, displayRoot } = registryFolder(io, parsed.values.registry);

  const read = readRegistryOrSay(io, root, displayRoot);
  if (typeof read === 'number') return read;
  const { files, index } = read;
  if (index.missing && files.snapshots.length > 0) {
    io.stderr(`error: ${displayRoot}/${REGISTRY_INDEX_FILE} is missing: no snapshot of this registry can be checked\n`);
    return EXIT.invalid;
  }
  // Nothing to verify is no success: a folder with no index and no snapshot is not a registry (a
  // mistyped path, a link's target). An index that records no version is an empty registry: said so.
  if (index.missing) {
    const message = `nothing to verify: ${displayRoot} has no ${REGISTRY_INDEX_FILE} and no published version (is it the registry folder?)`;
    if (format === 'json')
      io.stdout(
        `${JSON.stringify({ registry: displayRoot, verified: false, passed: [], problems: [{ file: REGISTRY_INDEX_FILE, message }], rotations: [] }, null, 2)}\n`,
      );
    else io.stderr(`error: ${message}\n`);
    return EXIT.invalid;
  }
  const result = await verifyRegistry(index.index, files);
  if (format === 'json')
    io.stdout(
      `${JSON.stringify({ registry: displayRoot, empty: index.index.snapshots.length === 0, ...result }, null, 2)}\n`,
    );
  else {
    for (const problem of result.problems) io.stderr(`${displayRoot}/${problem.file}: ${problem.message}\n`);
    for (const ref of result.passed) io.stdout(`verified ${ref}\n`);
    for (const r of result.rotations)
      io.stdout(
        `key rotation ${r.slug}@${r.previousVersion} → ${r.version}: ${r.from} → ${r.to} (recorded, signed by the old key)\n`,
      );
    if (index.index.snapshots.length === 0 && result.verified)
      io.stdout(`${displayRoot} is an empty registry: its ${REGISTRY_INDEX_FILE} records no published version\n`);
    else
      io.stdout(
        `${result.passed.length} of ${index.index.snapshots.length} published versions verified in ${displayRoot}${result.verified ? '' : `; ${result.problems.length} problem(s)`}\n`,
      );
  }
  return result.verified ? EXIT.ok : EXIT.invalid;
}

/**
 * `agentdef registry rank --skill <tag> [--registry dir] [--format text|json]`: the published
 * versions with the tag, by attested reputation (trust/registry-candidates.ts, reputation/rank-candidates.ts).
 */
/** The registry's files and index, or the usage exit after saying why they cannot be read. */
function readRegistryOrSay(
  io: CliIo,
  root: string,
  displayRoot: string,
): { files: RegistryFiles; index: Extract<ReturnType<typeof readRegistryIndex>, { ok: true }> } | number {
  let files: RegistryFiles;
  try {
    files = folderRegistryFiles(root, displayRoot);
  } catch (error) {
    io.stderr(`error: ${(error as Error).message || `cannot read the registry ${displayRoot}`}\n`);
    return EXIT.usage;
  }
  const index = readRegistryIndex(root, displayRoot);
  if (!index.ok) {
    io.stderr(`error: ${index.problem}\n`);
    return EXIT.usage;
  }
  return { files, index };
}

async function runRegistryRank(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, REGISTRY.subcommands.rank, argv);
  if (typeof parsed === 'number') return parsed;
  const tag = parsed.values.skill;
  if (tag === undefined || tag === '')
    return usageError(io, 'name the skill tag to rank with --skill <tag>', REGISTRY.subcommands.rank);
  const { root, displayRoot } = registryFolder(io, parsed.values.registry);
  const read = readRegistryOrSay(io, root, displayRoot);
  if (typeof read === 'number') return read;
  const { files, index } = read;
  if (index.missing) {
    io.stderr(
      `error: ${displayRoot} has no ${REGISTRY_INDEX_FILE}: nothing is published there (is it the registry folder?)\n`,
    );
    return EXIT.usage;
  }
  const { candidates, problems } = await publishedCandidates(index.index, files, tag);
  const ranked = rankCandidates(candidates);
  if (parsed.values.format === 'json')
    io.stdout(`${JSON.stringify({ registry: displayRoot, skill: tag, ranked, problems }, null, 2)}\n`);
  else {
    for (const p of problems) io.stderr(`${displayRoot}/${p.file}: ${p.message}\n`);
    ranked.forEach((c, i) =>
      io.stdout(
        `${i + 1}. ${c.slug}@${c.version}  ${c.score === null ? 'unscored' : `score ${c.score.toFixed(4)}`}  receipts ${c.receiptCount}${c.asOf !== undefined ? `  as of ${c.asOf}` : ''}\n`,
      ),
    );
    if (ranked.length === 0) io.stderr(`no published version in ${displayRoot} has the tag "${tag}"\n`);
  }
  return ranked.length > 0 && problems.length === 0 ? EXIT.ok : EXIT.invalid;
}
