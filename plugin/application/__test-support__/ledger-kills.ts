/**
 * The kill cases every durable ledger runs (sqlite-ledger.kill.test.ts, postgres-ledger.kill.test.ts):
 * a worker process (ledger-worker.ts, bundled with esbuild) claims an idempotency key, marks live
 * dispatch and finishes, and is killed with SIGKILL between those steps, or at random moments of a
 * loop of runs; a new process then repeats the same key. A finished run is replayed with exactly its
 * recorded result; a run killed before the dispatch marker is in progress while its lease lasts, then
 * reclaimed and run once; one killed after the marker is reconciliation-required forever. Four
 * processes racing for the same keys: exactly one claims each key.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { buildSync } from 'esbuild';
import { expect, it } from 'vitest';
import type { ClaimResult, ExecutionLedger, ExecutionLedgerEntry } from '../execution-ledger';
import { LEASE_MS, PLAN, resultOf } from './worker-runs';

export interface KilledLedgerSetup {
  /** The bundled worker (`bundleLedgerWorker`). */
  readonly script: string;
  /** The workers' environment (where the driver is found, which ledger they open). */
  readonly env: NodeJS.ProcessEnv;
  /** A new, empty ledger: what the workers are given to open (a file, a database name). */
  fresh(): Promise<string>;
  /** Opens that ledger in this process, with the workers' lease. */
  open(name: string): Promise<ExecutionLedger>;
}

/** Bundles the ledger worker into `outfile`, leaving the drivers external (found through NODE_PATH). */
export function bundleLedgerWorker(outfile: string): void {
  buildSync({
    entryPoints: [`${__dirname}/ledger-worker.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['libsql', 'pg'],
    outfile,
    logLevel: 'silent',
  });
}

const TEN_YEARS = 10 * 365 * 24 * 3600 * 1000;

type Line = { step: string; [field: string]: unknown };

/** A running worker: its printed lines in order, a way to let it go on, and its death. */
interface Worker {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<Line>;
  proceed(): void;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(setup: KilledLedgerSetup, args: string[]): Worker {
  const child = spawn(process.execPath, [setup.script, ...args], { env: setup.env, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** A new process opens the ledger and claims `key` again, with its clock `offset` ms ahead. */
async function repeat(
  setup: KilledLedgerSetup,
  file: string,
  key: string,
  mode: string,
  offset = 0,
): Promise<{ claim: ClaimResult; finished?: { ok: boolean } }> {
  const worker = start(setup, ['repeat', file, key, mode, String(offset)]);
  const first = await worker.next();
  const claim = first.claim as ClaimResult;
  const finished = claim.kind === 'claimed' ? ((await worker.next()).update as { ok: boolean }) : undefined;
  expect((await worker.exit).code).toBe(0);
  return finished === undefined ? { claim } : { claim, finished };
}

/** Runs the steps worker for `key` until it printed `until`, then SIGKILLs it. */
async function killAfter(
  setup: KilledLedgerSetup,
  file: string,
  key: string,
  mode: 'live' | 'dry-run',
  until: 'claimed' | 'dispatched' | 'finished',
): Promise<void> {
  const worker = start(setup, ['steps', file, key, mode]);
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

/** The shared kill cases, as `it`s of the caller's describe. */
export function itSurvivesKills(setup: KilledLedgerSetup): void {
  it('killed after finishing: a new process replays exactly the recorded result, now and years later', async () => {
    for (const mode of ['live', 'dry-run'] as const) {
      const file = await setup.fresh();
      await killAfter(setup, file, 'finished-run', mode, 'finished');
      const { claim } = await repeat(setup, file, 'finished-run', mode);
      expect(claim).toMatchObject({
        kind: 'replay',
        result: resultOf('finished-run'),
        entry: { state: 'succeeded', claim: 1, protected: mode === 'live', reconciliationRequired: false },
      });
      if (mode === 'live')
        expect((await repeat(setup, file, 'finished-run', mode, TEN_YEARS)).claim).toMatchObject({
          kind: 'replay',
          result: resultOf('finished-run'),
        });
      expect((await repeat(setup, file, 'finished-run', mode === 'live' ? 'dry-run' : 'live')).claim.kind).toBe(
        'conflict',
      );
    }
  });

  it('killed before the dispatch marker: in progress while the lease lasts, then reclaimed and run once', async () => {
    for (const mode of ['live', 'dry-run'] as const) {
      const file = await setup.fresh();
      await killAfter(setup, file, 'early', mode, 'claimed');
      expect((await repeat(setup, file, 'early', mode)).claim).toMatchObject({
        kind: 'in-progress',
        entry: { state: 'running', claim: 1, protected: false },
      });
      const retaken = await repeat(setup, file, 'early', mode, LEASE_MS);
      expect(retaken).toEqual({
        claim: expect.objectContaining({ kind: 'claimed', claim: 2, reclaimed: true }),
        finished: expect.objectContaining({ ok: true }),
      });
      expect((await repeat(setup, file, 'early', mode)).claim).toMatchObject({
        kind: 'replay',
        result: resultOf('early'),
        entry: { claim: 2 },
      });
    }
  });

  it('killed after the dispatch marker: in progress, then reconciliation required and never run again', async () => {
    const file = await setup.fresh();
    await killAfter(setup, file, 'dispatched', 'live', 'dispatched');
    expect((await repeat(setup, file, 'dispatched', 'live')).claim).toMatchObject({
      kind: 'in-progress',
      entry: { state: 'dispatched', protected: true },
    });
    for (const offset of [LEASE_MS, TEN_YEARS]) {
      const { claim, finished } = await repeat(setup, file, 'dispatched', 'live', offset);
      expect(finished).toBeUndefined();
      expect(claim).toMatchObject({
        kind: 'reconciliation-required',
        entry: { state: 'dispatched', claim: 1, protected: true, reconciliationRequired: true },
      });
    }
  });

  it('killed at random moments of a loop of runs: every run is whole, and each repeat does what its state says', async () => {
    for (let round = 0; round < 6; round++) {
      const file = await setup.fresh();
      const worker = start(setup, ['loop', file, 'run']);
      expect((await worker.next()).step).toBe('looping');
      await new Promise((resolve) => setTimeout(resolve, (round * 17) % 60));
      await kill(worker);

      const ledger = await setup.open(file);
      const snap = await ledger.snapshot();
      await ledger.close();
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
      const again = await repeat(setup, file, last.key, 'live', LEASE_MS);
      const expected =
        last.state === 'running' ? 'claimed' : last.state === 'dispatched' ? 'reconciliation-required' : 'replay';
      expect(again.claim.kind).toBe(expected);
      if (entries.length > 1)
        expect((await repeat(setup, file, 'run-0', 'live', LEASE_MS)).claim).toMatchObject({
          kind: 'replay',
          result: resultOf('run-0'),
        });
    }
  });

  it('processes racing for the same keys: exactly one claims each key', async () => {
    // Rounds of one key (four claims at the same instant), then one of many keys in rotated orders
    // (each worker starts elsewhere and runs into the others).
    const rounds = [['solo-0'], ['solo-1'], ['solo-2'], Array.from({ length: 24 }, (_, i) => `many-${i}`)];
    for (const keys of rounds) {
      const file = await setup.fresh();
      const orders = Array.from({ length: 4 }, (_, w) => [
        ...keys.slice((w * 6) % keys.length),
        ...keys.slice(0, (w * 6) % keys.length),
      ]);
      const workers = orders.map((order) => start(setup, ['race', file, ...order]));
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
}
