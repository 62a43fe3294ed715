/**
 * `agentdef registry verify [--registry dir] [--format text|json]`: every snapshot of the folder
 * registry against the digest its index recorded, and every export's signature (card, AgentFacts
 * credential, KYM registration), via trust/registry-verify.ts over the folder's files
 * (registry/registry-files.ts). Says exactly which file failed and why. Exit 0 verified, 1 not
 * verified, 2 unreadable (no registry, an unreadable index) or usage.
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
  } catch {
    io.stderr(`error: cannot read the registry ${displayRoot}\n`);
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
  const result = await verifyRegistry(index.index, files);
  if (format === 'json') io.stdout(`${JSON.stringify({ registry: displayRoot, ...result }, null, 2)}\n`);
  else {
    for (const problem of result.problems) io.stderr(`${displayRoot}/${problem.file}: ${problem.message}\n`);
    for (const ref of result.passed) io.stdout(`verified ${ref}\n`);
    io.stdout(
      `${result.passed.length} of ${index.index.snapshots.length} published versions verified in ${displayRoot}${result.verified ? '' : `; ${result.problems.length} problem(s)`}\n`,
    );
  }
  return result.verified ? EXIT.ok : EXIT.invalid;
}
