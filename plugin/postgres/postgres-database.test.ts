/**
 * The PostgreSQL database port against a real server started in this test's folder: migrations
 * apply once under the advisory lock (two openings racing), a newer schema or a foreign table is
 * refused and left as it was, the pool survives a server restart, and no message ever carries the
 * connection string or its password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../e2e/support/postgres-server';
import { describePostgresError, MIGRATIONS_TABLE, openPostgresDatabase, type Migration } from './postgres-database';
import { connectionStringOf, postgresEndpoint, readStoreSpec, storeLabel } from './store-spec';

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-pg-db-'));
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres(join(scratch, 'pg'));
});
afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

const MIGRATIONS: Migration[] = [
  { version: 1, sql: 'CREATE TABLE agentdef_probe (id integer PRIMARY KEY)' },
  { version: 2, sql: 'ALTER TABLE agentdef_probe ADD COLUMN note text' },
];
const open = (url: string, migrations = MIGRATIONS) =>
  openPostgresDatabase(url, { component: 'probe', migrations, applicationName: 'agentdef test' });

describe('openPostgresDatabase', () => {
  it('applies each migration once, also when two openings race, and records the versions', async () => {
    const url = await server.database('race');
    const [a, b] = await Promise.all([open(url), open(url)]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(server.psql(`SELECT component || ':' || version FROM ${MIGRATIONS_TABLE} ORDER BY version`, 'race')).toBe(
      'probe:1\nprobe:2\n',
    );
    await a.db.query('INSERT INTO agentdef_probe (id, note) VALUES ($1, $2)', [1, 'one']);
    expect(await b.db.query('SELECT id, note FROM agentdef_probe')).toEqual([{ id: 1, note: 'one' }]);
    await Promise.all([a.db.close(), b.db.close()]);
  });

  it('refuses a database at a newer schema version, and one holding a table it did not create, changing nothing', async () => {
    const url = await server.database('foreign');
    const first = await open(url);
    expect(first.ok).toBe(true);
    if (first.ok) await first.db.close();
    const older = await open(url, MIGRATIONS.slice(0, 1));
    expect(older).toEqual({ ok: false, message: expect.stringContaining('schema version 2') });
    expect((older as { message: string }).message).toContain('upgrade agentdef');

    const other = await server.database('theirs');
    server.psql("CREATE TABLE agentdef_probe (id text); INSERT INTO agentdef_probe VALUES ('theirs')", 'theirs');
    const refused = await open(other);
    expect(refused.ok).toBe(false);
    expect((refused as { message: string }).message).toMatch(/SQLSTATE 42P07.*nothing was changed/);
    expect(server.psql('SELECT id FROM agentdef_probe', 'theirs')).toBe('theirs\n');
    expect(server.psql(`SELECT count(*) FROM pg_tables WHERE tablename = '${MIGRATIONS_TABLE}'`, 'theirs')).toBe('0\n');
  });

  it('keeps working across a server restart: queries in the outage fail with a code, later ones succeed', async () => {
    const url = await server.database('restart');
    const opened = await open(url);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    await opened.db.query('INSERT INTO agentdef_probe (id) VALUES (1)');
    await server.stop();
    const during = await opened.db.query('SELECT 1').catch((error: unknown) => describePostgresError(error));
    expect(during).toMatch(/^PostgreSQL (unreachable \(ECONNREFUSED\)|closed the connection|SQLSTATE 57P01)/);
    await server.start();
    let rows: unknown;
    for (let tries = 0; tries < 50; tries++) {
      rows = await opened.db.query('SELECT id FROM agentdef_probe').catch(() => undefined);
      if (rows !== undefined) break; // the first query after the restart may meet a connection the server dropped
    }
    expect(rows).toEqual([{ id: 1 }]);
    await opened.db.close();
  });

  it('never puts the connection string or its password in a message', async () => {
    const wrong = server.url.replace(encodeURIComponent(server.password), 'not-the-password-s3cr3t');
    const cases = [
      wrong,
      `postgres://agentdef:${server.password}@127.0.0.1:1/postgres`,
      `postgres://agentdef:${server.password}@[::zz]:5432/x`,
    ];
    for (const url of cases) {
      const opened = await open(url);
      expect(opened.ok).toBe(false);
      const { message } = opened as { message: string };
      expect(message).not.toContain(server.password);
      expect(message).not.toContain('s3cr3t');
      expect(message).not.toContain('127.0.0.1');
      expect(message).toMatch(/PostgreSQL|connection string/);
    }
    const refused = (await open(wrong)) as { message: string };
    expect(refused.message).toContain('SQLSTATE 28P01 (password authentication failed)');
  });
});

describe('store options', () => {
  it('read as a file, a connection string or a secret, and are labelled without the connection string', async () => {
    expect(readStoreSpec('tasks.sqlite')).toEqual({ kind: 'file', path: 'tasks.sqlite' });
    const url = 'postgresql://u:p4ss@db.internal/tasks?sslmode=verify-full';
    expect(readStoreSpec(url)).toEqual({ kind: 'postgres', url });
    expect(storeLabel(readStoreSpec(url) as never)).toBe('PostgreSQL');
    expect(readStoreSpec('secret:TASK_STORE_URL')).toEqual({ kind: 'secret', name: 'TASK_STORE_URL' });
    expect(readStoreSpec('secret:lower')).toMatchObject({ kind: 'invalid' });
    expect(readStoreSpec('mysql://u:p4ss@h/db')).toMatchObject({ kind: 'invalid' });
    expect(JSON.stringify(readStoreSpec('mysql://u:p4ss@h/db'))).not.toContain('p4ss');
    const how = (name: string) => `set AGENTDEF_SECRET_${name}`;
    const secrets: Record<string, string> = { GOOD: url, BAD: 'https://u:p4ss@h/' };
    const read = async (name: string) => secrets[name];
    expect(await connectionStringOf({ kind: 'secret', name: 'GOOD' }, read, how)).toEqual({ ok: true, url });
    const bad = await connectionStringOf({ kind: 'secret', name: 'BAD' }, read, how);
    expect(bad).toEqual({ ok: false, message: expect.stringContaining('does not hold a postgres://') });
    expect(JSON.stringify(bad)).not.toContain('p4ss');
    expect(await connectionStringOf({ kind: 'secret', name: 'NONE' }, read, how)).toEqual({
      ok: false,
      message: 'the secret NONE is not set: set AGENTDEF_SECRET_NONE',
    });
  });
});

describe('TLS, passed through the connection string', () => {
  let tlsServer: PostgresServer;
  beforeAll(async () => {
    tlsServer = await startPostgres(join(scratch, 'pg-tls'), { tls: true });
  });
  afterAll(async () => {
    await tlsServer?.stop().catch(() => undefined);
  });

  it('verify-full with the CA connects over TLS; without the CA the certificate is refused; a plain server refuses TLS', async () => {
    const base = await tlsServer.database('tls');
    const verified = await open(`${base}?sslmode=verify-full&sslrootcert=${encodeURIComponent(tlsServer.caFile!)}`);
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    const [row] = await verified.db.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    expect(row?.ssl).toBe(true);
    await verified.db.close();

    const unverified = await open(`${base}?sslmode=verify-full`);
    expect(unverified.ok).toBe(false);
    expect((unverified as { message: string }).message).toMatch(/TLS|certificate/);
    expect((unverified as { message: string }).message).not.toContain(tlsServer.password);

    const plain = await open(`${await server.database('plain_tls')}?sslmode=verify-full`);
    expect(plain.ok).toBe(false);
    expect((plain as { message: string }).message).toContain('the server does not accept TLS');
  });
});

describe('the endpoint a guarded host lets its store reach', () => {
  it('is the one TCP host:port of the connection string; a unix socket, a host list or a bad port is refused without quoting it', () => {
    expect(postgresEndpoint('postgres://u:p4ss@db.internal/tasks')).toEqual({ endpoint: 'db.internal:5432' });
    expect(postgresEndpoint('postgresql://u:p4ss@10.0.0.7:6543/tasks?sslmode=verify-full')).toEqual({
      endpoint: '10.0.0.7:6543',
    });
    expect(postgresEndpoint('postgres://u:p4ss@[::1]:5433/tasks')).toEqual({ endpoint: '::1:5433' });
    // pg reads host and port from the query too: the guard must allow what pg will connect to.
    expect(postgresEndpoint('postgres://u:p4ss@db.internal/tasks?host=evil.example&port=25')).toEqual({
      endpoint: 'evil.example:25',
    });
    for (const refused of [
      'postgres://u:p4ss@/tasks?host=/var/run/postgresql',
      'postgres://u:p4ss@db.internal/tasks?host=a.example,b.example',
      'postgres://u:p4ss@db.internal:0/tasks',
      'postgres://u:p4ss@db.internal/tasks?port=70000',
      'postgres://u:p4ss@[::zz]/tasks',
    ]) {
      const answer = postgresEndpoint(refused);
      expect('problem' in answer, refused).toBe(true);
      expect(JSON.stringify(answer)).not.toContain('p4ss');
    }
  });
});
