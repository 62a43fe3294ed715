/**
 * The execution ledger's contract: one table of tests every implementation passes (in memory,
 * SQLite, PostgreSQL) with a fake clock: every transition, the binding conflict, replay of exactly
 * the recorded result, the dispatch marker's protection and reconciliation evidence, fencing of
 * stale holders, TTL and count bounds (fail closed when only protected entries are left), and
 * refusal of bad input that changes nothing. `describeLedgerContract` runs it against one factory.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimResult, ExecutionLedger, ExecutionLedgerOptions, LedgerUpdate } from '../execution-ledger';
import type { FakeClock } from './ledgers';
import { digest, dryRun, fakeClock, live } from './ledgers';

/** Opens a fresh, empty ledger with these options; fails the test when it cannot. */
export type LedgerFactory = (options: ExecutionLedgerOptions) => Promise<ExecutionLedger>;

const LEASE = 1_000;
const TTL = 10_000;

function claimed(result: ClaimResult): number {
  if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${JSON.stringify(result)}`);
  return result.claim;
}

function ok(update: LedgerUpdate): void {
  if (!update.ok) throw new Error(`expected ok, got ${JSON.stringify(update)}`);
}

async function keys(ledger: ExecutionLedger): Promise<string[]> {
  const snap = await ledger.snapshot();
  if (!snap.ok) throw new Error(snap.message);
  return snap.entries.map((entry) => entry.key);
}

/** The contract's tests for the ledgers `open` makes, named `the <name> execution ledger`. */
export function describeLedgerContract(name: string, open: LedgerFactory): void {
  const setup = async (
    options: ExecutionLedgerOptions = {},
  ): Promise<{ ledger: ExecutionLedger; clock: FakeClock }> => {
    const clock = fakeClock();
    return {
      ledger: await open({ leaseMs: LEASE, ttlMs: TTL, maxEntries: 8, ...options, now: clock.now }),
      clock,
    };
  };

  describe(`the ${name} execution ledger`, () => {
    it('claims a new key: running, held by claim 1, leased, not protected', async () => {
      const { ledger, clock } = await setup();
      const now = clock.now();
      expect(await ledger.claim('key-1', live(7))).toEqual({
        kind: 'claimed',
        claim: 1,
        reclaimed: false,
        entry: {
          key: 'key-1',
          planDigest: digest(7),
          mode: 'live',
          state: 'running',
          claim: 1,
          claimedAt: now,
          leaseUntil: now + LEASE,
          protected: false,
          reconciliationRequired: false,
        },
      });
      expect(claimed(await ledger.claim('key-2', live(7)))).toBe(2);
    });

    it('answers in-progress to a second claim while the holder runs, before and after the marker', async () => {
      const { ledger, clock } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      expect((await ledger.claim('k', live())).kind).toBe('in-progress');
      ok(await ledger.markDispatched('k', claim));
      clock.advance(LEASE - 1);
      const again = await ledger.claim('k', live());
      expect(again.kind).toBe('in-progress');
      expect(again.kind === 'in-progress' && again.entry.state).toBe('dispatched');
    });

    it('the same key with another plan digest or mode is a conflict in every state, never a replay', async () => {
      const { ledger } = await setup();
      const claim = claimed(await ledger.claim('k', live(1)));
      for (const other of [live(2), dryRun(1)]) {
        expect(await ledger.claim('k', other)).toEqual({
          kind: 'conflict',
          recorded: { planDigest: digest(1), mode: 'live' },
          message: expect.stringContaining('never reused'),
        });
      }
      ok(await ledger.finish('k', claim, { status: 'succeeded', result: { answer: 42 } }));
      for (const other of [live(2), dryRun(1)]) expect((await ledger.claim('k', other)).kind).toBe('conflict');
      expect((await ledger.claim('k', live(1))).kind).toBe('replay');
    });

    it('replays exactly the recorded result, as a fresh copy every time', async () => {
      const { ledger, clock } = await setup();
      const claim = claimed(await ledger.claim('k', dryRun()));
      const result = {
        steps: [
          { id: 'b', out: 'é\u{1F600}' },
          { id: 'a', out: null },
        ],
        total: 1.5,
        ok: true,
        '': -0,
      };
      clock.advance(5);
      const finished = await ledger.finish('k', claim, { status: 'succeeded', result });
      expect(finished).toEqual({
        ok: true,
        entry: expect.objectContaining({
          state: 'succeeded',
          finishedAt: clock.now(),
          expiresAt: clock.now() + TTL,
          result: { ...result, '': 0 },
        }),
      });
      const first = await ledger.claim('k', dryRun());
      expect(first.kind).toBe('replay');
      if (first.kind !== 'replay') return;
      expect(first.result).toEqual({ ...result, '': 0 });
      expect(JSON.stringify(first.result)).toBe(
        '{"":0,"ok":true,"steps":[{"id":"b","out":"é😀"},{"id":"a","out":null}],"total":1.5}',
      );
      (first.result as { total: number }).total = 99;
      const second = await ledger.claim('k', dryRun());
      expect(second.kind === 'replay' && second.result).toEqual({ ...result, '': 0 });
    });

    it('records the terminal status; after the marker a failure or cancellation requires reconciliation, a success does not', async () => {
      const { ledger } = await setup();
      const cases = [
        { status: 'succeeded', dispatched: false, reconciliation: false },
        { status: 'failed', dispatched: false, reconciliation: false },
        { status: 'cancelled', dispatched: false, reconciliation: false },
        { status: 'succeeded', dispatched: true, reconciliation: false },
        { status: 'failed', dispatched: true, reconciliation: true },
        { status: 'cancelled', dispatched: true, reconciliation: true },
      ] as const;
      for (const [i, c] of cases.entries()) {
        const key = `case-${i}`;
        const claim = claimed(await ledger.claim(key, live()));
        if (c.dispatched) ok(await ledger.markDispatched(key, claim));
        const finished = await ledger.finish(key, claim, { status: c.status, result: { i } });
        expect(finished.ok && finished.entry).toMatchObject({
          state: c.status,
          protected: c.dispatched,
          reconciliationRequired: c.reconciliation,
          result: { i },
        });
        expect(finished.ok && 'expiresAt' in finished.entry).toBe(!c.dispatched);
        const replay = await ledger.claim(key, live());
        expect(replay).toMatchObject({
          kind: 'replay',
          result: { i },
          entry: { state: c.status, reconciliationRequired: c.reconciliation },
        });
      }
    });

    it('the marker is idempotent for its holder and refused for a dry-run (a dry-run is never protected)', async () => {
      const { ledger } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      const first = await ledger.markDispatched('k', claim);
      const second = await ledger.markDispatched('k', claim);
      expect(second).toEqual(first);
      const dry = claimed(await ledger.claim('d', dryRun()));
      expect(await ledger.markDispatched('d', dry)).toMatchObject({
        ok: false,
        reason: 'invalid-input',
        entry: { state: 'running', protected: false },
      });
    });

    it('finishes once: a second finish, a marker or a renewal after the end are refused with the finished entry', async () => {
      const { ledger } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      ok(await ledger.finish('k', claim, { status: 'succeeded', result: 'first' }));
      for (const attempt of [
        ledger.finish('k', claim, { status: 'failed', result: 'second' }),
        ledger.markDispatched('k', claim),
        ledger.renew('k', claim),
      ]) {
        expect(await attempt).toMatchObject({
          ok: false,
          reason: 'already-finished',
          entry: { state: 'succeeded', result: 'first' },
        });
      }
      const replay = await ledger.claim('k', live());
      expect(replay.kind === 'replay' && replay.result).toBe('first');
    });

    it('an abandoned claim before the marker is reclaimed after its lease; the old holder is fenced off', async () => {
      const { ledger, clock } = await setup();
      const old = claimed(await ledger.claim('k', live()));
      clock.advance(LEASE - 1);
      expect((await ledger.claim('k', live())).kind).toBe('in-progress');
      clock.advance(1);
      const taken = await ledger.claim('k', live());
      expect(taken).toMatchObject({
        kind: 'claimed',
        claim: old + 1,
        reclaimed: true,
        entry: { claimedAt: clock.now(), leaseUntil: clock.now() + LEASE },
      });
      const stale = { ok: false, reason: 'stale-claim', entry: { claim: old + 1, state: 'running' } };
      expect(await ledger.markDispatched('k', old)).toMatchObject(stale);
      expect(await ledger.finish('k', old, { status: 'succeeded', result: 'from the old holder' })).toMatchObject(
        stale,
      );
      expect(await ledger.renew('k', old)).toMatchObject(stale);
      expect(await ledger.markDispatched('k', 12345)).toMatchObject({ ok: false, reason: 'stale-claim' });
      ok(await ledger.finish('k', old + 1, { status: 'succeeded', result: 'new' }));
    });

    it('a holder whose lease ran out but was not taken over may still mark and finish', async () => {
      const { ledger, clock } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      clock.advance(LEASE + 5);
      ok(await ledger.markDispatched('k', claim));
      ok(await ledger.finish('k', claim, { status: 'succeeded', result: 1 }));
    });

    it('an abandoned claim after the marker is never run again: reconciliation required, with evidence', async () => {
      const { ledger, clock } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      ok(await ledger.markDispatched('k', claim));
      clock.advance(LEASE);
      for (let i = 0; i < 3; i++) {
        const again = await ledger.claim('k', live());
        expect(again).toMatchObject({
          kind: 'reconciliation-required',
          entry: { state: 'dispatched', protected: true, reconciliationRequired: true },
          message: expect.stringContaining('never run again'),
        });
        clock.advance(TTL * 1000);
      }
      const seen = await ledger.get('k');
      expect(seen.ok && seen.entry).toMatchObject({ state: 'dispatched', reconciliationRequired: true });
    });

    it('renewing extends the lease from now', async () => {
      const { ledger, clock } = await setup();
      const claim = claimed(await ledger.claim('k', live()));
      clock.advance(LEASE - 10);
      const renewed = await ledger.renew('k', claim);
      expect(renewed.ok && renewed.entry.leaseUntil).toBe(clock.now() + LEASE);
      clock.advance(LEASE - 1);
      expect((await ledger.claim('k', live())).kind).toBe('in-progress');
    });

    it('TTL: an evictable result expires and counts as absent; a protected one never does', async () => {
      const { ledger, clock } = await setup();
      const a = claimed(await ledger.claim('evictable', live()));
      ok(await ledger.finish('evictable', a, { status: 'failed', result: 'before the marker' }));
      const b = claimed(await ledger.claim('protected', live()));
      ok(await ledger.markDispatched('protected', b));
      ok(await ledger.finish('protected', b, { status: 'succeeded', result: 'after the marker' }));
      clock.advance(TTL - 1);
      expect(await keys(ledger)).toEqual(['evictable', 'protected']);
      clock.advance(1);
      expect(await ledger.get('evictable')).toEqual({ ok: true, entry: undefined });
      expect(await keys(ledger)).toEqual(['protected']);
      expect(await ledger.claim('evictable', live())).toMatchObject({
        kind: 'claimed',
        reclaimed: false,
        claim: b + 1,
      });
      clock.advance(10 * 365 * 24 * 3600 * 1000);
      const replay = await ledger.claim('protected', live());
      expect(replay.kind === 'replay' && replay.result).toBe('after the marker');
    });

    it('count bound: a new claim evicts the oldest evictable results, never a protected or running entry', async () => {
      const { ledger, clock } = await setup({ maxEntries: 4 });
      const p = claimed(await ledger.claim('protected', live()));
      ok(await ledger.markDispatched('protected', p));
      ok(await ledger.finish('protected', p, { status: 'failed', result: 'x' }));
      claimed(await ledger.claim('running', live()));
      for (const key of ['old', 'new']) {
        clock.advance(1);
        const c = claimed(await ledger.claim(key, live()));
        ok(await ledger.finish(key, c, { status: 'succeeded', result: key }));
      }
      clock.advance(1);
      claimed(await ledger.claim('fifth', live()));
      expect(await keys(ledger)).toEqual(['fifth', 'new', 'protected', 'running']);
      claimed(await ledger.claim('sixth', live()));
      expect(await keys(ledger)).toEqual(['fifth', 'protected', 'running', 'sixth']);
      const snap = await ledger.snapshot();
      expect(snap.ok && snap.stored).toBe(4);
    });

    it('full of protected or running entries: a new claim is refused, nothing is evicted, and it recovers', async () => {
      const { ledger, clock } = await setup({ maxEntries: 2 });
      const p = claimed(await ledger.claim('dispatched', live()));
      ok(await ledger.markDispatched('dispatched', p));
      claimed(await ledger.claim('running', live()));
      const before = await ledger.snapshot();
      const full = await ledger.claim('third', live());
      expect(full).toEqual({ kind: 'full', message: expect.stringContaining('ledger is full') });
      expect(await ledger.snapshot()).toEqual(before);
      clock.advance(LEASE); // the running holder is abandoned (never dispatched): evictable now
      expect((await ledger.claim('third', live())).kind).toBe('claimed');
      expect(await keys(ledger)).toEqual(['dispatched', 'third']);
      expect((await ledger.claim('fourth', live())).kind).toBe('full');
      clock.advance(TTL * 1000);
      expect((await ledger.claim('fourth', live())).kind).toBe('claimed'); // the abandoned 'third' expired
      expect(await keys(ledger)).toEqual(['dispatched', 'fourth']);
    });

    it('release forgets a terminal or abandoned entry and refuses a live one', async () => {
      const { ledger, clock } = await setup();
      const c = claimed(await ledger.claim('k', live()));
      ok(await ledger.markDispatched('k', c));
      expect(await ledger.release('k')).toMatchObject({ ok: false, reason: 'in-progress' });
      clock.advance(LEASE);
      expect(await ledger.release('k')).toMatchObject({
        ok: true,
        entry: { key: 'k', state: 'dispatched', reconciliationRequired: true },
      });
      expect(await ledger.release('k')).toMatchObject({ ok: false, reason: 'unknown-key' });
      expect(await ledger.claim('k', live(2))).toMatchObject({ kind: 'claimed', reclaimed: false });
    });

    it('operations on a key nobody holds answer unknown-key', async () => {
      const { ledger } = await setup();
      for (const attempt of [
        ledger.renew('nobody', 1),
        ledger.markDispatched('nobody', 1),
        ledger.finish('nobody', 1, { status: 'succeeded', result: null }),
      ]) {
        expect(await attempt).toMatchObject({ ok: false, reason: 'unknown-key' });
      }
      expect(await ledger.get('nobody')).toEqual({ ok: true, entry: undefined });
    });

    it('refuses bad input with a clear reason and changes nothing', async () => {
      const { ledger } = await setup({ maxResultBytes: 64 });
      const claim = claimed(await ledger.claim('k', live()));
      const before = await ledger.snapshot();
      const badKeys: unknown[] = [
        '',
        ' ',
        'has space',
        'ümlaut',
        'x'.repeat(257),
        'tab\tkey',
        'new\nline',
        42,
        null,
        undefined,
        {},
        ['k'],
      ];
      for (const key of badKeys) {
        expect(await ledger.claim(key as string, live())).toMatchObject({
          kind: 'rejected',
          reason: 'invalid-input',
          message: expect.stringContaining('idempotency key'),
        });
        for (const update of [
          ledger.renew(key as string, claim),
          ledger.markDispatched(key as string, claim),
          ledger.release(key as string),
          ledger.get(key as string),
        ]) {
          expect(await update).toMatchObject({ ok: false, reason: 'invalid-input' });
        }
      }
      const badBindings: unknown[] = [
        null,
        'live',
        { planDigest: 'A'.repeat(64), mode: 'live' },
        { planDigest: digest(1).slice(1), mode: 'live' },
        { planDigest: `${digest(1)}0`, mode: 'live' },
        { planDigest: `sha256:${digest(1)}`, mode: 'live' },
        { planDigest: digest(1), mode: 'LIVE' },
        { planDigest: digest(1) },
        {
          get planDigest() {
            throw new Error('boom');
          },
          mode: 'live',
        },
      ];
      for (const binding of badBindings)
        expect(await ledger.claim('other', binding as never)).toMatchObject({
          kind: 'rejected',
          reason: 'invalid-input',
        });
      for (const bad of [0, -1, 1.5, Number.NaN, '1', null])
        expect(await ledger.finish('k', bad as number, { status: 'succeeded', result: 1 })).toMatchObject({
          ok: false,
          reason: 'invalid-input',
        });
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const sparse = [1, 2, 3];
      delete sparse[1];
      const badOutcomes: unknown[] = [
        null,
        { status: 'done', result: 1 },
        { status: 'succeeded' },
        { status: 'succeeded', result: Number.NaN },
        { status: 'succeeded', result: { f: () => 1 } },
        { status: 'succeeded', result: cyclic },
        { status: 'succeeded', result: new Date(0) },
        { status: 'succeeded', result: sparse },
        {
          status: 'succeeded',
          result: {
            get secret() {
              return 'never read';
            },
          },
        },
      ];
      for (const outcome of badOutcomes)
        expect(await ledger.finish('k', claim, outcome as never)).toMatchObject({ ok: false, reason: 'invalid-input' });
      expect(await ledger.finish('k', claim, { status: 'succeeded', result: 'x'.repeat(100) })).toMatchObject({
        ok: false,
        reason: 'result-too-large',
      });
      expect(await ledger.snapshot()).toEqual(before);
      ok(await ledger.finish('k', claim, { status: 'succeeded', result: 'x'.repeat(62) })); // 64 bytes with its quotes
    });

    it('a failing or non-finite clock refuses the operation and changes nothing', async () => {
      let answer: () => number = () => 5_000;
      const ledger = await open({ now: () => answer() });
      const claim = claimed(await ledger.claim('k', live()));
      const before = await ledger.snapshot();
      for (const broken of [
        () => Number.NaN,
        () => Number.POSITIVE_INFINITY,
        () => '7' as unknown as number,
        () => {
          throw new Error('clock down');
        },
      ]) {
        answer = broken;
        expect(await ledger.claim('other', live())).toMatchObject({ kind: 'rejected', reason: 'clock' });
        expect(await ledger.finish('k', claim, { status: 'succeeded', result: 1 })).toMatchObject({
          ok: false,
          reason: 'clock',
        });
        expect(await ledger.get('k')).toMatchObject({ ok: false, reason: 'clock' });
      }
      answer = () => 5_000;
      expect(await ledger.snapshot()).toEqual(before);
    });

    it('a closed ledger refuses every operation', async () => {
      const { ledger } = await setup();
      await ledger.close();
      await ledger.close();
      expect(await ledger.claim('k', live())).toMatchObject({ kind: 'rejected', reason: 'closed' });
      expect(await ledger.get('k')).toMatchObject({ ok: false, reason: 'closed' });
      expect(await ledger.snapshot()).toMatchObject({ ok: false, reason: 'closed' });
    });
  });
}
