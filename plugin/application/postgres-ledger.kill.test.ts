/**
 * The PostgreSQL ledger across real process deaths, as sqlite-ledger.kill.test.ts does for SQLite:
 * a worker process (bundled with esbuild, pg left external) claims an idempotency key in a database
 * of a real PostgreSQL started in this test's folder, marks live dispatch and finishes, and is
 * killed with SIGKILL between those steps, or at random moments of a loop of runs. A new process
 * then opens the same database and repeats the same key: a finished run is replayed with exactly
 * its recorded result (never run again); a run killed before the dispatch marker is in progress
 * while the dead holder's lease lasts and is then reclaimed; a run killed after the marker is in
 * progress, then requires reconciliation forever and is never run again. Several processes racing
 * for the same keys: exactly one claims each key. Without pg, opening answers what to install.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, PLAN, resultOf } from './__test-support__/worker-runs';
import type { ClaimResult, ExecutionLedgerEntry } from './execution-ledger';
import { openPostgresExecutionLedger } from './postgres-ledger';
import { type PostgresServer, startPostgres } from '../../e2e/support/postgres-server';
import { POSTGRES_DRIVER_PACKAGE, POSTGRES_DRIVER_VERSION } from '../postgres/postgres-driver';

const root = mkdtempSync(join(tmpdir(), 'agentdef-pg-ledger-kill-'));
const script = join(root, 'ledger-worker.cjs');
/** pg stays external to the bundle; the worker finds it in this checkout's node_modules. The server is set below. */
const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: join(__dirname, '..', '..', 'node_modules') };
let server: PostgresServer;
beforeAll(async () => {
  buildSync({
    entryPoints: [join(__dirname, '__test-support__', 'ledger-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['libsql', 'pg'],
    outfile: script,
    logLevel: 'silent',
  });
  server = await startPostgres(join(root, 'pg'));
  env['LEDGER_TEST_POSTGRES_URL'] = server.url;
});
afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** A fresh database; the workers take its name where the SQLite test gives a file. */
const freshFile = async () => {
  const name = `kill_${n++}`;
  await server.database(name);
  return name;
};
const urlOf = (name: string) => server.url.replace(/\/postgres$/, `/${name}`);
const TEN_YEARS = 10 * 365 * 24 * 3600 * 1000;

type Line = { step: string; [field: string]: unknown };

/** A running worker: its printed lines in order, a way to let it go on, and its death. */
interface Worker {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<Line>;
  proceed(): void;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[]): Worker {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  const waiting: ((line: Line) => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, at)) as Line;
      buffer = buffer.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    next: () => {
      const line = lines.shift();
      if (line) return Promise.resolve(line);
      return new Promise<Line>((resolve, reject) => {
        waiting.push(resolve);
        void exit.then(({ code, signal }) =>
          reject(new Error(`the worker ended (${code ?? signal}) before printing: ${stderr}`)),
        );
      });
    },
    proceed: () => child.stdin.write('go\n'),
    exit,
  };
}

async function kill(worker: Worker): Promise<void> {
  worker.child.kill('SIGKILL');
  expect((await worker.exit).signal).toBe('SIGKILL');
}

/** A new process opens the file and claims `key` again, with its clock `offset` ms ahead. */
async function repeat(
  file: string,
  key: string,
  mode: string,
  offset = 0,
): Promise<{ claim: ClaimResult; finished?: { ok: boolean } }> {
  const worker = start(['repeat', file, key, mode, String(offset)]);
  const first = await worker.next();
  const claim = first.claim as ClaimResult;
  const finished = claim.kind === 'claimed' ? ((await worker.next()).update as { ok: boolean }) : undefined;
  expect((await worker.exit).code).toBe(0);
  return finished === undefined ? { claim } : { claim, finished };
}

/** Runs the steps worker for `key` until it printed `until`, then SIGKILLs it. */
async function killAfter(
  file: string,
  key: string,
  mode: 'live' | 'dry-run',
  until: 'claimed' | 'dispatched' | 'finished',
): Promise<void> {
  const worker = start(['steps', file, key, mode]);
  const order = mode === 'live' ? ['claimed', 'dispatched', 'finished'] : ['claimed', 'finished'];
  for (const step of order) {
    const line = await worker.next();
    expect(line.step).toBe(step);
    if (step !== 'claimed') expect(line.update).toMatchObject({ ok: true });
    if (step === until) break;
    worker.proceed();
    if (mode === 'dry-run' && step === 'claimed') worker.proceed(); // no marker step in a dry-run
  }
  await kill(worker);
}

describe('the PostgreSQL ledger when its process is killed', () => {
  it('killed after finishing: a new process replays exactly the recorded result, now and years later', async () => {
    for (const mode of ['live', 'dry-run'] as const) {
      const file = await freshFile();
      await killAfter(file, 'finished-run', mode, 'finished');
      const { claim } = await repeat(file, 'finished-run', mode);
      expect(claim).toMatchObject({
        kind: 'replay',
        result: resultOf('finished-run'),
        entry: { state: 'succeeded', claim: 1, protected: mode === 'live', reconciliationRequired: false },
      });
      if (mode === 'live')
        expect((await repeat(file, 'finished-run', mode, TEN_YEARS)).claim).toMatchObject({
          kind: 'replay',
          result: resultOf('finished-run'),
        });
      expect((await repeat(file, 'finished-run', mode === 'live' ? 'dry-run' : 'live')).claim.kind).toBe('conflict');
    }
  });

  it('killed before the dispatch marker: in progress while the lease lasts, then reclaimed and run once', async () => {
    for (const mode of ['live', 'dry-run'] as const) {
      const file = await freshFile();
      await killAfter(file, 'early', mode, 'claimed');
      expect((await repeat(file, 'early', mode)).claim).toMatchObject({
        kind: 'in-progress',
        entry: { state: 'running', claim: 1, protected: false },
      });
      const retaken = await repeat(file, 'early', mode, LEASE_MS);
      expect(retaken).toEqual({
        claim: expect.objectContaining({ kind: 'claimed', claim: 2, reclaimed: true }),
        finished: expect.objectContaining({ ok: true }),
      });
      expect((await repeat(file, 'early', mode)).claim).toMatchObject({
        kind: 'replay',
        result: resultOf('early'),
        entry: { claim: 2 },
      });
    }
  });

  it('killed after the dispatch marker: in progress, then reconciliation required and never run again', async () => {
    const file = await freshFile();
    await killAfter(file, 'dispatched', 'live', 'dispatched');
    expect((await repeat(file, 'dispatched', 'live')).claim).toMatchObject({
      kind: 'in-progress',
      entry: { state: 'dispatched', protected: true },
    });
    for (const offset of [LEASE_MS, TEN_YEARS]) {
      const { claim, finished } = await repeat(file, 'dispatched', 'live', offset);
      expect(finished).toBeUndefined();
      expect(claim).toMatchObject({
        kind: 'reconciliation-required',
        entry: { state: 'dispatched', claim: 1, protected: true, reconciliationRequired: true },
      });
    }
  });

  it('killed at random moments of a loop of runs: every run is whole, and each repeat does what its state says', async () => {
    for (let round = 0; round < 6; round++) {
      const file = await freshFile();
      const worker = start(['loop', file, 'run']);
      expect((await worker.next()).step).toBe('looping');
      await new Promise((resolve) => setTimeout(resolve, (round * 17) % 60));
      await kill(worker);

      const opened = await openPostgresExecutionLedger({ url: urlOf(file), leaseMs: LEASE_MS });
      if (!opened.ok) throw new Error(opened.message);
      const snap = await opened.ledger.snapshot();
      await opened.ledger.close();
      if (!snap.ok) throw new Error(snap.message);
      const entries = snap.entries.slice().sort((a, b) => Number(a.key.slice(4)) - Number(b.key.slice(4)));
      expect(entries.map((entry) => entry.key)).toEqual(entries.map((_, i) => `run-${i}`));
      expect(entries.length).toBeGreaterThan(0);
      const last = entries[entries.length - 1] as ExecutionLedgerEntry;
      for (const [i, entry] of entries.entries()) {
        const dispatchedRun = i % 2 === 1;
        const whole = {
          key: `run-${i}`,
          planDigest: PLAN,
          mode: 'live',
          state: 'succeeded',
          protected: dispatchedRun,
          reconciliationRequired: false,
          result: resultOf(`run-${i}`),
        };
        if (entry !== last) expect(entry).toMatchObject(whole);
        else if (entry.state === 'running') expect(entry.protected).toBe(false);
        else if (entry.state === 'dispatched') expect(dispatchedRun).toBe(true);
        else expect(entry).toMatchObject(whole);
      }
      const again = await repeat(file, last.key, 'live', LEASE_MS);
      const expected =
        last.state === 'running' ? 'claimed' : last.state === 'dispatched' ? 'reconciliation-required' : 'replay';
      expect(again.claim.kind).toBe(expected);
      if (entries.length > 1)
        expect((await repeat(file, 'run-0', 'live', LEASE_MS)).claim).toMatchObject({
          kind: 'replay',
          result: resultOf('run-0'),
        });
    }
  });

  it('without pg (not where agentdef is, not in the working folder), opening answers driver-missing with what to install', async () => {
    const file = await freshFile();
    const child = spawn(process.execPath, [script, 'repeat', file, 'k', 'live', '0'], {
      cwd: root,
      env: { ...process.env, NODE_PATH: '', LEDGER_TEST_POSTGRES_URL: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({
      step: 'open-failed',
      message: expect.stringContaining(`npm install ${POSTGRES_DRIVER_PACKAGE}@${POSTGRES_DRIVER_VERSION}`),
    });
    expect(out).not.toContain(server.password);
    expect(server.psql("SELECT to_regclass('agentdef_schema_migrations') IS NULL", file)).toBe('t\n'); // nothing created
  });

  it('processes racing for the same keys: exactly one claims each key', async () => {
    // Rounds of one key (four claims at the same instant), then one of many keys in rotated orders
    // (each worker starts elsewhere and runs into the others).
    const rounds = [['solo-0'], ['solo-1'], ['solo-2'], Array.from({ length: 24 }, (_, i) => `many-${i}`)];
    for (const keys of rounds) {
      const file = await freshFile();
      const orders = Array.from({ length: 4 }, (_, w) => [
        ...keys.slice((w * 6) % keys.length),
        ...keys.slice(0, (w * 6) % keys.length),
      ]);
      const workers = orders.map((order) => start(['race', file, ...order]));
      for (const worker of workers) expect((await worker.next()).step).toBe('ready');
      for (const worker of workers) worker.proceed();
      const raced = await Promise.all(workers.map(async (worker) => (await worker.next()).kinds as string[]));
      for (const worker of workers) expect((await worker.exit).code).toBe(0);
      for (const key of keys) {
        const kinds = orders.map((order, w) => raced[w]?.[order.indexOf(key)]);
        expect(kinds.filter((kind) => kind === 'claimed')).toHaveLength(1);
        expect(kinds.filter((kind) => kind === 'in-progress')).toHaveLength(3);
      }
    }
  });
});
