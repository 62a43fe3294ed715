/**
 * Inside the task-store Durable Object (`AgentTaskStore`, declared by the generated entry and by
 * `loader.js`): the agent's A2A tasks in the object's SQLite storage (`ctx.storage.sql`), one
 * object per agent, so every isolate of the Worker reads and writes the same tasks.
 *
 * Each method runs synchronously inside the object (no await between the check and the write, the
 * writes in one statement or one `transactionSync`), so a check-and-put is atomic across every
 * caller: a terminal task is final whichever isolate put it. A put checks the index of kept rows (id, size, terminal,
 * oldest first) the object keeps beside the table, read from it once and updated by every write
 * that commits, so its statements are its writes only. Values reach SQLite as bound parameters only, never in the query
 * text. The rows hold the JSON text the client chose with `taskTextWithin`; their size is measured
 * as the in-memory store measures it (`sizeOfTaskText`), and the oldest rows are evicted first, by
 * count and by bytes. A version too large to keep (or one the client could not fit, `drop`)
 * removes the task's kept version unless that one is terminal, in the same transaction as the
 * check, so a task never stays `working` after its run ended too large to keep. The page-token key
 * is 32 random bytes made once and kept with the tasks.
 */
import type { TaskStoreLimits } from '../../runtime/task-store';
import { sizeOfTaskText } from '../../runtime/task-store';

export type { TaskStoreLimits };

/** A value SQLite storage binds or returns. */
export type SqlValue = string | number | ArrayBuffer | null;

/** The part of a Durable Object's `ctx.storage` the table uses (SQLite-backed objects only). */
export interface SqlStorageLike {
  sql: { exec(query: string, ...bindings: SqlValue[]): { toArray(): Record<string, SqlValue>[] } };
  transactionSync<T>(run: () => T): T;
}

/**
 * The most a single task may take (in `sizeOfTaskText` units): Durable Object SQLite keeps rows
 * of at most 2 MB, and UTF-8 takes at most 3 bytes per UTF-16 code unit.
 */
export const MAX_TASK_SIZE = 1_200_000;

const TASKS = 'agentdef_tasks';
const META = 'agentdef_task_store_meta';
const PAGE_TOKEN_KEY = 'page-token-key';
const CREATE_TASKS = `CREATE TABLE IF NOT EXISTS ${TASKS} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, size INTEGER NOT NULL, terminal INTEGER NOT NULL)`;
/** The page-token key's table, made when the key is first asked for (a store that only puts and gets never makes it). */
const CREATE_META = `CREATE TABLE IF NOT EXISTS ${META} (name TEXT PRIMARY KEY, value BLOB NOT NULL)`;

const validLimits = (limits: unknown): limits is TaskStoreLimits => {
  const l = limits as Partial<TaskStoreLimits> | null;
  return (
    l !== null &&
    typeof l === 'object' &&
    Number.isInteger(l.maxTasks) &&
    (l.maxTasks as number) >= 1 &&
    typeof l.maxBytes === 'number' &&
    l.maxBytes > 0
  );
};

/** A kept row as the table's index knows it. */
interface IndexedRow {
  seq: number;
  size: number;
  terminal: boolean;
}

/**
 * What the table holds, read once and then kept up to date by every write (this object is the
 * table's only writer): each kept task's row by id, oldest put first, the bytes held, and the
 * largest `seq` given so far (the next put is newer than every kept row).
 */
interface TableIndex {
  rows: Map<string, IndexedRow>;
  held: number;
  lastSeq: number;
}

export class TaskTable {
  /** The tasks' table exists (made by this object, or found). */
  private ready = false;
  private metaReady = false;
  /** The table's index, read on first use; undefined again after a write that did not commit (read anew). */
  private index: TableIndex | undefined;

  constructor(private readonly storage: SqlStorageLike) {}

  /** The rows `query` answers, the tasks' table made first if this object has not yet. */
  private rows(query: string, ...bindings: SqlValue[]): Record<string, SqlValue>[] {
    if (!this.ready) {
      this.storage.sql.exec(CREATE_TASKS);
      this.ready = true;
    }
    return this.storage.sql.exec(query, ...bindings).toArray();
  }

  private currentIndex(): TableIndex {
    if (this.index === undefined) {
      const index: TableIndex = { rows: new Map(), held: 0, lastSeq: 0 };
      // Usually the object's first statement: the table made and read in one call.
      const read = `SELECT seq, id, size, terminal FROM ${TASKS} ORDER BY seq`;
      const rows = this.ready ? this.rows(read) : this.storage.sql.exec(`${CREATE_TASKS}; ${read}`).toArray();
      this.ready = true;
      for (const row of rows) {
        const indexed = { seq: Number(row['seq']), size: Number(row['size']), terminal: row['terminal'] === 1 };
        index.rows.set(row['id'] as string, indexed);
        index.held += indexed.size;
        index.lastSeq = indexed.seq;
      }
      this.index = index;
    }
    return this.index;
  }

  /** Runs `write`, one statement (atomic by itself); the index is read anew unless it commits. */
  private write<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      this.index = undefined;
      throw error;
    }
  }

  /** Runs the statements of `write` in one transaction; the index is read anew unless it commits. */
  private transaction<T>(write: () => T): T {
    return this.write(() => this.storage.transactionSync(write));
  }

  /**
   * Keeps `text` as task `id`, the newest; false when the kept version is terminal or it does not
   * fit (a version too large to keep also drops the kept one unless that is terminal, as `drop`).
   * Which version is kept, and what is held, come from the index kept beside the table, so a put
   * is its writes only: the oldest rows evicted, the task's own row replaced.
   */
  put(id: string, text: string, terminal: boolean, limits: TaskStoreLimits): boolean {
    if (typeof id !== 'string' || typeof text !== 'string' || typeof terminal !== 'boolean' || !validLimits(limits))
      return false;
    const size = sizeOfTaskText(text);
    if (size > limits.maxBytes || size > MAX_TASK_SIZE) {
      this.drop(id);
      return false;
    }
    const index = this.currentIndex();
    const previous = index.rows.get(id);
    if (previous?.terminal) return false;
    const evicted: [string, number][] = [];
    let count = index.rows.size - (previous ? 1 : 0);
    let held = index.held - (previous?.size ?? 0);
    for (const [oldId, row] of index.rows) {
      if (count === 0 || (count < limits.maxTasks && held + size <= limits.maxBytes)) break;
      if (oldId === id) continue;
      evicted.push([oldId, row.seq]);
      count -= 1;
      held -= row.size;
    }
    const seq = index.lastSeq + 1;
    const flag = terminal ? 1 : 0;
    // One row goes and this one comes (the steady state: the oldest evicted, or the task's own
    // earlier version replaced): that row becomes this one, in one statement, atomic by itself.
    const replaced =
      previous && evicted.length === 0 ? previous.seq : !previous && evicted.length === 1 ? evicted[0]![1] : undefined;
    const insert = () =>
      this.rows(
        `INSERT INTO ${TASKS} (seq, id, text, size, terminal) VALUES (?, ?, ?, ?, ?)`,
        seq,
        id,
        text,
        size,
        flag,
      );
    if (replaced !== undefined)
      this.write(() =>
        this.rows(
          `UPDATE ${TASKS} SET seq = ?, id = ?, text = ?, size = ?, terminal = ? WHERE seq = ?`,
          seq,
          id,
          text,
          size,
          flag,
          replaced,
        ),
      );
    else if (!previous && evicted.length === 0) this.write(insert);
    else
      this.transaction(() => {
        if (previous) this.rows(`DELETE FROM ${TASKS} WHERE seq = ?`, previous.seq);
        for (const [, oldSeq] of evicted) this.rows(`DELETE FROM ${TASKS} WHERE seq = ?`, oldSeq);
        insert();
      });
    index.rows.delete(id);
    for (const [oldId] of evicted) index.rows.delete(oldId);
    index.rows.set(id, { seq, size, terminal });
    index.held = held + size;
    index.lastSeq = seq;
    return true;
  }

  /**
   * Forgets task `id` when its kept version is not terminal (a terminal one is final and stays):
   * the client's answer to a version it cannot keep, so a stale `working` does not outlive its
   * run. True when a version was removed.
   */
  drop(id: string): boolean {
    if (typeof id !== 'string') return false;
    const dropped = this.transaction(() => {
      const kept = this.rows(`SELECT terminal FROM ${TASKS} WHERE id = ?`, id)[0];
      if (!kept || kept['terminal'] === 1) return false;
      this.rows(`DELETE FROM ${TASKS} WHERE id = ?`, id);
      return true;
    });
    if (dropped) this.index = undefined; // read anew on the next put (drops are rare)
    return dropped;
  }

  /** The kept JSON text of task `id`, or null. */
  get(id: string): string | null {
    if (typeof id !== 'string') return null;
    const row = this.rows(`SELECT text FROM ${TASKS} WHERE id = ?`, id)[0];
    return row ? (row['text'] as string) : null;
  }

  /** Every kept task's JSON text, oldest put first. */
  list(): string[] {
    return this.rows(`SELECT text FROM ${TASKS} ORDER BY seq`).map((row) => row['text'] as string);
  }

  /** The store's page-token key: 32 random bytes, made on first use and kept. */
  pageTokenKey(): Uint8Array {
    if (!this.metaReady) {
      this.storage.sql.exec(CREATE_META);
      this.metaReady = true;
    }
    return this.storage.transactionSync(() => {
      const kept = this.rows(`SELECT value FROM ${META} WHERE name = ?`, PAGE_TOKEN_KEY)[0];
      if (kept && kept['value'] instanceof ArrayBuffer && kept['value'].byteLength === 32)
        return new Uint8Array(kept['value'].slice(0));
      const key = crypto.getRandomValues(new Uint8Array(32));
      this.rows(`INSERT OR REPLACE INTO ${META} (name, value) VALUES (?, ?)`, PAGE_TOKEN_KEY, key.buffer.slice(0));
      return key;
    });
  }
}
