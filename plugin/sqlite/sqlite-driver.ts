/**
 * The one SQLite port of agentdef's durable stores (the execution ledger, the Node hosts' task
 * store): a small synchronous interface, and the two drivers behind it, neither of which builds
 * native code on install.
 *
 * - `node:sqlite` (Node's own `DatabaseSync`, unflagged from Node 22.13 / 23.4; from 22.5 with
 *   `--experimental-sqlite`): preferred when this Node has it. Its ExperimentalWarning is not
 *   printed (it says nothing a user of agentdef can act on).
 * - `libsql` (npm, better-sqlite3-like; its native library ships prebuilt inside per-platform
 *   packages such as `@libsql/linux-x64-gnu`): used on older Nodes. An optional peer of the
 *   published package: a missing one is a typed answer naming what to install.
 *
 * What is the same whichever driver runs (sqlite-driver.test.ts holds every available driver to it):
 * - SQL takes named parameters `@name`, bound from an object with exactly those keys.
 * - Rows are plain objects; INTEGER is a number, BLOB a Uint8Array, NULL null.
 * - The busy wait is `PRAGMA busy_timeout` in milliseconds (libsql's `timeout` option is not used).
 * - `immediate(fn)` runs fn inside `BEGIN IMMEDIATE … COMMIT` and rolls back when fn or COMMIT throws.
 * - `immediateAsync(fn)` does the same around an async fn, awaiting it before COMMIT (a rejection
 *   rolls back). The transaction stays open across fn's awaits, so such steps on one file are
 *   queued in this process (every connection of this process to that file, one at a time): a second
 *   BEGIN IMMEDIATE on the same file would otherwise wait synchronously for a transaction that can
 *   only finish when this thread is free. Other processes wait for it as for any writer.
 * - Errors thrown carry `code`, SQLite's primary result code as a string (`SQLITE_BUSY`,
 *   `SQLITE_NOTADB`, …); `sqliteErrorCode` reads it from anything thrown.
 * - A file is always opened by its absolute path (never as a URL: libsql would reach a server
 *   for `http:`/`libsql:` names); `mustExist` opens it read-write without ever creating it.
 * - After `close()`, every call throws `SQLITE_MISUSE` (libsql keeps its handle until its
 *   statements are collected; this port does not let anyone use it meanwhile). Closing the last
 *   connection of a file leaves no `-wal`/`-shm` beside it, whichever driver.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export type SqliteDriverName = 'node:sqlite' | 'libsql';

/** Every driver, in the order they are preferred. */
export const SQLITE_DRIVERS: readonly SqliteDriverName[] = ['node:sqlite', 'libsql'];

/** The npm package (and version agentdef is tested with) of the driver for Nodes without `node:sqlite`. */
export const SQLITE_DRIVER_PACKAGE = 'libsql';
export const SQLITE_DRIVER_VERSION = '0.5.29';

export type SqlValue = string | number | bigint | Uint8Array | null;
export type SqlParams = Readonly<Record<string, SqlValue>>;
export type SqlRow = Record<string, unknown>;

export interface SqliteStatement {
  run(params?: SqlParams): { changes: number; lastInsertRowid: number };
  get(params?: SqlParams): SqlRow | undefined;
  all(params?: SqlParams): SqlRow[];
}

export interface SqliteDatabase {
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqliteStatement;
  /** Runs one or more statements separated by `;`. */
  exec(sql: string): void;
  immediate<T>(fn: () => T): T;
  /** `immediate` around an async fn, queued behind this process's other async steps on the same file. */
  immediateAsync<T>(fn: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface SqliteOpenOptions {
  /** How long a statement waits for another connection's lock, in milliseconds. */
  busyTimeoutMs: number;
  /** Open the file only if it exists (read-write; nothing is created). */
  mustExist?: boolean;
}

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /** Throws an error carrying `code` when SQLite cannot open the file. */
  open(file: string, options: SqliteOpenOptions): SqliteDatabase;
}

export type SqliteDriverLoad = { ok: true; driver: SqliteDriver } | { ok: false; message: string };

/** SQLite's primary result codes (the low byte of an extended code). */
// biome-ignore format: one row of codes
const PRIMARY_CODES = ['OK', 'ERROR', 'INTERNAL', 'PERM', 'ABORT', 'BUSY', 'LOCKED', 'NOMEM', 'READONLY', 'INTERRUPT', 'IOERR', 'CORRUPT', 'NOTFOUND', 'FULL', 'CANTOPEN', 'PROTOCOL', 'EMPTY', 'SCHEMA', 'TOOBIG', 'CONSTRAINT', 'MISMATCH', 'MISUSE', 'NOLFS', 'AUTH', 'FORMAT', 'RANGE', 'NOTADB', 'NOTICE', 'WARNING'] as const;

const codeName = (code: number): string | undefined => {
  const primary = PRIMARY_CODES[code & 0xff];
  return primary === undefined ? undefined : `SQLITE_${primary}`;
};

/**
 * The SQLite result code of anything thrown, as `SQLITE_<PRIMARY>`; a Node error code (`ENOENT`)
 * as it is; `unknown error` otherwise. Never reads a message into the answer.
 */
export function sqliteErrorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error';
  const { code, errcode, rawCode, message } = error as {
    code?: unknown;
    errcode?: unknown;
    rawCode?: unknown;
    message?: unknown;
  };
  for (const number of [errcode, rawCode]) {
    if (typeof number === 'number' && Number.isInteger(number)) return codeName(number) ?? 'unknown error';
  }
  if (typeof code === 'string' && /^SQLITE_[A-Z]+/.test(code)) return `SQLITE_${code.slice(7).split('_')[0]}`;
  // libsql reports a file it cannot open as `ConnectionFailed("… <path>: 14")`: the number is the code.
  if (typeof message === 'string' && message.startsWith('ConnectionFailed('))
    return codeName(Number(/: (\d+)"\)$/.exec(message)?.[1] ?? 14)) ?? 'SQLITE_CANTOPEN';
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return 'unknown error';
}

const sqliteError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

/** A thrown value as an error whose `code` is the normalised SQLite code. */
function normalised(error: unknown): unknown {
  const code = sqliteErrorCode(error);
  if (error instanceof Error) {
    try {
      Object.defineProperty(error, 'code', { value: code, configurable: true, enumerable: true, writable: true });
      return error;
    } catch {
      // a frozen error: wrapped below
    }
  }
  return sqliteError(code, 'SQLite failed');
}

function guarded<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return fn(...args);
    } catch (error) {
      throw normalised(error);
    }
  };
}

/** A row as a plain object: BLOBs as Uint8Array, libsql's `_metadata` dropped. */
function plainRow(row: unknown): SqlRow | undefined {
  if (row === undefined || row === null) return undefined;
  const out: SqlRow = {};
  for (const [name, value] of Object.entries(row as SqlRow)) {
    if (name === '_metadata') continue;
    // libsql answers a BLOB as a Buffer from get() and as an ArrayBuffer from all(): both become a Uint8Array.
    out[name] =
      value instanceof ArrayBuffer
        ? new Uint8Array(value.slice(0))
        : value instanceof Uint8Array
          ? new Uint8Array(value)
          : value;
  }
  return out;
}

/** What both drivers' native objects offer, as this port uses them. */
interface NativeStatement {
  run(params?: object): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(params?: object): unknown;
  all(params?: object): unknown[];
}
interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
}

/** The tail of each file's queue of async transactions in this process, by absolute path. */
const fileQueues = new Map<string, Promise<unknown>>();

/** Runs `fn` when every step queued before it on `file` has settled. */
function queuedOn<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const step = (fileQueues.get(file) ?? Promise.resolve()).then(fn);
  const tail = step.then(
    () => undefined,
    () => undefined,
  );
  fileQueues.set(file, tail);
  void tail.then(() => {
    if (fileQueues.get(file) === tail) fileQueues.delete(file);
  });
  return step;
}

/**
 * The port over a driver's connection to `file` (its absolute path); `bind` shapes the parameter
 * object the driver takes; `letGo` runs (errors ignored) before the native close.
 */
function port(
  driver: SqliteDriverName,
  file: string,
  native: NativeDatabase,
  bind: (params: SqlParams) => object,
  letGo?: () => void,
): SqliteDatabase {
  let open = true;
  const check = () => {
    if (!open) throw sqliteError('SQLITE_MISUSE', 'the database is closed');
  };
  const exec = guarded((sql: string) => {
    check();
    native.exec(sql);
  });
  return {
    driver,
    prepare: guarded((sql: string): SqliteStatement => {
      check();
      const statement = native.prepare(sql);
      const args = (params: SqlParams | undefined) => (params === undefined ? [] : [bind(params)]);
      return {
        run: guarded((params?: SqlParams) => {
          check();
          const result = statement.run(...args(params));
          return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
        }),
        get: guarded((params?: SqlParams) => {
          check();
          return plainRow(statement.get(...args(params)));
        }),
        all: guarded((params?: SqlParams) => {
          check();
          return statement.all(...args(params)).map((row) => plainRow(row)!);
        }),
      };
    }),
    exec,
    immediate<T>(fn: () => T): T {
      exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        exec('COMMIT');
        return result;
      } catch (error) {
        try {
          native.exec('ROLLBACK');
        } catch {
          // no transaction left to roll back (SQLite already did)
        }
        throw normalised(error);
      }
    },
    immediateAsync<T>(fn: () => Promise<T>): Promise<T> {
      return queuedOn(file, async () => {
        exec('BEGIN IMMEDIATE');
        try {
          const result = await fn();
          exec('COMMIT');
          return result;
        } catch (error) {
          try {
            native.exec('ROLLBACK');
          } catch {
            // no transaction left to roll back (SQLite already did, or the connection closed)
          }
          throw normalised(error);
        }
      });
    },
    close() {
      if (!open) return;
      open = false;
      try {
        letGo?.();
      } catch {
        // best effort
      }
      try {
        native.close();
      } catch {
        // already unusable: closed all the same
      }
    },
  };
}

/** The name SQLite opens: the absolute path, or a read-write URI of it that never creates. */
function location(file: string, mustExist: boolean | undefined): string {
  const path = resolve(file);
  return mustExist === true ? `${pathToFileURL(path).href}?mode=rw` : path;
}

function checkedTimeout(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw sqliteError('SQLITE_MISUSE', 'busyTimeoutMs must be a whole number of milliseconds');
  return ms;
}

type NodeSqlite = { DatabaseSync: new (location: string) => NativeDatabase };
type Libsql = new (location: string) => NativeDatabase;

const nodeSqliteDriver = (module: NodeSqlite): SqliteDriver => ({
  name: 'node:sqlite',
  open(file, options) {
    const timeout = checkedTimeout(options.busyTimeoutMs);
    let native: NativeDatabase;
    try {
      native = new module.DatabaseSync(location(file, options.mustExist));
    } catch (error) {
      throw normalised(error);
    }
    const db = port('node:sqlite', resolve(file), native, (params) =>
      Object.fromEntries(Object.entries(params).map(([name, value]) => [`@${name}`, value])),
    );
    try {
      db.exec(`PRAGMA busy_timeout = ${timeout}`);
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  },
});

const libsqlDriver = (Database: Libsql): SqliteDriver => ({
  name: 'libsql',
  open(file, options) {
    const timeout = checkedTimeout(options.busyTimeoutMs);
    let native: NativeDatabase;
    try {
      native = new Database(location(file, options.mustExist));
    } catch (error) {
      throw normalised(error);
    }
    // libsql's close() lets go of the file only when its statements are garbage-collected (0.5.29),
    // so a closing connection that is the file's last one checkpoints the WAL into the file and
    // removes it itself (the rollback journal until the next opening turns WAL on again); with
    // other connections open it changes nothing and does not wait.
    const db = port(
      'libsql',
      resolve(file),
      native,
      (params) => params,
      () => native.exec('PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE'),
    );
    try {
      db.exec(`PRAGMA busy_timeout = ${timeout}`);
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  },
});

/** `node:sqlite`, or undefined where this Node has none (or has it behind a flag that is off). */
function loadNodeSqlite(): NodeSqlite | undefined {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (typeof text === 'string' && text.startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // process.getBuiltinModule (Node 20.16+): answers undefined where the module is missing or flagged off.
    const builtin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite');
    return typeof (builtin as NodeSqlite | undefined)?.DatabaseSync === 'function'
      ? (builtin as NodeSqlite)
      : undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** `require(name)` through a variable, so bundlers leave it to run time; undefined when missing. */
function loadPackage(load: NodeJS.Require, name: string): unknown {
  try {
    return load(name);
  } catch {
    return undefined;
  }
}

/**
 * libsql, from where this module is (agentdef's own optional peer; in a compiled host, the folders
 * above its entry file), else from the working folder (the workspace).
 */
function loadLibsql(): Libsql | undefined {
  const places: NodeJS.Require[] = [require];
  try {
    places.push(createRequire(join(process.cwd(), 'agentdef-sqlite.js')));
  } catch {
    // no working folder: the first place only
  }
  for (const place of places) {
    const loaded = loadPackage(place, SQLITE_DRIVER_PACKAGE);
    if (typeof loaded === 'function') return loaded as Libsql;
  }
  return undefined;
}

const loaded = new Map<SqliteDriverName, SqliteDriver | null>();

function driverNamed(name: SqliteDriverName): SqliteDriver | undefined {
  if (!loaded.has(name)) {
    if (name === 'node:sqlite') {
      const module = loadNodeSqlite();
      loaded.set(name, module === undefined ? null : nodeSqliteDriver(module));
    } else {
      const Database = loadLibsql();
      loaded.set(name, Database === undefined ? null : libsqlDriver(Database));
    }
  }
  return loaded.get(name) ?? undefined;
}

/** The drivers this process can load, in the order they are preferred. */
export function availableSqliteDrivers(): SqliteDriverName[] {
  return SQLITE_DRIVERS.filter((name) => driverNamed(name) !== undefined);
}

/** What to install when no driver loads: one sentence, for every store's message. */
export const MISSING_DRIVER_ADVICE = `install the npm package ${SQLITE_DRIVER_PACKAGE} (npm install ${SQLITE_DRIVER_PACKAGE}@${SQLITE_DRIVER_VERSION}, where agentdef is installed or in the workspace), or run on Node 22.13 or later, which has node:sqlite`;

/**
 * The preferred driver this process can load (or exactly `only`, when given). Never throws: a
 * missing driver is an answer whose message says what to install.
 */
export function loadSqliteDriver(only?: SqliteDriverName): SqliteDriverLoad {
  if (only !== undefined && !SQLITE_DRIVERS.includes(only))
    return { ok: false, message: `unknown SQLite driver ${JSON.stringify(only)} (use ${SQLITE_DRIVERS.join(' or ')})` };
  for (const name of only === undefined ? SQLITE_DRIVERS : [only]) {
    const driver = driverNamed(name);
    if (driver !== undefined) return { ok: true, driver };
  }
  if (only === 'node:sqlite')
    return { ok: false, message: 'this Node has no node:sqlite (Node 22.13 or later has it)' };
  return { ok: false, message: `no SQLite driver is installed: ${MISSING_DRIVER_ADVICE}` };
}
