import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, calcTools, memorySink, toolOnlyConfig } from './__test-support__/configs';
import type { ServedHandler } from './__test-support__/serve-handler';
import { serveHandler } from './__test-support__/serve-handler';
import type { StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { A2aHandlerDeps } from './a2a-handler';
import { createA2aHandler } from './a2a-handler';
import { AGENT_CARD_PATH } from './agent-card';
import { generateReceiptKeyPair, verifyReceipt } from './receipts';
import type { RuntimeConfig } from './runtime-config';

const REQUIRED = JSON.parse(
  readFileSync(join(__dirname, '../../e2e/fixtures/conformance/a2a/a2a-v1.0.1.required-fields.derived.json'), 'utf8'),
) as Record<string, { required: string[]; fields: { json: string; type: string; repeated: boolean; map: boolean }[] }>;

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((s) => s.close()));
});
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});

async function serve(config: RuntimeConfig, extra: Partial<A2aHandlerDeps> = {}) {
  const sink = memorySink();
  const logs: unknown[] = [];
  const handler = createA2aHandler(config, {
    secrets: { OPENAI_API_KEY: TEST_KEY },
    tools: calcTools,
    receipts: { signingKey: keys.privateJwk, sink },
    log: (e) => logs.push(e),
    ...extra,
  });
  const calls: { path: string; method?: string; version: string | null }[] = [];
  const served: ServedHandler = await serveHandler(async (request, perRequest) => {
    const body = request.method === 'POST' ? await request.clone().text() : '';
    let method: string | undefined;
    try {
      method = JSON.parse(body).method;
    } catch {
      // not JSON
    }
    calls.push({
      path: new URL(request.url).pathname,
      ...(method ? { method } : {}),
      version: request.headers.get('a2a-version'),
    });
    return handler(request, perRequest);
  });
  closers.push(served);
  return { served, sink, logs, calls };
}

async function provider(
  script: Parameters<typeof startScriptedProvider>[0]['script'],
  apiKey = TEST_KEY,
): Promise<StubServer & { baseUrl: string }> {
  const stub = await startScriptedProvider({ wire: 'openai-chat', apiKey, script });
  closers.push(stub);
  return stub;
}

async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as any };
}

const v1Message = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

/** Every REQUIRED field of the A2A v1.0.1 proto present, and no field the proto does not define. */
function conformance(type: string, value: any, path: string, problems: string[]): void {
  const spec = REQUIRED[type];
  if (!spec) return;
  const known = new Set(spec.fields.map((f) => f.json));
  for (const key of Object.keys(value)) if (!known.has(key)) problems.push(`${path}.${key}: not a ${type} field`);
  for (const name of spec.required) {
    const v = value[name];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0))
      problems.push(`${path}.${name}: required`);
  }
  for (const field of spec.fields) {
    const v = value[field.json];
    if (v === undefined || field.map) continue;
    if (field.repeated)
      (v as unknown[]).forEach((item, i) => conformance(field.type, item, `${path}.${field.json}[${i}]`, problems));
    else conformance(field.type, v, `${path}.${field.json}`, problems);
  }
}

describe('agent card', () => {
  it('is served at /.well-known/agent-card.json with every field A2A v1.0.1 requires', async () => {
    const { served } = await serve(toolOnlyConfig());
    const response = await fetch(`${served.url}${AGENT_CARD_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const card = await response.json();
    const problems: string[] = [];
    conformance('AgentCard', card, 'card', problems);
    expect(problems).toEqual([]);
    expect(card.supportedInterfaces[0]).toEqual({
      url: `${served.url}/`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
    expect(card.version).toBe('0.3.0');
    expect(card.skills).toEqual([{ id: 'add', name: 'Add', description: 'Adds a and b.', tags: ['math'] }]);
    expect(card.capabilities.extensions[0].params.skills).toEqual({ add: '0.3.0' });
  });

  it('uses the configured public URL when there is one', async () => {
    const config = toolOnlyConfig();
    config.card.publicUrl = 'https://adder.example.com';
    const { served } = await serve(config);
    const card = await (await fetch(`${served.url}${AGENT_CARD_PATH}`)).json();
    expect(card.supportedInterfaces[0].url).toBe('https://adder.example.com/');
  });
});

describe('the @a2a-js/sdk client (an independent implementation) against the handler', () => {
  it('fetches the card, sends a message with SendMessage, and gets the agent answer in a completed Task', async () => {
    const stub = await provider([
      { toolCalls: [{ name: 'add', arguments: { a: 19, b: 23 } }] },
      { text: (ctx) => `The sum is ${JSON.parse(ctx.lastToolResults[0]!).sum}.` },
    ]);
    const { served, sink, logs, calls } = await serve(agenticConfig('openai-chat', stub.baseUrl));
    const client = await new ClientFactory().createFromUrl(served.url);
    const card = await client.getAgentCard();
    expect(card.name).toBe('Calculator Agent');
    const result = await client.sendMessage({
      tenant: '',
      message: {
        messageId: 'msg-1',
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [
          { content: { $case: 'text', value: 'What is 19 + 23?' }, metadata: undefined, filename: '', mediaType: '' },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: { skillId: 'arithmetic' },
    });
    expect('status' in result).toBe(true);
    const task = result as Extract<typeof result, { status: unknown }>;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answerPart = task.artifacts[0]!.parts[0]!;
    expect(answerPart.content).toEqual({ $case: 'text', value: 'The sum is 42.' });
    expect(task.status?.message?.role).toBe(Role.ROLE_AGENT);
    expect(task.metadata).toMatchObject({ stopReason: 'answer', skill: 'arithmetic', runId: task.id });

    // GetTask reads it back
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: 0 });
    expect(again.id).toBe(task.id);
    expect(again.history).toEqual([]);
    // what the SDK actually sent: the card from the well-known path, then v1.0 PascalCase methods
    expect(calls).toEqual([
      { path: '/.well-known/agent-card.json', version: '1.0' },
      { path: '/', method: 'SendMessage', version: '1.0' },
      { path: '/', method: 'GetTask', version: '1.0' },
    ]);

    // one signed receipt, delivered through waitUntil
    await Promise.all(served.background);
    expect(sink.receipts).toHaveLength(1);
    expect(sink.receipts[0]!.runId).toBe(task.id);
    expect(sink.receipts[0]!.pinning).toEqual({
      card: 'calc-agent',
      cardVersion: '1.2.0',
      skill: 'arithmetic',
      skillVersion: '2.0.1',
    });
    expect(await verifyReceipt(sink.receipts[0], keys.publicJwk)).toBe(true);
    expect(JSON.stringify({ logs, r: sink.receipts })).not.toContain(TEST_KEY);
  });

  it('reports a limit as a failed Task that says which limit', async () => {
    const stub = await provider([{ hang: true }]);
    const { served, sink } = await serve(agenticConfig('openai-chat', stub.baseUrl, { limits: { wallClockMs: 200 } }));
    const client = await new ClientFactory().createFromUrl(served.url);
    const result = await client.sendMessage({
      tenant: '',
      message: {
        messageId: 'msg-2',
        contextId: 'ctx-9',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: 'hi' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    const task = result as Extract<typeof result, { status: unknown }>;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(task.contextId).toBe('ctx-9');
    expect(task.metadata).toMatchObject({ stopReason: 'limit:wallClock' });
    const reply = task.status?.message?.parts[0]?.content;
    expect(reply?.$case === 'text' && reply.value).toContain('limit:wallClock');
    await Promise.all(served.background);
    expect(sink.receipts.map((r) => r.outcome.stopReason)).toEqual(['limit:wallClock']);
  });

  it('surfaces an unknown skill as invalid params to the client', async () => {
    const { served } = await serve(toolOnlyConfig());
    const client = await new ClientFactory().createFromUrl(served.url);
    await expect(
      client.sendMessage({
        tenant: '',
        message: {
          messageId: 'x',
          contextId: '',
          taskId: '',
          role: Role.ROLE_USER,
          parts: [{ content: { $case: 'text', value: '{}' }, metadata: undefined, filename: '', mediaType: '' }],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: { skillId: 'nope' },
      }),
    ).rejects.toMatchObject({ envelopeCode: -32602 });
  });
});

describe('JSON-RPC errors', () => {
  it('malformed JSON is -32700 with id null, and never a 500', async () => {
    const { served } = await serve(toolOnlyConfig());
    const r = await rpc(served.url, '{"jsonrpc": "2.0", "method": ');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload' } });
  });

  it('an unknown method is -32601, echoing the id', async () => {
    const { served } = await serve(toolOnlyConfig());
    const r = await rpc(served.url, { jsonrpc: '2.0', id: 'abc', method: 'DoMagic', params: {} });
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32601, message: 'Method not found' } });
  });

  it('invalid params are -32602 with field violations', async () => {
    const { served } = await serve(toolOnlyConfig());
    const r = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 7,
      method: 'SendMessage',
      params: { message: { messageId: '', role: 'ROLE_AGENT', parts: [] } },
    });
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.data[0]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
    expect(r.json.error.data[0].fieldViolations.map((v: any) => v.field)).toEqual([
      'message.messageId',
      'message.role',
      'message.parts',
    ]);
    const noParams = await rpc(served.url, { jsonrpc: '2.0', id: 8, method: 'SendMessage', params: 'nope' });
    expect(noParams.json.error.code).toBe(-32602);
    const twoContents = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 9,
      method: 'SendMessage',
      params: { message: v1Message('x', { parts: [{ text: 'a', data: {} }] }) },
    });
    expect(twoContents.json.error.code).toBe(-32602);
  });

  it('invalid requests are -32600 (no jsonrpc 2.0, a batch, a bad id)', async () => {
    const { served } = await serve(toolOnlyConfig());
    expect((await rpc(served.url, { id: 1, method: 'SendMessage' })).json.error.code).toBe(-32600);
    expect((await rpc(served.url, [{ jsonrpc: '2.0', id: 1, method: 'SendMessage' }])).json.error.code).toBe(-32600);
    expect((await rpc(served.url, { jsonrpc: '2.0', id: { x: 1 }, method: 'SendMessage' })).json.error.code).toBe(
      -32600,
    );
  });

  it('an internal failure is -32603 with a safe message: no stack, no key', async () => {
    const { served, logs } = await serve(toolOnlyConfig(), {
      random: () => {
        throw new Error(`entropy exhausted near ${TEST_KEY} at /srv/app/secret.js:12`);
      },
    });
    const r = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 3,
      method: 'SendMessage',
      params: { message: v1Message('{"a":1,"b":2}') },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } });
    expect(r.text).not.toContain(TEST_KEY);
    expect(r.text).not.toMatch(/secret\.js|at \//);
    expect(JSON.stringify(logs)).not.toContain(TEST_KEY);
    expect(logs).toContainEqual(expect.objectContaining({ event: 'rpc.internal_error', errorCode: 'internal' }));
  });

  it('unsupported A2A operations get their A2A error codes', async () => {
    const { served } = await serve(toolOnlyConfig());
    const code = async (method: string, params: unknown = {}, headers: Record<string, string> = {}) =>
      (await rpc(served.url, { jsonrpc: '2.0', id: 1, method, params }, headers)).json.error?.code;
    expect(await code('SubscribeToTask', { id: 'unknown' })).toBe(-32001);
    expect(await code('CreateTaskPushNotificationConfig')).toBe(-32003);
    expect(await code('GetExtendedAgentCard')).toBe(-32004);
    expect(await code('GetTask', { id: 'unknown' })).toBe(-32001);
    expect(await code('SendMessage', { message: v1Message('x') }, { 'A2A-Version': '2.0' })).toBe(-32009);
    expect(await code('SendMessage', { message: v1Message('x', { taskId: 'nope' }) })).toBe(-32001);
    expect(
      await code('SendMessage', { message: v1Message('x', { parts: [{ text: 'x', mediaType: 'image/png' }] }) }),
    ).toBe(-32005);
  });

  it("names of Object.prototype's members are unknown methods, not operations", async () => {
    const { served } = await serve(toolOnlyConfig());
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect((await rpc(served.url, { jsonrpc: '2.0', id: 1, method, params: {} })).json.error, method).toEqual({
        code: -32601,
        message: 'Method not found',
      });
    }
  });

  it('CancelTask on a finished task is not-cancelable', async () => {
    const { served } = await serve(toolOnlyConfig());
    const sent = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: v1Message('{"a":1,"b":2}') },
    });
    const id = sent.json.result.task.id;
    expect(
      (await rpc(served.url, { jsonrpc: '2.0', id: 2, method: 'CancelTask', params: { id } })).json.error.code,
    ).toBe(-32002);
  });

  it('non-RPC paths and methods answer plainly', async () => {
    const { served } = await serve(toolOnlyConfig());
    expect((await fetch(`${served.url}/nowhere`)).status).toBe(404);
    const get = await fetch(`${served.url}/a2a/v1`);
    expect(get.status).toBe(405);
    expect((await get.json()).error.code).toBe(-32600);
  });
});

describe('A2A v0.3 clients', () => {
  it('message/send returns a v0.3 task with kind discriminators', async () => {
    const { served } = await serve(toolOnlyConfig());
    const r = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 'legacy',
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { a: 5, b: 6 } }] },
      },
    });
    expect(r.json.result).toMatchObject({
      kind: 'task',
      status: { state: 'completed', message: { kind: 'message', role: 'agent' } },
      artifacts: [
        {
          parts: [
            { kind: 'text', text: '{"sum":11}' },
            { kind: 'data', data: { sum: 11 } },
          ],
        },
      ],
    });
    const got = await rpc(served.url, { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: r.json.result.id } });
    expect(got.json.result.kind).toBe('task');
  });
});

describe('keys stay secret over A2A', () => {
  it('a provider echoing a rejected key: the A2A response, receipt and logs do not contain it', async () => {
    const stub = await provider([{ text: 'x' }], 'the-real-key-abcdef');
    const { served, sink, logs } = await serve(agenticConfig('openai-chat', stub.baseUrl));
    const r = await rpc(served.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: v1Message('hi') },
    });
    expect(r.json.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(r.json.result.task.metadata.errorCode).toBe('provider_http_error');
    await Promise.all(served.background);
    expect(sink.receipts).toHaveLength(1);
    expect(r.text + JSON.stringify(sink.receipts) + JSON.stringify(logs)).not.toContain(TEST_KEY);
  });

  it('refuses to start with an invalid config', () => {
    expect(() => createA2aHandler({ ...toolOnlyConfig(), skills: [] })).toThrow(/skills/);
  });
});
