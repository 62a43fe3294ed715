/**
 * Two replicas of one agent behind one URL, sharing their A2A tasks in a real PostgreSQL (started in
 * this test's folder): the agentic example fallback-writer served by the HB3 entrypoint and by the
 * local launcher as real processes, each with `AGENTDEF_TASK_STORE=secret:TASK_STORE_URL` (the container's variable, the launcher's
 * AGENTDEF_SECRET_TASK_STORE_URL), behind a
 * round-robin loopback proxy (their public origin), driven through the official @a2a-js/sdk client.
 * The proxy records which replica answered each call, and every check shows the crossing:
 *   - a task sent through one replica is read by GetTask on the other;
 *   - ListTasks pages issued by one replica continue on the other (one page-token key);
 *   - SubscribeToTask on the other replica follows the run to its end;
 *   - CancelTask on the other replica cancels, and the running replica stops its run (its held
 *     model call is dropped); the task stays canceled;
 *   - PostgreSQL restarted mid-run: during the outage a read answers "the task store is
 *     unavailable" (never task-not-found, never the connection string), a send is refused before
 *     any task is acknowledged, and the held run, released after the restart, is kept completed;
 *   - `kill -9` of the replica running a task: the other reports it failed (`replica-lost`) once the
 *     dead replica's lease runs out, and it stays so.
 */
import { TaskState, type SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../plugin/runtime/__test-support__/until';
import {
  REPO,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { holdMarker, startHoldingModel, type HoldingModel } from './support/holding-model';
import { sendForTask, userMessage, writerTurn } from './support/writer-messages';

const ANTHROPIC_KEY = 'sk-ant-replicas-0123456789';
type Replica = 'hb3' | 'local';

let tmp: Scratch;
let pg: PostgresServer;
let storeUrl: string;
let model: HoldingModel;
let proxy: RoundRobinProxy;
let client: Client;
const replicas = {} as Record<Replica, RunningHost>;
const urls = {} as Record<Replica, string>;

beforeAll(async () => {
  tmp = scratch('pg-replicas');
  pg = await startPostgres(tmp.path('pg'));
  storeUrl = await pg.database('replicas');
  const keys = await receiptKeys();
  model = await startHoldingModel({ apiKey: ANTHROPIC_KEY, turn: writerTurn });
  proxy = await startRoundRobinProxy([]);
  await compileExample('fallback-writer', 'hb3', tmp.path('hb3'));
  await compileExample('fallback-writer', 'local-mac', tmp.path('local'));
  const common = {
    AGENTDEF_JOB_MODE: 'serve',
    AGENTDEF_BASE_URL_ANTHROPIC: model.url,
    AGENTDEF_PUBLIC_ORIGIN: proxy.url,
    AGENTDEF_TASK_STORE: 'secret:TASK_STORE_URL',
  };
  replicas.hb3 = startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
    cwd: REPO,
    env: isolatedEnv(tmp.path('home-hb3'), {
      ...common,
      HOST: '127.0.0.1',
      PORT: '0',
      AGENTDEF_RECEIPT_KEY: keys.secret,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_RECEIPTS_FILE: tmp.path('hb3-receipts.jsonl'),
      TASK_STORE_URL: storeUrl, // a container reads its secrets from its environment
    }),
  });
  replicas.local = startHostProcess([tmp.path('local', 'launch.mjs'), '--port', '0'], {
    cwd: REPO,
    env: isolatedEnv(tmp.path('home-local'), {
      ...common,
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      AGENTDEF_RECEIPTS_FILE: tmp.path('local-receipts.jsonl'),
      AGENTDEF_SECRET_TASK_STORE_URL: storeUrl, // this machine: the keychain, else AGENTDEF_SECRET_<NAME>
    }),
  });
  urls.hb3 = await replicas.hb3.ready;
  urls.local = await replicas.local.ready;
  proxy.backends.push(urls.hb3, urls.local);
  client = await new ClientFactory().createFromUrl(proxy.url);
});

afterAll(async () => {
  for (const replica of Object.values(replicas)) await replica.stop('SIGKILL');
  await proxy?.close();
  await model?.close();
  await pg?.stop().catch(() => undefined);
  tmp?.cleanup();
});

const send = (request: SendMessageRequest): Promise<Task> => sendForTask(client, request);

const getTask = (id: string) => client.getTask({ tenant: '', id });

/** The replica (backend URL) that answered the last call of `method` through the proxy. */
function lastBackend(method: string): string {
  const call = proxy.calls.findLast((entry) => entry.method === method);
  if (!call) throw new Error(`no ${method} went through the proxy`);
  return call.backend;
}

/** Makes the next JSON-RPC call through the proxy go to the other replica than `backend`. */
function nextGoesAwayFrom(backend: string): void {
  if (proxy.backends.length < 2) throw new Error('only one replica is serving');
  if (proxy.upNext() === backend) proxy.skip();
}

async function rawCall(url: string, method: string, params: unknown) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as {
    result?: { id?: string; task?: { id: string }; status?: { state: string }; metadata?: Record<string, unknown> };
    error?: { code: number; message: string };
  };
}

describe('two replicas sharing a PostgreSQL task store behind one URL', () => {
  it('a task sent through one replica is read by GetTask on the other', async () => {
    const sent = await send(userMessage('rename a to b'));
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const sentBy = lastBackend('SendMessage');
    nextGoesAwayFrom(sentBy);
    const read = await getTask(sent.id);
    expect(lastBackend('GetTask')).not.toBe(sentBy);
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(read.artifacts).toEqual(sent.artifacts);
  });

  it('ListTasks pages issued by one replica continue on the other', async () => {
    const contextId = 'ctx-replicas-list';
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third'])
      ids.push((await send(userMessage(`${text} change`, { contextId }))).id);
    const base = {
      tenant: '',
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    };
    const seen: string[] = [];
    const pageBackends: string[] = [];
    let pageToken = '';
    do {
      const page = await client.listTasks({ ...base, pageSize: 1, pageToken });
      pageBackends.push(lastBackend('ListTasks'));
      seen.push(...page.tasks.map((task) => task.id));
      expect(page.totalSize).toBe(3);
      pageToken = page.nextPageToken;
    } while (pageToken !== '' && seen.length < 5);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(pageBackends).size).toBe(2); // pages alternated between the replicas
  });

  it('SubscribeToTask on the other replica follows the run to its end', async () => {
    const marker = holdMarker('replicas-subscribe');
    const sent = await send(userMessage(`rename a ${marker}`, { returnImmediately: true }));
    const runningOn = lastBackend('SendMessage');
    await model.held(marker);
    nextGoesAwayFrom(runningOn);
    const events: StreamResponse[] = [];
    const reading = (async () => {
      for await (const event of client.resubscribeTask({ tenant: '', id: sent.id })) events.push(event);
    })();
    await until(
      async () => events.length,
      (n) => n > 0,
      'the first event',
    );
    expect(lastBackend('SubscribeToTask')).not.toBe(runningOn);
    expect((events[0]!.payload as { value: Task }).value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    model.release(marker);
    await reading;
    const last = events.at(-1)!.payload as { $case: string; value: { status?: { state: TaskState } } };
    expect(last.$case).toBe('statusUpdate');
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await getTask(sent.id)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('CancelTask on the other replica cancels, and the running replica stops its run', async () => {
    const marker = holdMarker('replicas-cancel');
    const sent = await send(userMessage(`rename a ${marker}`, { returnImmediately: true }));
    const runningOn = lastBackend('SendMessage');
    await model.held(marker);
    nextGoesAwayFrom(runningOn);
    const canceled = await client.cancelTask({ tenant: '', id: sent.id, metadata: undefined });
    expect(lastBackend('CancelTask')).not.toBe(runningOn);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The running replica sees the cancel in the store (it polls every second) and drops the model call.
    await until(
      async () => model.dropped.has(marker),
      (dropped) => dropped,
      'the held model call is dropped by the running replica',
    );
    model.release(marker);
    for (const url of Object.values(urls))
      expect((await rawCall(url, 'GetTask', { id: sent.id })).result?.status?.state).toBe('TASK_STATE_CANCELED');
  });

  it('PostgreSQL restarted mid-run: reads say the store is unavailable, sends are refused, the held run is kept', async () => {
    const marker = holdMarker('replicas-restart');
    const sent = await send(userMessage(`rename a ${marker}`, { returnImmediately: true }));
    await model.held(marker);
    await pg.stop();
    try {
      for (const url of Object.values(urls)) {
        const read = await rawCall(url, 'GetTask', { id: sent.id });
        expect(read.error?.message).toBe('The task store is unavailable; try again shortly');
        const refused = await rawCall(url, 'SendMessage', {
          message: { messageId: `m-outage-${url}`, role: 'ROLE_USER', parts: [{ text: 'during the outage' }] },
          configuration: { returnImmediately: true },
        });
        expect(refused.result).toBeUndefined();
        expect(refused.error?.message).toBe('The task store is unavailable; try again shortly');
        expect(JSON.stringify([read, refused])).not.toContain(pg.password);
      }
    } finally {
      await pg.start();
    }
    model.release(marker);
    const done = await until(
      () => getTask(sent.id).catch(() => undefined),
      (task) => task !== undefined && task.status?.state !== TaskState.TASK_STATE_WORKING,
      'the held run ends after the restart',
    );
    expect(done!.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    for (const replica of Object.values(replicas)) {
      expect(replica.stderr() + replica.stdout()).not.toContain(pg.password);
      expect(replica.stderr() + replica.stdout()).not.toContain(storeUrl);
    }
  });

  it('kill -9 of the replica running a task: the other reports it failed (replica-lost), and it stays so', async () => {
    const marker = holdMarker('replicas-kill');
    const sent = await send(userMessage(`rename a ${marker}`, { returnImmediately: true }));
    const runningOn = lastBackend('SendMessage');
    await model.held(marker);
    const [dead, survivor] = (Object.keys(urls) as Replica[]).sort((a) => (urls[a] === runningOn ? -1 : 1));
    replicas[dead!].proc.kill('SIGKILL');
    await replicas[dead!].exited;
    proxy.backends.splice(0, proxy.backends.length, urls[survivor!]); // the balancer's health check takes it out
    expect((await getTask(sent.id)).status?.state).toBe(TaskState.TASK_STATE_WORKING); // its lease has not run out yet
    const lost = await until(
      () => rawCall(urls[survivor!], 'GetTask', { id: sent.id }),
      (read) => read.result?.status?.state !== 'TASK_STATE_WORKING',
      'the task of the killed replica is reported',
    );
    expect(lost.result?.status?.state).toBe('TASK_STATE_FAILED');
    expect(lost.result?.metadata).toMatchObject({ stopReason: 'replica-lost' });
    model.release(marker);
    const again = await getTask(sent.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });
});
