/** `agentdef application check <file> …`: its arguments become the options of the check operation (plugin/operations/application-check.ts). */
import { applicationCheck } from '../../operations/application-check';
import type { CliIo } from '../io';
import { APPLICATION } from '../specs/application';
import { parseCommand, usageError } from '../usage';

const CHECK = APPLICATION.subcommands.check;

export async function runApplicationCheckCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, CHECK, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) return usageError(io, 'name exactly one manifest file', CHECK);
  const result = await applicationCheck({ ...parsed.values, manifest: parsed.positionals[0]! }, io);
  return typeof result === 'number' ? result : usageError(io, result.usage, CHECK);
}
