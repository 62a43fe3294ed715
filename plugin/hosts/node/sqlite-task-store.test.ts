/**
 * The SQLite task store: the TaskStore contract on a fresh file per store; two openings of one file
 * sharing tasks, terminal states and the page-token key; refusals of every path that is not this
 * store's own file (symlink, foreign SQLite, non-SQLite, folder, unwritable place), each with a
 * clear message and the path's bytes unchanged; odd task ids (SQL metacharacters, huge, lone
 * surrogates) kept apart and found again; the file and its folder owner-only. All of it on every
 * SQLite driver this Node can load (plugin/sqlite).
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  contractTask,
  describeTaskStoreContract,
  workingTask,
} from '../../runtime/__test-support__/task-store-contract';
import { openSqliteTaskStore, type SqliteTaskStore } from './sqlite-task-store';
import { taskStoreFromEnv, TASK_STORE_ENV } from './task-store-env';
import { envSecretSource, howToProvideSecret } from './secret-source';
import { SQLITE_TASK_STORE_PACKAGE } from '../../host-contract/container-contract';
import { availableSqliteDrivers, loadSqliteDriver, type SqliteDriverName } from '../../sqlite/sqlite-driver';

const noSecrets = envSecretSource({});
const top = mkdtempSync(join(tmpdir(), 'agentdef-sqlite-tasks-'));
const opened: SqliteTaskStore[] = [];
afterAll(() => {
  for (const store of opened) store.close();
  rmSync(top, { recursive: true, force: true });
});

for (const driver of availableSqliteDrivers()) suite(driver);

describe('without any SQLite driver', () => {
  it('refuses to open with one message naming what to install (libsql, or a Node with node:sqlite), and creates nothing', () => {
    // The store bundled outside the repository, run where no libsql can be found and (Node 22.5+) with node:sqlite switched off.
    const dir = join(top, 'no-driver');
    mkdirSync(dir);
    const script = join(dir, 'open-store.cjs');
    buildSync({
      stdin: {
        contents: `const { openSqliteTaskStore } = require('./sqlite-task-store'); process.stdout.write(JSON.stringify(openSqliteTaskStore(process.argv[2], { maxTasks: 1, maxBytes: 1000 })));`,
        resolveDir: __dirname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['libsql'],
      outfile: script,
      logLevel: 'silent',
    });
    const noNodeSqlite = availableSqliteDrivers().includes('node:sqlite') ? ['--no-experimental-sqlite'] : [];
    const file = join(dir, 'store', 'tasks.sqlite');
    const run = spawnSync(process.execPath, [...noNodeSqlite, script, file], {
      cwd: dir,
      env: { ...process.env, NODE_PATH: '' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      message: `cannot use ${file} as the task store: it needs SQLite, and this Node has no node:sqlite while no libsql is installed where the host runs; install ${SQLITE_TASK_STORE_PACKAGE} next to the host (an HB3 image: build it with --build-arg TASK_STORE=sqlite), run the host on Node 22.13 or later (node:sqlite), or leave the task store unset to keep tasks in memory`,
    });
    expect(readdirSync(dir)).toEqual(['open-store.cjs']);
  });
});

function suite(driver: SqliteDriverName): void {
  const root = join(top, driver.replace(/\W/g, '-'));
  mkdirSync(root);
  let counter = 0;
  const freshPath = () => join(root, `s${counter++}`, 'tasks.sqlite');
  function open(path: string, limits = { maxTasks: 10, maxBytes: 1e6 }, owner?: string): SqliteTaskStore {
    const result = openSqliteTaskStore(path, limits, owner === undefined ? { driver } : { owner, driver });
    if (!result.ok) throw new Error(result.message);
    opened.push(result.store);
    return result.store;
  }
  const openSqliteTaskStoreOn = (
    path: string,
    limits: { maxTasks: number; maxBytes: number },
    options: { owner?: string } = {},
  ) => openSqliteTaskStore(path, limits, { ...options, driver });
  /** A plain connection of the same driver, to make databases agentdef did not create. */
  function Database(file: string) {
    const loaded = loadSqliteDriver(driver);
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.driver.open(file, { busyTimeoutMs: 0 });
  }

  describeTaskStoreContract(`SQLite on ${driver}`, async (limits) => open(freshPath(), limits));

  describe(`the SQLite task store file on ${driver}`, () => {
    it('is shared by every opening: tasks, the terminal rule and the page-token key survive a reopen', async () => {
      const path = freshPath();
      const first = open(path);
      const second = open(path);
      expect(first.shared).toBe(true);
      await first.put(workingTask('a'));
      expect((await second.get('a'))?.state).toBe('working');
      expect(await second.put({ ...workingTask('a'), state: 'canceled' })).toBe(true);
      expect(await first.put(contractTask('a', 'hi', 'late'))).toBe(false);
      expect([...(await first.pageTokenKey())]).toEqual([...(await second.pageTokenKey())]);
      const key = [...(await first.pageTokenKey())];
      first.close();
      second.close();
      const reopened = open(path);
      expect((await reopened.get('a'))?.state).toBe('canceled');
      expect([...(await reopened.pageTokenKey())]).toEqual(key);
    });

    it('creates its folder (0700) and file (0600) owner-only, and leaves no temporary file behind', () => {
      const path = freshPath();
      open(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
      expect(readdirSync(join(path, '..')).filter((name) => name.endsWith('.creating'))).toEqual([]);
    });

    it('keeps two stores of different limits on one file within the limits of whoever puts', async () => {
      const path = freshPath();
      const wide = open(path, { maxTasks: 10, maxBytes: 1e6 });
      const narrow = open(path, { maxTasks: 2, maxBytes: 1e6 });
      for (const id of ['a', 'b', 'c']) await wide.put(contractTask(id, 'hi'));
      expect((await narrow.list()).map((t) => t.id)).toEqual(['a', 'b', 'c']);
      await narrow.put(contractTask('d', 'hi'));
      expect((await wide.list()).map((t) => t.id)).toEqual(['c', 'd']);
    });
  });

  describe(`refusals on ${driver}: a path that is not this store, left exactly as it was`, () => {
    const refusedUnchanged = (path: string, pattern: RegExp) => {
      const before = readFileSync(path);
      const result = openSqliteTaskStoreOn(path, { maxTasks: 10, maxBytes: 1e6 });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.message).toContain(path);
        expect(result.message).toMatch(pattern);
      }
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(readdirSync(join(path, '..')).filter((name) => /(-wal|-shm|\.creating)$/.test(name))).toEqual([]); // SQLite never opened it
      return result;
    };

    it('refuses a file that is not SQLite at all, and an empty one', () => {
      const dir = join(root, 'not-sqlite');
      mkdirSync(dir);
      writeFileSync(join(dir, 'notes.txt'), 'my precious notes\n'.repeat(50));
      refusedUnchanged(join(dir, 'notes.txt'), /not a SQLite database.*left untouched/);
      writeFileSync(join(dir, 'empty'), '');
      refusedUnchanged(join(dir, 'empty'), /not a SQLite database/);
    });

    it('refuses a SQLite database agentdef did not create, without opening it', () => {
      const dir = join(root, 'foreign');
      mkdirSync(dir);
      const path = join(dir, 'app.db');
      const db = Database(path);
      db.exec("CREATE TABLE agentdef_tasks (x TEXT); INSERT INTO agentdef_tasks VALUES ('theirs');");
      db.close();
      refusedUnchanged(path, /a SQLite database that is not an agentdef task store/);
      // The same application id but another schema version: refused too.
      const newer = join(dir, 'newer.db');
      const other = Database(newer);
      other.exec(`PRAGMA application_id = ${0x61647473}; PRAGMA user_version = 7`);
      other.close();
      refusedUnchanged(newer, /schema version 7/);
    });

    it('refuses a symlink, even to a real task store', () => {
      const dir = join(root, 'links');
      mkdirSync(dir);
      const real = join(dir, 'real.sqlite');
      open(real).close();
      symlinkSync(real, join(dir, 'link.sqlite'));
      refusedUnchanged(join(dir, 'link.sqlite'), /symbolic link/);
      symlinkSync(join(dir, 'nowhere.sqlite'), join(dir, 'dangling.sqlite'));
      const dangling = openSqliteTaskStoreOn(join(dir, 'dangling.sqlite'), { maxTasks: 10, maxBytes: 1e6 });
      expect(dangling).toMatchObject({ ok: false, message: expect.stringMatching(/symbolic link/) });
      expect(readdirSync(dir).sort()).toEqual(['dangling.sqlite', 'link.sqlite', 'real.sqlite']);
    });

    it('refuses a folder, and a place that cannot be written (under a file), creating nothing', () => {
      const dir = join(root, 'a-folder');
      mkdirSync(dir);
      expect(openSqliteTaskStoreOn(dir, { maxTasks: 10, maxBytes: 1e6 })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/not a regular file/),
      });
      expect(readdirSync(dir)).toEqual([]);
      const file = join(root, 'plain-file');
      writeFileSync(file, 'x');
      const under = openSqliteTaskStoreOn(join(file, 'sub', 'tasks.sqlite'), { maxTasks: 10, maxBytes: 1e6 });
      expect(under).toMatchObject({
        ok: false,
        message: expect.stringMatching(/cannot (be created|be read).*ENOTDIR/),
      });
      expect(readFileSync(file, 'utf8')).toBe('x');
    });

    it('refuses :memory:, URIs, NUL bytes and bad limits without throwing', () => {
      for (const path of ['', ':memory:', 'file:x.db?mode=memory', 'a\0b'])
        expect(openSqliteTaskStoreOn(path, { maxTasks: 1, maxBytes: 1 }).ok).toBe(false);
      expect(openSqliteTaskStoreOn(freshPath(), { maxTasks: -1, maxBytes: 1 }).ok).toBe(false);
      expect(openSqliteTaskStoreOn(freshPath(), { maxTasks: 1.5, maxBytes: 1 }).ok).toBe(false);
    });

    it('refuses a store made for another agent, naming both', async () => {
      const path = freshPath();
      open(path, undefined, 'text-stats');
      expect(openSqliteTaskStoreOn(path, { maxTasks: 10, maxBytes: 1e6 }, { owner: 'other-agent' })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/holds the tasks of text-stats, not other-agent/),
      });
      expect(openSqliteTaskStoreOn(path, { maxTasks: 10, maxBytes: 1e6 }, { owner: 'text-stats' }).ok).toBe(true);
    });

    it('the host configuration: unset keeps memory; a bad value is one line naming the variable, the file and what to do', async () => {
      expect(await taskStoreFromEnv({}, 'a', noSecrets, howToProvideSecret)).toEqual({});
      const notes = join(root, 'not-sqlite', 'notes.txt');
      const bad = await taskStoreFromEnv({ [TASK_STORE_ENV]: notes }, 'a', noSecrets, howToProvideSecret);
      expect(bad).toEqual({
        problem: expect.stringMatching(
          new RegExp(`^${TASK_STORE_ENV}: cannot use .*notes\\.txt as the task store: .*unset ${TASK_STORE_ENV}`),
        ),
      });
      expect((bad as { problem: string }).problem).not.toContain('\n');
      const relative = await taskStoreFromEnv(
        { [TASK_STORE_ENV]: 'rel/tasks.sqlite' },
        'a',
        noSecrets,
        howToProvideSecret,
        join(root, 'cwd'),
      );
      expect('store' in relative && relative.store !== undefined).toBe(true);
      (relative as { store: SqliteTaskStore }).store.close();
      expect(statSync(join(root, 'cwd', 'rel', 'tasks.sqlite')).isFile()).toBe(true);
    });
  });

  describe(`attacker view on ${driver}: odd task ids`, () => {
    it('stores and finds ids made of SQL metacharacters, huge ids and ids UTF-8 cannot hold, each apart', async () => {
      const store = open(freshPath(), { maxTasks: 100, maxBytes: 1e8 });
      const ids = [
        "'; DROP TABLE agentdef_tasks; --",
        '" OR 1=1 --',
        '%',
        '_',
        '\\',
        '?',
        '?1',
        ':id',
        '@id',
        '$id',
        'a\0b',
        '\uD800',
        '\uDFFF',
        '\uFFFD',
        'x'.repeat(200_000),
        '',
      ]; // prettier-ignore
      for (const id of ids)
        expect(
          await store.put({ ...contractTask(id, 'hi'), replyText: `answer of ${id.length}:${id.slice(0, 40)}` }),
          JSON.stringify(id.slice(0, 40)),
        ).toBe(true);
      for (const id of ids) expect((await store.get(id))?.replyText).toBe(`answer of ${id.length}:${id.slice(0, 40)}`);
      expect((await store.list()).map((t) => t.id)).toEqual(ids);
      expect(await store.get('x')).toBeUndefined();
      expect(await store.get('%%')).toBeUndefined();
      expect(await store.get(undefined as unknown as string)).toBeUndefined();
    });
  });
}
