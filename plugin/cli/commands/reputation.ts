/** `agentdef reputation <receipts…>`: its arguments become the options of the reputation operation (plugin/operations/reputation.ts). */
import { reputation } from '../../operations/reputation';
import type { CliIo } from '../io';
import { REPUTATION } from '../specs/reputation';
import { parseCommand, usageError } from '../usage';

export async function runReputationCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, REPUTATION, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length === 0) return usageError(io, 'name the receipt files or folders to score', REPUTATION);
  // The shell reads the clock (the libraries never do); --at makes a score reproducible.
  const at = parsed.values.at ?? new Date().toISOString();
  return reputation(
    {
      receipts: parsed.positionals,
      cwd: io.cwd,
      window: parsed.values.window,
      at,
      ...(parsed.values.trust !== undefined ? { trust: parsed.values.trust } : {}),
      format: parsed.values.format === 'json' ? 'json' : 'text',
    },
    io,
  );
}
