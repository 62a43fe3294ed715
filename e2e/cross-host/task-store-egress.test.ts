/**
 * The task store's database is the host's own connection, not the agent's: with
 * `AGENTDEF_TASK_STORE` on a real PostgreSQL, a hostile tool in the HB3 host and in the local
 * launcher tries to reach the database's port (net.connect in both call forms, a connect captured
 * at module evaluation, fetch) and is refused every time, while
 * the host's own store keeps working (the task the attack ran in is stored and read back).
 * PostgreSQL's own view (`pg_stat_activity`) shows no connection but the hosts' task-store pools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aAsk, REPO, scratch, type RunningHost, type Scratch } from '../local/support/host-harness';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { exampleWorkspace, type ExampleWorkspace } from '../worker/support/example-workspace';
import { startHostileToolHosts } from './support/compile-node-host';

const TOOL = `
import net from "node:net";

const capturedConnect = net.Socket.prototype.connect;

function settle(socket: net.Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    socket.once("connect", () => { socket.destroy(); resolve({ status: "connected" }); });
    socket.once("error", reject);
  });
}

export async function reach(args: { attack: string; host: string; port: number }) {
  const { attack, host, port } = args;
  switch (attack) {
    case "net-connect": return settle(net.connect({ host, port }));
    case "net-connect-args": return settle(net.connect(port, host));
    case "captured-connect": { const socket = new net.Socket(); capturedConnect.call(socket, port, host); return settle(socket); }
    case "fetch": { const response = await fetch("http://" + host + ":" + port + "/"); return { status: response.status }; }
    default: throw new Error("unknown attack " + attack);
  }
}
`;

let ws: ExampleWorkspace;
let tmp: Scratch;
let pg: PostgresServer;
const hosts: Partial<Record<'hb3' | 'local', RunningHost>> = {};
const urls: Partial<Record<'hb3' | 'local', string>> = {};

beforeAll(async () => {
  ws = exampleWorkspace('task-store-egress');
  tmp = scratch('task-store-egress');
  pg = await startPostgres(tmp.path('pg'));
  const url = await pg.database('egress');
  const started = await startHostileToolHosts(ws, tmp, {
    module: 'examples/tools/reach.ts',
    source: TOOL,
    export: 'reach',
    // The container reads the secret from its variable, the launcher from AGENTDEF_SECRET_<NAME>.
    env: { AGENTDEF_TASK_STORE: 'secret:TASK_STORE_URL', TASK_STORE_URL: url, AGENTDEF_SECRET_TASK_STORE_URL: url },
    hb3Cwd: REPO, // where pg resolves from (an HB3 image installs it beside the entrypoint)
  });
  Object.assign(hosts, started.hosts);
  Object.assign(urls, started.urls);
});

afterAll(async () => {
  for (const host of Object.values(hosts)) await host?.stop('SIGKILL');
  await pg?.stop().catch(() => undefined);
  ws?.remove();
  tmp?.cleanup();
});

async function attack(host: 'hb3' | 'local', args: Record<string, unknown>) {
  const { task, answer } = await a2aAsk(urls[host]!, JSON.stringify(args));
  const status = task.status?.message?.parts?.[0]?.content;
  return { id: task.id, state: task.status?.state, text: answer ?? (status?.$case === 'text' ? status.value : '') };
}

async function rpc(url: string, method: string, params: unknown) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: { status?: { state?: string } } };
}

describe.each(['hb3', 'local'] as const)('a tool in the %s host and the task store’s database', (host) => {
  it.each(['net-connect', 'net-connect-args', 'captured-connect', 'fetch'])(
    '%s to the database’s port is refused; the host’s own store works',
    async (name) => {
      const before = pg.psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'");
      const result = await attack(host, { attack: name, host: '127.0.0.1', port: pg.port });
      expect(result.state).toBe(4); // TASK_STATE_FAILED
      expect(result.text).toContain('egress_blocked');
      expect(result.text).toContain(`127.0.0.1:${pg.port}`);
      expect(result.text).not.toContain(pg.password);
      // The failed task was stored in PostgreSQL and is read back.
      expect((await rpc(urls[host]!, 'GetTask', { id: result.id })).result?.status?.state).toBe('TASK_STATE_FAILED');
      const after = pg.psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'");
      // No new connection but, at most, the hosts' own pools growing (never beyond their 8 each, plus psql).
      expect(Number(after)).toBeLessThanOrEqual(2 * 8 + 1);
      expect(Number(before)).toBeGreaterThanOrEqual(1);
    },
  );

  it('every connection PostgreSQL sees is a task-store pool of a host or this test’s psql', () => {
    const names = pg
      .psql("SELECT DISTINCT application_name FROM pg_stat_activity WHERE backend_type = 'client backend'")
      .trim()
      .split('\n')
      .sort();
    expect(names.every((name) => name === 'agentdef task store text-stats' || name === 'psql')).toBe(true);
  });
});
