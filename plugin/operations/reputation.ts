/**
 * The reputation operation, behind `agentdef reputation <receipts…> [--window w] [--at t]
 * [--trust dir] [--format text|json]` and `agentdef publish --reputation`: reads the receipt streams
 * and the trusted keys (reputation-inputs.ts), scores them (reputation/score-reputation.ts) and
 * prints the per-agent table, the receipts not counted by reason, and where each of those is. Exit
 * 0 scored (whatever was rejected: every rejection is printed and counted), 1 no receipt counted at
 * all, 2 usage or I/O.
 */
import type { KeyStoreOptions } from '../hosts/node/key-store';
import type { TrustedKeyLookup } from '../reputation/receipt-intake';
import { parseReputationWindow } from '../reputation/reputation-window';
import { rejectedLines, reputationTable } from '../reputation/reputation-table';
import { type ReputationReport, scoreReputation } from '../reputation/score-reputation';
import { EXIT, type ExitCode, type OperationIo } from './io';
import { localKeyStoreTrust, readReceiptLines, readTrustFolder } from './reputation-inputs';

export interface ReputationOptions {
  /** Receipt files and folders, relative to `cwd` or absolute. */
  receipts: readonly string[];
  cwd: string;
  /** `30d`, `12h` or `<start>/<end>`. */
  window: string;
  /** The end of a duration window (RFC 3339). */
  at: string;
  /** A trust folder (relative to `cwd`); default the local key store. */
  trust?: string;
  keyStore?: KeyStoreOptions;
}

export type ReputationOutcome =
  | { ok: true; report: ReputationReport; notes: string[] }
  | { ok: false; message: string };

/** Reads, verifies and scores; never throws. */
export async function computeReputation(options: ReputationOptions): Promise<ReputationOutcome> {
  try {
    const window = parseReputationWindow(options.window, options.at);
    if (!window.ok) return { ok: false, message: `--window: ${window.message}` };
    const trust =
      options.trust !== undefined
        ? await readTrustFolder(options.trust, options.cwd, trustOptions(options.keyStore))
        : localKeyStoreTrust(options.keyStore ?? {});
    if (!trust.ok) return { ok: false, message: trust.message };
    const lines = readReceiptLines(options.receipts, options.cwd);
    if (!lines.ok) return { ok: false, message: lines.message };
    const keyFor: TrustedKeyLookup = trust.value;
    const report = await scoreReputation(lines.value, { window: window.window, keyFor });
    return { ok: true, report, notes: trust.notes };
  } catch (error) {
    return { ok: false, message: `internal error while scoring receipts: ${(error as Error).message}` };
  }
}

function trustOptions(keyStore: KeyStoreOptions | undefined): { uid?: number } {
  return keyStore?.uid !== undefined ? { uid: keyStore.uid } : {};
}

/** {@link computeReputation}, printed: the table (or JSON) on stdout, each receipt not counted on stderr. */
export async function reputation(
  options: ReputationOptions & { format: 'text' | 'json' },
  io: OperationIo,
): Promise<ExitCode> {
  const outcome = await computeReputation(options);
  if (!outcome.ok) {
    io.stderr(`error: ${outcome.message}\n`);
    return EXIT.usage;
  }
  for (const note of outcome.notes) io.stderr(`note: ${note}\n`);
  const { report } = outcome;
  if (options.format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else {
    io.stderr(rejectedLines(report));
    io.stdout(reputationTable(report));
  }
  if (report.counted === 0) {
    io.stderr('error: no receipt was counted: nothing to score\n');
    return EXIT.invalid;
  }
  return EXIT.ok;
}
