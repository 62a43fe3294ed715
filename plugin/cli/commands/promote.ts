/** `agentdef promote <file> --to <stage> …`: its arguments become the options of the promote operation (plugin/operations/promote.ts). */
import type { KeyStoreOptions } from '../../hosts/node/key-store';
import { promote } from '../../operations/promote';
import type { CliIo } from '../io';
import { PROMOTE } from '../specs/promote';
import { parseCommand, usageError } from '../usage';

export async function runPromoteCommand(argv: string[], io: CliIo): Promise<number> {
  return runPromoteCommandWith(argv, io, {});
}

/** The command with the key store's environment injected (tests). */
export async function runPromoteCommandWith(argv: string[], io: CliIo, keyOptions: KeyStoreOptions): Promise<number> {
  const parsed = parseCommand(io, PROMOTE, argv);
  if (typeof parsed === 'number') return parsed;
  const { to, key, at, credential, registry, format } = parsed.values;
  const requireEval = parsed.values['require-eval'];
  const evalReceipt = parsed.values['eval-receipt'];
  const benchEvents = parsed.values['bench-events'];
  const [file, ...rest] = parsed.positionals;
  if (file === undefined || rest.length > 0) return usageError(io, 'name exactly one definition file', PROMOTE);
  if (to === undefined) return usageError(io, 'name the stage with --to <stage>', PROMOTE);
  const result = await promote(
    {
      file,
      to,
      format,
      keyStore: keyOptions,
      ...(key !== undefined ? { key } : {}),
      ...(at !== undefined ? { at } : {}),
      ...(credential !== undefined ? { credential } : {}),
      ...(registry !== undefined ? { registry } : {}),
      ...(requireEval === true ? { requireEval: true } : {}),
      ...(evalReceipt !== undefined ? { evalReceipt } : {}),
      ...(benchEvents !== undefined ? { benchEvents } : {}),
    },
    io,
  );
  return typeof result === 'number' ? result : usageError(io, result.usage, PROMOTE);
}
