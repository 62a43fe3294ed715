/**
 * The Node hosts' task store shared by replicas: the `TaskStore` contract (runtime/task-store.ts)
 * over PostgreSQL (plugin/postgres), so any replica of an agent behind one URL answers GetTask,
 * ListTasks, SubscribeToTask and CancelTask for a task another replica runs.
 *
 * - Sizes and what is kept follow the in-memory store exactly (`taskTextWithin`, `sizeOfTaskText`);
 *   the oldest put is evicted first, by count and by bytes; a version that cannot be kept removes
 *   the task's kept version unless that one is terminal. Every put is one transaction holding the
 *   agent's transaction-level advisory lock, so puts of one agent serialize as the SQLite store's
 *   `BEGIN IMMEDIATE` do, and a terminal task is final whichever replica wrote it. Bound
 *   parameters only; a task id is kept as its JSON text (distinct ids stay distinct keys, even ones
 *   UTF-8 cannot hold, such as lone surrogates). One database may hold several agents' tasks: every
 *   row carries its agent (`owner`), and each agent has its own page-token key, made by the first
 *   replica that opens the store and read by the others.
 * - Replicas that die. Each open store is a replica with a lease (`agentdef_task_replicas`), renewed
 *   every {@link REPLICA_RENEW_MS} while the process lives; each unfinished task records the replica
 *   that put it. A read (get, list) that finds an unfinished task whose replica's lease ran out
 *   (the process was killed, or lost the database for longer than the lease) records it as failed
 *   (`stopReason: replica-lost`) and answers that: the truth, and final, so a replica coming back
 *   cannot undo it. Leases are compared on the database's clock, never a replica's.
 * - Following another replica's run: the A2A handler polls a shared store (SubscribeToTask every
 *   500 ms; a run checks for a cancel every second), so an event reaches a subscriber on another
 *   replica within one poll of being stored, and a cancel stops the run within a second.
 * - An outage. A run's final put keeps trying for {@link FINAL_PUT_RETRY_MS} (a restart of the
 *   database does not lose an answer). Otherwise, while the database cannot be reached, `put`, `get` and `list` reject with a
 *   `TaskStoreUnavailableError` (the handler answers "the task store is unavailable; try again",
 *   never task-not-found); the pool connects again when the server is back. Nothing acknowledged
 *   is lost: a task id reaches a client only after its put committed.
 * - The connection string is a secret: no message carries it (describePostgresError).
 */
import { randomBytes } from 'node:crypto';
import type { TaskView } from '../../runtime/a2a-wire';
import {
  isTerminalTask,
  sizeOfTaskText,
  TaskStoreUnavailableError,
  taskTextWithin,
  type TaskStore,
  type TaskStoreLimits,
} from '../../runtime/task-store';
import {
  ADVISORY_LOCK_CLASS,
  describePostgresError,
  type Migration,
  openPostgresDatabase,
  type PostgresDatabase,
  type PostgresQueries,
} from '../../postgres/postgres-database';

export const TASKS_TABLE = 'agentdef_tasks';
const KEYS_TABLE = 'agentdef_task_store_keys';
const REPLICAS_TABLE = 'agentdef_task_replicas';

/** How long a replica's lease lasts without renewal, and how often it is renewed. */
export const REPLICA_LEASE_MS = 15_000;
export const REPLICA_RENEW_MS = 5_000;

/** How long a run's final put keeps trying while the database cannot be reached. */
export const FINAL_PUT_RETRY_MS = 30_000;

/** The second key of an agent's advisory lock (the first is agentdef's class). */
const TASKS_LOCK_KIND = 2;

export const TASK_STORE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE ${KEYS_TABLE} (
  owner text PRIMARY KEY,
  page_token_key bytea NOT NULL CHECK (octet_length(page_token_key) = 32)
);
CREATE TABLE ${REPLICAS_TABLE} (
  owner text NOT NULL,
  replica text NOT NULL,
  alive_until timestamptz NOT NULL,
  PRIMARY KEY (owner, replica)
);
CREATE TABLE ${TASKS_TABLE} (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  owner text NOT NULL,
  id text NOT NULL,
  terminal boolean NOT NULL,
  bytes integer NOT NULL CHECK (bytes >= 0),
  text text NOT NULL,
  replica text,
  PRIMARY KEY (owner, id),
  CHECK (terminal OR replica IS NOT NULL)
);
CREATE INDEX ${TASKS_TABLE}_order ON ${TASKS_TABLE} (owner, seq);`,
  },
];

export interface PostgresTaskStore extends TaskStore {
  readonly shared: true;
  pageTokenKey(): Promise<Uint8Array>;
  /** Ends the lease renewal and closes the pool (later calls reject). */
  close(): Promise<void>;
}

export interface PostgresTaskStoreOptions {
  /** Whose tasks these are (the agent's slug). */
  owner: string;
  /** Makes each database connection's socket (the host's own: `hostSocket` of its network guard). */
  socket?: () => unknown;
  /** Replica lease and renewal period (ms); tests shorten them. */
  leaseMs?: number;
  renewMs?: number;
}

export type PostgresTaskStoreOpening = { ok: true; store: PostgresTaskStore } | { ok: false; message: string };

/** Opens the task store of `options.owner` in the database `url` (migrating its schema). */
export async function openPostgresTaskStore(
  url: string,
  limits: TaskStoreLimits,
  options: PostgresTaskStoreOptions,
): Promise<PostgresTaskStoreOpening> {
  if (
    !Number.isSafeInteger(limits.maxTasks) ||
    limits.maxTasks < 0 ||
    !Number.isSafeInteger(limits.maxBytes) ||
    limits.maxBytes < 0
  )
    return { ok: false, message: 'the limits must be whole numbers of tasks and bytes' };
  const leaseMs = options.leaseMs ?? REPLICA_LEASE_MS;
  const renewMs = options.renewMs ?? REPLICA_RENEW_MS;
  if (!(renewMs > 0 && leaseMs > renewMs))
    return { ok: false, message: 'the replica lease must be longer than its renewal period' };
  const opened = await openPostgresDatabase(url, {
    component: 'task-store',
    migrations: TASK_STORE_MIGRATIONS,
    applicationName: `agentdef task store ${options.owner}`.slice(0, 63),
    maxConnections: 8,
    ...(options.socket ? { socket: options.socket } : {}),
  });
  if (!opened.ok) return { ok: false, message: `cannot use the PostgreSQL task store: ${opened.message}` };
  const { db } = opened;
  const replica = randomBytes(12).toString('hex');
  try {
    await db.query(`INSERT INTO ${KEYS_TABLE} (owner, page_token_key) VALUES ($1, $2) ON CONFLICT (owner) DO NOTHING`, [
      options.owner,
      randomBytes(32),
    ]);
    const [row] = await db.query<{ page_token_key: Buffer }>(
      `SELECT page_token_key FROM ${KEYS_TABLE} WHERE owner = $1`,
      [options.owner],
    );
    await renewLease(db, options.owner, replica, leaseMs);
    const key = new Uint8Array(row!.page_token_key);
    return { ok: true, store: storeOver(db, limits, { owner: options.owner, replica, leaseMs, renewMs }, key) };
  } catch (error) {
    await db.close();
    return { ok: false, message: `cannot use the PostgreSQL task store: ${describePostgresError(error)}` };
  }
}

const renewLease = (db: PostgresQueries, owner: string, replica: string, leaseMs: number) =>
  db.query(
    `INSERT INTO ${REPLICAS_TABLE} (owner, replica, alive_until) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
     ON CONFLICT (owner, replica) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
    [owner, replica, leaseMs],
  );

/** The task a lost replica left unfinished, as it is recorded and answered. */
export function replicaLostTask(task: TaskView, at: Date): TaskView {
  const { answer: _none, ...rest } = task;
  return {
    ...rest,
    state: 'failed',
    replyText: 'The run was lost: the agent replica running it stopped before it finished.',
    timestamp: at.toISOString(),
    metadata: { ...task.metadata, stopReason: 'replica-lost' },
  };
}

interface StoreIdentity {
  owner: string;
  replica: string;
  leaseMs: number;
  renewMs: number;
}

function storeOver(
  db: PostgresDatabase,
  limits: TaskStoreLimits,
  who: StoreIdentity,
  key: Uint8Array,
): PostgresTaskStore {
  const { owner, replica } = who;
  let closed = false;
  /**
   * The renewal in flight, one at a time: `close` waits for it, or it could write the lease back
   * after close deleted it.
   */
  let renewing: Promise<unknown> | undefined;
  const renewal = setInterval(() => {
    if (closed || renewing) return;
    renewing = renewLease(db, owner, replica, who.leaseMs)
      .catch(() => undefined) // an outage: the next renewal tries again
      .finally(() => {
        renewing = undefined;
      });
  }, who.renewMs);
  renewal.unref();

  const unavailable = (error: unknown) =>
    error instanceof TaskStoreUnavailableError
      ? error
      : new TaskStoreUnavailableError(`the task store is unavailable (${describePostgresError(error)})`);
  const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (closed) throw new TaskStoreUnavailableError('the task store is closed');
    try {
      return await fn();
    } catch (error) {
      throw unavailable(error);
    }
  };
  const lock = (tx: PostgresQueries) =>
    tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ADVISORY_LOCK_CLASS + TASKS_LOCK_KIND, owner]);
  const parse = (text: unknown): TaskView | undefined => {
    try {
      return typeof text === 'string' ? (JSON.parse(text) as TaskView) : undefined;
    } catch {
      return undefined; // a row no store wrote: read as missing
    }
  };

  /** Rows whose replica's lease ran out, finished as lost (in one transaction); the texts now kept. */
  const settleLost = async (rows: { id: string; text: string; lost: boolean }[]) => {
    const lost = rows.filter((row) => row.lost);
    if (lost.length === 0) return rows.map((row) => row.text);
    const settled = new Map<string, string>();
    await db.transaction(async (tx) => {
      await lock(tx);
      const [clock] = await tx.query<{ now: Date }>('SELECT clock_timestamp() AS now');
      for (const row of lost) {
        const task = parse(row.text);
        if (task === undefined) continue;
        const text = taskTextWithin(replicaLostTask(task, clock!.now), limits.maxBytes) ?? row.text;
        const updated = await tx.query<{ text: string }>(
          `UPDATE ${TASKS_TABLE} t SET terminal = true, text = $3, bytes = $4, replica = NULL
           WHERE owner = $1 AND id = $2 AND NOT terminal
             AND NOT EXISTS (SELECT 1 FROM ${REPLICAS_TABLE} r WHERE r.owner = t.owner AND r.replica = t.replica AND r.alive_until > clock_timestamp())
           RETURNING text`,
          [owner, row.id, text, sizeOfTaskText(text)],
        );
        if (updated[0]) settled.set(row.id, updated[0].text);
      }
    });
    // A row settled meanwhile by another reader, or finished by a replica that came back: read again.
    const again = await db.query<{ id: string; text: string }>(
      `SELECT id, text FROM ${TASKS_TABLE} WHERE owner = $1 AND id = ANY($2)`,
      [owner, lost.filter((row) => !settled.has(row.id)).map((row) => row.id)],
    );
    for (const row of again) settled.set(row.id, row.text);
    return rows.filter((row) => !row.lost || settled.has(row.id)).map((row) => settled.get(row.id) ?? row.text);
  };
  const READ = `SELECT t.id, t.text,
      (NOT t.terminal AND NOT EXISTS (SELECT 1 FROM ${REPLICAS_TABLE} r WHERE r.owner = t.owner AND r.replica = t.replica AND r.alive_until > clock_timestamp())) AS lost
    FROM ${TASKS_TABLE} t WHERE t.owner = $1`;

  return {
    shared: true,
    put: (task: TaskView) =>
      guarded(async () => {
        if (typeof task?.id !== 'string') return false;
        const id = JSON.stringify(task.id);
        const text = taskTextWithin(task, limits.maxBytes);
        const terminal = isTerminalTask(task);
        // A run's ending waits out a restart of the database (the run's answer is not lost); a
        // working task does not (the request fails at once, saying the store is unavailable).
        return db.transaction(
          async (tx) => {
            await lock(tx);
            const [kept] = await tx.query<{ terminal: boolean }>(
              `SELECT terminal FROM ${TASKS_TABLE} WHERE owner = $1 AND id = $2`,
              [owner, id],
            );
            if (kept?.terminal) return false;
            if (kept) await tx.query(`DELETE FROM ${TASKS_TABLE} WHERE owner = $1 AND id = $2`, [owner, id]);
            if (text === undefined || limits.maxTasks < 1) return false;
            const bytes = sizeOfTaskText(text);
            // Evict the oldest until one more task of `bytes` fits: the fewest oldest rows that bring
            // the count under maxTasks and the bytes within maxBytes.
            await tx.query(
              `DELETE FROM ${TASKS_TABLE} WHERE owner = $1 AND seq IN (
               SELECT seq FROM (
                 SELECT seq, row_number() OVER (ORDER BY seq) AS n, sum(bytes) OVER (ORDER BY seq) - bytes AS before,
                        count(*) OVER () AS total_n, sum(bytes) OVER () AS total_bytes
                 FROM ${TASKS_TABLE} WHERE owner = $1) ranked
               WHERE n <= total_n - $2 + 1 OR before < total_bytes + $3 - $4)`,
              [owner, limits.maxTasks, bytes, limits.maxBytes],
            );
            await tx.query(
              `INSERT INTO ${TASKS_TABLE} (owner, id, terminal, bytes, text, replica) VALUES ($1, $2, $3, $4, $5, $6)`,
              [owner, id, terminal, bytes, text, terminal ? null : replica],
            );
            return true;
          },
          terminal ? { retryForMs: FINAL_PUT_RETRY_MS } : {},
        );
      }),
    get: (id: string) =>
      guarded(async () => {
        if (typeof id !== 'string') return undefined;
        const rows = await db.query<{ id: string; text: string; lost: boolean }>(`${READ} AND t.id = $2`, [
          owner,
          JSON.stringify(id),
        ]);
        const [text] = await settleLost(rows);
        return parse(text);
      }),
    list: () =>
      guarded(async () => {
        const rows = await db.query<{ id: string; text: string; lost: boolean; seq: string }>(
          `${READ} ORDER BY t.seq`,
          [owner],
        );
        return (await settleLost(rows))
          .map((text) => parse(text))
          .filter((task): task is TaskView => task !== undefined);
      }),
    pageTokenKey: async () => new Uint8Array(key),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(renewal);
      await renewing;
      await db
        .query(`DELETE FROM ${REPLICAS_TABLE} WHERE owner = $1 AND replica = $2`, [owner, replica])
        .catch(() => undefined);
      await db.close();
    },
  };
}
