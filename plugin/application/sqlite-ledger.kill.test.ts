/**
 * The durable ledger across real process deaths. A worker process (bundled with esbuild) claims an
 * idempotency key in a SQLite file in this test's temporary folder, marks live dispatch and finishes,
 * and is killed with SIGKILL between those steps, or at random moments of a loop of runs. A new
 * process then opens the same file and repeats the same key: a finished run is replayed with exactly
 * its recorded result (never run again); a run killed before the dispatch marker is in progress
 * while the dead holder's lease lasts and is then reclaimed; a run killed after the marker is in
 * progress, then requires reconciliation forever and is never run again. Several processes racing
 * for the same keys: exactly one claims each key. All of it on every SQLite driver this Node can load;
 * with no driver at all, opening answers what to install.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLedgerWorker, itSurvivesKills } from './__test-support__/ledger-kills';
import { LEASE_MS } from './__test-support__/worker-runs';
import { openSqliteExecutionLedger } from './sqlite-ledger';
import {
  availableSqliteDrivers,
  SQLITE_DRIVER_PACKAGE,
  SQLITE_DRIVER_VERSION,
  type SqliteDriverName,
} from '../sqlite/sqlite-driver';

const root = mkdtempSync(join(tmpdir(), 'agentdef-ledger-kill-'));
const script = join(root, 'ledger-worker.cjs');
/** libsql stays external to the bundle; the worker finds it in this checkout's node_modules. The driver is set per describe. */
const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: join(__dirname, '..', '..', 'node_modules') };
beforeAll(() => bundleLedgerWorker(script));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const freshFile = () => join(root, `ledger-${n++}.sqlite`);

describe.each(availableSqliteDrivers())(
  'the SQLite ledger on %s when its process is killed',
  (driver: SqliteDriverName) => {
    beforeAll(() => {
      env['LEDGER_TEST_SQLITE_DRIVER'] = driver;
    });

    itSurvivesKills({
      script,
      env,
      fresh: async () => freshFile(),
      open: async (file) => {
        const opened = openSqliteExecutionLedger({ file, leaseMs: LEASE_MS, driver });
        if (!opened.ok) throw new Error(opened.message);
        return opened.ledger;
      },
    });

    it('with no driver (no libsql where it looks, no node:sqlite), opening answers driver-missing with what to install, and creates nothing', async () => {
      const file = freshFile();
      // Node 22.5 and later: --no-experimental-sqlite takes node:sqlite away; the working folder (where libsql is also looked for) holds none.
      const noNodeSqlite = availableSqliteDrivers().includes('node:sqlite') ? ['--no-experimental-sqlite'] : [];
      const child = spawn(process.execPath, [...noNodeSqlite, script, 'repeat', file, 'k', 'live', '0'], {
        cwd: root,
        env: { ...process.env, NODE_PATH: '', LEDGER_TEST_SQLITE_DRIVER: '' },
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
        message: expect.stringContaining(`npm install ${SQLITE_DRIVER_PACKAGE}@${SQLITE_DRIVER_VERSION}`),
      });
      expect(existsSync(file)).toBe(false);
    });
  },
);
