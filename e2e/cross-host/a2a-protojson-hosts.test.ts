/**
 * A2A v1.0 request parameters read as ProtoJSON, on every host: the example `text-stats` compiled
 * for the Worker (workerd through miniflare, behind its loader), the HB3 job and the local launcher
 * (both real Node processes), all answered with plain fetch (the exact wire):
 *   - `null` for a field is the field unset (ProtoJSON: "null is accepted for all field types and
 *     treated as the default value"), in SendMessage (its message, parts and configuration),
 *     GetTask, CancelTask, SubscribeToTask and ListTasks; a part's `data` stays a JSON value, where
 *     null is the value `null` (google.protobuf.Value);
 *   - an int32 (`historyLength`, `pageSize`) may be written as a decimal string; a string that is
 *     not an integer is still -32602 naming the field;
 *   - the `A2A-Version` a client sends decides the method names it may call (A2A §3.6.2): 1.0
 *     serves the v1.0 names only and 0.3 the v0.3 names only (-32601 for the other); without the
 *     header both are served;
 *   - a push-notification config inside SendMessage (v1.0 `taskPushNotificationConfig`, v0.3
 *     `pushNotificationConfig`) is PushNotificationNotSupported (-32003), as the card declares
 *     `pushNotifications: false`, and runs nothing.
 */
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

type HostName = 'worker' | 'hb3' | 'local';
const HOSTS: HostName[] = ['worker', 'hb3', 'local'];

let ws: ExampleWorkspace;
let tmp: Scratch;
let worker: StartedWorker;
const processes: RunningHost[] = [];
const urls = {} as Record<HostName, string>;

beforeAll(async () => {
  ws = exampleWorkspace('a2a-protojson');
  tmp = scratch('a2a-protojson');
  const keys = await receiptKeys();
  const compiled = await compileWorker(ws.root, 'text-stats');
  expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  worker = await startCompiledWorker(compiled.outDir, { secrets: { AGENTDEF_RECEIPT_KEY: keys.secret } });
  await compileTextStatsFor(ws, 'hb3', tmp.path('hb3'));
  await compileTextStatsFor(ws, 'local-mac', tmp.path('local'));
  const hb3 = startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
    cwd: tmp.path('hb3'),
    env: isolatedEnv(tmp.path('home-hb3'), {
      HOST: '127.0.0.1',
      PORT: '0',
      AGENTDEF_JOB_MODE: 'serve',
      AGENTDEF_RECEIPTS_FILE: tmp.path('hb3-receipts.jsonl'),
      AGENTDEF_RECEIPT_KEY: keys.secret,
    }),
  });
  const local = startHostProcess([tmp.path('local', 'launch.mjs'), '--port', '0'], {
    cwd: ws.root,
    env: isolatedEnv(tmp.path('home-local'), {
      AGENTDEF_RECEIPTS_FILE: tmp.path('local-receipts.jsonl'),
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: keys.secret,
    }),
  });
  processes.push(hb3, local);
  urls.worker = worker.url;
  [urls.hb3, urls.local] = await Promise.all([hb3.ready, local.ready]);
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await worker?.dispose();
  ws?.remove();
  tmp?.cleanup();
});

async function call(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, json: JSON.parse(await response.text()) as any };
}

const message = (messageId: string, text: string, extra: Record<string, unknown> = {}) => ({
  messageId,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
const violated = (error: { data?: { fieldViolations?: { field: string }[] }[] }) =>
  error.data?.[0]?.fieldViolations?.map((v) => v.field);

describe('ProtoJSON request parameters on the Worker, the HB3 job and the local launcher', () => {
  it('reads null as an unset field in every method, and keeps a data part’s null as its value', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const sent = await call(url, 'SendMessage', {
        tenant: null,
        metadata: null,
        configuration: {
          acceptedOutputModes: null,
          taskPushNotificationConfig: null,
          historyLength: null,
          returnImmediately: null,
        },
        message: {
          messageId: `null-${host}`,
          role: 'ROLE_USER',
          contextId: null,
          taskId: null,
          metadata: null,
          extensions: null,
          referenceTaskIds: null,
          parts: [{ text: 'One two three.', raw: null, url: null, mediaType: null, filename: null, metadata: null }],
        },
      });
      expect(sent.json.error, host).toBeUndefined();
      const task = sent.json.result.task;
      expect(task.status.state, host).toBe('TASK_STATE_COMPLETED');
      expect(JSON.parse(task.artifacts[0].parts[0].text).words, host).toBe(3);
      const got = await call(url, 'GetTask', { id: task.id, historyLength: null, tenant: null });
      expect(got.json.result?.id, host).toBe(task.id);
      expect(got.json.result.history, host).toHaveLength(2);
      const listed = await call(url, 'ListTasks', {
        tenant: null,
        contextId: null,
        status: null,
        pageSize: null,
        pageToken: null,
        historyLength: null,
        statusTimestampAfter: null,
        includeArtifacts: null,
        metadata: null,
      });
      expect(listed.json.error, host).toBeUndefined();
      expect(listed.json.result.pageSize, host).toBe(50);
      expect(listed.json.result.tasks.map((t: { id: string }) => t.id)).toContain(task.id);
      // The task is finished: the spec's errors, not -32602 for the null fields.
      expect(
        (await call(url, 'CancelTask', { id: task.id, metadata: null, tenant: null })).json.error,
        host,
      ).toMatchObject({ code: -32002 });
      expect((await call(url, 'SubscribeToTask', { id: task.id, tenant: null })).json.error, host).toMatchObject({
        code: -32004,
      });
      // google.protobuf.Value: null is a value, so a part with text and data: null sets two members of its oneof.
      const twoMembers = (
        await call(url, 'SendMessage', {
          message: { messageId: `data-null-${host}`, role: 'ROLE_USER', parts: [{ text: 'x', data: null }] },
        })
      ).json.error;
      expect(twoMembers, host).toMatchObject({ code: -32602 });
      expect(violated(twoMembers), host).toEqual(['message.parts[0]']);
      // A required field given as null is missing.
      expect(violated((await call(url, 'GetTask', { id: null })).json.error), host).toEqual(['id']);
    }
  });

  it('reads an int32 written as a decimal string, and names the field when the string is no integer', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const contextId = `ctx-int-${host}`;
      const sent = await call(url, 'SendMessage', {
        message: message(`int-${host}`, 'One two.', { contextId }),
        configuration: { historyLength: '0' },
      });
      const task = sent.json.result?.task;
      expect(task?.status.state, host).toBe('TASK_STATE_COMPLETED');
      expect(task.history, host).toBeUndefined();
      await call(url, 'SendMessage', { message: message(`int2-${host}`, 'One.', { contextId }) });
      const got = (await call(url, 'GetTask', { id: task.id, historyLength: '1' })).json.result;
      expect(
        got?.history?.map((m: { role: string }) => m.role),
        host,
      ).toEqual(['ROLE_AGENT']);
      const listed = (await call(url, 'ListTasks', { contextId, pageSize: '1', historyLength: '0' })).json.result;
      expect(listed?.tasks, host).toHaveLength(1);
      expect(listed.pageSize, host).toBe(1);
      expect(listed.totalSize, host).toBe(2);
      for (const bad of ['1.5', 'two', '', ' 1', '99999999999']) {
        expect(
          violated((await call(url, 'GetTask', { id: task.id, historyLength: bad })).json.error),
          `${host} ${JSON.stringify(bad)}`,
        ).toEqual(['historyLength']);
      }
      expect(violated((await call(url, 'ListTasks', { pageSize: '0' })).json.error), host).toEqual(['pageSize']);
    }
  });
});

describe('A2A-Version decides the method names', () => {
  it('1.0 serves the v1.0 names only, 0.3 the v0.3 names only, and no header both', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const notFound = { code: -32601, message: 'Method not found' };
      expect((await call(url, 'tasks/get', { id: 'nope' }, { 'A2A-Version': '1.0' })).json.error, host).toEqual(
        notFound,
      );
      expect(
        (
          await call(
            url,
            'message/send',
            {
              message: {
                kind: 'message',
                messageId: `v-${host}`,
                role: 'user',
                parts: [{ kind: 'text', text: 'One.' }],
              },
            },
            { 'A2A-Version': '1.0' },
          )
        ).json.error,
        host,
      ).toEqual(notFound);
      expect((await call(url, 'GetTask', { id: 'nope' }, { 'A2A-Version': '0.3' })).json.error, host).toEqual(notFound);
      expect(
        (await call(url, 'SendMessage', { message: message(`v03-${host}`, 'One.') }, { 'A2A-Version': '0.3' })).json
          .error,
        host,
      ).toEqual(notFound);
      for (const [method, version] of [
        ['GetTask', '1.0'],
        ['tasks/get', '0.3'],
        ['GetTask', undefined],
        ['tasks/get', undefined],
      ] as const) {
        const error = (await call(url, method, { id: 'nope' }, version ? { 'A2A-Version': version } : {})).json.error;
        expect(error, `${host} ${method} ${version}`).toMatchObject({ code: -32001 });
      }
    }
  });
});

describe('push notifications inside SendMessage', () => {
  it('are PushNotificationNotSupported (-32003) in both flavours, and nothing runs', async () => {
    for (const host of HOSTS) {
      const url = urls[host];
      const contextId = `ctx-push-${host}`;
      const v1 = (
        await call(url, 'SendMessage', {
          message: message(`push-${host}`, 'One two.', { contextId }),
          configuration: { taskPushNotificationConfig: { url: 'https://hooks.example.com/a2a' } },
        })
      ).json.error;
      expect(v1, host).toMatchObject({ code: -32003, data: [{ reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }] });
      const stream = await call(url, 'SendStreamingMessage', {
        message: message(`push-s-${host}`, 'One two.', { contextId }),
        configuration: { taskPushNotificationConfig: { url: 'https://hooks.example.com/a2a' } },
      });
      expect(stream.json.error, host).toMatchObject({ code: -32003 });
      const v03 = (
        await call(url, 'message/send', {
          message: {
            kind: 'message',
            messageId: `push03-${host}`,
            contextId,
            role: 'user',
            parts: [{ kind: 'text', text: 'One.' }],
          },
          configuration: { pushNotificationConfig: { url: 'https://hooks.example.com/a2a' } },
        })
      ).json.error;
      expect(v03, host).toMatchObject({ code: -32003 });
      expect((await call(url, 'ListTasks', { contextId })).json.result.totalSize, host).toBe(0);
    }
  });
});
