/**
 * Test support for the execution ledgers: both implementations behind one factory with a fake clock,
 * the SQLite files in a temporary folder of the test's own, and small builders of bindings and outcomes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionBinding, ExecutionLedger, ExecutionLedgerOptions } from '../execution-ledger';
import { createMemoryExecutionLedger } from '../execution-ledger';
import { openSqliteExecutionLedger } from '../sqlite-ledger';
import { availableSqliteDrivers, type SqliteDriverName } from '../../sqlite/sqlite-driver';

/** The in-memory ledger, and the SQLite ledger on each driver this Node can load. */
export type LedgerKind = 'memory' | `sqlite on ${SqliteDriverName}`;
export const LEDGER_KINDS: readonly LedgerKind[] = [
  'memory',
  ...availableSqliteDrivers().map((driver): LedgerKind => `sqlite on ${driver}`),
];

/** A clock the test moves by hand. */
export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

export function fakeClock(start = 1_000_000): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/** A temporary folder for database files, removed by `dispose`. */
export function ledgerFolder(prefix = 'agentdef-ledger-'): {
  dir: string;
  file: (name: string) => string;
  dispose: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  return {
    dir,
    file: (name) => join(dir, `${name}-${n++}.sqlite`),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens a fresh ledger of `kind` (a new file for SQLite); fails the test when it cannot. */
export function openLedger(
  kind: LedgerKind,
  folder: { file: (name: string) => string },
  options: ExecutionLedgerOptions = {},
): ExecutionLedger {
  const opened =
    kind === 'memory'
      ? createMemoryExecutionLedger(options)
      : openSqliteExecutionLedger({
          ...options,
          file: folder.file('ledger'),
          driver: kind.slice('sqlite on '.length) as SqliteDriverName,
        });
  if (!opened.ok) throw new Error(`could not open the ${kind} ledger: ${opened.message}`);
  return opened.ledger;
}

export const digest = (n: number): string => n.toString(16).padStart(64, '0');
export const dryRun = (n = 1): ExecutionBinding => ({ planDigest: digest(n), mode: 'dry-run' });
export const live = (n = 1): ExecutionBinding => ({ planDigest: digest(n), mode: 'live' });
