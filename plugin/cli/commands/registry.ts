/**
 * `agentdef registry verify [--registry dir] [--format text|json]`: every snapshot of the folder
 * registry against the digest its index recorded, and every export's signature (card, AgentFacts
 * credential, KYM registration), via trust/registry-verify.ts. Says exactly which file failed and
 * why. Exit 0 verified, 1 not verified, 2 unreadable (no registry, an unreadable index) or usage.
 */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readRegistryIndex } from '../../registry/registry-index';
import { readSourceBytes } from '../../definition/read-source';
import { findWorkspaceRoot, isSlug, registrySnapshotVersion, WORKSPACE_DEFAULTS } from '../../definition/workspace-definitions';
import { type RegistryFiles, verifyRegistry } from '../../trust/registry-verify';
import { EXIT, type CliIo } from '../io';
import { REGISTRY } from '../specs/registry';
import { parseCommand, subcommandError, subcommandOf } from '../usage';

const toPosix = (path: string) => path.split(sep).join('/');

/** Whether `path` is a folder (links followed); false for a dangling link or anything unreadable. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The snapshot files of a registry folder (files named `<slug>/<version>.json`). An entry named
 * like a slug that is no folder (a dangling link, a FIFO, a file) holds no snapshots: it never
 * stops the check of the others (each file is then read, and refused, on its own).
 */
function listSnapshots(root: string): { slug: string; version: string }[] {
  const out: { slug: string; version: string }[] = [];
  for (const slug of readdirSync(root).sort()) {
    if (!isSlug(slug) || !isFolder(join(root, slug))) continue;
    for (const name of readdirSync(join(root, slug)).sort()) {
      const version = registrySnapshotVersion(name);
      if (version !== undefined) out.push({ slug, version });
    }
  }
  return out;
}

export async function runRegistryCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (subcommandOf(REGISTRY, sub) === undefined) return subcommandError(io, REGISTRY, sub);
  const parsed = parseCommand(io, REGISTRY.subcommands.verify, rest);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  const configured = parsed.values.registry ?? WORKSPACE_DEFAULTS.registryRoot;
  const root = parsed.values.registry !== undefined ? resolve(io.cwd, configured) : isAbsolute(configured) ? configured : resolve(workspaceRoot, configured);
  const displayRoot = toPosix(relative(workspaceRoot, root)) || '.';

  let snapshots: { slug: string; version: string }[];
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
    snapshots = listSnapshots(root);
  } catch {
    io.stderr(`error: cannot read the registry ${displayRoot}\n`);
    return EXIT.usage;
  }
  const index = readRegistryIndex(root, displayRoot);
  if (!index.ok) {
    io.stderr(`error: ${index.problem}\n`);
    return EXIT.usage;
  }
  if (index.missing && snapshots.length > 0) {
    io.stderr(`error: ${displayRoot}/index.json is missing: no snapshot of this registry can be checked\n`);
    return EXIT.invalid;
  }
  const files: RegistryFiles = {
    snapshots,
    read: (name) => {
      const read = readSourceBytes(join(root, name), `${displayRoot}/${name}`, undefined, root);
      if (read.missing) return undefined;
      return read.bytes ?? read.ioError ?? 'too large';
    },
  };
  const result = await verifyRegistry(index.index, files);
  if (format === 'json') io.stdout(`${JSON.stringify({ registry: displayRoot, ...result }, null, 2)}\n`);
  else {
    for (const problem of result.problems) io.stderr(`${displayRoot}/${problem.file}: ${problem.message}\n`);
    for (const ref of result.passed) io.stdout(`verified ${ref}\n`);
    io.stdout(`${result.passed.length} of ${index.index.snapshots.length} published versions verified in ${displayRoot}${result.verified ? '' : `; ${result.problems.length} problem(s)`}\n`);
  }
  return result.verified ? EXIT.ok : EXIT.invalid;
}
