/**
 * The durable execution ledger: the rules of `execution-ledger.ts` over one SQLite table, through
 * agentdef's SQLite port (plugin/sqlite: `node:sqlite` where Node has it, else the optional peer
 * `libsql`; loaded only when a host selects this ledger). An execute
 * repeated with the same idempotency key after the process restarted, or from another process that
 * opens the same file, returns the recorded result instead of running again.
 *
 * - One STRICT table, `agentdef_execution_ledger_v1`, one row per idempotency key. The claim number is
 *   an AUTOINCREMENT row id, so it is never reused in the file (a reclaim deletes the row and inserts
 *   a new one); CHECK constraints keep states, modes and the dispatch marker consistent.
 * - WAL journal with `synchronous = FULL`: a committed claim, marker or result survives the process
 *   being killed at any instant (and a power loss). Every operation is one `BEGIN IMMEDIATE`
 *   transaction, so two processes can never both claim a key; a writer waits up to `busyTimeoutMs`
 *   for another, then the operation answers `storage` (never a guess). In one process, the steps
 *   on one file run one at a time (the port's `immediateAsync` queue).
 * - Opening checks before writing anything: a file that is not a SQLite database, or holds a table of
 *   that name with other columns, is refused and left as it was. The folder must exist; the file is
 *   created when missing. `:memory:` is refused (use the in-memory ledger instead).
 * - All processes sharing a file should use the same limits; each claim enforces its own.
 * Nothing here throws: failures are typed results, and messages carry SQLite's error code, not data.
 */
import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import type { ExecutionLedgerOptions, LedgerOpening, LedgerStore, NewLedgerRecord } from './execution-ledger';
import {
  createLedgerOverStore,
  LEDGER_COLUMNS,
  type LedgerRow,
  readLedgerOptions,
  recordOfRow,
} from './execution-ledger';
import { loadSqliteDriver, type SqliteDatabase, type SqliteDriverName, sqliteErrorCode } from '../sqlite/sqlite-driver';

export interface SqliteExecutionLedgerOptions extends ExecutionLedgerOptions {
  /** The database file (its folder must exist). */
  readonly file: string;
  /** How long a write waits for another process's transaction (ms). Default 5,000. */
  readonly busyTimeoutMs?: number;
  /** The SQLite driver; default: `node:sqlite` where this Node has it, else `libsql`. */
  readonly driver?: SqliteDriverName;
}

export const SQLITE_LEDGER_TABLE = 'agentdef_execution_ledger_v1';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${SQLITE_LEDGER_TABLE} (
  claim INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL UNIQUE,
  plan_digest TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('dry-run', 'live')),
  state TEXT NOT NULL CHECK (state IN ('running', 'dispatched', 'succeeded', 'failed', 'cancelled')),
  claimed_at REAL NOT NULL,
  lease_until REAL NOT NULL,
  dispatched_at REAL,
  finished_at REAL,
  result TEXT,
  CHECK ((state = 'dispatched') <= (dispatched_at IS NOT NULL)),
  CHECK ((state IN ('running', 'dispatched')) = (finished_at IS NULL AND result IS NULL))
) STRICT;
CREATE INDEX IF NOT EXISTS ${SQLITE_LEDGER_TABLE}_eviction ON ${SQLITE_LEDGER_TABLE} (COALESCE(finished_at, lease_until), claim) WHERE dispatched_at IS NULL;`;

/** Opens (creating when missing) the ledger in `options.file`. */
export function openSqliteExecutionLedger(options: SqliteExecutionLedgerOptions): LedgerOpening {
  const read = readLedgerOptions(options);
  if (!read.ok) return { ok: false, reason: 'invalid-options', message: read.message };
  let file: unknown;
  let busy: unknown;
  let driver: unknown;
  try {
    file = options.file;
    busy = options.busyTimeoutMs ?? 5000;
    driver = options.driver;
  } catch {
    return { ok: false, reason: 'invalid-options', message: 'the ledger options could not be read as plain data' };
  }
  if (
    typeof file !== 'string' ||
    file === '' ||
    file === ':memory:' ||
    file.startsWith('file:') ||
    file.includes('\0')
  ) {
    return {
      ok: false,
      reason: 'invalid-options',
      message: 'file must be the path of a database file (not empty, not :memory:, not a URI)',
    };
  }
  if (typeof busy !== 'number' || !Number.isSafeInteger(busy) || busy < 0 || busy > 600_000)
    return { ok: false, reason: 'invalid-options', message: 'busyTimeoutMs must be an integer from 0 to 600000' };
  if (driver !== undefined && driver !== 'node:sqlite' && driver !== 'libsql')
    return { ok: false, reason: 'invalid-options', message: 'driver must be node:sqlite or libsql' };
  const loaded = loadSqliteDriver(driver);
  if (!loaded.ok)
    return {
      ok: false,
      reason: 'driver-missing',
      message: `the durable execution ledger needs an SQLite driver: ${loaded.message}`,
    };
  // A ledger holds what each execute returned: a new one is the owner's alone (0600, as the task
  // store), and SQLite gives its -wal and -shm files the database file's mode. An existing file
  // is left as it is; one made here is removed again if it does not open.
  const created = createOwnerOnly(file);
  let db: SqliteDatabase | undefined;
  try {
    db = loaded.driver.open(file, { busyTimeoutMs: busy });
    const existing = db
      .prepare(`SELECT name FROM pragma_table_info('${SQLITE_LEDGER_TABLE}') ORDER BY cid`)
      .all()
      .map((row) => row['name']);
    if (existing.length > 0 && existing.join(',') !== LEDGER_COLUMNS.join(',')) {
      db.close();
      return {
        ok: false,
        reason: 'storage',
        message: `the database holds a ${SQLITE_LEDGER_TABLE} table with other columns; it is not an agentdef execution ledger`,
      };
    }
    if (db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'] !== 'wal')
      throw Object.assign(new Error('no WAL'), { code: 'SQLITE_CANTOPEN' });
    db.exec('PRAGMA synchronous = FULL');
    db.exec(CREATE_TABLE);
    const ledger = createLedgerOverStore('sqlite', sqliteStore(db), read.limits, read.now, describeSqliteError);
    return { ok: true, ledger };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    if (created) removeQuietly(file);
    return {
      ok: false,
      reason: 'storage',
      message: `the ledger database could not be opened: ${describeSqliteError(error)}`,
    };
  }
}

/** Creates `file` empty with mode 0600 unless something is there; whether it did. */
function createOwnerOnly(file: string): boolean {
  try {
    closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    return true;
  } catch {
    return false; // there already, or the folder is missing: the driver's open says which
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function describeSqliteError(error: unknown): string {
  return `SQLite ${sqliteErrorCode(error)} (the ledger database is busy, unreadable or not an execution ledger)`;
}

/** The bound values of a record's columns: exactly the names the statements use. */
function columnsOf(record: NewLedgerRecord) {
  const { key, planDigest, mode, state, claimedAt, leaseUntil, dispatchedAt, finishedAt, result } = record;
  return { key, planDigest, mode, state, claimedAt, leaseUntil, dispatchedAt, finishedAt, result };
}

function sqliteStore(db: SqliteDatabase): LedgerStore {
  const t = SQLITE_LEDGER_TABLE;
  const evictable = `dispatched_at IS NULL AND (state <> 'running' OR lease_until <= @now)`;
  const sql = {
    read: db.prepare(`SELECT * FROM ${t} WHERE key = @key`),
    count: db.prepare(`SELECT COUNT(*) AS n FROM ${t}`),
    insert: db.prepare(
      `INSERT INTO ${t} (key, plan_digest, mode, state, claimed_at, lease_until, dispatched_at, finished_at, result) VALUES (@key, @planDigest, @mode, @state, @claimedAt, @leaseUntil, @dispatchedAt, @finishedAt, @result)`,
    ),
    update: db.prepare(
      `UPDATE ${t} SET plan_digest = @planDigest, mode = @mode, state = @state, claimed_at = @claimedAt, lease_until = @leaseUntil, dispatched_at = @dispatchedAt, finished_at = @finishedAt, result = @result WHERE key = @key AND claim = @claim`,
    ),
    remove: db.prepare(`DELETE FROM ${t} WHERE key = @key`),
    purge: db.prepare(
      `DELETE FROM ${t} WHERE dispatched_at IS NULL AND COALESCE(finished_at, lease_until) + @ttl <= @now`,
    ),
    countEvictable: db.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE ${evictable}`),
    evict: db.prepare(
      `DELETE FROM ${t} WHERE claim IN (SELECT claim FROM ${t} WHERE ${evictable} ORDER BY COALESCE(finished_at, lease_until), claim LIMIT @n)`,
    ),
    list: db.prepare(`SELECT * FROM ${t} ORDER BY claim`),
  };
  return {
    read(key) {
      const row = sql.read.get({ key }) as LedgerRow | undefined;
      return row === undefined ? undefined : recordOfRow(row);
    },
    count: () => (sql.count.get() as { n: number }).n,
    insert(record: NewLedgerRecord) {
      const claim = sql.insert.run(columnsOf(record)).lastInsertRowid;
      return { ...record, claim };
    },
    update(record) {
      if (sql.update.run({ ...columnsOf(record), claim: record.claim }).changes !== 1)
        throw Object.assign(new Error('lost row'), { code: 'SQLITE_CONSTRAINT_LOST_ROW' });
    },
    remove(key) {
      sql.remove.run({ key });
    },
    purgeExpired(now, ttl) {
      sql.purge.run({ now, ttl });
    },
    countEvictable: (now) => (sql.countEvictable.get({ now }) as { n: number }).n,
    evictOldest(now, n) {
      sql.evict.run({ now, n });
    },
    list: () => (sql.list.all() as unknown as LedgerRow[]).map(recordOfRow),
    atomically: (fn) => db.immediateAsync(fn),
    close() {
      db.close();
    },
  };
}
