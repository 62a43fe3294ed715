/**
 * Scripted, deterministic model providers on loopback (real `node:http` servers), one per wire
 * format. Each stub checks requests the way the real API would (auth header, required fields,
 * tool results matching earlier tool calls, alternating roles) and answers 400 when they are
 * wrong, so the runtime's clients are exercised against the wire format, not against themselves.
 * Test-only: the runtime never imports this folder.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Wire = 'openai-chat' | 'anthropic-messages' | 'ollama-chat';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

export interface StubServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type RawHandler = (request: RecordedRequest, res: ServerResponse) => unknown;

export async function startServer(handler: RawHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep text
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** One scripted model turn. */
export type ScriptTurn =
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[]; text?: string }
  | { text: string | ((ctx: TurnContext) => string) }
  | { hang: true }
  | { status: number; body: unknown };

export interface TurnContext {
  /** Contents of the tool results that end the conversation (what the model "just saw"). */
  lastToolResults: string[];
  /** All text the request carries (system + messages), for assertions. */
  allText: string;
  body: any;
}

export interface ScriptedProviderOptions {
  wire: Wire;
  /** The key the stub expects (checked like the real API); absent: no auth expected. */
  apiKey?: string;
  /** Turn by index of the request, or a function of the request. Past the end: the last turn repeats. */
  script: ScriptTurn[] | ((index: number, ctx: TurnContext) => ScriptTurn);
  /** Milliseconds each answer waits before it is sent (a model that takes time; load tests). */
  delayMs?: number;
}

const PATHS: Record<Wire, string> = {
  'openai-chat': '/v1/chat/completions',
  'anthropic-messages': '/v1/messages',
  'ollama-chat': '/api/chat',
};

/** Base URL to put in a pin for a stub of this wire. */
export function baseUrlFor(wire: Wire, server: StubServer): string {
  return wire === 'openai-chat' ? `${server.url}/v1` : server.url;
}

export async function startScriptedProvider(
  options: ScriptedProviderOptions,
): Promise<StubServer & { baseUrl: string }> {
  let index = 0;
  const server = await startServer((req, res) => {
    if (req.method !== 'POST' || req.path !== PATHS[options.wire])
      return sendJson(res, 404, { error: { type: 'not_found_error', message: `no route ${req.path}` } });
    const authProblem = checkAuth(options, req);
    if (authProblem) return sendJson(res, 401, authProblem);
    const problem = validate(options.wire, req.body);
    if (problem) return sendJson(res, 400, { error: { type: 'invalid_request_error', message: problem } });
    const ctx = turnContext(options.wire, req.body);
    const script = options.script;
    const turn =
      typeof script === 'function' ? script(index, ctx) : (script[Math.min(index, script.length - 1)] as ScriptTurn);
    index++;
    if ('hang' in turn) return; // never answer
    if ('status' in turn) return sendJson(res, turn.status, turn.body);
    const text = 'toolCalls' in turn ? (turn.text ?? '') : typeof turn.text === 'function' ? turn.text(ctx) : turn.text;
    const calls = 'toolCalls' in turn ? turn.toolCalls : [];
    const answer = render(options.wire, req.body.model, text, calls, index);
    if (options.delayMs) setTimeout(() => sendJson(res, 200, answer), options.delayMs);
    else sendJson(res, 200, answer);
  });
  return { ...server, baseUrl: baseUrlFor(options.wire, server) };
}

function checkAuth(options: ScriptedProviderOptions, req: RecordedRequest): unknown {
  if (options.apiKey === undefined) return undefined;
  // Real providers echo part of a wrong key back; the stub echoes the whole thing, the worst case.
  if (options.wire === 'anthropic-messages') {
    if (req.headers['x-api-key'] !== options.apiKey)
      return {
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key ${req.headers['x-api-key'] ?? ''}` },
      };
    return undefined;
  }
  if (req.headers['authorization'] !== `Bearer ${options.apiKey}`) {
    return {
      error: {
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        message: `Incorrect API key provided: ${req.headers['authorization'] ?? ''}`,
      },
    };
  }
  return undefined;
}

function validate(wire: Wire, body: any): string | undefined {
  if (!body || typeof body !== 'object') return 'body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages is required';
  if (wire === 'openai-chat') {
    const ids = new Set<string>();
    for (const [i, m] of body.messages.entries()) {
      if (!['system', 'user', 'assistant', 'tool'].includes(m.role)) return `messages[${i}].role is invalid`;
      if (m.role === 'assistant')
        for (const c of m.tool_calls ?? []) {
          if (
            c.type !== 'function' ||
            typeof c.function?.name !== 'string' ||
            typeof c.function?.arguments !== 'string'
          )
            return `messages[${i}].tool_calls is invalid`;
          ids.add(c.id);
        }
      if (m.role === 'tool' && (!ids.has(m.tool_call_id) || typeof m.content !== 'string'))
        return `messages[${i}]: tool message without a matching tool_call_id`;
    }
    for (const t of body.tools ?? [])
      if (t.type !== 'function' || typeof t.function?.name !== 'string' || typeof t.function?.parameters !== 'object')
        return 'tools[] is invalid';
  } else if (wire === 'anthropic-messages') {
    if (typeof body.max_tokens !== 'number') return 'max_tokens: field required';
    let expected = 'user';
    let lastToolUses = new Set<string>();
    for (const [i, m] of body.messages.entries()) {
      if (m.role !== expected) return `messages: roles must alternate starting with user (messages[${i}])`;
      if (!Array.isArray(m.content)) return `messages[${i}].content must be an array here`;
      if (m.role === 'assistant')
        lastToolUses = new Set(m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id));
      else
        for (const b of m.content)
          if (b.type === 'tool_result' && !lastToolUses.has(b.tool_use_id))
            return `messages[${i}]: tool_result without a matching tool_use`;
      expected = expected === 'user' ? 'assistant' : 'user';
    }
    for (const t of body.tools ?? [])
      if (typeof t.name !== 'string' || typeof t.input_schema !== 'object') return 'tools[] is invalid';
  } else {
    if (body.stream !== false) return 'this stub only serves stream:false';
    for (const [i, m] of body.messages.entries()) {
      if (m.role === 'tool' && typeof m.tool_name !== 'string') return `messages[${i}].tool_name is required`;
      if (m.role === 'assistant')
        for (const c of m.tool_calls ?? [])
          if (typeof c.function?.arguments !== 'object') return `messages[${i}].tool_calls arguments must be objects`;
    }
  }
  return undefined;
}

function turnContext(wire: Wire, body: any): TurnContext {
  const messages: any[] = body.messages;
  const last: string[] = [];
  const texts: string[] = [];
  if (typeof body.system === 'string') texts.push(body.system);
  for (const m of messages) {
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content))
      for (const b of m.content)
        texts.push(typeof b.text === 'string' ? b.text : typeof b.content === 'string' ? b.content : '');
  }
  if (wire === 'anthropic-messages') {
    const tail = messages[messages.length - 1];
    if (tail?.role === 'user') for (const b of tail.content) if (b.type === 'tool_result') last.push(String(b.content));
  } else {
    for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--)
      last.unshift(String(messages[i].content));
  }
  return { lastToolResults: last, allText: texts.join('\n'), body };
}

function render(
  wire: Wire,
  model: string,
  text: string,
  calls: { name: string; arguments: Record<string, unknown> }[],
  n: number,
): unknown {
  if (wire === 'openai-chat') {
    return {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: calls.length ? text || null : text,
            ...(calls.length
              ? {
                  tool_calls: calls.map((c, i) => ({
                    id: `call_${n}_${i}`,
                    type: 'function',
                    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                  })),
                }
              : {}),
          },
          finish_reason: calls.length ? 'tool_calls' : 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }
  if (wire === 'anthropic-messages') {
    const content: unknown[] = [];
    if (text) content.push({ type: 'text', text });
    calls.forEach((c, i) =>
      content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: c.arguments }),
    );
    return {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: calls.length ? 'tool_use' : 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  }
  return {
    model,
    created_at: '2026-01-01T00:00:00Z',
    message: {
      role: 'assistant',
      content: text,
      ...(calls.length
        ? { tool_calls: calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }
        : {}),
    },
    done: true,
    done_reason: 'stop',
    prompt_eval_count: 10,
    eval_count: 5,
  };
}
