/**
 * The PostgreSQL execution ledger against a real PostgreSQL started in this test's own folder
 * (e2e/support/postgres-server.ts; never a mock): the ledger contract every implementation passes
 * (__test-support__/ledger-contract.ts, the same tests as the memory and SQLite ledgers, each on a
 * fresh database); concurrent claims on two ledgers (two pools) with one winner per key; the schema's
 * migrations (applied once when two openings race; a foreign table of the ledger's name, or a newer
 * schema version, refused and left as it was); the server restarted mid-run (operations during the
 * outage answer `storage`, then everything acknowledged is still there); and no message ever
 * carries the connection string or its password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgres } from '../../e2e/support/postgres-server';
import { freePort } from '../../e2e/support/loopback-ports';
import { describeLedgerContract } from './__test-support__/ledger-contract';
import { describeLedgersInLockstep } from './__test-support__/ledger-lockstep';
import { fakeClock, live } from './__test-support__/ledgers';
import type { ExecutionLedger, ExecutionLedgerOptions } from './execution-ledger';
import { createMemoryExecutionLedger } from './execution-ledger';
import { openPostgresExecutionLedger, POSTGRES_LEDGER_TABLE } from './postgres-ledger';

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-pg-ledger-'));
let server: PostgresServer;
const opened: ExecutionLedger[] = [];
beforeAll(async () => {
  server = await startPostgres(join(scratch, 'pg'));
});
afterAll(async () => {
  for (const ledger of opened) await ledger.close();
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

let databases = 0;
/** A fresh database for one test. */
const freshDatabase = () => server.database(`ledger_${databases++}`);

async function open(url: string, options: ExecutionLedgerOptions = {}): Promise<ExecutionLedger> {
  const opening = await openPostgresExecutionLedger({ ...options, url });
  if (!opening.ok) throw new Error(`could not open the PostgreSQL ledger: ${opening.message}`);
  opened.push(opening.ledger);
  return opening.ledger;
}

describeLedgerContract('postgres', async (options) => open(await freshDatabase(), options));

/** One database for the property's runs, emptied (claim numbers from 1 again) before each. */
let lockstepDatabase: string | undefined;
describeLedgersInLockstep(
  'the in-memory and PostgreSQL ledgers answer identically, stay bounded, never lose a protected entry and replay exactly what was recorded',
  async (options) => {
    if (lockstepDatabase === undefined) lockstepDatabase = await server.database('lockstep');
    else server.psql(`TRUNCATE ${POSTGRES_LEDGER_TABLE} RESTART IDENTITY`, 'lockstep');
    const memory = createMemoryExecutionLedger(options);
    if (!memory.ok) throw new Error(memory.message);
    return [memory.ledger, await open(lockstepDatabase, options)];
  },
  40,
);

describe('the PostgreSQL ledger shared by two pools', () => {
  it('reports its kind, and two ledgers on one database race for each key with exactly one winner', async () => {
    const url = await freshDatabase();
    const [a, b] = [await open(url), await open(url)];
    expect(a.kind).toBe('postgres');
    const keys = Array.from({ length: 60 }, (_, i) => `race-${i}`);
    const answers = await Promise.all(
      keys.map((key, i) => Promise.all((i % 2 === 0 ? [a, b] : [b, a]).map((ledger) => ledger.claim(key, live())))),
    );
    const claims = new Set<number>();
    for (const pair of answers) {
      expect(pair.map((answer) => answer.kind).sort()).toEqual(['claimed', 'in-progress']);
      for (const answer of pair) if (answer.kind === 'claimed') claims.add(answer.claim);
    }
    expect(claims.size).toBe(keys.length); // claim numbers are never given twice
    const snapshot = await b.snapshot();
    expect(snapshot.ok && snapshot.entries.map((entry) => entry.key).sort()).toEqual([...keys].sort());
  });

  it('a run claimed on one ledger is finished there and replayed by the other', async () => {
    const url = await freshDatabase();
    const [a, b] = [await open(url), await open(url)];
    const claim = await a.claim('shared', live());
    if (claim.kind !== 'claimed') throw new Error(claim.kind);
    expect((await a.markDispatched('shared', claim.claim)).ok).toBe(true);
    expect((await b.finish('shared', claim.claim, { status: 'succeeded', result: { n: 1 } })).ok).toBe(true);
    expect(await a.claim('shared', live())).toMatchObject({ kind: 'replay', result: { n: 1 } });
  });
});

describe('the PostgreSQL ledger schema', () => {
  it('two openings racing on an empty database apply the schema once', async () => {
    const url = await freshDatabase();
    const name = `ledger_${databases - 1}`;
    const [a, b] = await Promise.all([open(url), open(url)]);
    expect(
      server.psql("SELECT version FROM agentdef_schema_migrations WHERE component = 'execution-ledger'", name),
    ).toBe('1\n');
    const claim = await a.claim('k', live());
    expect(claim.kind).toBe('claimed');
    expect((await b.claim('k', live())).kind).toBe('in-progress');
  });

  it('refuses a database holding a table of its name that agentdef did not create, and leaves it as it was', async () => {
    await freshDatabase();
    const name = `ledger_${databases - 1}`;
    const url = server.url.replace(/\/postgres$/, `/${name}`);
    server.psql(
      `CREATE TABLE ${POSTGRES_LEDGER_TABLE} (key text, note text); INSERT INTO ${POSTGRES_LEDGER_TABLE} VALUES ('theirs', 'kept')`,
      name,
    );
    const refused = await openPostgresExecutionLedger({ url });
    expect(refused).toEqual({ ok: false, reason: 'storage', message: expect.stringContaining('SQLSTATE 42P07') });
    expect(server.psql(`SELECT key || ':' || note FROM ${POSTGRES_LEDGER_TABLE}`, name)).toBe('theirs:kept\n');
    expect(server.psql("SELECT to_regclass('agentdef_schema_migrations') IS NULL", name)).toBe('t\n');
    expect(
      server.psql(
        `SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = '${POSTGRES_LEDGER_TABLE}'`,
        name,
      ),
    ).toBe('key,note\n');
  });

  it('refuses a database at a newer schema version than this agentdef knows, changing nothing', async () => {
    const url = await freshDatabase();
    const name = `ledger_${databases - 1}`;
    const ledger = await open(url);
    expect((await ledger.claim('kept', live())).kind).toBe('claimed');
    server.psql("INSERT INTO agentdef_schema_migrations (component, version) VALUES ('execution-ledger', 2)", name);
    const refused = await openPostgresExecutionLedger({ url });
    expect(refused).toEqual({ ok: false, reason: 'storage', message: expect.stringContaining('schema version 2') });
    expect((refused as { message: string }).message).toContain('upgrade agentdef');
    expect(server.psql(`SELECT key FROM ${POSTGRES_LEDGER_TABLE}`, name)).toBe('kept\n');
  });

  it('refuses unusable options without connecting', async () => {
    for (const [options, message] of [
      [{ url: 'mysql://db/ledger' }, 'postgres://'],
      [{ url: 42 }, 'postgres://'],
      [{ url: server.url, maxConnections: 0 }, 'maxConnections'],
      [{ url: server.url, leaseMs: 0 }, 'leaseMs'],
    ] as const)
      expect(await openPostgresExecutionLedger(options as never)).toEqual({
        ok: false,
        reason: 'invalid-options',
        message: expect.stringContaining(message),
      });
  });
});

describe('the PostgreSQL ledger when the server restarts mid-run', () => {
  it('answers storage during the outage (no secret in the message), then works again with nothing acknowledged lost', async () => {
    const url = await freshDatabase();
    const clock = fakeClock();
    const ledger = await open(url, { now: clock.now });
    const done = await ledger.claim('done', live());
    if (done.kind !== 'claimed') throw new Error(done.kind);
    expect((await ledger.markDispatched('done', done.claim)).ok).toBe(true);
    expect((await ledger.finish('done', done.claim, { status: 'succeeded', result: 'kept' })).ok).toBe(true);
    const held = await ledger.claim('held', live());
    if (held.kind !== 'claimed') throw new Error(held.kind);

    await server.stop();
    const during = [
      await ledger.claim('new', live()),
      await ledger.get('done'),
      await ledger.finish('held', held.claim, { status: 'succeeded', result: 'lost?' }),
      await ledger.snapshot(),
    ];
    for (const answer of during) {
      expect(answer).toMatchObject({ reason: 'storage', message: expect.stringMatching(/PostgreSQL/) });
      const text = JSON.stringify(answer);
      expect(text).not.toContain(server.password);
      expect(text).not.toContain(url);
      expect(text).not.toContain(String(server.port));
    }
    await server.start();

    expect(await ledger.claim('done', live())).toMatchObject({ kind: 'replay', result: 'kept' });
    expect(await ledger.claim('held', live())).toMatchObject({ kind: 'in-progress' }); // its claim survived
    expect((await ledger.finish('held', held.claim, { status: 'succeeded', result: 'after' })).ok).toBe(true);
    expect(await ledger.claim('held', live())).toMatchObject({ kind: 'replay', result: 'after' });
    expect((await ledger.claim('new', live())).kind).toBe('claimed'); // the refused claim left nothing behind
  });
});

describe('the PostgreSQL ledger never shows its connection string', () => {
  it('a wrong password, an unreachable server and a malformed string each answer a code, never the secret', async () => {
    const secret = 'Sup3r-Secret-Pa55';
    const closedPort = await freePort();
    const cases = [
      server.url.replace(encodeURIComponent(server.password), secret),
      `postgres://agentdef:${secret}@127.0.0.1:${closedPort}/ledger`,
      `postgres://agentdef:${secret}@127.0.0.1:notaport/ledger`,
      `postgresql://agentdef:${secret}@[::1/ledger`,
    ];
    const messages: string[] = [];
    for (const url of cases) {
      const answer = await openPostgresExecutionLedger({ url });
      expect(answer.ok).toBe(false);
      const text = JSON.stringify(answer);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('agentdef:');
      messages.push((answer as { message: string }).message);
    }
    expect(messages[0]).toContain('SQLSTATE 28P01');
    expect(messages[1]).toContain('ECONNREFUSED');
  });
});
