/**
 * The Node hosts' durable task store: the `TaskStore` contract (runtime/task-store.ts) over one
 * SQLite file through agentdef's SQLite port (plugin/sqlite: `node:sqlite` where Node has it, else
 * the optional peer `libsql`; loaded only when a host is configured with a file), so tasks and
 * ListTasks page tokens survive a restart, and several host processes may share one file (`shared: true`).
 *
 * - Sizes and what is kept follow the in-memory store exactly (`taskTextWithin`, `sizeOfTaskText`);
 *   the oldest put is evicted first, by count and by bytes; a version that cannot be kept removes
 *   the task's kept version unless that one is terminal. Every put (or such a removal) is one
 *   `BEGIN IMMEDIATE` transaction: a terminal task is final whichever process wrote it. WAL
 *   journal, `synchronous = FULL`: a committed put or removal survives the process being killed at
 *   any instant. SQL takes bound parameters only; a task id is kept as its JSON text, so distinct
 *   ids stay distinct keys (even ones SQLite's UTF-8 could not hold, such as lone surrogates).
 * - Never adopts a file agentdef did not create. A new store is made whole in a temporary file
 *   beside the target (owner-only, 0600), then linked into place (never over an existing file);
 *   its folder is created owner-only (0700) when missing. An existing path must be a regular file
 *   (not a symlink, not a folder) whose SQLite header carries this store's application id and
 *   schema version, checked by reading its first 100 bytes before SQLite opens it (read-write,
 *   never creating it): anything else is refused with a message that says which file, why, and
 *   what to do, and is left as it was.
 * - Opening answers a typed result, never a throw; once open, a storage failure (disk full, a lock
 *   held past the busy timeout) makes `put` answer false, `get` nothing and `list` nothing.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { TaskView } from '../../runtime/a2a-wire';
import {
  isTerminalTask,
  sizeOfTaskText,
  taskTextWithin,
  type TaskStore,
  type TaskStoreLimits,
} from '../../runtime/task-store';
import { SQLITE_TASK_STORE_PACKAGE, TASK_STORE_BUILD_ARG } from '../../host-contract/container-contract';
import {
  loadSqliteDriver,
  type SqliteDatabase,
  type SqliteDriver,
  type SqliteDriverName,
  sqliteErrorCode,
} from '../../sqlite/sqlite-driver';

/** SQLite's `application_id` of a task store file ("adts"). */
export const TASK_STORE_APPLICATION_ID = 0x61647473;
/** The schema version (`user_version`) this code reads and writes. */
export const TASK_STORE_SCHEMA_VERSION = 1;
const TASKS = 'agentdef_tasks';
const META = 'agentdef_task_store_meta';
const SQLITE_MAGIC = 'SQLite format 3\0';

const SCHEMA = `
CREATE TABLE ${META} (name TEXT PRIMARY KEY, value ANY NOT NULL) STRICT;
CREATE TABLE ${TASKS} (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  terminal INTEGER NOT NULL CHECK (terminal IN (0, 1)),
  bytes INTEGER NOT NULL CHECK (bytes >= 0),
  text TEXT NOT NULL
) STRICT;`;

export interface SqliteTaskStore extends TaskStore {
  readonly shared: true;
  pageTokenKey(): Promise<Uint8Array>;
  /** Closes the file (later calls answer as a storage failure would). */
  close(): void;
}

export interface SqliteTaskStoreOptions {
  /** Whose tasks these are (the agent): a file made for another owner is refused. */
  owner?: string;
  /** How long a write waits for another process's transaction (ms). Default 5,000. */
  busyTimeoutMs?: number;
  /** The SQLite driver; default: `node:sqlite` where this Node has it, else `libsql`. */
  driver?: SqliteDriverName;
}

export type SqliteTaskStoreOpening = { ok: true; store: SqliteTaskStore } | { ok: false; message: string };

const codeOf = sqliteErrorCode;

/** Opens the task store in `file`, creating it (and its folder) when missing. */
export function openSqliteTaskStore(
  file: string,
  limits: TaskStoreLimits,
  options: SqliteTaskStoreOptions = {},
): SqliteTaskStoreOpening {
  if (
    typeof file !== 'string' ||
    file === '' ||
    file === ':memory:' ||
    file.startsWith('file:') ||
    file.includes('\0')
  ) {
    return { ok: false, message: 'the task store must be the path of a file (not empty, not :memory:, not a URI)' };
  }
  const path = resolve(file);
  const refuse = (why: string, todo: string): SqliteTaskStoreOpening => ({
    ok: false,
    message: `cannot use ${path} as the task store: ${why}; ${todo}`,
  });
  if (!validLimits(limits))
    return refuse(
      'the limits must be whole numbers of tasks and bytes',
      'pass maxTasks and maxBytes as integers of 0 or more',
    );
  const busy = options.busyTimeoutMs ?? 5000;
  if (!Number.isSafeInteger(busy) || busy < 0 || busy > 600_000)
    return refuse('busyTimeoutMs must be an integer from 0 to 600000', 'pass a smaller wait');
  const loaded = loadSqliteDriver(options.driver);
  if (!loaded.ok) {
    return refuse(
      options.driver === undefined
        ? 'it needs SQLite, and this Node has no node:sqlite while no libsql is installed where the host runs'
        : `it needs SQLite (${loaded.message})`,
      `install ${SQLITE_TASK_STORE_PACKAGE} next to the host (an HB3 image: build it with --build-arg ${TASK_STORE_BUILD_ARG}=sqlite), run the host on Node 22.13 or later (node:sqlite), or leave the task store unset to keep tasks in memory`,
    );
  }
  const Sqlite = loaded.driver;
  let found = inspect(path);
  if (found.kind === 'missing') {
    const made = createStoreFile(Sqlite, path, options.owner, busy);
    if (made !== undefined && made !== 'exists') return refuse(made, 'name a path in a folder this user may write');
    found = inspect(path); // made here, or by another process meanwhile: checked the same way
  }
  if (found.kind === 'symlink')
    return refuse(
      'it is a symbolic link, and agentdef never follows one to a file it did not create',
      'name the real file, or a new path',
    );
  if (found.kind === 'other')
    return refuse('it is not a regular file (a folder?)', 'name a file inside it instead, e.g. tasks.sqlite');
  if (found.kind === 'unreadable')
    return refuse(`it cannot be read (${found.code})`, 'check its permissions, or name another path');
  if (found.kind === 'missing') return refuse('it vanished while it was being created', 'start again');
  const problem = headerProblem(found.header);
  if (problem !== undefined)
    return refuse(
      problem,
      'it was left untouched: name a new path (agentdef creates the file), or delete the file yourself if it is an old task store',
    );
  let db: SqliteDatabase | undefined;
  try {
    db = Sqlite.open(path, { busyTimeoutMs: busy, mustExist: true });
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (@tasks, @meta)`)
      .all({ tasks: TASKS, meta: META }).length;
    const key = (
      db.prepare(`SELECT value FROM ${META} WHERE name = 'page-token-key'`).get() as { value: unknown } | undefined
    )?.value;
    if (tables !== 2 || !(key instanceof Uint8Array) || key.byteLength !== 32) {
      db.close();
      return refuse(
        'it carries the task store header but not its tables or page-token key (damaged)',
        'name a new path',
      );
    }
    const owner = (db.prepare(`SELECT value FROM ${META} WHERE name = 'owner'`).get() as { value: unknown } | undefined)
      ?.value;
    if (options.owner !== undefined && typeof owner === 'string' && owner !== options.owner) {
      db.close();
      return refuse(`it holds the tasks of ${owner}, not ${options.owner}`, 'give each agent its own task store file');
    }
    if (db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'] !== 'wal')
      throw Object.assign(new Error('no WAL'), { code: 'SQLITE_CANTOPEN' });
    db.exec('PRAGMA synchronous = FULL');
    return { ok: true, store: storeOver(db, limits, new Uint8Array(key)) };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    return refuse(
      `SQLite could not open it (${codeOf(error)}${codeOf(error) === 'SQLITE_CANTOPEN' ? ': it may have been removed or replaced meanwhile' : ''})`,
      'check that the file is not damaged or locked, and that its folder is writable',
    );
  }
}

function validLimits(limits: TaskStoreLimits): boolean {
  try {
    return (
      Number.isSafeInteger(limits.maxTasks) &&
      limits.maxTasks >= 0 &&
      Number.isSafeInteger(limits.maxBytes) &&
      limits.maxBytes >= 0
    );
  } catch {
    return false;
  }
}

type Found =
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'other' }
  | { kind: 'unreadable'; code: string }
  | { kind: 'file'; header: Buffer };

/** What is at `path`, read without following a symlink and without SQLite (nothing is written). */
function inspect(path: string): Found {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return { kind: 'symlink' };
    if (!stat.isFile()) return { kind: 'other' };
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', code: codeOf(error) };
  }
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    if (!fstatSync(fd).isFile()) return { kind: 'other' };
    const header = Buffer.alloc(100);
    const read = readSync(fd, header, 0, 100, 0);
    return { kind: 'file', header: header.subarray(0, read) };
  } catch (error) {
    return codeOf(error) === 'ELOOP' ? { kind: 'symlink' } : { kind: 'unreadable', code: codeOf(error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why a file with this header is not a task store this code may open, or undefined when it is one. */
function headerProblem(header: Buffer): string | undefined {
  if (header.length < 100 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC)
    return 'it is not a SQLite database (agentdef did not create it)';
  const applicationId = header.readUInt32BE(68);
  const version = header.readUInt32BE(60);
  if (applicationId !== TASK_STORE_APPLICATION_ID) return 'it is a SQLite database that is not an agentdef task store';
  if (version !== TASK_STORE_SCHEMA_VERSION)
    return `it is an agentdef task store of schema version ${version}, and this agentdef reads version ${TASK_STORE_SCHEMA_VERSION}`;
  return undefined;
}

/**
 * Makes a whole, empty store at `path`: built in an owner-only temporary file beside it, then linked
 * into place (`link` never replaces a file). Answers undefined when made, `exists` when another
 * process made it meanwhile, else why it could not. The temporary file keeps SQLite's rollback
 * journal, so each committed statement is in the file itself (whenever the driver lets go of its
 * handle: libsql does so only when its statements are collected); every opening turns on WAL.
 */
function createStoreFile(
  Sqlite: SqliteDriver,
  path: string,
  owner: string | undefined,
  busy: number,
): string | undefined | 'exists' {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `its folder ${dir} cannot be created (${codeOf(error)})`;
  }
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.creating`);
  let db: SqliteDatabase | undefined;
  try {
    closeSync(openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    db = Sqlite.open(temp, { busyTimeoutMs: busy, mustExist: true });
    db.exec(
      `PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA application_id = ${TASK_STORE_APPLICATION_ID}; PRAGMA user_version = ${TASK_STORE_SCHEMA_VERSION}`,
    );
    const key = randomBytes(32);
    db.immediate(() => {
      db!.exec(SCHEMA);
      const insert = db!.prepare(`INSERT INTO ${META} (name, value) VALUES (@name, @value)`);
      insert.run({ name: 'page-token-key', value: new Uint8Array(key) });
      if (owner !== undefined) insert.run({ name: 'owner', value: owner });
    });
    db.close();
    db = undefined;
    linkSync(temp, path);
    return undefined;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return 'exists';
    return `it cannot be created in ${dir} (${codeOf(error)})`;
  } finally {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`]) {
      try {
        unlinkSync(leftover);
      } catch {
        // not there
      }
    }
  }
}

function storeOver(db: SqliteDatabase, limits: TaskStoreLimits, key: Uint8Array): SqliteTaskStore {
  const sql = {
    terminalOf: db.prepare(`SELECT terminal FROM ${TASKS} WHERE id = @id`),
    remove: db.prepare(`DELETE FROM ${TASKS} WHERE id = @id`),
    removeUnfinished: db.prepare(`DELETE FROM ${TASKS} WHERE id = @id AND terminal = 0`),
    totals: db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS total FROM ${TASKS}`),
    evictOldest: db.prepare(`DELETE FROM ${TASKS} WHERE seq = (SELECT MIN(seq) FROM ${TASKS})`),
    insert: db.prepare(`INSERT INTO ${TASKS} (id, terminal, bytes, text) VALUES (@id, @terminal, @bytes, @text)`),
    read: db.prepare(`SELECT text FROM ${TASKS} WHERE id = @id`),
    list: db.prepare(`SELECT text FROM ${TASKS} ORDER BY seq`),
  };
  const putAtomically = (id: string, text: string, terminal: number): boolean =>
    db.immediate(() => {
      if (sql.terminalOf.get({ id })?.['terminal'] === 1) return false;
      sql.remove.run({ id });
      const bytes = sizeOfTaskText(text);
      for (;;) {
        const { n, total } = sql.totals.get() as { n: number; total: number };
        if (n === 0 || (n < limits.maxTasks && total + bytes <= limits.maxBytes)) break;
        sql.evictOldest.run();
      }
      sql.insert.run({ id, terminal, bytes, text });
      return true;
    });
  /** A version that cannot be kept: the kept one goes unless it is terminal (final). Answers false. */
  const dropAtomically = (id: string): boolean =>
    db.immediate(() => {
      sql.removeUnfinished.run({ id });
      return false;
    });
  const parse = (text: unknown): TaskView | undefined => {
    try {
      return typeof text === 'string' ? (JSON.parse(text) as TaskView) : undefined;
    } catch {
      return undefined; // a row no store wrote: read as missing
    }
  };
  return {
    shared: true,
    async put(task: TaskView) {
      if (typeof task.id !== 'string') return false;
      const text = taskTextWithin(task, limits.maxBytes);
      try {
        if (text === undefined || limits.maxTasks < 1) return dropAtomically(JSON.stringify(task.id));
        return putAtomically(JSON.stringify(task.id), text, isTerminalTask(task) ? 1 : 0);
      } catch {
        return false;
      }
    },
    async get(id: string) {
      if (typeof id !== 'string') return undefined;
      try {
        return parse(sql.read.get({ id: JSON.stringify(id) })?.['text']);
      } catch {
        return undefined;
      }
    },
    async list() {
      try {
        return sql.list
          .all()
          .map((row) => parse(row['text']))
          .filter((task): task is TaskView => task !== undefined);
      } catch {
        return [];
      }
    },
    pageTokenKey: async () => new Uint8Array(key),
    close() {
      try {
        db.close();
      } catch {
        // already closed
      }
    },
  };
}
