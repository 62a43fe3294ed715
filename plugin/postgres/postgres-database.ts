/**
 * One PostgreSQL database as agentdef's durable stores use it (the Node hosts' task store, the
 * application ledger): a connection pool, transactions, and the store's schema brought up to date
 * by versioned migrations on open.
 *
 * - Migrations: each store (`component`) lists `{ version, sql }` steps, oldest first. Opening runs,
 *   in one transaction under a transaction-level advisory lock (so replicas starting together
 *   apply each step once), every step newer than the versions recorded for that component in
 *   `agentdef_schema_migrations`. A database recording a newer version than this agentdef knows
 *   is refused (upgrade agentdef); a step that fails (a table of that name agentdef did not create:
 *   the steps use `CREATE TABLE`, never `IF NOT EXISTS` over someone else's) rolls back and is
 *   refused, leaving the database as it was. A `agentdef_schema_migrations` table with other
 *   columns is not agentdef's: refused too.
 * - The connection string is a secret: it is handed to the driver and never read into a message.
 *   What a failure says is PostgreSQL's SQLSTATE or the system's error code (`describePostgresError`),
 *   never the driver's text (which may quote a host, a user or a value). TLS options travel in the
 *   connection string (`sslmode`, `sslrootcert`, …) and reach the driver unchanged.
 * - The pool survives a server restart: a broken idle connection is dropped (the pool's `error`
 *   event is handled, so it never ends the process), and the next query connects again. While the
 *   server is away every query rejects with a coded error the store turns into its own answer.
 * Opening answers a typed result, never a throw.
 */
import type { Pool, PoolClient } from 'pg';
import { loadPg } from './postgres-driver';

export interface Migration {
  /** 1, 2, 3…: each step's number, in order. */
  readonly version: number;
  readonly sql: string;
}

export interface PostgresQueries {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<R[]>;
}

export interface TransactionOptions {
  /**
   * Keep trying while the server cannot be reached, for up to this long (ms), waiting a little
   * longer between tries each time (a write that must not be lost in a restart). Default: one more
   * try, at once (a connection the server dropped while it sat in the pool).
   */
  readonly retryForMs?: number;
}

export interface PostgresDatabase extends PostgresQueries {
  /**
   * Runs `fn` in one transaction (BEGIN … COMMIT; ROLLBACK when it throws). A transaction that
   * failed because the connection was lost runs again (`options`): `fn` must be safe to repeat.
   */
  transaction<T>(fn: (tx: PostgresQueries) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

export interface PostgresOpenOptions {
  /** The store whose migrations these are (`task-store`, `ledger`): recorded with each version. */
  readonly component: string;
  readonly migrations: readonly Migration[];
  /** Shown in pg_stat_activity (`agentdef task store`). */
  readonly applicationName: string;
  /** Most connections this process holds (default 10). */
  readonly maxConnections?: number;
  /** Makes each connection's socket (a host's own socket, which its network guard lets through). */
  readonly socket?: () => unknown;
}

export type PostgresOpening = { ok: true; db: PostgresDatabase } | { ok: false; message: string };

export const MIGRATIONS_TABLE = 'agentdef_schema_migrations';
/** The first key of every advisory lock agentdef takes ("adtf"); the second names the lock. */
export const ADVISORY_LOCK_CLASS = 0x61647466;
/** The second key of the migrations lock. */
const MIGRATIONS_LOCK = 1;

/** How long a new connection may take before the query fails (the server is down or unreachable). */
const CONNECT_TIMEOUT_MS = 10_000;

export const isPostgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value);

/** The connection was lost or could not be made (the server restarting, unreachable): trying again may succeed. */
export function isConnectionError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code))) return true;
  if (typeof code === 'string' && /^E(CONN|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN)/.test(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect/i.test(message);
}

/**
 * What went wrong, from what was thrown: PostgreSQL's SQLSTATE (`SQLSTATE 28P01`), or the system's
 * error code (`ECONNREFUSED`), or a fixed phrase. Never the error's text.
 */
export function describePostgresError(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return `PostgreSQL SQLSTATE ${code}${SQLSTATE_MEANING[code] ? ` (${SQLSTATE_MEANING[code]})` : ''}`;
  if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return `PostgreSQL unreachable (${code})`;
  if (typeof code === 'string' && code === 'ERR_INVALID_URL') return 'the connection string is not a valid URL';
  if (typeof code === 'string' && (/CERT|SELF_SIGNED|LEAF_SIGNATURE|ISSUER/.test(code) || code.startsWith('ERR_TLS')))
    return `the server's TLS certificate was refused (${code}): give its CA as sslrootcert in the connection string`;
  const message = error instanceof Error ? error.message : '';
  if (/does not support SSL/i.test(message))
    return 'the server does not accept TLS, and the connection string asks for it (sslmode)';
  if (/timeout/i.test(message)) return 'PostgreSQL did not answer in time (connection timeout)';
  if (/Connection terminated/i.test(message)) return 'PostgreSQL closed the connection';
  return 'PostgreSQL failed (no error code)';
}

const SQLSTATE_MEANING: Record<string, string> = {
  '28P01': 'password authentication failed',
  '28000': 'authorization refused',
  '3D000': 'no such database',
  '42P07': 'a table of that name exists already',
  '42501': 'permission denied',
  '57P01': 'the server is shutting down',
  '57P03': 'the server is starting up',
  '53300': 'too many connections',
  '40001': 'serialization failure',
  '40P01': 'deadlock',
  '23505': 'unique constraint',
  '08006': 'connection failure',
  '08001': 'cannot connect',
};

/** Opens `url` and brings `options.component`'s schema up to date. */
export async function openPostgresDatabase(url: string, options: PostgresOpenOptions): Promise<PostgresOpening> {
  if (typeof url !== 'string' || !isPostgresUrl(url))
    return { ok: false, message: 'the connection string must start with postgres:// or postgresql://' };
  const loaded = loadPg();
  if (!loaded.ok) return { ok: false, message: loaded.message };
  let pool: Pool;
  try {
    pool = new loaded.pg.Pool({
      connectionString: url,
      application_name: options.applicationName,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      ...(options.socket ? { stream: options.socket as never } : {}),
    });
  } catch (error) {
    return { ok: false, message: `the connection string cannot be used: ${describePostgresError(error)}` };
  }
  // A broken idle connection (the server restarted) is dropped by the pool; this keeps the event
  // from ending the process. The next query connects again.
  pool.on('error', () => undefined);
  const db = databaseOver(pool);
  try {
    await migrate(db, options.component, options.migrations);
    return { ok: true, db };
  } catch (error) {
    await pool.end().catch(() => undefined);
    return {
      ok: false,
      message:
        error instanceof MigrationRefusal ? error.message : `cannot open the database: ${describePostgresError(error)}`,
    };
  }
}

function databaseOver(pool: Pool): PostgresDatabase {
  const queriesOf = (client: Pool | PoolClient): PostgresQueries => ({
    async query<R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as R[];
    },
  });
  const once = async <T>(fn: (tx: PostgresQueries) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken = false;
    // A checked-out client has no listener of the pool's: a connection that ends between two
    // queries (the server restarting) would emit an `error` nobody handles and end the process.
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const answer = await fn(queriesOf(client));
      await client.query('COMMIT');
      return answer;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true; // the connection is gone: the server rolls the transaction back
      }
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  };
  let closed = false;
  return {
    async query<R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) {
      try {
        return await queriesOf(pool).query<R>(sql, params);
      } catch (error) {
        if (closed || !isConnectionError(error)) throw error;
        return queriesOf(pool).query<R>(sql, params); // a pooled connection the server dropped: once more
      }
    },
    async transaction<T>(fn: (tx: PostgresQueries) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const deadline = Date.now() + (options.retryForMs ?? 0);
      for (let attempt = 0, wait = 100; ; attempt++, wait = Math.min(wait * 2, 2000)) {
        try {
          return await once(fn);
        } catch (error) {
          if (closed || !isConnectionError(error) || (attempt > 0 && Date.now() >= deadline)) throw error;
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end().catch(() => undefined);
    },
  };
}

class MigrationRefusal extends Error {}

async function migrate(db: PostgresDatabase, component: string, migrations: readonly Migration[]): Promise<void> {
  const latest = migrations.reduce((max, step) => Math.max(max, step.version), 0);
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCK_CLASS, MIGRATIONS_LOCK]);
    const columns = (
      await tx.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
        [MIGRATIONS_TABLE],
      )
    ).map((row) => row.column_name);
    if (columns.length === 0) {
      await tx.query(
        `CREATE TABLE ${MIGRATIONS_TABLE} (component text NOT NULL, version integer NOT NULL CHECK (version > 0), PRIMARY KEY (component, version))`,
      );
    } else if (columns.join(',') !== 'component,version') {
      throw new MigrationRefusal(
        `the database holds a ${MIGRATIONS_TABLE} table agentdef did not create; it was left untouched: use another database or schema`,
      );
    }
    const applied = new Set(
      (
        await tx.query<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE} WHERE component = $1`, [component])
      ).map((row) => row.version),
    );
    const newest = Math.max(0, ...applied);
    if (newest > latest)
      throw new MigrationRefusal(
        `the database holds the ${component} at schema version ${newest}, and this agentdef knows versions up to ${latest}: upgrade agentdef (the database was left untouched)`,
      );
    for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(step.version)) continue;
      try {
        await tx.query(step.sql);
      } catch (error) {
        throw new MigrationRefusal(
          `the ${component}'s schema (version ${step.version}) cannot be created: ${describePostgresError(error)}; nothing was changed: if the database holds tables of these names that agentdef did not create, use another database or schema`,
        );
      }
      await tx.query(`INSERT INTO ${MIGRATIONS_TABLE} (component, version) VALUES ($1, $2)`, [component, step.version]);
    }
  });
}
