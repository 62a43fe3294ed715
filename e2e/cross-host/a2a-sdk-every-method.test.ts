/**
 * Every A2A method through the official @a2a-js/sdk client, on all three hosts: fallback-writer
 * (an agentic example: one model call, a tool call, the answer) served as users serve it — the
 * Worker in workerd behind its loader, the HB3 entrypoint and the local-mac launcher as real
 * processes — against a stub Anthropic model that can hold a run `working`. On each host:
 *   - getAgentCard: streaming declared, push notifications and the extended card not, the JSONRPC
 *     interface at the service root;
 *   - sendMessage (blocking): the answer, and the signed receipt in the task's metadata, the same one
 *     the host's sink stored, verifying with the receipt public key (a tampered copy does not);
 *   - sendMessage with returnImmediately, then getTask until completed; getTask's historyLength;
 *   - listTasks filtered by context, paged with pageSize and pageToken;
 *   - sendMessageStream: the Task first, a working update per step, the answer artifact, the
 *     terminal status carrying the receipt;
 *   - resubscribeTask on a working task: the Task first, then the run's ending;
 *   - cancelTask on a working task: canceled, and it stays canceled even when the held model call
 *     is answered afterwards; the Node hosts drop the model call; a second cancel is -32002;
 *   - cancel and resubscribe on a finished task, getTask on an unknown one: the spec's errors;
 *   - getExtendedAgentCard: -32004; push-notification configs refused by the client from the card
 *     and -32003 on the wire; a notification (no id) is carried out and answered 204 with no body.
 * Every check gathers a shape per host, and the hosts must agree.
 */
import { Role, TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt, type Receipt } from '../../plugin/runtime/receipts';
import { readReceipts, receiptKeys, scratch, type Scratch } from '../local/support/host-harness';
import {
  HOST_NAMES,
  startFallbackWriterHosts,
  type FallbackWriterHosts,
  type HostName,
} from './support/fallback-writer-hosts';
import { holdMarker, startHoldingModel, type HoldingModel } from './support/holding-model';
import { sendForTask, userMessage, WRITER_ANSWER, writerTurn } from './support/writer-messages';
import { until } from '../../plugin/runtime/__test-support__/until';

const ANTHROPIC_KEY = 'sk-ant-every-method-0123456789';
let tmp: Scratch;
let keys: Awaited<ReturnType<typeof receiptKeys>>;
let model: HoldingModel;
let hosts: FallbackWriterHosts;
const clients = {} as Record<HostName, Client>;

beforeAll(async () => {
  tmp = scratch('a2a-every-method');
  keys = await receiptKeys();
  model = await startHoldingModel({ apiKey: ANTHROPIC_KEY, turn: writerTurn });
  hosts = await startFallbackWriterHosts(tmp, {
    modelUrl: model.url,
    anthropicKey: ANTHROPIC_KEY,
    receiptKey: keys.secret,
  });
  for (const host of HOST_NAMES) clients[host] = await new ClientFactory().createFromUrl(hosts.urls[host]);
});

afterAll(async () => {
  await hosts?.stop();
  await model?.close();
  tmp?.cleanup();
});

const getTask = (client: Client, id: string, historyLength?: number) =>
  client.getTask({ tenant: '', id, ...(historyLength !== undefined ? { historyLength } : {}) });

/** What the SDK threw: its error class name and JSON-RPC code (a refusal made by the client itself has no code). */
async function refusal(
  call: () => Promise<unknown> | AsyncGenerator<unknown>,
): Promise<{ name: string; code: number | undefined }> {
  try {
    const started = call();
    if (Symbol.asyncIterator in started) for await (const _ of started as AsyncGenerator<unknown>);
    else await started;
  } catch (error) {
    const e = error as { name?: string; envelopeCode?: number };
    return { name: e.name ?? 'unknown', code: e.envelopeCode };
  }
  throw new Error('the call succeeded');
}

/** The kind of each stream event, with the progress step of a working status update. */
const eventShape = (event: StreamResponse) => {
  const payload = event.payload!;
  if (payload.$case !== 'statusUpdate') return payload.$case;
  const progress = (payload.value.metadata as { progress?: { event?: string } } | undefined)?.progress?.event;
  return progress ? `statusUpdate:${progress}` : `statusUpdate:${TaskState[payload.value.status!.state]}`;
};

/** Receipts a host's sink stored (the Worker's KV, a Node host's receipts file). */
async function storedReceipts(host: HostName, atLeast: number): Promise<Receipt[]> {
  if (host === 'worker') return hosts.worker.receipts(atLeast, 5000);
  return until(
    async () => readReceipts(hosts.receiptFiles[host]),
    (found) => found.length >= atLeast,
    `${host} receipts`,
  );
}

/**
 * Runs `check` on every host in turn (a host that fails does not keep the others from being
 * checked: every failure is reported), then asserts the shapes they gathered agree.
 */
async function onEveryHost<T>(
  check: (host: HostName, client: Client, url: string) => Promise<T>,
): Promise<Record<HostName, T>> {
  const shapes = {} as Record<HostName, T>;
  const failures: string[] = [];
  for (const host of HOST_NAMES) {
    try {
      shapes[host] = await check(host, clients[host], hosts.urls[host]);
    } catch (error) {
      failures.push(`${host}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
  expect(shapes.hb3, 'hb3 answers like the Worker').toEqual(shapes.worker);
  expect(shapes.local, 'local answers like the Worker').toEqual(shapes.worker);
  return shapes;
}

async function rawCall(url: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the card', () => {
  it('getAgentCard: streaming declared, no push or extended card, JSONRPC at the service root', async () => {
    await onEveryHost(async (host, client, url) => {
      const card = await client.getAgentCard();
      expect(card.capabilities?.streaming, host).toBe(true);
      const jsonRpc = card.supportedInterfaces.filter((i) => i.protocolBinding === 'JSONRPC');
      expect(jsonRpc.length, host).toBeGreaterThan(0);
      for (const i of jsonRpc) expect(i.url, host).toBe(`${url}/`);
      return {
        streaming: card.capabilities?.streaming,
        push: card.capabilities?.pushNotifications ?? false,
        extended: card.capabilities?.extendedAgentCard ?? false,
        bindings: card.supportedInterfaces.map((i) => i.protocolBinding),
      };
    });
  });

  it('getExtendedAgentCard is UnsupportedOperation (-32004): the card does not declare one', async () => {
    await onEveryHost(async (host, client, url) => {
      const transport = await new JsonRpcTransportFactory().create(`${url}/`, await client.getAgentCard());
      const refused = await refusal(() => transport.getExtendedAgentCard({ tenant: '' }));
      expect(refused, host).toEqual({ name: 'UnsupportedOperationError', code: -32004 });
      return refused;
    });
  });
});

describe('sending messages', () => {
  it('sendMessage (blocking): the answer, and the receipt in metadata is the stored one and verifies', async () => {
    await onEveryHost(async (host, client) => {
      const before = (await storedReceipts(host, 0)).length;
      const task = await sendForTask(client, userMessage('rename a to b'));
      expect(task.status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      const part = task.artifacts[0]?.parts[0]?.content;
      expect(part?.$case === 'text' ? JSON.parse(part.value) : part, host).toEqual(JSON.parse(WRITER_ANSWER));
      const receipt = (task.metadata as { receipt?: Receipt } | undefined)?.receipt;
      expect(receipt, host).toBeDefined();
      expect(await verifyReceipt(receipt!, keys.publicJwk), host).toBe(true);
      expect(
        await verifyReceipt({ ...receipt!, stopReason: 'error' } as Receipt, keys.publicJwk),
        `${host}: a tampered receipt`,
      ).toBe(false);
      const stored = await storedReceipts(host, before + 1);
      expect(
        stored.map((r) => JSON.stringify(r)),
        host,
      ).toContain(JSON.stringify(receipt));
      return { state: task.status?.state, artifacts: task.artifacts.length, receiptKeys: Object.keys(receipt!).sort() };
    });
  });

  it('sendMessage with returnImmediately answers the working task; getTask reads it completed; historyLength trims', async () => {
    await onEveryHost(async (host, client) => {
      const sent = await sendForTask(client, userMessage('rename a to b, quickly', { returnImmediately: true }));
      expect(sent.status?.state, host).toBe(TaskState.TASK_STATE_WORKING);
      const done = await until(
        () => getTask(client, sent.id),
        (t) => t.status?.state !== TaskState.TASK_STATE_WORKING,
        `${host}: the task ends`,
      );
      expect(done.status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(
        done.history.map((m) => m.role),
        host,
      ).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
      const trimmed = await getTask(client, sent.id, 1);
      expect(
        trimmed.history.map((m) => m.role),
        host,
      ).toEqual([Role.ROLE_AGENT]);
      const none = await getTask(client, sent.id, 0);
      return {
        first: sent.status?.state,
        last: done.status?.state,
        history: [done.history.length, trimmed.history.length, none.history.length],
      };
    });
  });

  it('listTasks: filtered by context, paged one by one with tokens, a token from another filter refused', async () => {
    await onEveryHost(async (host, client) => {
      const contextId = `ctx-list-${host}`;
      const ids: string[] = [];
      for (const text of ['first', 'second', 'third'])
        ids.push((await sendForTask(client, userMessage(`${text} change`, { contextId }))).id);
      await sendForTask(client, userMessage('elsewhere', { contextId: `ctx-other-${host}` }));
      const base = {
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        historyLength: 0,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      };
      const seen: string[] = [];
      const pages: { size: number; total: number; more: boolean }[] = [];
      let pageToken = '';
      do {
        const page = await client.listTasks({ ...base, pageSize: 1, pageToken });
        expect(
          page.tasks.every((t) => t.contextId === contextId),
          host,
        ).toBe(true);
        seen.push(...page.tasks.map((t) => t.id));
        pageToken = page.nextPageToken;
        pages.push({ size: page.tasks.length, total: page.totalSize, more: pageToken !== '' });
      } while (pageToken !== '' && pages.length < 5);
      expect([...seen].sort(), host).toEqual([...ids].sort());
      const all = await client.listTasks({ ...base, pageSize: 100, pageToken: '' });
      expect(all.tasks.map((t) => t.id).sort(), host).toEqual([...ids].sort());
      const second = (await client.listTasks({ ...base, pageSize: 1, pageToken: '' })).nextPageToken;
      const crossed = await refusal(() =>
        client.listTasks({ ...base, contextId: `ctx-other-${host}`, pageSize: 1, pageToken: second }),
      );
      expect(crossed.code, host).toBe(-32602);
      const tooBig = await refusal(() => client.listTasks({ ...base, pageSize: 101, pageToken: '' }));
      expect(tooBig.code, host).toBe(-32602);
      return { pages, crossed, tooBig };
    });
  });

  it('sendMessageStream: the Task, a working update per step, the answer, the terminal status with the receipt', async () => {
    await onEveryHost(async (host, client) => {
      const events: StreamResponse[] = [];
      for await (const event of client.sendMessageStream(userMessage('rename a to b, streamed'))) events.push(event);
      const shape = events.map(eventShape);
      expect(shape[0], host).toBe('task');
      expect(
        shape.filter((s) => s.startsWith('statusUpdate:') && !s.startsWith('statusUpdate:TASK_STATE')),
        host,
      ).toEqual(['statusUpdate:model.call', 'statusUpdate:tool.call', 'statusUpdate:model.call']);
      expect(shape.at(-1), host).toBe('statusUpdate:TASK_STATE_COMPLETED');
      const taskId = (events[0]!.payload as { value: Task }).value.id;
      const artifacts = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []));
      expect(artifacts.at(-1)?.lastChunk, host).toBe(true);
      expect(JSON.stringify(artifacts.map((a) => a.artifact?.parts)), host).toContain(
        JSON.stringify(WRITER_ANSWER).slice(1, -1),
      );
      const final = events.at(-1)!.payload as {
        $case: 'statusUpdate';
        value: { taskId: string; metadata?: { receipt?: Receipt } };
      };
      expect(final.value.taskId, host).toBe(taskId);
      expect(await verifyReceipt(final.value.metadata!.receipt!, keys.publicJwk), host).toBe(true);
      const read = await getTask(client, taskId);
      expect(read.status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      expect((read.metadata as { receipt?: Receipt }).receipt, host).toEqual(final.value.metadata!.receipt);
      return shape;
    });
  });
});

describe('working tasks', () => {
  it('resubscribeTask on a working task: the Task first, then its ending', async () => {
    await onEveryHost(async (host, client) => {
      const marker = holdMarker(`resubscribe-${host}`);
      const sent = await sendForTask(client, userMessage(`rename a ${marker}`, { returnImmediately: true }));
      await model.held(marker);
      const events: StreamResponse[] = [];
      const reading = (async () => {
        for await (const event of client.resubscribeTask({ tenant: '', id: sent.id })) events.push(event);
      })();
      await until(
        async () => events.length,
        (n) => n > 0,
        `${host}: the first event`,
      );
      const first = events[0]!.payload as { $case: string; value: Task };
      expect(first.$case, host).toBe('task');
      expect(first.value.id, host).toBe(sent.id);
      expect(first.value.status?.state, host).toBe(TaskState.TASK_STATE_WORKING);
      model.release(marker);
      await reading;
      const last = eventShape(events.at(-1)!);
      expect(last, host).toBe('statusUpdate:TASK_STATE_COMPLETED');
      expect((await getTask(client, sent.id)).status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      return { first: first.$case, last };
    });
  });

  it('cancelTask on a working task: canceled and kept canceled; the model call is dropped; a second cancel is -32002', async () => {
    await onEveryHost(async (host, client) => {
      const marker = holdMarker(`cancel-${host}`);
      const sent = await sendForTask(client, userMessage(`rename a ${marker}`, { returnImmediately: true }));
      await model.held(marker);
      const canceled = await client.cancelTask({ tenant: '', id: sent.id, metadata: undefined });
      expect(canceled.status?.state, host).toBe(TaskState.TASK_STATE_CANCELED);
      expect((await getTask(client, sent.id)).status?.state, host).toBe(TaskState.TASK_STATE_CANCELED);
      // A Node host aborts the model call it was waiting on. (The Worker's outbound fetch goes
      // through miniflare's outbound service here, which does not pass an abort on upstream.)
      if (host !== 'worker')
        await until(
          async () => model.dropped.has(marker),
          (dropped) => dropped,
          `${host}: the held model call is dropped`,
        );
      // Whatever the model says now, the task stays canceled: the abandoned run never completes it.
      model.release(marker);
      await new Promise((r) => setTimeout(r, 500));
      const after = await getTask(client, sent.id);
      expect(after.status?.state, host).toBe(TaskState.TASK_STATE_CANCELED);
      expect(after.artifacts, host).toEqual([]);
      const again = await refusal(() => client.cancelTask({ tenant: '', id: sent.id, metadata: undefined }));
      expect(again, host).toEqual({ name: 'TaskNotCancelableError', code: -32002 });
      return { canceled: canceled.status?.state, after: after.status?.state, again };
    });
  });
});

describe('finished and unknown tasks', () => {
  it('cancel and resubscribe on a finished task, getTask on an unknown one: the spec errors', async () => {
    await onEveryHost(async (host, client) => {
      const done = await sendForTask(client, userMessage('rename a, then leave'));
      expect(done.status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      const cancel = await refusal(() => client.cancelTask({ tenant: '', id: done.id, metadata: undefined }));
      expect(cancel, host).toEqual({ name: 'TaskNotCancelableError', code: -32002 });
      const resubscribe = await refusal(() => client.resubscribeTask({ tenant: '', id: done.id }));
      expect(resubscribe, host).toEqual({ name: 'UnsupportedOperationError', code: -32004 });
      const unknown = await refusal(() => getTask(client, 'no-such-task'));
      expect(unknown, host).toEqual({ name: 'TaskNotFoundError', code: -32001 });
      const unknownCancel = await refusal(() =>
        client.cancelTask({ tenant: '', id: 'no-such-task', metadata: undefined }),
      );
      expect(unknownCancel, host).toEqual({ name: 'TaskNotFoundError', code: -32001 });
      expect((await getTask(client, done.id)).status?.state, host).toBe(TaskState.TASK_STATE_COMPLETED);
      return { cancel, resubscribe, unknown, unknownCancel };
    });
  });
});

describe('what the card does not declare, and notifications', () => {
  it('push notification configs: the client refuses them from the card; on the wire every method is -32003', async () => {
    await onEveryHost(async (host, client, url) => {
      const config = {
        tenant: '',
        id: 'cfg',
        taskId: 'any',
        url: 'https://hooks.example/a2a',
        token: '',
        authentication: undefined,
      };
      const byClient = [
        await refusal(async () => client.createTaskPushNotificationConfig(config)),
        await refusal(async () => client.getTaskPushNotificationConfig({ tenant: '', taskId: 'any', id: 'cfg' })),
        await refusal(async () =>
          client.listTaskPushNotificationConfig({ tenant: '', taskId: 'any', pageSize: 10, pageToken: '' }),
        ),
        // The client does not check the card for this one: the host refuses it.
        await refusal(async () => client.deleteTaskPushNotificationConfig({ tenant: '', taskId: 'any', id: 'cfg' })),
      ];
      expect(byClient.slice(0, 3), host).toEqual(
        Array(3).fill({ name: 'PushNotificationNotSupportedError', code: undefined }),
      );
      expect(byClient[3], host).toEqual({ name: 'PushNotificationNotSupportedError', code: -32003 });
      const onWire: unknown[] = [];
      for (const method of [
        'CreateTaskPushNotificationConfig',
        'GetTaskPushNotificationConfig',
        'ListTaskPushNotificationConfigs',
        'DeleteTaskPushNotificationConfig',
      ]) {
        const answer = await rawCall(url, {
          id: method,
          method,
          params: { taskId: 'any', id: 'cfg', url: 'https://hooks.example/a2a' },
        });
        const error = JSON.parse(answer.text).error;
        expect(error, `${host} ${method}`).toMatchObject({
          code: -32003,
          data: [{ reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }],
        });
        onWire.push({ status: answer.status, code: error.code, reason: error.data[0].reason });
      }
      return { byClient, onWire };
    });
  });

  it('a notification (no id) is answered 204 with no body, and carried out', async () => {
    await onEveryHost(async (host, client, url) => {
      const contextId = `ctx-notified-${host}`;
      const request = userMessage('rename a, unasked', { contextId });
      const message = {
        messageId: request.message!.messageId,
        contextId,
        role: 'ROLE_USER',
        parts: [{ text: 'rename a, unasked' }],
      };
      const answer = await rawCall(url, { method: 'SendMessage', params: { message } });
      expect(answer, host).toEqual({ status: 204, type: null, text: '' });
      const listed = await until(
        () =>
          client.listTasks({
            tenant: '',
            contextId,
            status: TaskState.TASK_STATE_COMPLETED,
            pageSize: 10,
            pageToken: '',
            historyLength: 0,
            statusTimestampAfter: undefined,
            includeArtifacts: false,
          }),
        (page) => page.tasks.length > 0,
        `${host}: the notified message runs`,
      );
      expect(listed.tasks, host).toHaveLength(1);
      const unknownMethod = await rawCall(url, { method: 'NoSuchMethod' });
      expect(unknownMethod.status, host).toBe(204);
      expect(unknownMethod.text, host).toBe('');
      return { answer, ran: listed.tasks.length, unknownMethod: unknownMethod.status };
    });
  });
});
