/**
 * A2A v1.0 strict JSON-RPC on every host: the example `text-stats` (a tool-only agent, no model)
 * compiled for the Worker (workerd through miniflare, behind its loader, as `agentdef dev` starts
 * it) and for the HB3 container (its entrypoint as a real Node process: plugin/hosts/node's HTTP
 * server serving the handler). On both, with plain fetch (the exact wire) and the official
 * @a2a-js/sdk client:
 *   - JSON-RPC 2.0 errors byte-for-byte the same: -32700, -32600 (jsonrpc, method, id, batch),
 *     -32601, -32602 naming the parameter, -32009 for an unsupported `A2A-Version`;
 *   - the card's JSONRPC interfaces name the service root, and the root and `/a2a/v1` both answer;
 *   - GetExtendedAgentCard is -32004, push-notification methods -32003;
 *   - `returnImmediately` answers the working task and the run finishes (Workers: `waitUntil`);
 *     `historyLength` trims the history; a follow-up into the finished task is -32004;
 *   - ListTasks filters by context, pages with tokens bound to their filter, validates parameters.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isolatedEnv,
  receiptKeys,
  scratch,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../local/support/host-harness';
import { compileWorker, exampleWorkspace, type ExampleWorkspace } from '../worker/support/example-workspace';
import { startCompiledWorker, type StartedWorker } from '../worker/support/start-compiled-worker';
import { compileTextStatsFor } from './support/compile-node-host';
import { until } from '../../plugin/runtime/__test-support__/until';

type HostName = 'worker' | 'hb3';
const HOSTS: HostName[] = ['worker', 'hb3'];

let ws: ExampleWorkspace;
let tmp: Scratch;
let worker: StartedWorker;
let hb3: RunningHost;
const urls = {} as Record<HostName, string>;

beforeAll(async () => {
  ws = exampleWorkspace('a2a-strict');
  tmp = scratch('a2a-strict');
  const keys = await receiptKeys();
  const compiled = await compileWorker(ws.root, 'text-stats');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  worker = await startCompiledWorker(compiled.outDir, { secrets: { AGENTDEF_RECEIPT_KEY: keys.secret } });
  await compileTextStatsFor(ws, 'hb3', tmp.path('hb3'));
  hb3 = startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
    cwd: tmp.path('hb3'),
    env: isolatedEnv(tmp.path('home-hb3'), {
      HOST: '127.0.0.1',
      PORT: '0',
      AGENTDEF_JOB_MODE: 'serve',
      AGENTDEF_RECEIPTS_FILE: tmp.path('hb3-receipts.jsonl'),
      AGENTDEF_RECEIPT_KEY: keys.secret,
    }),
  });
  urls.worker = worker.url;
  urls.hb3 = await hb3.ready;
});

afterAll(async () => {
  await hb3?.stop('SIGKILL');
  await worker?.dispose();
  ws?.remove();
  tmp?.cleanup();
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}, path = '/') {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as any };
}
const call = (url: string, method: string, params: unknown, headers: Record<string, string> = {}) =>
  post(url, { jsonrpc: '2.0', id: 1, method, params }, headers);
const message = (messageId: string, text: string, extra: Record<string, unknown> = {}) => ({
  messageId,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

/** The same request on every host: the answers, by host. */
async function everywhere<T>(ask: (url: string) => Promise<T>): Promise<Record<HostName, T>> {
  const out = {} as Record<HostName, T>;
  for (const host of HOSTS) out[host] = await ask(urls[host]);
  return out;
}

describe('strict JSON-RPC 2.0 on the Worker and the Node host', () => {
  it('answers every malformed request with the same exact JSON-RPC error', async () => {
    const invalid = { code: -32600, message: 'Request payload validation error' };
    const cases: [string, unknown][] = [
      ['{"jsonrpc":"2.0",', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } }],
      ['{"id":1,"method":"GetTask","params":{"id":"x"}}', { jsonrpc: '2.0', id: 1, error: invalid }],
      ['{"jsonrpc":"1.0","id":2,"method":"GetTask"}', { jsonrpc: '2.0', id: 2, error: invalid }],
      ['{"jsonrpc":"2.0","id":3}', { jsonrpc: '2.0', id: 3, error: invalid }],
      ['{"jsonrpc":"2.0","id":4,"method":["GetTask"]}', { jsonrpc: '2.0', id: 4, error: invalid }],
      ['{"jsonrpc":"2.0","id":{"n":5},"method":"GetTask"}', { jsonrpc: '2.0', id: null, error: invalid }],
      ['{"jsonrpc":"2.0","id":[6],"method":"GetTask"}', { jsonrpc: '2.0', id: null, error: invalid }],
      [
        '[{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"x"}}]',
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Batch requests are not supported' } },
      ],
      [
        '{"jsonrpc":"2.0","id":"m","method":"NoSuchMethod"}',
        { jsonrpc: '2.0', id: 'm', error: { code: -32601, message: 'Method not found' } },
      ],
    ];
    for (const [body, expected] of cases) {
      const answers = await everywhere((url) => post(url, body));
      for (const host of HOSTS) expect(answers[host], `${host}: ${body}`).toEqual({ status: 200, json: expected });
    }
    const params = await everywhere(
      async (url) => (await call(url, 'ListTasks', { pageSize: 0, historyLength: -1 })).json.error,
    );
    for (const host of HOSTS) {
      expect(params[host].message, host).toBe('Invalid parameters: pageSize, historyLength');
      expect(params[host].data[0].fieldViolations.map((v: { field: string }) => v.field)).toEqual([
        'pageSize',
        'historyLength',
      ]);
    }
    expect(params.worker).toEqual(params.hb3);
    const version = await everywhere(
      async (url) => (await call(url, 'GetTask', { id: 'x' }, { 'A2A-Version': '2.0' })).json.error,
    );
    for (const host of HOSTS)
      expect(version[host], host).toMatchObject({ code: -32009, data: [{ reason: 'VERSION_NOT_SUPPORTED' }] });
  });

  it('names the service root in the card, and answers JSON-RPC there and at /a2a/v1', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
        supportedInterfaces: { url: string }[];
      };
      expect(
        card.supportedInterfaces.map((i) => i.url),
        host,
      ).toEqual([`${url}/`, `${url}/`]);
      for (const path of ['/', '/a2a/v1']) {
        const sent = await post(
          url,
          { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message(`root-${path}`, 'One two.') } },
          { 'A2A-Version': '1.0' },
          path,
        );
        expect(sent.json.result.task.status.state, `${host} ${path}`).toBe('TASK_STATE_COMPLETED');
      }
    }
  });

  it('refuses the extended card (-32004) and push notifications (-32003)', async () => {
    for (const host of HOSTS) {
      expect((await call(urls[host], 'GetExtendedAgentCard', {})).json.error, host).toMatchObject({
        code: -32004,
        data: [{ reason: 'UNSUPPORTED_OPERATION' }],
      });
      expect(
        (await call(urls[host], 'CreateTaskPushNotificationConfig', { taskId: 'x' })).json.error,
        host,
      ).toMatchObject({ code: -32003 });
    }
  });

  it('returnImmediately: the working task at once, then the finished one; historyLength; a follow-up is -32004', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const sent = (
        await call(url, 'SendMessage', {
          message: message(`ri-${host}`, 'Alpha beta gamma.'),
          configuration: { returnImmediately: true },
        })
      ).json.result.task;
      expect(sent.status.state, host).toBe('TASK_STATE_WORKING');
      expect(sent.artifacts).toBeUndefined();
      const done = await until(
        async () => (await call(url, 'GetTask', { id: sent.id, historyLength: 1 })).json.result,
        (task) => task.status.state !== 'TASK_STATE_WORKING',
      );
      expect(done.status.state, host).toBe('TASK_STATE_COMPLETED');
      expect(done.history.map((m: { role: string }) => m.role)).toEqual(['ROLE_AGENT']);
      expect(JSON.parse(done.artifacts[0].parts[0].text).words).toBe(3);
      const followUp = (await call(url, 'SendMessage', { message: message(`fu-${host}`, 'more', { taskId: sent.id }) }))
        .json.error;
      expect(followUp, host).toMatchObject({
        code: -32004,
        data: [{ reason: 'UNSUPPORTED_OPERATION', metadata: { taskId: sent.id } }],
      });
    }
  });

  it('the @a2a-js/sdk client: returnImmediately, getTask, and ListTasks pages bound to their filter', async () => {
    for (const host of HOSTS) {
      const client = await new ClientFactory().createFromUrl(urls[host]);
      const contextId = `ctx-sdk-${host}`;
      const ids: string[] = [];
      for (const [i, text] of ['One.', 'One two.', 'One two three.'].entries()) {
        const result = await client.sendMessage({
          tenant: '',
          message: {
            messageId: `sdk-${host}-${i}`,
            contextId,
            taskId: '',
            role: Role.ROLE_USER,
            parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
          configuration: {
            acceptedOutputModes: [],
            taskPushNotificationConfig: undefined,
            historyLength: undefined,
            returnImmediately: i === 2,
          },
          metadata: undefined,
        });
        const task = result as Extract<typeof result, { status: unknown }>;
        expect(task.status?.state, host).toBe(i === 2 ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_COMPLETED);
        ids.push(task.id);
      }
      await until(
        () => client.getTask({ tenant: '', id: ids[2]!, historyLength: 0 }),
        (t) => t.status?.state === TaskState.TASK_STATE_COMPLETED,
      );
      const base = {
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      };
      const seen: string[] = [];
      let pageToken = '';
      for (let page = 0; page < 3; page++) {
        const listed = await client.listTasks({ ...base, pageSize: 1, pageToken });
        expect(listed.totalSize, host).toBe(3);
        expect(listed.tasks).toHaveLength(1);
        expect(listed.tasks[0]!.artifacts).toEqual([]);
        seen.push(listed.tasks[0]!.id);
        pageToken = listed.nextPageToken;
        if (page < 2) expect(pageToken).not.toBe('');
      }
      expect(pageToken).toBe('');
      expect([...seen].sort()).toEqual([...ids].sort());
      const again = await client.listTasks({ ...base, pageSize: 1, pageToken: '' });
      await expect(
        client.listTasks({ ...base, contextId: 'another', pageSize: 1, pageToken: again.nextPageToken }),
        host,
      ).rejects.toMatchObject({ envelopeCode: -32602 });
    }
  });
});
