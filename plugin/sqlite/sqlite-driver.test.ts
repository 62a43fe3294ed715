/**
 * The SQLite port, held to one behaviour on every driver this Node can load (libsql everywhere, a
 * devDependency of the repository; `node:sqlite` too where Node has it, and then it must be in the
 * list): named parameters, value types (BLOB as Uint8Array from get and all), lastInsertRowid,
 * IMMEDIATE transactions that commit or roll back whole, the busy wait in milliseconds, WAL with
 * `synchronous = FULL`, error codes as `SQLITE_*` strings, `mustExist` never creating a file (paths
 * with URI metacharacters included), a name that looks like a URL opened as a local path, and a
 * closed connection that refuses every call and leaves no `-wal`/`-shm` behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  availableSqliteDrivers,
  loadSqliteDriver,
  type SqliteDatabase,
  type SqliteDriver,
  type SqliteDriverName,
  sqliteErrorCode,
} from './sqlite-driver';

const root = mkdtempSync(join(tmpdir(), 'agentdef-sqlite-driver-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  return dir;
};

/** Whether this Node offers node:sqlite: unflagged from 22.13 and 23.4, behind --experimental-sqlite from 22.5. */
function nodeHasSqlite(version: string, flags: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (/--no-experimental-sqlite\b/.test(flags)) return false;
  const unflagged = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
  const flagged = (major === 22 && minor >= 5) || major === 23;
  return unflagged || (flagged && /--experimental-sqlite\b/.test(flags));
}

describe('the drivers this Node can load', () => {
  it('are libsql everywhere, and node:sqlite first wherever this Node has it', () => {
    const expected: SqliteDriverName[] = nodeHasSqlite(
      process.versions.node,
      `${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`,
    )
      ? ['node:sqlite', 'libsql']
      : ['libsql'];
    expect(availableSqliteDrivers()).toEqual(expected);
    const preferred = loadSqliteDriver();
    expect(preferred.ok && preferred.driver.name).toBe(expected[0]);
  });

  it('answers an unknown or absent driver with a message, never a throw', () => {
    expect(loadSqliteDriver('better-sqlite3' as SqliteDriverName)).toEqual({
      ok: false,
      message: expect.stringContaining('unknown SQLite driver "better-sqlite3"'),
    });
    if (!availableSqliteDrivers().includes('node:sqlite'))
      expect(loadSqliteDriver('node:sqlite')).toEqual({ ok: false, message: expect.stringContaining('Node 22.13') });
    else expect(loadSqliteDriver('node:sqlite').ok).toBe(true);
  });
});

describe.each(availableSqliteDrivers())('the %s driver', (name) => {
  const loaded = loadSqliteDriver(name);
  if (!loaded.ok) throw new Error(loaded.message);
  const driver: SqliteDriver = loaded.driver;
  const opened: SqliteDatabase[] = [];
  const open = (file: string, busyTimeoutMs = 0, mustExist = false) => {
    const db = driver.open(file, { busyTimeoutMs, mustExist });
    opened.push(db);
    return db;
  };
  afterAll(() => {
    for (const db of opened) db.close();
  });
  const thrown = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  };

  it('binds named parameters and answers plain rows: numbers, text, null, BLOBs as Uint8Array from get and all', () => {
    const db = open(join(freshDir(), 'types.sqlite'));
    expect(db.driver).toBe(name);
    db.exec(
      'CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL UNIQUE, n INTEGER, r REAL, b BLOB, a ANY) STRICT; CREATE TABLE u (x TEXT) STRICT',
    );
    const insert = db.prepare('INSERT INTO t (k, n, r, b, a) VALUES (@k, @n, @r, @b, @a)');
    expect(insert.run({ k: 'one', n: 42, r: 1.5, b: new Uint8Array([0, 1, 255]), a: new Uint8Array([7]) })).toEqual({
      changes: 1,
      lastInsertRowid: 1,
    });
    expect(insert.run({ k: "'; DROP TABLE t; --", n: null, r: null, b: null, a: 'text' })).toEqual({
      changes: 1,
      lastInsertRowid: 2,
    });
    const one = db.prepare('SELECT * FROM t WHERE k = @k').get({ k: 'one' });
    expect(one).toEqual({ id: 1, k: 'one', n: 42, r: 1.5, b: new Uint8Array([0, 1, 255]), a: new Uint8Array([7]) });
    expect(Object.keys(one!)).toEqual(['id', 'k', 'n', 'r', 'b', 'a']);
    const all = db.prepare('SELECT * FROM t ORDER BY id').all();
    expect(all).toEqual([one, { id: 2, k: "'; DROP TABLE t; --", n: null, r: null, b: null, a: 'text' }]);
    expect(all[0]!['b']).toBeInstanceOf(Uint8Array);
    expect(db.prepare('SELECT k FROM t WHERE k = @k').get({ k: 'none' })).toBeUndefined();
    expect(db.prepare('SELECT k FROM t ORDER BY id LIMIT @n').all({ n: 1 })).toEqual([{ k: 'one' }]);
    expect(db.prepare('DELETE FROM t WHERE id > @id').run({ id: 5 })).toEqual({ changes: 0, lastInsertRowid: 2 });
  });

  it('runs IMMEDIATE transactions whole: committed together, or rolled back together with the error passed on', () => {
    const db = open(join(freshDir(), 'tx.sqlite'));
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY) STRICT');
    const insert = db.prepare('INSERT INTO t (k) VALUES (@k)');
    expect(db.immediate(() => (insert.run({ k: 'a' }), insert.run({ k: 'b' }), 'done'))).toBe('done');
    const error = thrown(() =>
      db.immediate(() => {
        insert.run({ k: 'c' });
        insert.run({ k: 'a' }); // a duplicate: the whole transaction goes
      }),
    );
    expect(sqliteErrorCode(error)).toBe('SQLITE_CONSTRAINT');
    expect((error as { code: string }).code).toBe('SQLITE_CONSTRAINT');
    expect(() =>
      db.immediate(
        () =>
          insert.run({ k: 'd' }) &&
          (() => {
            throw new Error('mine');
          })(),
      ),
    ).toThrow('mine'); // prettier-ignore
    expect(db.prepare('SELECT k FROM t ORDER BY k').all()).toEqual([{ k: 'a' }, { k: 'b' }]);
    expect(db.immediate(() => insert.run({ k: 'e' }).changes)).toBe(1); // usable after both rollbacks
  });

  it('runs async IMMEDIATE transactions whole across awaits, one at a time per file in this process', async () => {
    const file = join(freshDir(), 'async.sqlite');
    const db = open(file);
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL) STRICT');
    const other = open(file, 0); // a second connection to the same file, impatient: it must never wait
    const insert = (on: SqliteDatabase, k: string, n: number) =>
      on.prepare('INSERT INTO t (k, n) VALUES (@k, @n)').run({ k, n });
    const read = (on: SqliteDatabase) => on.prepare('SELECT k, n FROM t ORDER BY k').all();
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Each step reads the count, yields to the event loop, then inserts the next number: interleaved
    // steps would read the same count and insert the same number twice.
    const step = (on: SqliteDatabase, k: string) =>
      on.immediateAsync(async () => {
        const n = (on.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
        await tick();
        insert(on, k, n);
        await tick();
        return n;
      });
    const ns = await Promise.all(['a', 'b', 'c', 'd'].map((k, i) => step(i % 2 === 0 ? db : other, k)));
    expect(ns).toEqual([0, 1, 2, 3]);
    // A rejection rolls back what the step did, passes the error on, and the queue goes on.
    const failing = db.immediateAsync(async () => {
      insert(db, 'e', 9);
      await tick();
      throw new Error('mine');
    });
    const after = other.immediateAsync(async () => read(other).length);
    await expect(failing).rejects.toThrow('mine');
    expect(await after).toBe(4);
    const duplicate = await db
      .immediateAsync(async () => {
        insert(db, 'f', 5);
        await tick();
        insert(db, 'a', 5);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(sqliteErrorCode(duplicate)).toBe('SQLITE_CONSTRAINT');
    expect(read(db)).toEqual([
      { k: 'a', n: 0 },
      { k: 'b', n: 1 },
      { k: 'c', n: 2 },
      { k: 'd', n: 3 },
    ]);
    expect(await db.immediateAsync(async () => insert(db, 'g', 4).changes)).toBe(1); // usable after both rollbacks
  });

  it('waits busyTimeoutMs (milliseconds) for another writer, then answers SQLITE_BUSY; a long wait gets the lock', () => {
    const file = join(freshDir(), 'busy.sqlite');
    const holder = open(file);
    holder.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER) STRICT');
    holder.exec('BEGIN IMMEDIATE');
    const waiter = open(file, 400);
    const started = Date.now();
    const error = thrown(() => waiter.exec('BEGIN IMMEDIATE'));
    const waited = Date.now() - started;
    expect(sqliteErrorCode(error)).toBe('SQLITE_BUSY');
    expect(waited).toBeGreaterThanOrEqual(350); // it waited: a timeout read as seconds would wait minutes, as 0 not at all
    const impatient = open(file, 0);
    expect(sqliteErrorCode(thrown(() => impatient.immediate(() => 1)))).toBe('SQLITE_BUSY');
    holder.exec('COMMIT');
    expect(waiter.immediate(() => waiter.prepare('INSERT INTO t (x) VALUES (@x)').run({ x: 1 }).changes)).toBe(1);
  });

  it('turns on WAL with synchronous = FULL, and a committed write is in the file for a new connection', () => {
    const file = join(freshDir(), 'wal.sqlite');
    const db = open(file);
    expect(db.prepare('PRAGMA journal_mode = WAL').get()).toEqual({ journal_mode: 'wal' });
    db.exec('PRAGMA synchronous = FULL');
    expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 });
    db.exec('CREATE TABLE t (x TEXT) STRICT');
    db.immediate(() => db.prepare('INSERT INTO t (x) VALUES (@x)').run({ x: 'kept' }));
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([2, 2]); // the header says WAL while it is open
    expect(open(file).prepare('SELECT x FROM t').all()).toEqual([{ x: 'kept' }]);
  });

  it('names SQLite failures by code: not a database, a folder, a missing folder, bad SQL, a bad value', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'notes.txt'), 'my notes, not a database\n'.repeat(40));
    expect(
      sqliteErrorCode(thrown(() => open(join(dir, 'notes.txt')).prepare('SELECT * FROM sqlite_master').all())),
    ).toBe('SQLITE_NOTADB');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('my notes, not a database\n'.repeat(40));
    expect(sqliteErrorCode(thrown(() => open(dir).prepare('SELECT * FROM sqlite_master').all()))).toBe(
      'SQLITE_CANTOPEN',
    );
    expect(sqliteErrorCode(thrown(() => open(join(dir, 'missing', 'x.sqlite'))))).toBe('SQLITE_CANTOPEN');
    expect(existsSync(join(dir, 'missing'))).toBe(false);
    const db = open(join(dir, 'ok.sqlite'));
    expect(sqliteErrorCode(thrown(() => db.exec('SELEC 1')))).toBe('SQLITE_ERROR');
    db.exec('CREATE TABLE t (n INTEGER) STRICT');
    expect(sqliteErrorCode(thrown(() => db.prepare('INSERT INTO t (n) VALUES (@n)').run({ n: 'not a number' })))).toBe(
      'SQLITE_CONSTRAINT',
    );
    expect(sqliteErrorCode(undefined)).toBe('unknown error');
    expect(sqliteErrorCode({ code: 'ENOENT' })).toBe('ENOENT');
  });

  it('with mustExist opens an existing file read-write and never creates one, whatever its name holds', () => {
    const dir = freshDir();
    for (const base of ['plain.sqlite', 'what?mode=ro#x.sqlite', '100% sure &amp; ünïcode.sqlite']) {
      const file = join(dir, base);
      expect(sqliteErrorCode(thrown(() => open(file, 0, true)))).toBe('SQLITE_CANTOPEN');
      expect(readdirSync(dir)).toEqual([]);
      writeFileSync(file, '');
      const db = open(file, 0, true);
      db.exec('CREATE TABLE t (x TEXT) STRICT');
      db.prepare('INSERT INTO t (x) VALUES (@x)').run({ x: base });
      db.close();
      expect(readdirSync(dir)).toEqual([base]);
      expect(open(file, 0, true).prepare('SELECT x FROM t').get()).toEqual({ x: base });
      rmSync(file);
    }
  });

  it('opens a name that looks like a URL as a local path (libsql would reach a server for http: or libsql:)', () => {
    for (const url of ['http://127.0.0.1:9/db', 'libsql://127.0.0.1:9/db', 'https://127.0.0.1:9/db']) {
      expect(sqliteErrorCode(thrown(() => open(url)))).toBe('SQLITE_CANTOPEN'); // ./http:/127.0.0.1:9/ does not exist
    }
  });

  it('after close refuses every call with SQLITE_MISUSE, and the last connection leaves no -wal or -shm', () => {
    const dir = freshDir();
    const file = join(dir, 'closed.sqlite');
    const db = open(file);
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x TEXT) STRICT');
    const insert = db.prepare('INSERT INTO t (x) VALUES (@x)');
    insert.run({ x: 'before close' });
    expect(readdirSync(dir).sort()).toEqual(['closed.sqlite', 'closed.sqlite-shm', 'closed.sqlite-wal']);
    db.close();
    db.close(); // twice is fine
    for (const call of [
      () => insert.run({ x: 'after' }),
      () => db.prepare('SELECT 1'),
      () => db.exec('SELECT 1'),
      () => db.immediate(() => 1),
    ]) {
      expect(sqliteErrorCode(thrown(call))).toBe('SQLITE_MISUSE');
    }
    expect(readdirSync(dir)).toEqual(['closed.sqlite']);
    // A connection that closes while another is open changes nothing for the other.
    const first = open(file);
    const second = open(file);
    first.prepare('INSERT INTO t (x) VALUES (@x)').run({ x: 'from first' });
    first.close();
    expect(second.prepare('SELECT x FROM t ORDER BY rowid').all()).toEqual([
      { x: 'before close' },
      { x: 'from first' },
    ]);
    second.immediate(() => second.prepare('INSERT INTO t (x) VALUES (@x)').run({ x: 'from second' }));
    second.close();
    expect(open(file).prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 3 });
  });
});
