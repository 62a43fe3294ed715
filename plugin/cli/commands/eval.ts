/** `agentdef eval <file or dir> …`: its arguments become the options of the eval operation (plugin/operations/eval.ts). */
import type { KeyStoreOptions } from '../../hosts/node/key-store';
import { type EvalControl, evaluate } from '../../operations/eval';
import type { CliIo } from '../io';
import { EVAL } from '../specs/eval';
import { parseCommand, usageError } from '../usage';

export async function runEvalCommand(argv: string[], io: CliIo): Promise<number> {
  return runEvalCommandWith(argv, io, {});
}

/** A number from 0 to 1 written as a decimal (`1`, `0.8`, `.75`), or undefined. */
function fraction(text: string): number | undefined {
  if (!/^(?:0|1|0?\.\d+|1\.0*)$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 0 && value <= 1 ? value : undefined;
}

/** The command with the key store and the environment injected (tests). */
export async function runEvalCommandWith(
  argv: string[],
  io: CliIo,
  injected: EvalControl & { keyStore?: KeyStoreOptions },
): Promise<number> {
  const parsed = parseCommand(io, EVAL, argv);
  if (typeof parsed === 'number') return parsed;
  const { target, cases, threshold, out, concurrency, key, record, replay } = parsed.values;
  if (parsed.positionals.length !== 1)
    return usageError(
      io,
      parsed.positionals.length === 0
        ? 'name the agent definition file or its folder'
        : `name one definition, not ${parsed.positionals.length}`,
      EVAL,
    );
  let thresholdValue: number | undefined;
  if (threshold !== undefined) {
    thresholdValue = fraction(threshold);
    if (thresholdValue === undefined)
      return usageError(io, `--threshold must be a number from 0 to 1 (0.8, 1), not "${threshold}"`, EVAL);
  }
  if (concurrency !== undefined && !/^[1-9]\d{0,3}$/.test(concurrency))
    return usageError(io, `--concurrency must be a whole number from 1 to 9999, not "${concurrency}"`, EVAL);
  const { keyStore, ...control } = injected;
  const result = await evaluate(
    {
      definition: parsed.positionals[0]!,
      target,
      ...(cases !== undefined && cases.length > 0 ? { cases } : {}),
      ...(thresholdValue !== undefined ? { threshold: thresholdValue } : {}),
      ...(out !== undefined ? { out } : {}),
      ...(concurrency !== undefined ? { concurrency: Number(concurrency) } : {}),
      ...(key !== undefined ? { key } : {}),
      ...(record !== undefined ? { record } : {}),
      ...(replay !== undefined ? { replay } : {}),
      keyStore: keyStore ?? (control.env ? { env: control.env } : {}),
    },
    io,
    control,
  );
  return typeof result === 'number' ? result : usageError(io, result.usage, EVAL);
}
