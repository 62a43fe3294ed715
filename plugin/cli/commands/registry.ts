/**
 * `agentdef registry verify [--registry dir] [--format text|json]`: every snapshot of the folder
 * registry against the digest its index recorded, and every export's signature (card, AgentFacts
 * credential, KYM registration), via trust/registry-verify.ts over the folder's files
 * (registry/registry-files.ts). Says exactly which file failed and why, and every recorded key
 * rotation. The registry must be a real folder (a symbolic link is refused). Exit 0 verified (or
 * an empty registry: an index that records nothing, said so), 1 not verified or nothing to verify
 * (no index and no snapshot), 2 unreadable (no registry, a link, an unreadable index) or usage.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { findWorkspaceRoot, WORKSPACE_DEFAULTS } from '../../definition/workspace-definitions';
import { folderRegistryFiles, type RegistryFiles } from '../../registry/registry-files';
import { readRegistryIndex } from '../../registry/registry-index';
import { REGISTRY_INDEX_FILE } from '../../registry/registry-layout';
import { verifyRegistry } from '../../trust/registry-verify';
import { EXIT, type CliIo } from '../io';
import { REGISTRY } from '../specs/registry';
import { parseCommand, subcommandError, subcommandOf } from '../usage';

const toPosix = (path: string) => path.split(sep).join('/');

export async function runRegistryCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (subcommandOf(REGISTRY, sub) === undefined) return subcommandError(io, REGISTRY, sub);
  const parsed = parseCommand(io, REGISTRY.subcommands.verify, rest);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  const configured = parsed.values.registry ?? WORKSPACE_DEFAULTS.registryRoot;
  const root =
    parsed.values.registry !== undefined
      ? resolve(io.cwd, configured)
      : isAbsolute(configured)
        ? configured
        : resolve(workspaceRoot, configured);
  const displayRoot = toPosix(relative(workspaceRoot, root)) || '.';

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
