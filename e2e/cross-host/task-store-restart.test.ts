/**
 * The SQLite task store across restarts of real hosts: the example `text-stats` (tool-only, no
 * model) compiled for the HB3 container and the local launcher, each started as users start it,
 * `agentdef run <output> --task-store <file>`. Tasks sent to the first process are found by the
 * next one on the same file, after a clean stop (SIGTERM) and after the host is killed (SIGKILL),
 * and a ListTasks page token issued by one process is accepted by the next. A file that is not a
 * task store stops the start with one clear line, and its bytes are unchanged. Two processes
 * started at once on a new file both open it (one creates it, the other finds it whole) and each
 * serves the other's tasks and page tokens.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentdefRun,
  isolatedEnv,
  receiptKeys,
  scratch,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';
import { exampleWorkspace, type ExampleWorkspace } from '../worker/support/example-workspace';
import { compileTextStatsFor } from './support/compile-node-host';

type HostName = 'hb3' | 'local';
const HOSTS: HostName[] = ['hb3', 'local'];

let ws: ExampleWorkspace;
let tmp: Scratch;
let secret: string;
const outs = {} as Record<HostName, string>;
const running: RunningHost[] = [];

beforeAll(async () => {
  ws = exampleWorkspace('task-store');
  tmp = scratch('task-store');
  secret = (await receiptKeys()).secret;
  // Inside the example workspace (under the repository): on a Node without node:sqlite the host finds libsql above its entry.
  outs.hb3 = join(ws.root, 'dist', 'hb3');
  outs.local = join(ws.root, 'dist', 'local');
  await compileTextStatsFor(ws, 'hb3', outs.hb3);
  await compileTextStatsFor(ws, 'local-mac', outs.local);
});

afterAll(async () => {
  for (const host of running) await host.stop('SIGKILL');
  ws?.remove();
  tmp?.cleanup();
});

function start(host: HostName, storeFile: string, round: number): RunningHost {
  const env = isolatedEnv(tmp.path(`home-${host}`), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: secret });
  const args = [
    '--task-store',
    storeFile,
    '--receipts',
    tmp.path(`${host}-${round}-receipts.jsonl`),
    ...(host === 'hb3' ? ['--serve'] : []),
  ];
  const started = agentdefRun(outs[host], args, env, ws.root);
  running.push(started);
  return started;
}

async function call(url: string, method: string, params: unknown) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: { code: number; message: string } };
}

async function send(url: string, contextId: string, messageId: string, text: string): Promise<string> {
  const sent = await call(url, 'SendMessage', {
    message: { messageId, contextId, role: 'ROLE_USER', parts: [{ text }] },
  });
  expect(sent.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
  return sent.result.task.id as string;
}

/** The host process `agentdef run` started (the supervisor's only child). */
function hostPidOf(supervisor: RunningHost): number {
  const pid = supervisor.proc.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  expect(children).toHaveLength(1);
  return children[0]!;
}

describe.each(HOSTS)('the %s host with --task-store', (host) => {
  it('finds its tasks and honours its page tokens after SIGTERM and after SIGKILL', async () => {
    const storeFile = tmp.path(`${host}-state`, 'tasks.sqlite');
    const contextId = `ctx-restart-${host}`;

    const first = start(host, storeFile, 1);
    const url1 = await first.ready;
    const ids = [
      await send(url1, contextId, 'm1', 'One.'),
      await send(url1, contextId, 'm2', 'One two.'),
      await send(url1, contextId, 'm3', 'One two three.'),
    ];
    const page1 = await call(url1, 'ListTasks', { contextId, pageSize: 1 });
    expect(page1.result.totalSize).toBe(3);
    const token = page1.result.nextPageToken as string;
    expect(token).not.toBe('');
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = start(host, storeFile, 2);
    const url2 = await second.ready;
    for (const id of ids)
      expect((await call(url2, 'GetTask', { id })).result?.status?.state, id).toBe('TASK_STATE_COMPLETED');
    const got = await call(url2, 'GetTask', { id: ids[1] });
    expect(JSON.parse(got.result.artifacts[0].parts[0].text).words).toBe(2);
    const page2 = await call(url2, 'ListTasks', { contextId, pageSize: 1, pageToken: token });
    expect(page2.error).toBeUndefined();
    expect(page2.result.totalSize).toBe(3);
    expect(page2.result.tasks.map((t: { id: string }) => t.id)).not.toContain(page1.result.tasks[0].id);
    const fourth = await send(url2, contextId, 'm4', 'One two three four.');
    const token2 = (await call(url2, 'ListTasks', { contextId, pageSize: 2 })).result.nextPageToken as string;
    expect(token2).not.toBe('');
    // Killed without a chance to close anything: the host first, then its supervisor.
    process.kill(hostPidOf(second), 'SIGKILL');
    await second.stop('SIGKILL');

    const third = start(host, storeFile, 3);
    const url3 = await third.ready;
    for (const id of [...ids, fourth])
      expect((await call(url3, 'GetTask', { id })).result?.status?.state, id).toBe('TASK_STATE_COMPLETED');
    const page3 = await call(url3, 'ListTasks', { contextId, pageSize: 2, pageToken: token2 });
    expect(page3.error).toBeUndefined();
    expect(page3.result.totalSize).toBe(4);
    expect(page3.result.tasks).toHaveLength(2);
    expect((await call(url3, 'GetTask', { id: 'no-such-task' })).error?.code).toBe(-32001);
    await third.stop('SIGTERM');
  });

  it('refuses to start on a file that is not a task store, naming it, and leaves it unchanged', async () => {
    const notes = tmp.path(`${host}-notes.txt`);
    writeFileSync(notes, 'not a database\n'.repeat(20));
    const before = readFileSync(notes);
    const refused = start(host, notes, 9);
    await expect(refused.ready).rejects.toThrow();
    expect(await refused.exited).not.toBe(0);
    expect(refused.stderr()).toMatch(
      new RegExp(
        `agentdef: error: AGENTDEF_TASK_STORE: cannot use ${notes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as the task store: it is not a SQLite database`,
      ),
    );
    expect(refused.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(notes).equals(before)).toBe(true);
  });
});

describe('two host processes on one new file', () => {
  it('both create-or-open it at once, and each serves the tasks and page tokens of the other', async () => {
    const storeFile = tmp.path('shared-state', 'tasks.sqlite');
    const [a, b] = [start('hb3', storeFile, 11), start('local', storeFile, 12)];
    // Both serve text-stats (the store's owner is the agent's slug, whichever host serves it).
    const started = await Promise.allSettled([a.ready, b.ready]);
    expect(started.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const [urlA, urlB] = [await a.ready, await b.ready];
    const contextId = 'ctx-shared';
    const fromA = await send(urlA, contextId, 's1', 'One.');
    const fromB = await send(urlB, contextId, 's2', 'One two.');
    expect((await call(urlB, 'GetTask', { id: fromA })).result?.id).toBe(fromA);
    expect((await call(urlA, 'GetTask', { id: fromB })).result?.id).toBe(fromB);
    const token = (await call(urlA, 'ListTasks', { contextId, pageSize: 1 })).result.nextPageToken as string;
    const next = await call(urlB, 'ListTasks', { contextId, pageSize: 1, pageToken: token });
    expect(next.error).toBeUndefined();
    expect(next.result.totalSize).toBe(2);
    await a.stop('SIGTERM');
    await b.stop('SIGTERM');
  });
});
