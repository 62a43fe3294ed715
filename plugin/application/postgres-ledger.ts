/**
 * The shared execution ledger: the rules of `execution-ledger.ts` over one PostgreSQL table, through
 * agentdef's PostgreSQL port (plugin/postgres; the optional peer `pg`, loaded only when a host
 * selects this ledger). Several `agentdef mcp` hosts (or machines) given the same database share one
 * ledger: an execute repeated with the same idempotency key on any of them returns the recorded
 * result instead of running again, and two racing for one key dispatch once.
 *
 * - One table, `agentdef_execution_ledger`, one row per idempotency key (UNIQUE). The claim number
 *   comes from an identity column, so it is never reused in the database (a reclaim deletes the row
 *   and inserts a new one; a rolled-back insert leaves a gap, never a repeat); CHECK constraints keep
 *   states, modes and the dispatch marker consistent, as in the SQLite table.
 * - Every operation is one transaction that first takes a transaction-level advisory lock for the
 *   ledger (`pg_advisory_xact_lock`), so steps of every host serialize as SQLite's BEGIN IMMEDIATE
 *   does; the UNIQUE constraint is the backstop: an insert that would be a second holder of a key
 *   fails the step (`storage`), it never becomes a second dispatch. In one process, steps queue.
 * - The schema comes from versioned migrations applied on open under an advisory lock
 *   (plugin/postgres/postgres-database.ts): a table of this name that agentdef did not create is
 *   refused and left as it was, and so is a database at a newer schema version.
 * - Times come from the injected clock, read inside the transaction after the lock, as in SQLite.
 * - While the server is away every operation answers `storage` with PostgreSQL's code; the pool
 *   connects again when it is back. A committed claim, marker or result is PostgreSQL's to keep.
 * - The connection string is a secret: it is handed to the driver and never read into a message.
 * All hosts sharing a database should use the same limits; each claim enforces its own.
 * Nothing here throws: failures are typed results whose messages carry a code, never data.
 */
import type { ExecutionLedgerOptions, LedgerOpening, LedgerStore, NewLedgerRecord } from './execution-ledger';
import {
  createLedgerOverStore,
  LEDGER_COLUMNS,
  type LedgerRow,
  readLedgerOptions,
  recordOfRow,
  serialized,
} from './execution-ledger';
import {
  ADVISORY_LOCK_CLASS,
  describePostgresError,
  isPostgresUrl,
  type Migration,
  openPostgresDatabase,
  type PostgresDatabase,
  type PostgresQueries,
} from '../postgres/postgres-database';
import { loadPg } from '../postgres/postgres-driver';

export interface PostgresExecutionLedgerOptions extends ExecutionLedgerOptions {
  /** The connection string (`postgres://…`); a secret: never printed. TLS options ride in it. */
  readonly url: string;
  /** Most connections this process holds for the ledger (default 4). */
  readonly maxConnections?: number;
}

export const POSTGRES_LEDGER_TABLE = 'agentdef_execution_ledger';
/** The component whose schema versions `agentdef_schema_migrations` records. */
export const POSTGRES_LEDGER_COMPONENT = 'execution-ledger';
/** The second key of the ledger's advisory lock ("ledg"; the first is agentdef's class). */
export const POSTGRES_LEDGER_LOCK = 0x6c656467;

const T = POSTGRES_LEDGER_TABLE;

/** The schema, oldest step first. */
export const POSTGRES_LEDGER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `CREATE TABLE ${T} (
  claim bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL UNIQUE,
  plan_digest text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('dry-run', 'live')),
  state text NOT NULL CHECK (state IN ('running', 'dispatched', 'succeeded', 'failed', 'cancelled')),
  claimed_at double precision NOT NULL,
  lease_until double precision NOT NULL,
  dispatched_at double precision,
  finished_at double precision,
  result text,
  CHECK (state <> 'dispatched' OR dispatched_at IS NOT NULL),
  CHECK ((state IN ('running', 'dispatched')) = (finished_at IS NULL AND result IS NULL))
);
CREATE INDEX ${T}_eviction ON ${T} ((COALESCE(finished_at, lease_until)), claim) WHERE dispatched_at IS NULL;`,
  },
];

/** Opens the ledger in the database of `options.url`, creating its table on first use. */
export async function openPostgresExecutionLedger(options: PostgresExecutionLedgerOptions): Promise<LedgerOpening> {
  const read = readLedgerOptions(options);
  if (!read.ok) return { ok: false, reason: 'invalid-options', message: read.message };
  let url: unknown;
  let max: unknown;
  try {
    url = options.url;
    max = options.maxConnections ?? 4;
  } catch {
    return { ok: false, reason: 'invalid-options', message: 'the ledger options could not be read as plain data' };
  }
  if (typeof url !== 'string' || !isPostgresUrl(url))
    return {
      ok: false,
      reason: 'invalid-options',
      message: 'url must be a connection string starting with postgres:// or postgresql://',
    };
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1 || max > 100)
    return { ok: false, reason: 'invalid-options', message: 'maxConnections must be an integer from 1 to 100' };
  const driver = loadPg();
  if (!driver.ok)
    return {
      ok: false,
      reason: 'driver-missing',
      message: `the PostgreSQL execution ledger needs its driver: ${driver.message}`,
    };
  const opened = await openPostgresDatabase(url, {
    component: POSTGRES_LEDGER_COMPONENT,
    migrations: POSTGRES_LEDGER_MIGRATIONS,
    applicationName: 'agentdef execution ledger',
    maxConnections: max,
  });
  if (!opened.ok)
    return { ok: false, reason: 'storage', message: `the ledger database could not be opened: ${opened.message}` };
  const { db } = opened;
  try {
    const columns = (
      await db.query<{ column_name: string }>(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position',
        [T],
      )
    ).map((row) => row.column_name);
    if (columns.join(',') !== LEDGER_COLUMNS.join(',')) {
      await db.close();
      return {
        ok: false,
        reason: 'storage',
        message: `the database holds a ${T} table with other columns; it is not an agentdef execution ledger (it was left untouched)`,
      };
    }
  } catch (error) {
    await db.close();
    return {
      ok: false,
      reason: 'storage',
      message: `the ledger database could not be opened: ${describePostgresError(error)}`,
    };
  }
  return {
    ok: true,
    ledger: createLedgerOverStore('postgres', postgresStore(db), read.limits, read.now, describeLedgerError),
  };
}

function describeLedgerError(error: unknown): string {
  return `${describePostgresError(error)} (the ledger database is unreachable, busy or not an execution ledger)`;
}

const EVICTABLE = `dispatched_at IS NULL AND (state <> 'running' OR lease_until <= $1)`;

function postgresStore(db: PostgresDatabase): LedgerStore {
  /** The transaction of the step under way (steps of this store run one at a time). */
  let current: PostgresQueries | undefined;
  const tx = (): PostgresQueries => {
    if (current === undefined) throw Object.assign(new Error('outside a step'), { code: '25P01' });
    return current;
  };
  const inOrder = serialized();
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await tx().query<{ n: string }>(sql, params))[0]?.n ?? 0);
  return {
    async read(key) {
      const [row] = await tx().query<LedgerRow & Record<string, unknown>>(`SELECT * FROM ${T} WHERE key = $1`, [key]);
      return row === undefined ? undefined : recordOfRow(row);
    },
    count: () => count(`SELECT COUNT(*) AS n FROM ${T}`),
    async insert(record: NewLedgerRecord) {
      const [row] = await tx().query<{ claim: string }>(
        `INSERT INTO ${T} (key, plan_digest, mode, state, claimed_at, lease_until, dispatched_at, finished_at, result) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING claim`,
        [
          record.key,
          record.planDigest,
          record.mode,
          record.state,
          record.claimedAt,
          record.leaseUntil,
          record.dispatchedAt,
          record.finishedAt,
          record.result,
        ],
      );
      return { ...record, claim: Number(row?.claim) };
    },
    async update(record) {
      const rows = await tx().query(
        `UPDATE ${T} SET plan_digest = $3, mode = $4, state = $5, claimed_at = $6, lease_until = $7, dispatched_at = $8, finished_at = $9, result = $10 WHERE key = $1 AND claim = $2 RETURNING claim`,
        [
          record.key,
          record.claim,
          record.planDigest,
          record.mode,
          record.state,
          record.claimedAt,
          record.leaseUntil,
          record.dispatchedAt,
          record.finishedAt,
          record.result,
        ],
      );
      if (rows.length !== 1) throw Object.assign(new Error('lost row'), { code: 'P0002' });
    },
    async remove(key) {
      await tx().query(`DELETE FROM ${T} WHERE key = $1`, [key]);
    },
    async purgeExpired(now, ttl) {
      await tx().query(
        `DELETE FROM ${T} WHERE dispatched_at IS NULL AND COALESCE(finished_at, lease_until) + $2 <= $1`,
        [now, ttl],
      );
    },
    countEvictable: (now) => count(`SELECT COUNT(*) AS n FROM ${T} WHERE ${EVICTABLE}`, [now]),
    async evictOldest(now, n) {
      await tx().query(
        `DELETE FROM ${T} WHERE claim IN (SELECT claim FROM ${T} WHERE ${EVICTABLE} ORDER BY COALESCE(finished_at, lease_until), claim LIMIT $2)`,
        [now, n],
      );
    },
    async list() {
      return (await tx().query<LedgerRow & Record<string, unknown>>(`SELECT * FROM ${T} ORDER BY claim`)).map(
        recordOfRow,
      );
    },
    atomically: <R>(fn: () => Promise<R>): Promise<R> =>
      inOrder(() =>
        db.transaction(async (queries) => {
          await queries.query('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCK_CLASS, POSTGRES_LEDGER_LOCK]);
          current = queries;
          try {
            return await fn();
          } finally {
            current = undefined;
          }
        }),
      ),
    close: () => db.close(),
  };
}
