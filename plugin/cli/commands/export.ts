/** `agentdef export <view> <file> …`: one thin command per view of EXPORT_SUBCOMMANDS, over its pure operation. */
import { exportAgentFactsOperation } from '../../operations/export-agentfacts';
import type { CompileTarget } from '../../targets/targets';
import type { CliIo } from '../io';
import { EXPORT, type EXPORT_SUBCOMMANDS } from '../specs/export';
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

/** The command of each export (a key of EXPORT_SUBCOMMANDS). */
const EXPORT_COMMANDS: Record<keyof typeof EXPORT_SUBCOMMANDS, ExportCommand> = {
  agentfacts: runAgentFacts,
};

export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const [view, ...rest] = argv;
  const command =
    view !== undefined && Object.hasOwn(EXPORT_COMMANDS, view)
      ? EXPORT_COMMANDS[view as keyof typeof EXPORT_COMMANDS]
      : undefined;
  return command === undefined ? subcommandError(io, EXPORT, view) : command(rest, io);
}
