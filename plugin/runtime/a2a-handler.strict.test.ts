/**
 * A2A v1.0 strict JSON-RPC, on the Node host (plugin/hosts/node/http-server serving the handler
 * on loopback), with plain fetch (the exact wire) and the official @a2a-js/sdk client:
 * JSON-RPC 2.0 errors (-32700, -32600, -32601, -32602 naming the parameter), `A2A-Version`,
 * JSON-RPC at the service root, the extended card and push notifications refused with their
 * codes, `returnImmediately` (a working task, then the finished one), `historyLength`, follow-ups
 * refused, and ListTasks (filters, pages, tokens bound to their filter, every parameter checked).
 */
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveWebHandler } from '../hosts/node/http-server';
import { memorySink, toolOnlyConfig } from './__test-support__/configs';
import type { A2aHandlerDeps } from './a2a-handler';
import { createA2aHandler } from './a2a-handler';
import { AGENT_CARD_PATH } from './agent-card';
import { generateReceiptKeyPair } from './receipts';
import { until } from './__test-support__/until';

const closers: (() => Promise<unknown>)[] = [];
let receiptKey: JsonWebKey;
beforeAll(async () => {
  receiptKey = (await generateReceiptKeyPair()).privateJwk;
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A test clock: tasks get the status timestamps the test sets. */
function testClock(start = '2026-03-01T10:00:00.000Z') {
  let ms = Date.parse(start);
  return {
    now: () => ms,
    advance: (seconds: number) => (ms += seconds * 1000),
    iso: (offsetSeconds = 0) => new Date(ms + offsetSeconds * 1000).toISOString(),
  };
}

/** The adder agent whose tool waits while `hold` is set (so a task stays working until released). */
async function startNodeHost(extra: Partial<A2aHandlerDeps> = {}) {
  let release: () => void = () => {};
  let gate: Promise<void> | undefined;
  const control = {
    hold() {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    release() {
      gate = undefined;
      release();
    },
  };
  const handler = createA2aHandler(toolOnlyConfig(), {
    receipts: { signingKey: receiptKey, sink: memorySink() },
    tools: {
      'calc.add': async (args) => {
        if (gate) await gate;
        if (args['a'] === 'fail') throw new Error('the adder refuses');
        return { sum: Number(args['a']) + Number(args['b']) };
      },
    },
    ...extra,
  });
  const host = await serveWebHandler(handler, { host: '127.0.0.1', port: 0 });
  closers.push(() => host.close());
  return { url: host.url, control };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}, path = '/') {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as any };
}

const call = (url: string, method: string, params: unknown, id: unknown = 1, headers: Record<string, string> = {}) =>
  post(url, { jsonrpc: '2.0', id, method, params }, headers);
const message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: `m-${text}`,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
const add = (a: unknown, b = 1) => JSON.stringify({ a, b });

describe('JSON-RPC 2.0, exactly', () => {
  it('unparsable JSON is -32700 with id null', async () => {
    const { url } = await startNodeHost();
    expect(await post(url, '{"jsonrpc":"2.0",')).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } },
    });
  });

  it('an invalid request is -32600: wrong or missing jsonrpc, missing or non-string method, an object or array id, a batch, a scalar', async () => {
    const { url } = await startNodeHost();
    const invalid = { code: -32600, message: 'Request payload validation error' };
    const cases: [unknown, unknown][] = [
      [{ id: 1, method: 'GetTask', params: { id: 'x' } }, 1],
      [{ jsonrpc: '1.0', id: 2, method: 'GetTask', params: { id: 'x' } }, 2],
      [{ jsonrpc: 2, id: 3, method: 'GetTask' }, 3],
      [{ jsonrpc: '2.0', id: 'four' }, 'four'],
      [{ jsonrpc: '2.0', id: 5, method: 7 }, 5],
      [{ jsonrpc: '2.0', id: { n: 6 }, method: 'GetTask' }, null],
      [{ jsonrpc: '2.0', id: [7], method: 'GetTask' }, null],
      [{ jsonrpc: '2.0', id: true, method: 'GetTask' }, null],
      ['"a string"', null],
    ];
    for (const [body, id] of cases)
      expect(
        (await post(url, typeof body === 'string' ? body : JSON.stringify(body))).json,
        JSON.stringify(body),
      ).toEqual({ jsonrpc: '2.0', id, error: invalid });
    for (const batch of [[], [{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }]]) {
      expect((await post(url, batch)).json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Batch requests are not supported' },
      });
    }
  });

  it('an unknown method is -32601 echoing the id', async () => {
    const { url } = await startNodeHost();
    expect((await call(url, 'tasks/list', {}, 'req-9')).json).toEqual({
      jsonrpc: '2.0',
      id: 'req-9',
      error: { code: -32601, message: 'Method not found' },
    });
  });

  it('invalid params are -32602 naming each parameter in the message and in the field violations', async () => {
    const { url } = await startNodeHost();
    const missingId = (await call(url, 'GetTask', {})).json.error;
    expect(missingId.code).toBe(-32602);
    expect(missingId.message).toBe('Invalid parameters: id');
    expect(missingId.data[0].fieldViolations).toEqual([{ field: 'id', description: 'a task id is required' }]);
    expect((await call(url, 'GetTask', [1, 2])).json.error.message).toBe('Invalid parameters: params');
    expect((await call(url, 'SendMessage', {})).json.error.message).toBe('Invalid parameters: message');
    expect(
      (await call(url, 'SendMessage', { message: { messageId: '', role: 'ROLE_AGENT', parts: [] } })).json.error
        .message,
    ).toBe('Invalid parameters: message.messageId, message.role, message.parts');
    expect((await call(url, 'GetTask', { id: 'x', historyLength: -1 })).json.error.message).toBe(
      'Invalid parameters: historyLength',
    );
  });

  it('honours A2A-Version: 1.0 and 0.3 are served, absent is the default, anything else is -32009', async () => {
    const { url } = await startNodeHost();
    const send = { message: message(add(1)) };
    expect((await call(url, 'SendMessage', send, 1, { 'A2A-Version': '1.0' })).json.result.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
    expect((await call(url, 'SendMessage', send)).json.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(
      (
        await call(
          url,
          'message/send',
          { message: { kind: 'message', messageId: 'v03', role: 'user', parts: [{ kind: 'text', text: add(2) }] } },
          1,
          { 'A2A-Version': '0.3' },
        )
      ).json.result.status.state,
    ).toBe('completed');
    for (const version of ['2.0', '0.5', 'latest']) {
      const error = (await call(url, 'SendMessage', send, 4, { 'A2A-Version': version })).json.error;
      expect(error.code, version).toBe(-32009);
      expect(error.data[0]).toMatchObject({ reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' });
    }
    expect(
      (await post(url, { jsonrpc: '2.0', id: 5, method: 'SendMessage', params: send }, {}, '/?A2A-Version=3.1')).json
        .error.code,
    ).toBe(-32009);
  });
});

describe('JSON-RPC at the service root', () => {
  it('the card names the root; the root and the earlier /a2a/v1 both answer; GET on the root is 405', async () => {
    const { url } = await startNodeHost();
    const card = (await (await fetch(`${url}${AGENT_CARD_PATH}`)).json()) as {
      supportedInterfaces: { url: string; protocolVersion: string }[];
    };
    expect(card.supportedInterfaces).toEqual([
      { url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    for (const path of ['/', '/a2a/v1'])
      expect(
        (
          await post(
            url,
            { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message(add(3)) } },
            {},
            path,
          )
        ).json.result.task.artifacts[0].parts[1].data,
      ).toEqual({ sum: 4 });
    const get = await fetch(`${url}/`);
    expect(get.status).toBe(405);
    expect(((await get.json()) as any).error.code).toBe(-32600);
  });
});

describe('operations this agent does not offer', () => {
  it('GetExtendedAgentCard is -32004 (the card does not declare it); every push-notification method is -32003', async () => {
    const { url } = await startNodeHost();
    expect((await call(url, 'GetExtendedAgentCard', {})).json.error).toMatchObject({
      code: -32004,
      data: [{ reason: 'UNSUPPORTED_OPERATION' }],
    });
    const push = [
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ];
    const pushV03 = [
      'tasks/pushNotificationConfig/set',
      'tasks/pushNotificationConfig/get',
      'tasks/pushNotificationConfig/list',
      'tasks/pushNotificationConfig/delete',
    ];
    for (const method of [...push, ...pushV03])
      expect((await call(url, method, {})).json.error, method).toMatchObject({
        code: -32003,
        data: [{ reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }],
      });
    // The SDK client reads `capabilities.pushNotifications: false` from the served card and refuses before calling.
    const client = await new ClientFactory().createFromUrl(url);
    await expect(async () =>
      client.getTaskPushNotificationConfig({ tenant: '', taskId: 't-1', id: 'c-1' }),
    ).rejects.toMatchObject({ name: 'PushNotificationNotSupportedError' });
  });
});

describe('SendMessage returnImmediately, GetTask historyLength, follow-ups', () => {
  it('answers the working task at once, the run goes on, and GetTask then reads it completed; follow-ups are refused', async () => {
    const { url, control } = await startNodeHost();
    control.hold();
    const sent = (
      await call(url, 'SendMessage', { message: message(add(20, 22)), configuration: { returnImmediately: true } })
    ).json.result.task;
    expect(sent.status.state).toBe('TASK_STATE_WORKING');
    expect(sent.artifacts).toBeUndefined();
    expect(sent.history).toEqual([
      {
        messageId: `m-${add(20, 22)}`,
        contextId: sent.contextId,
        taskId: sent.id,
        role: 'ROLE_USER',
        parts: [{ text: add(20, 22) }],
      },
    ]);
    expect((await call(url, 'GetTask', { id: sent.id })).json.result.status.state).toBe('TASK_STATE_WORKING');
    const stillWorking = (await call(url, 'SendMessage', { message: message('more', { taskId: sent.id }) })).json.error;
    expect(stillWorking).toMatchObject({
      code: -32004,
      message: 'The task is still working and accepts no more messages',
    });
    control.release();
    const done = await until(
      async () => (await call(url, 'GetTask', { id: sent.id })).json.result,
      (task) => task.status.state !== 'TASK_STATE_WORKING',
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts[1].data).toEqual({ sum: 42 });
    expect(done.history.map((m: { role: string }) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
    expect(
      (await call(url, 'GetTask', { id: sent.id, historyLength: 1 })).json.result.history.map(
        (m: { role: string }) => m.role,
      ),
    ).toEqual(['ROLE_AGENT']);
    expect((await call(url, 'GetTask', { id: sent.id, historyLength: 0 })).json.result.history).toBeUndefined();
    const terminal = (await call(url, 'SendMessage', { message: message('more', { taskId: sent.id }) })).json.error;
    expect(terminal).toMatchObject({
      code: -32004,
      message: 'The task is in a terminal state and accepts no more messages',
      data: [{ reason: 'UNSUPPORTED_OPERATION', metadata: { taskId: sent.id } }],
    });
    expect(
      (await call(url, 'SendMessage', { message: message('more', { taskId: 'unknown-task' }) })).json.error.code,
    ).toBe(-32001);
  });

  it('a non-boolean returnImmediately is -32602 naming it; v0.3 blocking:false answers the working task too', async () => {
    const { url, control } = await startNodeHost();
    expect(
      (await call(url, 'SendMessage', { message: message(add(1)), configuration: { returnImmediately: 'yes' } })).json
        .error.message,
    ).toBe('Invalid parameters: configuration.returnImmediately');
    control.hold();
    const v03 = (
      await call(url, 'message/send', {
        message: { kind: 'message', messageId: 'v03', role: 'user', parts: [{ kind: 'text', text: add(1) }] },
        configuration: { blocking: false },
      })
    ).json.result;
    expect(v03).toMatchObject({ kind: 'task', status: { state: 'working' } });
    control.release();
    await until(
      async () => (await call(url, 'tasks/get', { id: v03.id })).json.result.status.state,
      (state) => state === 'completed',
    );
  });

  it('the @a2a-js/sdk client: returnImmediately gives a working task, getTask later the completed one', async () => {
    const { url, control } = await startNodeHost();
    const client = await new ClientFactory().createFromUrl(url);
    control.hold();
    const result = await client.sendMessage({
      tenant: '',
      message: {
        messageId: 'sdk-1',
        contextId: 'ctx-sdk',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: add(2, 3) }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        historyLength: undefined,
        returnImmediately: true,
      },
      metadata: undefined,
    });
    const task = result as Extract<typeof result, { status: unknown }>;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(task.contextId).toBe('ctx-sdk');
    control.release();
    const done = await until(
      () => client.getTask({ tenant: '', id: task.id, historyLength: 1 }),
      (t) => t.status?.state !== TaskState.TASK_STATE_WORKING,
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.history.map((m) => m.role)).toEqual([Role.ROLE_AGENT]);
  });
});

describe('ListTasks', () => {
  /** Five tasks, one a minute: three in ctx-a (one failed), two in ctx-b; then one working task in ctx-b. */
  async function seeded() {
    const clock = testClock();
    const host = await startNodeHost({ now: clock.now });
    const ids: string[] = [];
    const plan: [string, unknown][] = [
      ['ctx-a', 1],
      ['ctx-b', 2],
      ['ctx-a', 'fail'],
      ['ctx-b', 4],
      ['ctx-a', 5],
    ];
    for (const [i, [contextId, a]] of plan.entries()) {
      clock.advance(60);
      ids.push(
        (await call(host.url, 'SendMessage', { message: message(add(a), { contextId, messageId: `m-${i}` }) })).json
          .result.task.id,
      );
    }
    clock.advance(60);
    host.control.hold();
    const working = (
      await call(host.url, 'SendMessage', {
        message: message(add(6), { contextId: 'ctx-b' }),
        configuration: { returnImmediately: true },
      })
    ).json.result.task.id as string;
    closers.push(async () => host.control.release());
    return { ...host, clock, ids, working };
  }

  const list = async (url: string, params: Record<string, unknown>) => (await call(url, 'ListTasks', params)).json;

  it('lists newest status first with totalSize and an empty nextPageToken on the last page; artifacts only on request', async () => {
    const { url, ids, working } = await seeded();
    const all = (await list(url, {})).result;
    expect(all.tasks.map((t: { id: string }) => t.id)).toEqual([working, ...[...ids].reverse()]);
    expect(all).toMatchObject({ totalSize: 6, pageSize: 50, nextPageToken: '' });
    expect(all.tasks.every((t: Record<string, unknown>) => t['artifacts'] === undefined)).toBe(true);
    const withArtifacts = (await list(url, { includeArtifacts: true, historyLength: 0 })).result.tasks;
    expect(withArtifacts.filter((t: Record<string, unknown>) => t['artifacts'] !== undefined)).toHaveLength(4);
    expect(withArtifacts.every((t: Record<string, unknown>) => t['history'] === undefined)).toBe(true);
  });

  it('filters by contextId, status and statusTimestampAfter (at or after)', async () => {
    const { url, ids, working, clock } = await seeded();
    const idsOf = async (params: Record<string, unknown>) =>
      (await list(url, params)).result.tasks.map((t: { id: string }) => t.id);
    expect(await idsOf({ contextId: 'ctx-a' })).toEqual([ids[4], ids[2], ids[0]]);
    expect(await idsOf({ status: 'TASK_STATE_FAILED' })).toEqual([ids[2]]);
    expect(await idsOf({ status: 'TASK_STATE_WORKING', contextId: 'ctx-b' })).toEqual([working]);
    expect(await idsOf({ status: 'TASK_STATE_UNSPECIFIED', contextId: 'ctx-b' })).toEqual([working, ids[3], ids[1]]);
    expect(await idsOf({ statusTimestampAfter: clock.iso(-60) })).toEqual([working, ids[4]]);
    expect(await idsOf({ statusTimestampAfter: clock.iso(-61).replace('.000Z', '+00:00') })).toEqual([working, ids[4]]);
    expect(await idsOf({ statusTimestampAfter: clock.iso(-120).replace('Z', '000000Z') })).toEqual([
      working,
      ids[4],
      ids[3],
    ]);
    expect((await list(url, { contextId: 'ctx-none' })).result).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 0,
    });
  });

  it('pages with opaque tokens that only work with the filter they were issued for, and not when edited', async () => {
    const { url, ids } = await seeded();
    const seen: string[] = [];
    let token = '';
    const sizes: number[] = [];
    do {
      const page = (
        await list(url, { pageSize: 2, status: 'TASK_STATE_COMPLETED', ...(token ? { pageToken: token } : {}) })
      ).result;
      expect(page.totalSize).toBe(4);
      expect(page.pageSize).toBe(2);
      sizes.push(page.tasks.length);
      seen.push(...page.tasks.map((t: { id: string }) => t.id));
      token = page.nextPageToken;
    } while (token !== '' && sizes.length < 10);
    expect(sizes).toEqual([2, 2]);
    expect(seen).toEqual([ids[4], ids[3], ids[1], ids[0]]);

    const first = (await list(url, { pageSize: 1, contextId: 'ctx-a' })).result.nextPageToken as string;
    expect(first).not.toBe('');
    expect(
      (await list(url, { pageSize: 1, contextId: 'ctx-a', pageToken: first })).result.tasks.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([ids[2]]);
    const otherFilter = (await list(url, { pageSize: 1, contextId: 'ctx-b', pageToken: first })).error;
    expect(otherFilter).toMatchObject({ code: -32602, message: 'Invalid parameters: pageToken' });
    expect(otherFilter.data[0].fieldViolations[0].description).toContain('different filter');
    // Rewriting the cursor's filter inside the token breaks its signature.
    const [payload, mac] = first.split('.');
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...decoded, f: JSON.stringify(['ctx-b', null, null]) })).toString('base64url')}.${mac}`;
    for (const bad of [forged, 'not-a-token', `${payload}.${mac}x`, `${payload}.${mac}.extra`]) {
      const error = (await list(url, { contextId: 'ctx-b', pageToken: bad })).error;
      expect(error.message, bad).toBe('Invalid parameters: pageToken');
      expect(error.data[0].fieldViolations[0].description).toBe('is not a page token this agent issued');
    }
  });

  it('validates every parameter with -32602 naming it', async () => {
    const { url } = await startNodeHost();
    const cases: [Record<string, unknown>, string][] = [
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ pageSize: 2.5 }, 'pageSize'],
      // ProtoJSON reads an int32 from a decimal string ('10' is 10: e2e/cross-host/a2a-protojson-hosts.test.ts); any other string is no int32.
      [{ pageSize: 'ten' }, 'pageSize'],
      [{ pageSize: '2.5' }, 'pageSize'],
      [{ pageSize: '1000' }, 'pageSize'],
      [{ status: 'TASK_STATE_RUNNING' }, 'status'],
      [{ status: 42 }, 'status'],
      [{ statusTimestampAfter: 'yesterday' }, 'statusTimestampAfter'],
      [{ statusTimestampAfter: '2026-03-01' }, 'statusTimestampAfter'],
      [{ historyLength: -5 }, 'historyLength'],
      [{ includeArtifacts: 'yes' }, 'includeArtifacts'],
      [{ contextId: 5 }, 'contextId'],
      [{ pageToken: 7 }, 'pageToken'],
      [{ tenant: {} }, 'tenant'],
      [{ pageSize: 150, historyLength: -5, status: 'TASK_STATE_RUNNING' }, 'status, pageSize, historyLength'],
    ];
    for (const [params, named] of cases) {
      const error = (await list(url, params)).error;
      expect(error?.code, JSON.stringify(params)).toBe(-32602);
      expect(error.message, JSON.stringify(params)).toBe(`Invalid parameters: ${named}`);
    }
    expect(
      (await list(url, { pageSize: 100, status: 3, statusTimestampAfter: '2026-03-01T10:00:00Z' })).result,
    ).toEqual({ tasks: [], nextPageToken: '', pageSize: 100, totalSize: 0 });
  });

  it('the @a2a-js/sdk client lists and pages', async () => {
    const { url, ids } = await seeded();
    const client = await new ClientFactory().createFromUrl(url);
    const base = {
      tenant: '',
      contextId: 'ctx-a',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    };
    const first = await client.listTasks({ ...base, pageSize: 2, pageToken: '' });
    expect(first.totalSize).toBe(3);
    expect(first.tasks.map((t) => t.id)).toEqual([ids[4], ids[2]]);
    expect(first.tasks[1]!.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const second = await client.listTasks({ ...base, pageSize: 2, pageToken: first.nextPageToken });
    expect(second.tasks.map((t) => t.id)).toEqual([ids[0]]);
    expect(second.nextPageToken).toBe('');
    await expect(
      client.listTasks({ ...base, contextId: 'ctx-b', pageSize: 2, pageToken: first.nextPageToken }),
    ).rejects.toMatchObject({ envelopeCode: -32602 });
  });
});
