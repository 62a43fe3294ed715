/**
 * The PostgreSQL task store against a real PostgreSQL started in this test's folder: the TaskStore
 * contract (each store an agent of its own in one database); two replicas sharing tasks, terminal
 * states and the page-token key; agents kept apart in one database; a replica that stops leaves its
 * unfinished task failed as `replica-lost`, final; odd task ids kept apart; an outage rejects with
 * TaskStoreUnavailableError (never the connection string) and nothing committed is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../../e2e/support/postgres-server';
import {
  contractTask,
  describeTaskStoreContract,
  workingTask,
} from '../../runtime/__test-support__/task-store-contract';
import { TaskStoreUnavailableError } from '../../runtime/task-store';
import { openPostgresTaskStore, type PostgresTaskStore, type PostgresTaskStoreOptions } from './postgres-task-store';

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-pg-tasks-'));
let server: PostgresServer;
let url: string;
const opened: PostgresTaskStore[] = [];
beforeAll(async () => {
  server = await startPostgres(join(scratch, 'pg'));
  url = await server.database('tasks');
});
afterAll(async () => {
  for (const store of opened) await store.close();
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

let agents = 0;
async function open(
  limits = { maxTasks: 100, maxBytes: 1e6 },
  options: Partial<PostgresTaskStoreOptions> = {},
): Promise<PostgresTaskStore> {
  const result = await openPostgresTaskStore(url, limits, { owner: `agent-${++agents}`, ...options });
  if (!result.ok) throw new Error(result.message);
  opened.push(result.store);
  return result.store;
}

describeTaskStoreContract('PostgreSQL', (limits) => open(limits));

describe('the PostgreSQL task store shared by replicas', () => {
  it('two replicas of one agent see each other’s tasks, terminal states and one page-token key', async () => {
    const a = await open(undefined, { owner: 'shared-agent' });
    const b = await open(undefined, { owner: 'shared-agent' });
    expect(a.shared && b.shared).toBe(true);
    await a.put(workingTask('t1'));
    expect((await b.get('t1'))?.state).toBe('working');
    expect(await b.put({ ...workingTask('t1'), state: 'canceled' })).toBe(true);
    expect(await a.put(contractTask('t1', 'hi', 'late'))).toBe(false);
    expect((await a.get('t1'))?.state).toBe('canceled');
    expect(await a.pageTokenKey()).toEqual(await b.pageTokenKey());
    expect((await a.pageTokenKey()).byteLength).toBe(32);
  });

  it('keeps agents apart in one database (tasks and page-token keys)', async () => {
    const a = await open(undefined, { owner: 'agent-left' });
    const b = await open(undefined, { owner: 'agent-right' });
    await a.put(contractTask('same-id', 'left'));
    expect(await b.get('same-id')).toBeUndefined();
    expect(await b.list()).toEqual([]);
    expect(await a.pageTokenKey()).not.toEqual(await b.pageTokenKey());
  });

  it('a replica that stops leaves its unfinished task failed (replica-lost), and final', async () => {
    const running = await open(undefined, { owner: 'lost-agent', leaseMs: 600, renewMs: 200 });
    const other = await open(undefined, { owner: 'lost-agent', leaseMs: 600, renewMs: 200 });
    await running.put(workingTask('run-1'));
    await other.put(workingTask('run-2'));
    expect((await other.get('run-1'))?.state).toBe('working');
    await running.close(); // its lease ends with it (a killed process's runs out: the e2e kill test)
    const lost = await other.get('run-1');
    expect(lost).toMatchObject({ id: 'run-1', state: 'failed', metadata: { stopReason: 'replica-lost' } });
    expect(lost?.replyText).toMatch(/replica running it stopped/);
    expect((await other.list()).map((task) => [task.id, task.state])).toEqual([
      ['run-1', 'failed'],
      ['run-2', 'working'],
    ]);
    // Final: the run's own end, arriving late from anywhere, cannot undo it.
    expect(await other.put(contractTask('run-1', 'hi', 'late answer'))).toBe(false);
    expect((await other.get('run-1'))?.state).toBe('failed');
  });

  it('a replica that stops while a lease renewal is in flight stays stopped (the renewal cannot write its lease back)', async () => {
    for (let round = 0; round < 5; round++) {
      // Renewed every millisecond: a renewal is almost always on its way when close deletes the lease.
      const running = await open(undefined, { owner: `racing-agent-${round}`, leaseMs: 60_000, renewMs: 1 });
      const other = await open(undefined, { owner: `racing-agent-${round}`, leaseMs: 60_000, renewMs: 30_000 });
      await running.put(workingTask(`race-${round}`));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await running.close();
      expect((await other.get(`race-${round}`))?.state, `round ${round}`).toBe('failed');
    }
  });

  it('keeps odd task ids apart and finds them again', async () => {
    const store = await open();
    const ids = ["'; DROP TABLE agentdef_tasks; --", '\ud800', '\udc00', 'a\u0000b', 'x'.repeat(5000), 'é', 'e\u0301'];
    for (const [n, id] of ids.entries()) expect(await store.put(contractTask(id, `user ${n}`))).toBe(true);
    for (const [n, id] of ids.entries()) expect((await store.get(id))?.userMessage?.parts[0]?.text).toBe(`user ${n}`);
    expect((await store.list()).length).toBe(ids.length);
  });

  it('rejects with TaskStoreUnavailableError in an outage, never quoting the connection string; nothing committed is lost', async () => {
    const store = await open(undefined, { owner: 'outage-agent' });
    await store.put(contractTask('kept', 'before the outage'));
    await server.stop();
    try {
      for (const call of [() => store.get('kept'), () => store.list(), () => store.put(contractTask('new', 'x'))]) {
        const error = await call().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(TaskStoreUnavailableError);
        expect((error as Error).message).toMatch(/^the task store is unavailable \(PostgreSQL /);
        expect((error as Error).message).not.toContain(server.password);
        expect((error as Error).message).not.toContain(String(server.port));
      }
    } finally {
      await server.start();
    }
    let kept: unknown;
    for (let tries = 0; tries < 50 && kept === undefined; tries++)
      kept = await store.get('kept').catch(() => undefined);
    expect(kept).toEqual(contractTask('kept', 'before the outage'));
  });

  it('refuses to open with a wrong password, saying so without the connection string', async () => {
    const wrong = url.replace(encodeURIComponent(server.password), 'wrong-s3cr3t');
    const result = await openPostgresTaskStore(wrong, { maxTasks: 1, maxBytes: 1000 }, { owner: 'x' });
    expect(result).toEqual({
      ok: false,
      message:
        'cannot use the PostgreSQL task store: cannot open the database: PostgreSQL SQLSTATE 28P01 (password authentication failed)',
    });
  });
});
