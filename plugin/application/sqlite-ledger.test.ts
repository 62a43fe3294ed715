/**
 * The SQLite ledger's own promises, beyond the shared table of execution-ledger.test.ts: entries and
 * claim numbers survive closing and reopening the file; opening refuses bad options, a missing
 * folder, a file that is not a database and a foreign table of the same name, and leaves each as it
 * was; a tampered row or a database locked by another writer answers `storage` instead of throwing.
 * Each on every SQLite driver this Node can load (plugin/sqlite).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeClock, ledgerFolder, live } from './__test-support__/ledgers';
import type { ExecutionLedger } from './execution-ledger';
import { openSqliteExecutionLedger, SQLITE_LEDGER_TABLE } from './sqlite-ledger';
import {
  availableSqliteDrivers,
  loadSqliteDriver,
  type SqliteDatabase,
  type SqliteDriverName,
} from '../sqlite/sqlite-driver';

describe.each(availableSqliteDrivers())('the SQLite execution ledger on %s', (driver: SqliteDriverName) => {
  const folder = ledgerFolder();
  afterAll(() => folder.dispose());
  function open(file: string, now = fakeClock().now, extra: Record<string, unknown> = {}): ExecutionLedger {
    const opened = openSqliteExecutionLedger({ file, now, leaseMs: 1000, driver, ...extra });
    if (!opened.ok) throw new Error(opened.message);
    return opened.ledger;
  }
  /** A plain connection of the same driver: another writer, or someone tampering with the file. */
  function connect(file: string): SqliteDatabase {
    const loaded = loadSqliteDriver(driver);
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.driver.open(file, { busyTimeoutMs: 0 });
  }

  it('keeps entries, results and the claim counter across close and reopen', async () => {
    const file = folder.file('reopen');
    const clock = fakeClock();
    const first = open(file, clock.now);
    const a = await first.claim('done', live());
    const b = await first.claim('dispatched', live());
    if (a.kind !== 'claimed' || b.kind !== 'claimed') throw new Error('no claim');
    expect((await first.finish('done', a.claim, { status: 'succeeded', result: { rows: [1, 2] } })).ok).toBe(true);
    expect((await first.markDispatched('dispatched', b.claim)).ok).toBe(true);
    expect((await first.release('done')).ok).toBe(true); // the highest claim number is now 2, the row of 1 is gone
    const c = await first.claim('done', live());
    if (c.kind !== 'claimed') throw new Error('no claim');
    expect((await first.finish('done', c.claim, { status: 'failed', result: 'recorded' })).ok).toBe(true);
    await first.close();

    const second = open(file, clock.now);
    const replay = await second.claim('done', live());
    expect(replay).toMatchObject({
      kind: 'replay',
      result: 'recorded',
      entry: { claim: 3, state: 'failed', reconciliationRequired: false },
    });
    expect(await second.claim('dispatched', live())).toMatchObject({
      kind: 'in-progress',
      entry: { state: 'dispatched', protected: true },
    });
    clock.advance(1000);
    expect((await second.claim('dispatched', live())).kind).toBe('reconciliation-required');
    expect((await second.release('dispatched')).ok).toBe(true); // the row with the highest number so far (2) is gone too
    await second.close();
    const third = open(file, clock.now);
    expect(await third.claim('new', live())).toMatchObject({ kind: 'claimed', claim: 4 }); // never reused
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([2, 2]); // the header's read and write versions: WAL mode while in use
    await third.close();
  });

  it('reopened with a smaller bound, a claim evicts every evictable entry beyond it, oldest first, and keeps protected ones', async () => {
    const file = folder.file('shrink');
    const clock = fakeClock();
    const wide = open(file, clock.now, { maxEntries: 10 });
    for (const key of ['p', 'a', 'b', 'c', 'd']) {
      clock.advance(1);
      const c = await wide.claim(key, live());
      if (c.kind !== 'claimed') throw new Error('no claim');
      if (key === 'p') expect((await wide.markDispatched(key, c.claim)).ok).toBe(true);
      expect((await wide.finish(key, c.claim, { status: 'succeeded', result: key })).ok).toBe(true);
    }
    await wide.close();
    const narrow = open(file, clock.now, { maxEntries: 2 });
    expect((await narrow.claim('new', live())).kind).toBe('claimed');
    const snap = await narrow.snapshot();
    expect(snap.ok && snap.entries.map((entry) => entry.key)).toEqual(['new', 'p']);
    const tiny = open(file, clock.now, { maxEntries: 1 });
    expect((await tiny.claim('newer', live())).kind).toBe('full'); // 'new' is running, 'p' protected
    await narrow.close();
    await tiny.close();
  });

  it('refuses bad options before touching the disk', () => {
    const file = join(folder.dir, 'never-created.sqlite');
    const bad: Record<string, unknown>[] = [
      { file: '' },
      { file: ':memory:' },
      { file: 'file:ledger.sqlite?mode=memory' },
      { file: 42 },
      { file: 'a\0b' },
      { file, busyTimeoutMs: -1 },
      { file, busyTimeoutMs: 1.5 },
      { file, maxEntries: 0 },
      { file, leaseMs: 'soon' },
    ];
    for (const options of [...bad, { file, driver: 'better-sqlite3' }])
      expect(openSqliteExecutionLedger({ driver, ...options } as never)).toMatchObject({
        ok: false,
        reason: 'invalid-options',
      });
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a missing folder, a file that is not a database and a foreign table, leaving each as it was', () => {
    const missing = join(folder.dir, 'no-such-folder', 'ledger.sqlite');
    expect(openSqliteExecutionLedger({ file: missing, driver })).toMatchObject({ ok: false, reason: 'storage' });
    expect(existsSync(join(folder.dir, 'no-such-folder'))).toBe(false);

    const text = join(folder.dir, 'notes.txt');
    const contents = 'not a database, just notes\n'.repeat(200);
    writeFileSync(text, contents);
    expect(openSqliteExecutionLedger({ file: text, driver })).toEqual({
      ok: false,
      reason: 'storage',
      message: expect.stringContaining('SQLITE_NOTADB'),
    });
    expect(readFileSync(text, 'utf8')).toBe(contents);
    expect(existsSync(`${text}-wal`) || existsSync(`${text}-shm`)).toBe(false);

    const foreign = join(folder.dir, 'foreign.sqlite');
    const db = connect(foreign);
    db.exec(
      `CREATE TABLE ${SQLITE_LEDGER_TABLE} (key TEXT, value TEXT); INSERT INTO ${SQLITE_LEDGER_TABLE} VALUES ('k', 'v');`,
    );
    db.close();
    const before = readFileSync(foreign);
    expect(openSqliteExecutionLedger({ file: foreign, driver })).toEqual({
      ok: false,
      reason: 'storage',
      message: expect.stringContaining('other columns'),
    });
    expect(readFileSync(foreign).equals(before)).toBe(true);
  });

  it('a tampered row answers storage, never throws, and leaves other keys usable', async () => {
    const file = folder.file('tampered');
    const ledger = open(file);
    for (const key of ['bad', 'good']) {
      const c = await ledger.claim(key, live());
      if (c.kind !== 'claimed') throw new Error('no claim');
      expect((await ledger.finish(key, c.claim, { status: 'succeeded', result: key })).ok).toBe(true);
    }
    const db = connect(file);
    db.prepare(`UPDATE ${SQLITE_LEDGER_TABLE} SET result = @result WHERE key = @key`).run({
      result: '{not json',
      key: 'bad',
    });
    expect(() => db.prepare(`UPDATE ${SQLITE_LEDGER_TABLE} SET state = 'weird' WHERE key = 'good'`).run()).toThrow(
      /CHECK/,
    );
    expect(() => db.prepare(`UPDATE ${SQLITE_LEDGER_TABLE} SET state = 'running' WHERE key = 'good'`).run()).toThrow(
      /CHECK/,
    ); // a result on an open run
    db.close();
    expect(await ledger.get('bad')).toMatchObject({ ok: false, reason: 'storage' });
    expect(await ledger.claim('bad', live())).toMatchObject({ kind: 'rejected', reason: 'storage' });
    const good = await ledger.claim('good', live());
    expect(good.kind === 'replay' && good.result).toBe('good');
    await ledger.close();
  });

  it('waits for another writer, then answers storage (busy) instead of guessing or throwing', async () => {
    const file = folder.file('busy');
    const ledger = open(file, undefined, { busyTimeoutMs: 50 });
    expect((await ledger.claim('first', live())).kind).toBe('claimed');
    const other = connect(file);
    other.exec('BEGIN IMMEDIATE');
    expect(await ledger.claim('second', live())).toEqual({
      kind: 'rejected',
      reason: 'storage',
      message: expect.stringContaining('SQLITE_BUSY'),
    });
    other.exec('ROLLBACK');
    other.close();
    expect((await ledger.claim('second', live())).kind).toBe('claimed');
    await ledger.close();
  });

  it('creates the file when missing, in a folder that exists', async () => {
    const dir = join(folder.dir, 'fresh');
    mkdirSync(dir);
    const ledger = open(join(dir, 'ledger.sqlite'));
    expect((await ledger.claim('k', live())).kind).toBe('claimed');
    await ledger.close();
    expect(existsSync(join(dir, 'ledger.sqlite'))).toBe(true);
  });

  it("creates a new ledger for its owner alone (0600, its WAL too; it was 0644) and leaves an existing file's mode as it was", async () => {
    const dir = join(folder.dir, 'owner-only');
    mkdirSync(dir);
    const file = join(dir, 'ledger.sqlite');
    const ledger = open(file);
    expect((await ledger.claim('k', live())).kind).toBe('claimed');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The ledger runs in WAL mode (it refuses to open otherwise): the -wal file is there while it is open.
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    await ledger.close();
    const shared = join(dir, 'shared.sqlite');
    connect(shared).close();
    chmodSync(shared, 0o640);
    await open(shared).close();
    expect(statSync(shared).mode & 0o777).toBe(0o640);
  });

  it('removes the file it made when the database then does not open, and leaves one it did not make', () => {
    const dir = join(folder.dir, 'no-wal');
    mkdirSync(dir);
    const file = join(dir, 'ledger.sqlite');
    // A folder where the write-ahead log must go: SQLite cannot open the ledger in WAL mode.
    mkdirSync(`${file}-wal`);
    expect(openSqliteExecutionLedger({ file, driver })).toMatchObject({ ok: false, reason: 'storage' });
    expect(existsSync(file)).toBe(false);
    const existing = join(dir, 'existing.sqlite');
    connect(existing).close();
    mkdirSync(`${existing}-wal`);
    const before = readFileSync(existing);
    expect(openSqliteExecutionLedger({ file: existing, driver })).toMatchObject({ ok: false, reason: 'storage' });
    expect(readFileSync(existing).equals(before)).toBe(true);
  });
});
