/**
 * The execution ledgers in lockstep: a fast-check property that runs random operation sequences
 * on several ledgers at once (the in-memory one and SQLite in execution-ledger.test.ts, the
 * in-memory one and PostgreSQL in postgres-ledger.test.ts) and holds them to answer identically.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  ClaimResult,
  ExecutionLedger,
  ExecutionLedgerOptions,
  LedgerSnapshot,
  LedgerUpdate,
} from '../execution-ledger';
import { digest, fakeClock } from './ledgers';

type Op =
  | { op: 'claim'; key: number; plan: number; live: boolean }
  | { op: 'renew' | 'mark' | 'release' | 'get'; key: number; stale: boolean }
  | {
      op: 'run';
      key: number;
      plan: number;
      mark: boolean;
      status: 'succeeded' | 'failed' | 'cancelled';
      abandon: boolean;
    }
  | { op: 'finish'; key: number; stale: boolean; status: 'succeeded' | 'failed' | 'cancelled'; result: unknown }
  | { op: 'advance'; ms: number };

const KEYS = ['a', 'b', 'c', 'd', 'e'];
const stale = fc.nat(5).map((n) => n === 0);
const status = fc.constantFrom('succeeded' as const, 'failed' as const, 'cancelled' as const);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('claim' as const),
      key: fc.nat(4),
      plan: fc.nat(5).map((n) => (n === 0 ? 1 : 0)),
      live: fc.nat(3).map((n) => n > 0),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constantFrom('renew' as const, 'mark' as const, 'mark' as const, 'release' as const, 'get' as const),
      key: fc.nat(4),
      stale,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('finish' as const),
      key: fc.nat(4),
      stale,
      status,
      result: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
  // a whole run in one step (claim, maybe the marker, finish), so that sequences reach full ledgers and replays often
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('run' as const),
      key: fc.nat(4),
      plan: fc.nat(5).map((n) => (n === 0 ? 1 : 0)),
      mark: fc.boolean(),
      status,
      abandon: fc.nat(3).map((n) => n === 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 7, 20, 50, 200) }) },
);

/**
 * A fast-check property over the ledgers `open` makes for each run (fresh and empty, two or more):
 * random operation sequences on all of them in lockstep answer identically, stay within their
 * bound, never lose a protected entry and replay exactly what was recorded; the sequences reach
 * every interesting path.
 */
export function describeLedgersInLockstep(
  title: string,
  open: (options: ExecutionLedgerOptions) => Promise<ExecutionLedger[]>,
  numRuns: number,
): void {
  /** How often each operation answered each way: the property checks it reached the interesting paths. */
  const kindsSeen = new Map<string, number>();
  describe('random operation sequences', () => {
    it(title, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 80 }), async (ops) => {
          const clock = fakeClock();
          const options = { maxEntries: 3, ttlMs: 50, leaseMs: 20, now: clock.now };
          const ledgers = await open(options);
          const lastClaim = new Map<string, number>();
          /** Keys marked dispatched (and not released since): must stay. */
          const protectedKeys = new Set<string>();
          /** Recorded results by key and claim: what a replay must return. */
          const recorded = new Map<string, { claim: number; text: string }>();
          try {
            const steps = ops.flatMap((op): Op[] =>
              op.op === 'run'
                ? [
                    { op: 'claim', key: op.key, plan: op.plan, live: true },
                    ...(op.mark ? [{ op: 'mark' as const, key: op.key, stale: false }] : []),
                    ...(op.abandon
                      ? []
                      : [
                          {
                            op: 'finish' as const,
                            key: op.key,
                            stale: false,
                            status: op.status,
                            result: { run: op.key },
                          },
                        ]),
                  ]
                : [op],
            );
            for (const op of steps) {
              let answers: unknown[];
              if (op.op === 'advance') {
                clock.advance(op.ms);
                continue;
              }
              const key = KEYS[op.key] as string;
              const claim = 'stale' in op && op.stale ? (lastClaim.get(key) ?? 1) - 1 || 1 : (lastClaim.get(key) ?? 1);
              if (op.op === 'run') continue; // expanded above
              if (op.op === 'claim') {
                const binding = { planDigest: digest(op.plan), mode: op.live ? 'live' : 'dry-run' } as const;
                answers = await Promise.all(ledgers.map((l) => l.claim(key, binding)));
                const answer = answers[0] as ClaimResult;
                if (
                  answer.kind === 'replay' ||
                  answer.kind === 'in-progress' ||
                  answer.kind === 'reconciliation-required' ||
                  answer.kind === 'claimed'
                ) {
                  expect({ planDigest: answer.entry.planDigest, mode: answer.entry.mode }).toEqual(binding); // only ever the bound plan and mode
                }
                if (answer.kind === 'conflict') expect(answer.recorded).not.toEqual(binding);
                if (answer.kind === 'claimed') {
                  expect(protectedKeys.has(key)).toBe(false); // a protected entry is never claimed again
                  lastClaim.set(key, answer.claim);
                  recorded.delete(key);
                }
                if (answer.kind === 'replay') {
                  const expected = recorded.get(key);
                  expect(expected).toBeDefined();
                  expect(JSON.stringify(answer.result)).toBe(expected?.text);
                  expect(answer.entry.claim).toBe(expected?.claim);
                }
              } else if (op.op === 'finish') {
                answers = await Promise.all(
                  ledgers.map((l) => l.finish(key, claim, { status: op.status, result: op.result as never })),
                );
                const answer = answers[0] as LedgerUpdate;
                if (answer.ok) recorded.set(key, { claim, text: JSON.stringify(answer.entry.result) });
              } else {
                const call = {
                  renew: (l: ExecutionLedger) => l.renew(key, claim),
                  mark: (l: ExecutionLedger) => l.markDispatched(key, claim),
                  release: (l: ExecutionLedger) => l.release(key),
                  get: (l: ExecutionLedger) => l.get(key),
                }[op.op];
                answers = await Promise.all(ledgers.map(call));
                const answer = answers[0] as LedgerUpdate;
                if (op.op === 'mark' && answer.ok) protectedKeys.add(key);
                if (op.op === 'release' && answer.ok) {
                  protectedKeys.delete(key);
                  recorded.delete(key);
                }
              }
              const seen = answers[0] as { kind?: string; ok?: boolean; reason?: string };
              const label = `${op.op}:${seen.kind ?? (seen.ok ? 'ok' : seen.reason)}`;
              kindsSeen.set(label, (kindsSeen.get(label) ?? 0) + 1);
              for (const other of answers.slice(1)) expect(other).toEqual(answers[0]);
              const snaps = (await Promise.all(ledgers.map((l) => l.snapshot()))) as LedgerSnapshot[];
              for (const other of snaps.slice(1)) expect(other).toEqual(snaps[0]);
              const snap = snaps[0] as Extract<LedgerSnapshot, { ok: true }>;
              expect(snap.ok).toBe(true);
              expect(snap.stored).toBeLessThanOrEqual(options.maxEntries);
              const present = new Map(snap.entries.map((entry) => [entry.key, entry]));
              for (const key of protectedKeys) expect(present.get(key)?.protected).toBe(true);
              for (const [key, { claim: c, text }] of recorded) {
                const entry = present.get(key);
                if (entry === undefined) expect(protectedKeys.has(key)).toBe(false);
                else if (entry.claim === c) expect(JSON.stringify(entry.result)).toBe(text);
              }
            }
          } finally {
            for (const ledger of ledgers) await ledger.close();
          }
        }),
        { numRuns },
      );
      for (const path of [
        'claim:claimed',
        'claim:replay',
        'claim:conflict',
        'claim:full',
        'claim:in-progress',
        'finish:ok',
        'finish:stale-claim',
        'mark:ok',
        'release:ok',
      ])
        expect(kindsSeen.get(path) ?? 0).toBeGreaterThan(0);
    });
  });
}
