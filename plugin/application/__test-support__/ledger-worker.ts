/**
 * A process that uses the SQLite execution ledger, for sqlite-ledger.kill.test.ts (bundled with
 * esbuild, libsql left external; `LEDGER_TEST_SQLITE_DRIVER` names the driver), or the PostgreSQL
 * ledger, for postgres-ledger.kill.test.ts (pg left external): with `LEDGER_TEST_POSTGRES_URL` set
 * (the connection string of a server), FILE names a database on that server. It prints one JSON line per step, and the test kills it
 * with SIGKILL between steps or at random moments. Commands:
 *   steps  FILE KEY MODE          claim, then (after a stdin line) mark live dispatch, then (after
 *                                 another) finish; after each step it prints the step and waits;
 *   repeat FILE KEY MODE OFFSET   claim with the clock OFFSET ms ahead; finish when it claimed;
 *   race   FILE KEY...            print ready, wait for a stdin line, claim every key in order
 *                                 (with a slow clock, so each claim holds its transaction open);
 *   loop   FILE PREFIX            claim, mark (odd runs), finish runs PREFIX-0, PREFIX-1… forever.
 * The result of a run is a function of its key (`resultOf`), so the test knows what was recorded.
 */
import { createInterface } from 'node:readline';
import type { ExecutionLedger, ExecutionMode } from '../execution-ledger';
import { openPostgresExecutionLedger } from '../postgres-ledger';
import { openSqliteExecutionLedger } from '../sqlite-ledger';
import type { SqliteDriverName } from '../../sqlite/sqlite-driver';
import { LEASE_MS, PLAN, resultOf } from './worker-runs';

const lines = createInterface({ input: process.stdin });
const waiting: (() => void)[] = [];
const buffered: string[] = [];
lines.on('line', (line) => {
  const next = waiting.shift();
  if (next) next();
  else buffered.push(line);
});
const nextLine = () =>
  new Promise<void>((resolve) => (buffered.shift() !== undefined ? resolve() : waiting.push(resolve)));
const say = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

/** A clock that takes `slowMs` to answer: read inside the write transaction, it widens every race. */
function clock(offset: number, slowMs: number): () => number {
  return () => {
    const until = Date.now() + slowMs;
    while (Date.now() < until) {
      // busy: the transaction is open meanwhile
    }
    return Date.now() + offset;
  };
}

async function open(file: string, offset = 0, slowMs = 0): Promise<ExecutionLedger> {
  const driver = process.env['LEDGER_TEST_SQLITE_DRIVER'] as SqliteDriverName | undefined;
  const server = process.env['LEDGER_TEST_POSTGRES_URL'];
  const options = { leaseMs: LEASE_MS, maxEntries: 100_000, now: clock(offset, slowMs) };
  const opened = server
    ? await openPostgresExecutionLedger({ ...options, url: databaseUrl(server, file) })
    : openSqliteExecutionLedger({ ...options, file, ...(driver ? { driver } : {}) });
  if (!opened.ok) {
    say({ step: 'open-failed', message: opened.message });
    process.exit(2);
  }
  return opened.ledger;
}

/** The connection string of database `name` on the server of `server`. */
function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

async function main(): Promise<void> {
  const [command, file = '', ...rest] = process.argv.slice(2);
  if (command === 'steps') {
    const [key = '', mode = 'live'] = rest;
    const ledger = await open(file);
    const claim = await ledger.claim(key, { planDigest: PLAN, mode: mode as ExecutionMode });
    if (claim.kind !== 'claimed') return say({ step: 'not-claimed', claim });
    say({ step: 'claimed', claim: claim.claim });
    await nextLine();
    if (mode === 'live') say({ step: 'dispatched', update: await ledger.markDispatched(key, claim.claim) });
    await nextLine();
    say({
      step: 'finished',
      update: await ledger.finish(key, claim.claim, { status: 'succeeded', result: resultOf(key) }),
    });
    await new Promise(() => setInterval(() => undefined, 1000)); // until killed
  } else if (command === 'repeat') {
    const [key = '', mode = 'live', offset = '0'] = rest;
    const ledger = await open(file, Number(offset));
    const claim = await ledger.claim(key, { planDigest: PLAN, mode: mode as ExecutionMode });
    say({ step: 'repeat', claim });
    if (claim.kind === 'claimed')
      say({
        step: 'finished',
        update: await ledger.finish(key, claim.claim, { status: 'succeeded', result: resultOf(key) }),
      });
    await ledger.close();
    lines.close();
  } else if (command === 'race') {
    const ledger = await open(file, 0, 15);
    say({ step: 'ready' });
    await nextLine();
    const kinds: string[] = [];
    for (const key of rest) kinds.push((await ledger.claim(key, { planDigest: PLAN, mode: 'live' })).kind);
    say({ step: 'raced', kinds });
    await ledger.close();
    lines.close();
  } else if (command === 'loop') {
    const [prefix = 'run'] = rest;
    const ledger = await open(file);
    for (let i = 0; ; i++) {
      const key = `${prefix}-${i}`;
      const claim = await ledger.claim(key, { planDigest: PLAN, mode: 'live' });
      if (claim.kind !== 'claimed') return say({ step: 'not-claimed', claim });
      if (i % 2 === 1 && !(await ledger.markDispatched(key, claim.claim)).ok) return say({ step: 'mark-failed' });
      if (!(await ledger.finish(key, claim.claim, { status: 'succeeded', result: resultOf(key) })).ok)
        return say({ step: 'finish-failed' });
      if (i === 0) say({ step: 'looping' });
    }
  } else {
    say({ step: 'unknown-command' });
    process.exit(2);
  }
}

void main();
