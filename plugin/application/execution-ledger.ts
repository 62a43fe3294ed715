/**
 * The execution ledger: what `agentdef.application.execute` remembers per idempotency key, so that a
 * repeated call returns the recorded result instead of running again. This file holds the ledger
 * interface, the transition rules every implementation shares, and the in-memory (process-local)
 * implementation; `sqlite-ledger.ts` runs the same rules over a durable SQLite file.
 *
 * An entry is keyed by its idempotency key and binds the plan digest and mode it was claimed for:
 * the same key with another plan digest or mode is a `conflict`, never a replay. Its states:
 *   running     claimed by one caller (the holder, named by a claim number that is never reused);
 *   dispatched  the gateway marked real external dispatch: the entry is protected from here on
 *               (live mode only: marking a dry-run is refused, so a dry-run is never protected);
 *   succeeded / failed / cancelled   terminal, with the recorded result (canonical JSON text).
 * A failure or cancellation after the dispatch marker carries `reconciliationRequired: true`.
 *
 * The marker is write-ahead: a gateway calls `markDispatched` immediately BEFORE the external call
 * and does not make the call unless it answered `ok`. So a crash can never leave a dispatched call
 * behind an entry that looks undispatched.
 *
 * Bounds. At most `maxEntries` entries are stored. An entry is evictable only when it never reached
 * the marker and is either terminal or abandoned (a running entry whose lease ran out). An evictable
 * entry expires `ttlMs` after it finished (or after its lease ran out) and then counts as absent
 * everywhere; a new claim purges expired entries and, when the ledger is still full, evicts the
 * oldest evictable entries (by finish or lease time, then claim number). Protected entries (dispatched
 * at any point) and live running entries are never evicted by TTL or count pressure: when nothing can
 * be evicted a new claim is refused with `full` (bounded, fail closed). `release` is the host's
 * explicit way out after it has reconciled a protected entry (never offered over MCP).
 *
 * Holders and restarts. A claim holds a lease of `leaseMs` (renewed by `renew`, `markDispatched`).
 * `markDispatched`, `finish` and `renew` take the claim number and refuse a stale one, so a holder that
 * lost its entry can never mark or finish someone else's run. When a process dies (or restarts) with
 * an entry still open, a later claim of the same key and binding decides by the marker:
 *   - running, not dispatched: `in-progress` while the lease lasts, then reclaimed (a new claim
 *     number, `reclaimed: true`): nothing external happened, so running again is safe;
 *   - dispatched: `in-progress` while the lease lasts, then `reconciliation-required`, forever: it is
 *     never run again; the host reconciles the external outcome with the gateway owner, then may
 *     `release` the entry.
 * The in-memory ledger forgets everything when its process ends (process-local, as the seed's);
 * the SQLite ledger keeps entries across restarts and processes.
 *
 * Time comes only from the injected `now()` (milliseconds), read inside each atomic step (so after
 * any wait for another writer); a clock that fails or answers a non-finite number makes the
 * operation refuse (`clock`) and change nothing. Nothing here throws: every outcome is a
 * typed result, and every message describes the problem without quoting the input.
 */
import type { JsonValue } from './stable-json';
import { stableApplicationJson } from './stable-json';

export type ExecutionMode = 'dry-run' | 'live';
export type TerminalStatus = 'succeeded' | 'failed' | 'cancelled';
export type ExecutionLedgerState = 'running' | 'dispatched' | TerminalStatus;

/** What an idempotency key is bound to. */
export interface ExecutionBinding {
  /** Lowercase hex SHA-256 of the plan (64 characters). */
  readonly planDigest: string;
  readonly mode: ExecutionMode;
}

/** How a run ended, as `finish` records it. */
export interface ExecutionOutcome {
  readonly status: TerminalStatus;
  /** The result a replay returns: plain JSON data (recorded as its canonical text). */
  readonly result: JsonValue;
}

/** One entry as callers see it (a fresh copy every time; the result shares nothing with the store). */
export interface ExecutionLedgerEntry {
  readonly key: string;
  readonly planDigest: string;
  readonly mode: ExecutionMode;
  readonly state: ExecutionLedgerState;
  /** The claim number of the current holder (never reused within one ledger). */
  readonly claim: number;
  readonly claimedAt: number;
  readonly leaseUntil: number;
  /** When the gateway marked real external dispatch; absent when it never did. */
  readonly dispatchedAt?: number;
  readonly finishedAt?: number;
  /** Dispatched at some point: never evicted by TTL or count pressure. */
  readonly protected: boolean;
  /** Failed or cancelled after the marker, or dispatched and abandoned (its lease ran out). */
  readonly reconciliationRequired: boolean;
  /** When it will count as absent (evictable terminal entries only). */
  readonly expiresAt?: number;
  /** Terminal entries only: the recorded result. */
  readonly result?: JsonValue;
}

export type LedgerFailureReason =
  | 'invalid-input'
  | 'clock'
  | 'unknown-key'
  | 'stale-claim'
  | 'already-finished'
  | 'in-progress'
  | 'result-too-large'
  | 'storage'
  | 'closed';

export interface LedgerFailure {
  readonly ok: false;
  readonly reason: LedgerFailureReason;
  readonly message: string;
  /** The entry as it is, when there is one (for example the finished entry of `already-finished`). */
  readonly entry?: ExecutionLedgerEntry;
}

export type ClaimResult =
  | {
      readonly kind: 'claimed';
      readonly claim: number;
      readonly reclaimed: boolean;
      readonly entry: ExecutionLedgerEntry;
    }
  | { readonly kind: 'replay'; readonly entry: ExecutionLedgerEntry; readonly result: JsonValue }
  | { readonly kind: 'in-progress'; readonly entry: ExecutionLedgerEntry }
  | { readonly kind: 'reconciliation-required'; readonly entry: ExecutionLedgerEntry; readonly message: string }
  | { readonly kind: 'conflict'; readonly recorded: ExecutionBinding; readonly message: string }
  | { readonly kind: 'full'; readonly message: string }
  | { readonly kind: 'rejected'; readonly reason: LedgerFailureReason; readonly message: string };

export type LedgerUpdate = { readonly ok: true; readonly entry: ExecutionLedgerEntry } | LedgerFailure;
export type LedgerLookup = { readonly ok: true; readonly entry: ExecutionLedgerEntry | undefined } | LedgerFailure;
export type LedgerSnapshot =
  | { readonly ok: true; readonly entries: readonly ExecutionLedgerEntry[]; readonly stored: number }
  | LedgerFailure;

export interface ExecutionLedger {
  readonly kind: 'memory' | 'sqlite' | 'postgres';
  readonly limits: ExecutionLedgerLimits;
  /** Claims `key` for `binding`, or says why not (replay, in progress, conflict, full…). */
  claim(key: string, binding: ExecutionBinding): Promise<ClaimResult>;
  /** Extends the holder's lease. */
  renew(key: string, claim: number): Promise<LedgerUpdate>;
  /** The write-ahead dispatch marker (see the header): protected from here on. Idempotent for the holder. */
  markDispatched(key: string, claim: number): Promise<LedgerUpdate>;
  /** Records the terminal outcome; only the holder, only once. */
  finish(key: string, claim: number, outcome: ExecutionOutcome): Promise<LedgerUpdate>;
  /** Host-only: forgets a terminal or abandoned entry (for example after reconciling it); refuses a live one. */
  release(key: string): Promise<LedgerUpdate>;
  get(key: string): Promise<LedgerLookup>;
  /** Every entry that does not count as absent, in key order, and how many records are stored. */
  snapshot(): Promise<LedgerSnapshot>;
  close(): Promise<void>;
}

export interface ExecutionLedgerLimits {
  /** Most entries stored (1 … 1,000,000). */
  readonly maxEntries: number;
  /** How long an evictable entry is kept after it finished or was abandoned (ms, ≥ 0). */
  readonly ttlMs: number;
  /** How long a claim holds before another caller may take it over (ms, ≥ 1). */
  readonly leaseMs: number;
  /** Largest recorded result, in UTF-8 bytes of its canonical JSON text. */
  readonly maxResultBytes: number;
}

export interface ExecutionLedgerOptions extends Partial<ExecutionLedgerLimits> {
  /** The clock, in milliseconds. Defaults to `Date.now`. */
  readonly now?: () => number;
}

export type LedgerOpening =
  | { readonly ok: true; readonly ledger: ExecutionLedger }
  | { readonly ok: false; readonly reason: 'invalid-options' | 'driver-missing' | 'storage'; readonly message: string };

export const DEFAULT_LEDGER_LIMITS: ExecutionLedgerLimits = {
  maxEntries: 1024,
  ttlMs: 24 * 60 * 60 * 1000,
  leaseMs: 60 * 1000,
  maxResultBytes: 1024 * 1024,
};

/** An idempotency key: 1 to 256 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,256}$/;
const PLAN_DIGEST = /^[0-9a-f]{64}$/;
const MAX_ENTRIES_CAP = 1_000_000;

// ---------------------------------------------------------------------------------------------
// The stored record and the rules on it (shared by every implementation).

/** What an implementation stores per key. Times are `now()` values; `result` is canonical JSON text. */
export interface LedgerRecord {
  readonly key: string;
  readonly claim: number;
  readonly planDigest: string;
  readonly mode: ExecutionMode;
  readonly state: ExecutionLedgerState;
  readonly claimedAt: number;
  readonly leaseUntil: number;
  readonly dispatchedAt: number | null;
  readonly finishedAt: number | null;
  readonly result: string | null;
}

/** A record before the store gives it its claim number. */
export type NewLedgerRecord = Omit<LedgerRecord, 'claim'>;

/** A value, or a promise of it: a store may answer synchronously (memory, SQLite) or not (PostgreSQL). */
export type Awaitable<T> = T | Promise<T>;

/**
 * The storage an implementation provides. Every method runs inside `atomically`; the predicates it
 * must apply are {@link isExpired} (purge) and {@link isEvictable} with {@link evictionOrder} (evict).
 * Methods may answer synchronously or with a promise; the rules await each one.
 */
export interface LedgerStore {
  read(key: string): Awaitable<LedgerRecord | undefined>;
  count(): Awaitable<number>;
  /** Stores a new record under a claim number greater than every one given before; returns it. */
  insert(record: NewLedgerRecord): Awaitable<LedgerRecord>;
  /** Replaces the record of `record.key` (same claim number). */
  update(record: LedgerRecord): Awaitable<void>;
  remove(key: string): Awaitable<void>;
  /** Removes every expired record. */
  purgeExpired(now: number, ttlMs: number): Awaitable<void>;
  countEvictable(now: number): Awaitable<number>;
  /** Removes the `n` first evictable records in eviction order. */
  evictOldest(now: number, n: number): Awaitable<void>;
  list(): Awaitable<LedgerRecord[]>;
  /**
   * Runs `fn` as one atomic step (a write transaction for a shared store): no other step of this
   * store (nor, for a shared store, of any other process) interleaves with it, and when `fn`
   * rejects nothing it did stays.
   */
  atomically<T>(fn: () => Promise<T>): Promise<T>;
  close(): Awaitable<void>;
}

/** The columns of a durable ledger's table, in order (SQLite and PostgreSQL): an existing table must have exactly these. */
export const LEDGER_COLUMNS = [
  'claim',
  'key',
  'plan_digest',
  'mode',
  'state',
  'claimed_at',
  'lease_until',
  'dispatched_at',
  'finished_at',
  'result',
] as const;

/** A row of a durable ledger's table (a claim may arrive as text: PostgreSQL's bigint). */
export interface LedgerRow {
  claim: number | string;
  key: string;
  plan_digest: string;
  mode: string;
  state: string;
  claimed_at: number;
  lease_until: number;
  dispatched_at: number | null;
  finished_at: number | null;
  result: string | null;
}

/** A row as a record; throws (inside the transaction, reported as `storage`) on a row no ledger wrote. */
export function recordOfRow(row: LedgerRow): LedgerRecord {
  if (typeof row.result === 'string') JSON.parse(row.result); // an unreadable result is corruption, found here
  const claim = Number(row.claim);
  if (!Number.isSafeInteger(claim)) throw Object.assign(new Error('bad claim'), { code: 'XX001' });
  return {
    key: row.key,
    claim,
    planDigest: row.plan_digest,
    mode: row.mode as LedgerRecord['mode'],
    state: row.state as LedgerRecord['state'],
    claimedAt: row.claimed_at,
    leaseUntil: row.lease_until,
    dispatchedAt: row.dispatched_at,
    finishedAt: row.finished_at,
    result: row.result,
  };
}

export const isTerminal = (state: ExecutionLedgerState): state is TerminalStatus =>
  state === 'succeeded' || state === 'failed' || state === 'cancelled';
export const isProtected = (record: LedgerRecord): boolean => record.dispatchedAt !== null;
/** Never dispatched, and finished or abandoned. */
export const isEvictable = (record: LedgerRecord, now: number): boolean =>
  !isProtected(record) && (record.state !== 'running' || record.leaseUntil <= now);
/** When an evictable record started to age. */
export const evictionTime = (record: LedgerRecord): number => record.finishedAt ?? record.leaseUntil;
/** Counts as absent: evictable and older than the TTL. */
export const isExpired = (record: LedgerRecord, now: number, ttlMs: number): boolean =>
  !isProtected(record) && evictionTime(record) + ttlMs <= now;
/** Oldest first, then by claim number. */
export const evictionOrder = (a: LedgerRecord, b: LedgerRecord): number =>
  evictionTime(a) - evictionTime(b) || a.claim - b.claim;

/** The public view of a record at `now`. */
export function entryOf(record: LedgerRecord, now: number, ttlMs: number): ExecutionLedgerEntry {
  const dispatched = isProtected(record);
  const terminal = isTerminal(record.state);
  const reconciliationRequired =
    dispatched && ((terminal && record.state !== 'succeeded') || (!terminal && record.leaseUntil <= now));
  return {
    key: record.key,
    planDigest: record.planDigest,
    mode: record.mode,
    state: record.state,
    claim: record.claim,
    claimedAt: record.claimedAt,
    leaseUntil: record.leaseUntil,
    ...(record.dispatchedAt !== null ? { dispatchedAt: record.dispatchedAt } : {}),
    ...(record.finishedAt !== null ? { finishedAt: record.finishedAt } : {}),
    protected: dispatched,
    reconciliationRequired,
    ...(terminal && !dispatched ? { expiresAt: evictionTime(record) + ttlMs } : {}),
    ...(terminal && record.result !== null ? { result: JSON.parse(record.result) as JsonValue } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Checking what callers pass.

/** The limits with defaults filled in, or why they are not usable. */
export function readLedgerOptions(
  options: ExecutionLedgerOptions | undefined,
): { ok: true; limits: ExecutionLedgerLimits; now: () => number } | { ok: false; message: string } {
  try {
    const given = (options ?? {}) as Record<string, unknown>;
    const limits = { ...DEFAULT_LEDGER_LIMITS };
    const checks: [keyof ExecutionLedgerLimits, number, number][] = [
      ['maxEntries', 1, MAX_ENTRIES_CAP],
      ['ttlMs', 0, Number.MAX_SAFE_INTEGER],
      ['leaseMs', 1, Number.MAX_SAFE_INTEGER],
      ['maxResultBytes', 2, 64 * 1024 * 1024],
    ];
    for (const [name, min, max] of checks) {
      const value = given[name];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
        return { ok: false, message: `${name} must be an integer from ${min} to ${max}` };
      limits[name] = value;
    }
    const now = given.now;
    if (now !== undefined && typeof now !== 'function')
      return { ok: false, message: 'now must be a function returning milliseconds' };
    return { ok: true, limits: Object.freeze(limits), now: (now as (() => number) | undefined) ?? (() => Date.now()) };
  } catch {
    return { ok: false, message: 'the ledger options could not be read as plain data' };
  }
}

function checkKey(key: unknown): string | undefined {
  return typeof key === 'string' && IDEMPOTENCY_KEY.test(key)
    ? undefined
    : 'the idempotency key must be 1 to 256 visible ASCII characters';
}

function checkBinding(binding: unknown): ExecutionBinding | string {
  try {
    if (typeof binding !== 'object' || binding === null)
      return 'the binding must be an object with planDigest and mode';
    const { planDigest, mode } = binding as Record<string, unknown>;
    if (typeof planDigest !== 'string' || !PLAN_DIGEST.test(planDigest))
      return 'planDigest must be 64 lowercase hexadecimal characters';
    if (mode !== 'dry-run' && mode !== 'live') return 'mode must be "dry-run" or "live"';
    return { planDigest, mode };
  } catch {
    return 'the binding could not be read as plain data';
  }
}

function checkClaim(claim: unknown): string | undefined {
  return typeof claim === 'number' && Number.isSafeInteger(claim) && claim >= 1
    ? undefined
    : 'the claim number must be a positive integer';
}

/** The outcome with its canonical result text, or why it cannot be recorded. */
function checkOutcome(
  outcome: unknown,
  maxResultBytes: number,
): { status: TerminalStatus; text: string } | LedgerFailure {
  try {
    if (typeof outcome !== 'object' || outcome === null)
      return failure('invalid-input', 'the outcome must be an object with status and result');
    const { status, result } = outcome as Record<string, unknown>;
    if (status !== 'succeeded' && status !== 'failed' && status !== 'cancelled')
      return failure('invalid-input', 'status must be "succeeded", "failed" or "cancelled"');
    const text = stableApplicationJson(result);
    if (!text.ok)
      return failure('invalid-input', `the result is not plain JSON data at "${text.pointer}": ${text.reason}`);
    if (Buffer.byteLength(text.text, 'utf8') > maxResultBytes)
      return failure(
        'result-too-large',
        `the result is larger than ${maxResultBytes} bytes of canonical JSON; record a smaller one`,
      );
    return { status, text: text.text };
  } catch {
    return failure('invalid-input', 'the outcome could not be read as plain data');
  }
}

function failure(reason: LedgerFailureReason, message: string, entry?: ExecutionLedgerEntry): LedgerFailure {
  return entry === undefined ? { ok: false, reason, message } : { ok: false, reason, message, entry };
}

// ---------------------------------------------------------------------------------------------
// The ledger over a store.

/** Thrown inside an atomic step when the clock cannot be read (rolls the step back). */
class ClockFailure extends Error {}
/** Thrown inside an atomic step that waited while the ledger was closed (nothing is touched). */
class ClosedFailure extends Error {}

/** Builds the ledger over `store`: the one place the transition rules live. */
export function createLedgerOverStore(
  kind: ExecutionLedger['kind'],
  store: LedgerStore,
  limits: ExecutionLedgerLimits,
  clock: () => number,
  describeStorageError: (error: unknown) => string,
): ExecutionLedger {
  let closed = false;
  const { ttlMs, leaseMs, maxEntries } = limits;

  /** The time, read inside the atomic step (after any wait for another writer), or a ClockFailure. */
  const readClock = (): number => {
    let now: unknown;
    try {
      now = clock();
    } catch {
      throw new ClockFailure('the ledger clock failed');
    }
    if (typeof now !== 'number' || !Number.isFinite(now))
      throw new ClockFailure('the ledger clock answered something other than a finite number of milliseconds');
    return now;
  };
  /** Runs one operation as one atomic step; a clock or storage failure rolls it back and is reported. */
  const run = async <T>(
    refused: (reason: LedgerFailureReason, message: string) => T,
    step: (now: number) => Promise<T>,
  ): Promise<T> => {
    if (closed) return refused('closed', 'the execution ledger is closed');
    try {
      return await store.atomically(async () => {
        if (closed) throw new ClosedFailure('the execution ledger is closed');
        return step(readClock());
      });
    } catch (error) {
      return error instanceof ClockFailure
        ? refused('clock', error.message)
        : error instanceof ClosedFailure
          ? refused('closed', error.message)
          : refused('storage', describeStorageError(error));
    }
  };
  const refuse = (reason: LedgerFailureReason, message: string): LedgerFailure => failure(reason, message);
  /** The record of `key` unless it counts as absent. */
  const live = async (key: string, now: number): Promise<LedgerRecord | undefined> => {
    const record = await store.read(key);
    return record !== undefined && !isExpired(record, now, ttlMs) ? record : undefined;
  };

  /** The holder's own open record, or why the holder may not touch it. */
  const held = async (key: string, claim: number, now: number): Promise<LedgerRecord | LedgerFailure> => {
    const record = await live(key, now);
    if (record === undefined)
      return failure('unknown-key', 'no entry holds this idempotency key (never claimed, released, or expired)');
    if (record.claim !== claim)
      return failure(
        'stale-claim',
        'this claim no longer holds the idempotency key (it was taken over or replaced); do not dispatch or record anything for it',
        entryOf(record, now, ttlMs),
      );
    if (isTerminal(record.state))
      return failure(
        'already-finished',
        'the run of this idempotency key has already finished',
        entryOf(record, now, ttlMs),
      );
    return record;
  };

  const fresh = (key: string, binding: ExecutionBinding, now: number): NewLedgerRecord => ({
    key,
    planDigest: binding.planDigest,
    mode: binding.mode,
    state: 'running',
    claimedAt: now,
    leaseUntil: now + leaseMs,
    dispatchedAt: null,
    finishedAt: null,
    result: null,
  });

  return {
    kind,
    limits,
    async claim(key, binding) {
      const keyProblem = checkKey(key);
      if (keyProblem !== undefined) return { kind: 'rejected', reason: 'invalid-input', message: keyProblem };
      const bound = checkBinding(binding);
      if (typeof bound === 'string') return { kind: 'rejected', reason: 'invalid-input', message: bound };
      return run<ClaimResult>(
        (reason, message) => ({ kind: 'rejected', reason, message }),
        async (now) => {
          await store.purgeExpired(now, ttlMs);
          const existing = await store.read(key);
          if (existing !== undefined) {
            if (existing.planDigest !== bound.planDigest || existing.mode !== bound.mode) {
              return {
                kind: 'conflict',
                recorded: { planDigest: existing.planDigest, mode: existing.mode },
                message: `this idempotency key is bound to plan ${existing.planDigest} in ${existing.mode} mode; a key is never reused for another plan digest or mode`,
              };
            }
            const entry = entryOf(existing, now, ttlMs);
            if (isTerminal(existing.state)) return { kind: 'replay', entry, result: entry.result ?? null };
            if (existing.leaseUntil > now) return { kind: 'in-progress', entry };
            if (isProtected(existing)) {
              return {
                kind: 'reconciliation-required',
                entry,
                message:
                  'the run of this idempotency key was dispatched externally and then abandoned; it is never run again: reconcile it with the gateway owner',
              };
            }
            await store.remove(key); // abandoned before the marker: nothing external happened
            const record = await store.insert(fresh(key, bound, now));
            return { kind: 'claimed', claim: record.claim, reclaimed: true, entry: entryOf(record, now, ttlMs) };
          }
          const excess = (await store.count()) - maxEntries + 1;
          if (excess > 0) {
            if ((await store.countEvictable(now)) < excess) {
              return {
                kind: 'full',
                message: `the execution ledger is full: its ${maxEntries} entries are protected (dispatched) or in progress, and none may be evicted; release reconciled entries or raise maxEntries`,
              };
            }
            await store.evictOldest(now, excess);
          }
          const record = await store.insert(fresh(key, bound, now));
          return { kind: 'claimed', claim: record.claim, reclaimed: false, entry: entryOf(record, now, ttlMs) };
        },
      );
    },

    async renew(key, claim) {
      const problem = checkKey(key) ?? checkClaim(claim);
      if (problem !== undefined) return failure('invalid-input', problem);
      return run<LedgerUpdate>(refuse, async (now) => {
        const record = await held(key, claim, now);
        if ('ok' in record) return record;
        const renewed = { ...record, leaseUntil: now + leaseMs };
        await store.update(renewed);
        return { ok: true, entry: entryOf(renewed, now, ttlMs) };
      });
    },

    async markDispatched(key, claim) {
      const problem = checkKey(key) ?? checkClaim(claim);
      if (problem !== undefined) return failure('invalid-input', problem);
      return run<LedgerUpdate>(refuse, async (now) => {
        const record = await held(key, claim, now);
        if ('ok' in record) return record;
        if (record.state === 'dispatched') return { ok: true, entry: entryOf(record, now, ttlMs) };
        if (record.mode !== 'live')
          return failure(
            'invalid-input',
            'a dry-run never dispatches externally; do not dispatch',
            entryOf(record, now, ttlMs),
          );
        const marked: LedgerRecord = { ...record, state: 'dispatched', dispatchedAt: now, leaseUntil: now + leaseMs };
        await store.update(marked);
        return { ok: true, entry: entryOf(marked, now, ttlMs) };
      });
    },

    async finish(key, claim, outcome) {
      const problem = checkKey(key) ?? checkClaim(claim);
      if (problem !== undefined) return failure('invalid-input', problem);
      const checked = checkOutcome(outcome, limits.maxResultBytes);
      if ('ok' in checked) return checked;
      return run<LedgerUpdate>(refuse, async (now) => {
        const record = await held(key, claim, now);
        if ('ok' in record) return record;
        const finished: LedgerRecord = { ...record, state: checked.status, finishedAt: now, result: checked.text };
        await store.update(finished);
        return { ok: true, entry: entryOf(finished, now, ttlMs) };
      });
    },

    async release(key) {
      const problem = checkKey(key);
      if (problem !== undefined) return failure('invalid-input', problem);
      return run<LedgerUpdate>(refuse, async (now) => {
        const record = await live(key, now);
        if (record === undefined)
          return failure('unknown-key', 'no entry holds this idempotency key (never claimed, released, or expired)');
        const entry = entryOf(record, now, ttlMs);
        if (!isTerminal(record.state) && record.leaseUntil > now)
          return failure(
            'in-progress',
            'the run of this idempotency key is still in progress; it cannot be released',
            entry,
          );
        await store.remove(key);
        return { ok: true, entry };
      });
    },

    async get(key) {
      const problem = checkKey(key);
      if (problem !== undefined) return failure('invalid-input', problem);
      return run<LedgerLookup>(refuse, async (now) => {
        const record = await live(key, now);
        return { ok: true, entry: record === undefined ? undefined : entryOf(record, now, ttlMs) };
      });
    },

    async snapshot() {
      return run<LedgerSnapshot>(refuse, async (now) => {
        const records = (await store.list()).filter((record) => !isExpired(record, now, ttlMs));
        records.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        return { ok: true, entries: records.map((record) => entryOf(record, now, ttlMs)), stored: await store.count() };
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      try {
        await store.close();
      } catch {
        // closing twice or after a storage failure: nothing more to release
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The in-memory implementation.

/** A process-local ledger: bounded, forgotten when the process ends. */
export function createMemoryExecutionLedger(options?: ExecutionLedgerOptions): LedgerOpening {
  const read = readLedgerOptions(options);
  if (!read.ok) return { ok: false, reason: 'invalid-options', message: read.message };
  return {
    ok: true,
    ledger: createLedgerOverStore(
      'memory',
      memoryStore(),
      read.limits,
      read.now,
      () => 'the in-memory ledger failed unexpectedly',
    ),
  };
}

function memoryStore(): LedgerStore {
  const records = new Map<string, LedgerRecord>();
  let lastClaim = 0;
  const evictable = (now: number) => [...records.values()].filter((record) => isEvictable(record, now));
  return {
    read: (key) => records.get(key),
    count: () => records.size,
    insert(record) {
      const stored: LedgerRecord = Object.freeze({ ...record, claim: ++lastClaim });
      records.set(stored.key, stored);
      return stored;
    },
    update(record) {
      records.set(record.key, Object.freeze({ ...record }));
    },
    remove(key) {
      records.delete(key);
    },
    purgeExpired(now, ttlMs) {
      for (const record of [...records.values()]) if (isExpired(record, now, ttlMs)) records.delete(record.key);
    },
    countEvictable: (now) => evictable(now).length,
    evictOldest(now, n) {
      for (const record of evictable(now).sort(evictionOrder).slice(0, n)) records.delete(record.key);
    },
    list: () => [...records.values()],
    atomically: serialized(),
    close() {
      records.clear();
    },
  };
}

/**
 * An `atomically` for a store in this process: each step starts when the one before it settled, so
 * two operations on one store never interleave across their awaits.
 */
export function serialized(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const step = tail.then(fn);
    tail = step.then(
      () => undefined,
      () => undefined,
    );
    return step;
  };
}
