/**
 * `agentdef export <format> <definition> …`: the subcommand table picks the format; each format's
 * arguments become the options of its operation (oasf: plugin/operations/export-oasf.ts).
 */
import { join, resolve } from 'node:path';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { exportOasf } from '../../operations/export-oasf';
import type { CliIo } from '../io';
import { EXPORT, EXPORT_OASF } from '../specs/export';
import { parseCommand, subcommandError, subcommandOf, usageError } from '../usage';

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

async function runExportOasf(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, EXPORT_OASF, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0
        ? 'name the definition file to export'
        : `name one definition file, not ${parsed.positionals.length}`,
      EXPORT_OASF,
    );
  const portText = parsed.values.port;
  if (portText !== undefined && !/^[1-9]\d{0,4}$/.test(portText))
    return usageError(io, `--port must be a port number, not "${portText}"`, EXPORT_OASF);
  const workerUrl = parsed.values['worker-url'];
  if (workerUrl !== undefined && !isHttpsUrl(workerUrl))
    return usageError(io, `--worker-url must be an https URL, not "${workerUrl.slice(0, 80)}"`, EXPORT_OASF);
  const file = resolve(io.cwd, parsed.positionals[0]!);
  const workspaceRoot = findWorkspaceRoot(join(file, '..')) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const outcome = await exportOasf({
    file,
    workspaceRoot,
    ...(parsed.values.out !== undefined ? { out: resolve(io.cwd, parsed.values.out) } : {}),
    ...(workerUrl !== undefined ? { workerUrl } : {}),
    ...(portText !== undefined ? { port: Number(portText) } : {}),
    ...(parsed.values.image !== undefined ? { image: parsed.values.image } : {}),
  });
  if (outcome.stdout !== '') io.stdout(outcome.stdout);
  if (outcome.stderr !== '') io.stderr(outcome.stderr);
  return outcome.code;
}

/** The formats `agentdef export` knows, by subcommand. */
const FORMATS: Readonly<Record<string, (argv: string[], io: CliIo) => Promise<number>>> = {
  oasf: runExportOasf,
};

export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (subcommandOf(EXPORT, sub) === undefined) return subcommandError(io, EXPORT, sub);
  const run = FORMATS[sub as string];
  if (run === undefined) return subcommandError(io, EXPORT, sub);
  return run(rest, io);
}
