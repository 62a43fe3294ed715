/**
 * `agentdef export <view> <file> …`: one thin command per view of EXPORT_SUBCOMMANDS, over its pure
 * operation (agentfacts: plugin/operations/export-agentfacts.ts; oasf: plugin/operations/export-oasf.ts).
 */
import { join, resolve } from 'node:path';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { exportAgentFactsOperation } from '../../operations/export-agentfacts';
import { exportOasf } from '../../operations/export-oasf';
import type { CompileTarget } from '../../targets/targets';
import type { CliIo } from '../io';
import { EXPORT, EXPORT_OASF, type EXPORT_SUBCOMMANDS } from '../specs/export';
import { parseCommand, subcommandError, usageError } from '../usage';

type ExportCommand = (argv: string[], io: CliIo) => Promise<number>;

async function runAgentFacts(argv: string[], io: CliIo): Promise<number> {
  const spec = EXPORT.subcommands.agentfacts;
  const parsed = parseCommand(io, EXPORT.subcommands.agentfacts, argv);
  if (typeof parsed === 'number') return parsed;
  const { target, out, write, format } = parsed.values;
  const workerUrl = parsed.values['worker-url'];
  const [file, ...rest] = parsed.positionals;
  if (file === undefined || rest.length > 0) return usageError(io, 'name exactly one definition file', spec);
  if (target === undefined) return usageError(io, 'name the target with --target <target>', spec);
  const portText = parsed.values.port ?? '8080';
  if (!/^[0-9]{1,5}$/.test(portText))
    return usageError(io, `--port must be a whole number from 1 to 65535, not "${portText}"`, spec);
  const result = exportAgentFactsOperation(
    {
      file,
      target: target as CompileTarget,
      port: Number(portText),
      ...(workerUrl !== undefined ? { workerUrl } : {}),
      ...(out !== undefined ? { out } : {}),
      write: write === true,
      format,
    },
    io,
  );
  return typeof result === 'number' ? result : usageError(io, result.usage, spec);
}

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

/** The command of each export (a key of EXPORT_SUBCOMMANDS). */
const EXPORT_COMMANDS: Record<keyof typeof EXPORT_SUBCOMMANDS, ExportCommand> = {
  agentfacts: runAgentFacts,
  oasf: runExportOasf,
};

export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const [view, ...rest] = argv;
  const command =
    view !== undefined && Object.hasOwn(EXPORT_COMMANDS, view)
      ? EXPORT_COMMANDS[view as keyof typeof EXPORT_COMMANDS]
      : undefined;
  return command === undefined ? subcommandError(io, EXPORT, view) : command(rest, io);
}
