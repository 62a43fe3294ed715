/**
 * The execution ledger's promises: the contract (__test-support__/ledger-contract.ts, also run
 * against PostgreSQL by postgres-ledger.test.ts) run against both embedded implementations (in
 * memory and SQLite) with a fake clock: every transition, the binding conflict, replay of exactly the
 * recorded result, the dispatch marker's protection and reconciliation evidence, fencing of stale
 * holders, TTL and count bounds (fail closed when only protected entries are left), and refusal of
 * bad input that changes nothing. A fast-check property (__test-support__/ledger-lockstep.ts) runs
 * random operation sequences on both ledgers in lockstep: they answer identically, stay within
 * their bound, never lose a protected entry and replay exactly what was recorded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { describeLedgerContract } from './__test-support__/ledger-contract';
import { describeLedgersInLockstep } from './__test-support__/ledger-lockstep';
import { LEDGER_KINDS, ledgerFolder, openLedger } from './__test-support__/ledgers';
import type { ExecutionLedgerOptions } from './execution-ledger';
import { createMemoryExecutionLedger } from './execution-ledger';

const folder = ledgerFolder();
afterAll(() => folder.dispose());

for (const kind of LEDGER_KINDS) describeLedgerContract(kind, async (options) => openLedger(kind, folder, options));

describe('ledger options', () => {
  it('refuses unusable limits with the name of the limit', () => {
    const bad: [ExecutionLedgerOptions, string][] = [
      [{ maxEntries: 0 }, 'maxEntries'],
      [{ maxEntries: 1.5 }, 'maxEntries'],
      [{ maxEntries: 2_000_000 }, 'maxEntries'],
      [{ ttlMs: -1 }, 'ttlMs'],
      [{ ttlMs: Number.POSITIVE_INFINITY }, 'ttlMs'],
      [{ leaseMs: 0 }, 'leaseMs'],
      [{ maxResultBytes: 1 }, 'maxResultBytes'],
      [{ maxEntries: '5' as unknown as number }, 'maxEntries'],
      [{ now: 5 as unknown as () => number }, 'now'],
    ];
    for (const [options, name] of bad)
      expect(createMemoryExecutionLedger(options)).toEqual({
        ok: false,
        reason: 'invalid-options',
        message: expect.stringContaining(name),
      });
  });
});

describeLedgersInLockstep(
  'both ledgers answer identically, stay bounded, never lose a protected entry and replay exactly what was recorded',
  async (options) => LEDGER_KINDS.map((kind) => openLedger(kind, folder, options)),
  100,
);
