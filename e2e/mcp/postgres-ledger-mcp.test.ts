/**
 * `agentdef mcp --ledger` on PostgreSQL, end to end: two real `agentdef mcp` processes (spawned by
 * the official MCP SDK client) share one ledger in a real PostgreSQL started in this test's folder,
 * one given the connection string as `secret:LEDGER_URL` (read from `AGENTDEF_SECRET_LEDGER_URL`),
 * the other as `postgres://…`. They race live executes of the same idempotency key 100 times:
 * each key runs and dispatches exactly once (the other process answers in-progress or replays the
 * recorded run), as the reference gateway's outbox and the ledger table both show. Neither
 * process ever prints the connection string or its password, including when the ledger cannot be
 * opened (a wrong password, an unreachable server, a malformed string, an unset secret).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS_FOLDER,
  PUBLISHER_PATH,
  writeMcpWorkspace,
} from '../../plugin/application/__test-support__/mcp-workspace';
import { POSTGRES_LEDGER_TABLE } from '../../plugin/application/postgres-ledger';
import { HUNG_CHILD_MS } from '../support/hung-child';
import { freePort } from '../support/loopback-ports';
import { type PostgresServer, startPostgres } from '../support/postgres-server';
import { agentdefBin } from '../support/run-cli';

interface Server {
  client: Client;
  stderr: () => string;
}

/** The structured content of a tool call, as far as this test reads it. */
interface Executed {
  ok: boolean;
  plan?: { digest: string };
  replayed?: boolean;
  refusal?: string;
  run?: { status: string };
}

let dir: string;
let root: string;
let pg: PostgresServer;
let url: string;
const servers: Server[] = [];

/** A child environment with no access to the real home or cache, and no keychain. */
function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: join(dir, 'home'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    NO_COLOR: '1',
    AGENTDEF_KEYCHAIN: 'off',
    ...extra,
  };
}

async function startServer(ledger: string, env: Record<string, string> = {}): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [agentdefBin, 'mcp', '--workspace', root, '--ledger', ledger],
    cwd: root,
    env: childEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'agentdef-e2e-postgres-ledger', version: '1.0.0' });
  await client.connect(transport);
  const server = { client, stderr: () => stderr };
  servers.push(server);
  return server;
}

async function call(on: Server, name: string, args: Record<string, unknown>): Promise<Executed> {
  const result = (await on.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CallToolResultSchema,
  )) as { structuredContent?: Record<string, unknown> };
  return (result.structuredContent ?? { ok: false }) as unknown as Executed;
}

const dispatches = (): number => {
  const outbox = join(root, ARTIFACTS_FOLDER, 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).length : 0;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-pg-'));
  mkdirSync(join(dir, 'home'));
  root = join(dir, 'workspace');
  mkdirSync(root);
  writeMcpWorkspace(root);
  pg = await startPostgres(join(dir, 'pg'));
  url = await pg.database('shared_ledger');
});

afterAll(async () => {
  for (const server of servers) await server.client.close().catch(() => undefined);
  await pg?.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('two agentdef mcp processes on one PostgreSQL ledger', () => {
  it('race live executes of the same key 100 times: each key runs and dispatches exactly once', async () => {
    const a = await startServer('secret:LEDGER_URL', { AGENTDEF_SECRET_LEDGER_URL: url });
    const b = await startServer(url);
    for (const server of [a, b])
      expect(server.stderr()).toContain(
        'agentdef mcp: serving the application tools over stdio (execution ledger: PostgreSQL)',
      );
    const planned = await call(a, 'agentdef.application.plan', { manifestPath: PUBLISHER_PATH, mode: 'live' });
    const digest = planned.plan?.digest;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    const args = (key: string) => ({
      manifestPath: PUBLISHER_PATH,
      mode: 'live',
      expectedPlanDigest: digest,
      idempotencyKey: key,
      inputs: [{ node: 'request', port: 'value', json: JSON.stringify({ channel: 'archive' }) }],
    });
    const keys = Array.from({ length: 100 }, (_, i) => `race-${i}`);
    const before = dispatches();
    const answers: Executed[][] = [];
    for (let batch = 0; batch < keys.length; batch += 10) {
      answers.push(
        ...(await Promise.all(
          keys
            .slice(batch, batch + 10)
            .map(
              (key, i) =>
                Promise.all(
                  (i % 2 === 0 ? [a, b] : [b, a]).map((server) =>
                    call(server, 'agentdef.application.execute', args(key)),
                  ),
                ) as Promise<Executed[]>,
            ),
        )),
      );
    }
    const losers = new Map<string, number>();
    for (const pair of answers) {
      const ran = pair.filter((answer) => answer.ok && answer.replayed === false);
      expect(ran).toHaveLength(1);
      expect(ran[0]?.run?.status).toBe('succeeded');
      const other = pair.find((answer) => answer !== ran[0]);
      expect(
        (other?.ok === true && other.replayed === true) || (other?.ok === false && other.refusal === 'in-progress'),
      ).toBe(true);
      const how = other?.ok ? 'replayed' : 'in-progress';
      losers.set(how, (losers.get(how) ?? 0) + 1);
    }
    expect(losers.get('in-progress') ?? 0).toBeGreaterThan(0); // the processes did meet inside a run
    expect(dispatches()).toBe(before + keys.length);
    expect(
      pg.psql(
        `SELECT count(*) || ' ' || count(dispatched_at) || ' ' || count(DISTINCT claim) FROM ${POSTGRES_LEDGER_TABLE} WHERE state = 'succeeded'`,
        'shared_ledger',
      ),
    ).toBe('100 100 100\n');
    // Every key now replays on either process, and nothing more is dispatched.
    for (const server of [a, b])
      expect(await call(server, 'agentdef.application.execute', args('race-7'))).toMatchObject({
        ok: true,
        replayed: true,
      });
    expect(dispatches()).toBe(before + keys.length);
    for (const server of [a, b]) {
      expect(server.stderr()).not.toContain(pg.password);
      expect(server.stderr()).not.toContain(url);
    }
  });
});

describe('agentdef mcp --ledger never prints a connection string', () => {
  it('a wrong password, an unreachable server, a malformed string and an unset secret each fail with a code and no secret', async () => {
    const secret = 'Sup3r-Secret-Pa55';
    const closed = await freePort();
    const wrongPassword = url.replace(encodeURIComponent(pg.password), secret);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--ledger', wrongPassword], {}, /SQLSTATE 28P01/],
      [['--ledger', `postgres://agentdef:${secret}@127.0.0.1:${closed}/ledger`], {}, /ECONNREFUSED/],
      [['--ledger', `postgresql://agentdef:${secret}@[::1/ledger`], {}, /PostgreSQL|connection string/],
      [['--ledger', 'secret:LEDGER_URL'], { AGENTDEF_SECRET_LEDGER_URL: wrongPassword }, /SQLSTATE 28P01/],
      [['--ledger', 'secret:LEDGER_URL'], {}, /the secret LEDGER_URL is not set/],
      [
        ['--ledger', 'secret:LEDGER_URL'],
        { AGENTDEF_SECRET_LEDGER_URL: `mysql://u:${secret}@h/d` },
        /does not hold a postgres/,
      ],
    ];
    for (const [argv, env, expected] of cases) {
      const run = spawnSync(process.execPath, [agentdefBin, 'mcp', '--workspace', root, ...argv], {
        cwd: root,
        env: childEnv(env),
        encoding: 'utf8',
        input: '',
        timeout: HUNG_CHILD_MS,
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/--ledger: /);
      expect(run.stderr).toMatch(expected);
      for (const output of [run.stdout, run.stderr]) {
        expect(output).not.toContain(secret);
        expect(output).not.toContain(pg.password);
        expect(output).not.toContain('agentdef:');
      }
    }
  });
});
