/** `agentdef dev <output folder> …`: its arguments become the options of the dev operation (plugin/operations/dev.ts). */
import { parsePort } from '../../host-contract/port';
import { type DevControl, dev } from '../../operations/dev';
import type { CliIo } from '../io';
import { DEV } from '../specs/dev';
import { parseCommand, usageError } from '../usage';

export type { DevControl };

export async function runDevCommand(argv: string[], io: CliIo, control: DevControl = {}): Promise<number> {
  const parsed = parseCommand(io, DEV, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0 ? 'name the compile output folder' : 'name one output folder',
      DEV,
    );
  const port = parsePort(parsed.values.port);
  if (typeof port === 'string') return usageError(io, port, DEV);
  const { record, replay, watch } = parsed.values;
  const result = await dev(
    {
      outDir: parsed.positionals[0]!,
      ...(port !== undefined ? { port } : {}),
      watch: watch === true,
      ...(record !== undefined ? { record } : {}),
      ...(replay !== undefined ? { replay } : {}),
      ...(parsed.values['task-store'] !== undefined ? { taskStore: parsed.values['task-store'] } : {}),
      logFormat: parsed.values['log-format'],
    },
    io,
    control,
  );
  return typeof result === 'number' ? result : usageError(io, result.usage, DEV);
}
