/** `agentdef bench-tool <file or dir> …`: its arguments become the options of the bench-tool operation (plugin/operations/bench-tool.ts). */
import type { KeyStoreOptions } from '../../hosts/node/key-store';
import { type BenchToolControl, benchTool } from '../../operations/bench-tool';
import type { CliIo } from '../io';
import { BENCH_TOOL } from '../specs/bench-tool';
import { parseCommand, usageError } from '../usage';

export async function runBenchToolCommand(argv: string[], io: CliIo): Promise<number> {
  return runBenchToolCommandWith(argv, io, {});
}

/** The command with the key store and the environment injected (tests). */
export async function runBenchToolCommandWith(
  argv: string[],
  io: CliIo,
  injected: BenchToolControl & { keyStore?: KeyStoreOptions },
): Promise<number> {
  const parsed = parseCommand(io, BENCH_TOOL, argv);
  if (typeof parsed === 'number') return parsed;
  const { target, cases, runs, out, key } = parsed.values;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0
        ? 'name the tool definition file or its folder'
        : `name one definition, not ${parsed.positionals.length}`,
      BENCH_TOOL,
    );
  if (runs !== undefined && !/^[1-9]\d{0,3}$/.test(runs))
    return usageError(io, `--runs must be a whole number from 1 to 1000, not "${runs}"`, BENCH_TOOL);
  const { keyStore, ...control } = injected;
  const result = await benchTool(
    {
      definition: parsed.positionals[0]!,
      target,
      ...(cases !== undefined && cases.length > 0 ? { cases } : {}),
      ...(runs !== undefined ? { runs: Number(runs) } : {}),
      ...(out !== undefined ? { out } : {}),
      ...(key !== undefined ? { key } : {}),
      keyStore: keyStore ?? (control.env ? { env: control.env } : {}),
    },
    io,
    control,
  );
  return typeof result === 'number' ? result : usageError(io, result.usage, BENCH_TOOL);
}
