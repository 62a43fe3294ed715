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
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLedgerWorker, itSurvivesKills } from './__test-support__/ledger-kills';
import { LEASE_MS } from './__test-support__/worker-runs';
import { openPostgresExecutionLedger } from './postgres-ledger';
import { type PostgresServer, startPostgres } from '../../e2e/support/postgres-server';
import { POSTGRES_DRIVER_PACKAGE, POSTGRES_DRIVER_VERSION } from '../postgres/postgres-driver';

const root = mkdtempSync(join(tmpdir(), 'agentdef-pg-ledger-kill-'));
const script = join(root, 'ledger-worker.cjs');
/** pg stays external to the bundle; the worker finds it in this checkout's node_modules. The server is set below. */
const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: join(__dirname, '..', '..', 'node_modules') };
let server: PostgresServer;
beforeAll(async () => {
  bundleLedgerWorker(script);
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

describe('the PostgreSQL ledger when its process is killed', () => {
  itSurvivesKills({
    script,
    env,
    fresh: freshFile,
    open: async (name) => {
      const opened = await openPostgresExecutionLedger({ url: urlOf(name), leaseMs: LEASE_MS });
      if (!opened.ok) throw new Error(opened.message);
      return opened.ledger;
    },
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
});
