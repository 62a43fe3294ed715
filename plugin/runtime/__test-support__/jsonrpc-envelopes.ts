/**
 * Random JSON-RPC request bodies for property tests of an A2A endpoint, and the check every answer
 * must pass. Bodies range from arbitrary JSON and non-JSON text to near-valid envelopes: real and
 * random method names, wrong member types, huge and odd ids, batch arrays, strings with lone
 * surrogates and control characters, deep nesting, random params and messages.
 * Test-only: the runtime never imports this folder.
 */
import fc from 'fast-check';

const METHODS = [
  'SendMessage',
  'message/send',
  'GetTask',
  'tasks/get',
  'CancelTask',
  'tasks/cancel',
  'SendStreamingMessage',
  'ListTasks',
  'GetExtendedAgentCard',
  'tasks/pushNotificationConfig/set',
  'constructor',
  '__proto__',
  'toString',
];

/** Strings of every kind: full Unicode, lone surrogates (`binary` units), control characters. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '\u0000', '\ud800', '\udfff', '\u001b[2J', '\u2028'),
);

/** JSON with any strings (lone surrogates included) in keys and values. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    anyString,
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(anyString, tie('value'), { maxKeys: 4 }),
})).value;

/** JSON nested `depth` levels deep, as text (built without recursion). */
const deepText = fc
  .tuple(fc.integer({ min: 60, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"k":'.repeat(depth)}0${'}'.repeat(depth)}`,
  );

const ids = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 1.5),
  anyString,
  fc.constant(null),
  fc.constant(true),
  fc.constant([1]),
  fc.constant({ id: 1 }),
);

const parts = fc.array(
  fc.oneof(
    fc.record({ text: anyString }),
    fc.record({ data: anyJson }),
    fc.record({ url: anyString, mediaType: anyString }),
    fc.record({ raw: anyString, filename: anyString }),
    fc.record({ kind: fc.constantFrom('text', 'data', 'file', 'nope'), text: anyJson, data: anyJson, file: anyJson }),
    anyJson,
  ),
  { maxLength: 3 },
);

const messages = fc.oneof(
  fc.record(
    {
      messageId: fc.oneof(anyString, anyJson),
      role: fc.constantFrom('ROLE_USER', 'user', 'ROLE_AGENT', 1, 0, null),
      parts,
      contextId: fc.oneof(anyString, anyJson),
      taskId: fc.oneof(anyString, anyJson),
      metadata: anyJson,
      kind: fc.constant('message'),
    },
    { requiredKeys: ['messageId', 'role', 'parts'] },
  ),
  anyJson,
);

const params = fc.oneof(
  fc.record(
    {
      message: messages,
      configuration: fc.oneof(anyJson, fc.record({ historyLength: fc.oneof(fc.integer(), anyJson) })),
      metadata: fc.oneof(anyJson, fc.record({ skillId: anyJson })),
    },
    { requiredKeys: ['message'] },
  ),
  fc.record({ id: fc.oneof(anyString, anyJson), historyLength: anyJson }, { requiredKeys: [] }),
  anyJson,
);

const envelopes = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), anyJson),
    id: ids,
    method: fc.oneof(fc.constantFrom(...METHODS), anyString, anyJson),
    params,
  },
  { requiredKeys: [] },
);

/** Valid sends with random content: they run the agent (any text, lone surrogates included, random metadata and ids). */
const validSends = fc
  .record({
    id: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), anyString),
    v1: fc.boolean(),
    text: anyString,
    data: fc.option(anyJson),
    metadata: fc.option(fc.dictionary(anyString, anyJson, { maxKeys: 3 })),
    historyLength: fc.option(fc.integer({ min: -2, max: 4 })),
  })
  .map(({ id, v1, text, data, metadata, historyLength }) => {
    const textPart = v1 ? { text } : { kind: 'text', text };
    const dataPart = data === null ? [] : [v1 ? { data } : { kind: 'data', data }];
    const message: Record<string, unknown> = {
      messageId: `m-${String(id)}`,
      role: v1 ? 'ROLE_USER' : 'user',
      parts: [textPart, ...dataPart],
    };
    if (!v1) message['kind'] = 'message';
    if (metadata !== null) message['metadata'] = metadata;
    const params: Record<string, unknown> = { message };
    if (historyLength !== null) params['configuration'] = { historyLength };
    return JSON.stringify({ jsonrpc: '2.0', id, method: v1 ? 'SendMessage' : 'message/send', params });
  });

/** A request body (text): mostly envelopes, also valid sends, batches, deep nesting, bare JSON and non-JSON. */
export const jsonRpcBodies: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: envelopes.map((e) => JSON.stringify(e)) },
  { weight: 3, arbitrary: validSends },
  { weight: 1, arbitrary: fc.array(envelopes, { maxLength: 3 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: anyString },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('SendMessage', 'message/send', 'GetTask'),
        fc.constantFrom('data', 'metadata', 'params'),
        deepText,
      )
      .map(([method, where, deep]) =>
        where === 'params'
          ? `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${deep}}`
          : `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[${where === 'data' ? `{"data":${deep}}` : '{"text":"hi"}'}]${where === 'metadata' ? `,"metadata":{"k":${deep}}` : ''}}}}`,
      ),
  },
);

/** The id the answer must carry: the request's when it is a valid id (string or number), else null. */
export function expectedId(body: string): unknown {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const id = (parsed as Record<string, unknown>)['id'];
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** A notification: a well-formed request without an `id` member, which gets no answer (JSON-RPC 2.0 §4.1). */
export function isNotification(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
    const request = parsed as Record<string, unknown>;
    return request['jsonrpc'] === '2.0' && typeof request['method'] === 'string' && !Object.hasOwn(request, 'id');
  } catch {
    return false;
  }
}

/**
 * Why an answer is not a well-formed JSON-RPC response to `body`, or undefined: a notification gets
 * 204 and no body; anything else JSON with `jsonrpc: "2.0"`, the expected id, exactly one of
 * `result` / `error`, an integer code and a string message, no `-32603` (every random body is a
 * client mistake or a valid request), and nothing that looks like a stack trace. A stream
 * (Server-Sent Events) is checked event by event.
 */
export function answerProblem(body: string, status: number, text: string): string | undefined {
  if (isNotification(body))
    return status === 204 && text === '' ? undefined : `a notification answered ${status}: ${text.slice(0, 200)}`;
  if (text.startsWith('data: ')) {
    const events = text.split('\n\n').filter((event) => event.startsWith('data: '));
    if (events.length === 0 || status !== 200) return 'a stream without events';
    for (const event of events) {
      const problem = responseProblem(body, status, event.slice('data: '.length));
      if (problem) return `stream event: ${problem}`;
    }
    return undefined;
  }
  return responseProblem(body, status, text);
}

function responseProblem(body: string, status: number, text: string): string | undefined {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (![200, 413].includes(status)) return `status ${status}`;
  if (answer['jsonrpc'] !== '2.0') return 'jsonrpc is not "2.0"';
  const wanted = expectedId(body);
  // Numbers compare by value (-0 is written as 0), strings exactly.
  if (!(typeof wanted === 'number' ? answer['id'] === wanted : answer['id'] === wanted))
    return `id ${JSON.stringify(answer['id'])} instead of ${JSON.stringify(wanted)}`;
  if ('result' in answer === 'error' in answer) return 'not exactly one of result and error';
  if ('error' in answer) {
    const error = answer['error'] as Record<string, unknown>;
    if (!Number.isInteger(error['code']) || typeof error['message'] !== 'string') return 'malformed error object';
    if (error['code'] === -32603) return 'internal error for a client request';
  }
  if (/\n\s+at\s|node:internal|\.ts:\d+/.test(text)) return 'looks like a stack trace';
  return undefined;
}
