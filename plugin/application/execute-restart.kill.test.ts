/**
 * Execute across real process deaths, with the durable SQLite ledger. A worker process executes
 * the example application live (the reference gateway dispatches the approved artifact into its
 * outbox) and is killed with SIGKILL at a chosen moment; a new process then repeats the same
 * execute with the same idempotency key:
 * - killed after the run finished: the repeat returns the recorded run, byte for byte, and runs
 *   nothing (still one dispatch);
 * - killed inside the gateway before the dispatch marker: the repeat is refused as in progress
 *   while the dead holder's lease lasts, then runs again safely (exactly one dispatch in all);
 * - killed after the dispatch: the repeat is never run again; it is refused as requiring
 *   reconciliation, and nothing is dispatched a second time.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_FOLDER, exampleWorkspace } from './__test-support__/application-workspace';
import { availableSqliteDrivers, type SqliteDriverName } from '../sqlite/sqlite-driver';

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-execute-kill-'));
const script = join(scratch, 'execute-worker.cjs');
/** The driver (LEDGER_TEST_SQLITE_DRIVER) is set per describe: each one this Node can load. */
const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: join(__dirname, '..', '..', 'node_modules') };
/**
 * The holder's lease: longer than any machine takes to start the repeat, however loaded. A repeat
 * that must find the lease over runs with its ledger clock this far ahead (no sleep, no race).
 */
const LEASE_MS = 600_000;
const PAST_THE_LEASE = LEASE_MS + 1000;

beforeAll(() => {
  buildSync({
    entryPoints: [join(__dirname, '__test-support__', 'execute-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['libsql', 'esbuild', 'ts-morph', 'typescript'],
    outfile: script,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Event = { event: string; [field: string]: any };

function start(
  root: string,
  ledger: string,
  key: string,
  hold: string,
  clockAheadMs = 0,
): { child: ChildProcessWithoutNullStreams; next(): Promise<Event>; exited: Promise<NodeJS.Signals | null> } {
  const child = spawn(process.execPath, [script, root, ledger, key, hold, String(LEASE_MS), String(clockAheadMs)], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: Event[] = [];
  const waiting: ((e: Event) => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      const event = JSON.parse(buffer.slice(0, at)) as Event;
      buffer = buffer.slice(at + 1);
      const next = waiting.shift();
      if (next) next(event);
      else events.push(event);
    }
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return {
    child,
    exited,
    next: () =>
      new Promise<Event>((resolve, reject) => {
        const ready = events.shift();
        if (ready) return resolve(ready);
        waiting.push(resolve);
        void exited.then(() => setTimeout(() => reject(new Error(`worker exited: ${stderr}`)), 50));
      }),
  };
}

async function kill(worker: ReturnType<typeof start>): Promise<void> {
  worker.child.kill('SIGKILL');
  expect(await worker.exited).toBe('SIGKILL');
}

const dispatches = (root: string) => {
  const outbox = join(root, ARTIFACTS_FOLDER, 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).length : 0;
};

/** Runs a repeat to its response, then kills it; `clockAheadMs` as in start. */
async function repeat(root: string, ledger: string, key: string, clockAheadMs = 0): Promise<any> {
  const worker = start(root, ledger, key, 'none', clockAheadMs);
  const event = await worker.next();
  await kill(worker);
  expect(event.event).toBe('response');
  return event.response;
}

describe.each(availableSqliteDrivers())(
  'execute with the durable ledger on %s across SIGKILL',
  (driver: SqliteDriverName) => {
    beforeAll(() => {
      env['LEDGER_TEST_SQLITE_DRIVER'] = driver;
    });

    it('a finished run, killed afterwards, is replayed byte for byte by a new process', async () => {
      const root = exampleWorkspace();
      const ledger = join(scratch, `${driver.replace(/\W/g, '-')}-finished.sqlite`);
      const first = start(root, ledger, 'finished', 'none');
      const done = await first.next();
      await kill(first);
      expect(done.response.ok).toBe(true);
      expect(done.response.replayed).toBe(false);
      expect(dispatches(root)).toBe(1);
      const again = await repeat(root, ledger, 'finished');
      expect(again.replayed).toBe(true);
      expect(JSON.stringify(again.run)).toBe(JSON.stringify(done.response.run));
      expect(dispatches(root)).toBe(1);
    });

    it('killed before the dispatch marker: in progress during the lease, then run again safely, one dispatch in all', async () => {
      const root = exampleWorkspace();
      const ledger = join(scratch, `${driver.replace(/\W/g, '-')}-before.sqlite`);
      const first = start(root, ledger, 'before', 'before-dispatch');
      expect(await first.next()).toEqual({ event: 'holding', at: 'before-dispatch' });
      await kill(first);
      expect(dispatches(root)).toBe(0);
      const early = await repeat(root, ledger, 'before');
      expect(early).toMatchObject({ ok: false, refusal: 'in-progress' });
      const later = await repeat(root, ledger, 'before', PAST_THE_LEASE);
      expect(later.ok).toBe(true);
      expect(later.run.status).toBe('succeeded');
      expect(dispatches(root)).toBe(1);
    });

    it('killed after the dispatch: never run again, reconciliation required, no second dispatch', async () => {
      const root = exampleWorkspace();
      const ledger = join(scratch, `${driver.replace(/\W/g, '-')}-after.sqlite`);
      const first = start(root, ledger, 'after', 'after-dispatch');
      expect(await first.next()).toEqual({ event: 'holding', at: 'after-dispatch' });
      await kill(first);
      expect(dispatches(root)).toBe(1);
      const later = await repeat(root, ledger, 'after', PAST_THE_LEASE);
      expect(later).toMatchObject({ ok: false, refusal: 'reconciliation-required' });
      expect(dispatches(root)).toBe(1);
    });
  },
);
