/**
 * Ollama chat (`POST {baseUrl}/api/chat`, `stream: false`) with tools:
 * `tools: [{ type: 'function', function: {...} }]` out, `message.tool_calls[].function.{name,
 * arguments}` back (arguments arrive as an object), tool results as `{ role: 'tool', content,
 * tool_name }`. Sampling goes in `options` (`num_predict` for the token cap).
 */
import { RuntimeError } from '../errors';
import type { ChatMessage, ModelClient, ModelRequest, ModelTurn, ProviderClientOptions, ToolCall } from './model-turn';
import { parseArguments, samplingExtras, withReplayed } from './model-turn';
import { postJson } from './post-json';

const PROVIDER = 'ollama-chat';

export function createOllamaChatClient(options: ProviderClientOptions): ModelClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/api/chat`;
  let callCounter = 0;
  return {
    wire: 'ollama-chat',
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelTurn> {
      const headers: Record<string, string> = { ...options.headers };
      if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
      const { body: response, replayed } = await postJson(
        PROVIDER,
        options.fetch,
        url,
        headers,
        ollamaRequestBody(options, request),
        request.signal,
      );
      const turn = parseOllamaResponse(response, callCounter);
      callCounter += turn.toolCalls.length;
      return withReplayed(turn, replayed);
    },
  };
}

export function ollamaRequestBody(
  options: Pick<ProviderClientOptions, 'model' | 'sampling'>,
  request: ModelRequest,
): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOllamaMessage(message));
  const s = options.sampling ?? {};
  const opts: Record<string, unknown> = { ...samplingExtras(s) };
  if (s.temperature !== undefined) opts['temperature'] = s.temperature;
  if (s.topP !== undefined) opts['top_p'] = s.topP;
  if (s.topK !== undefined) opts['top_k'] = s.topK;
  if (s.seed !== undefined) opts['seed'] = s.seed;
  if (s.maxTokens !== undefined) opts['num_predict'] = s.maxTokens;
  if (s.stop !== undefined && s.stop.length > 0) opts['stop'] = s.stop;
  const body: Record<string, unknown> = { model: options.model, messages, stream: false };
  if (Object.keys(opts).length > 0) body['options'] = opts;
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
  }
  return body;
}

function toOllamaMessage(message: ChatMessage): unknown {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const out: Record<string, unknown> = { role: 'assistant', content: message.content };
      if (message.toolCalls && message.toolCalls.length > 0) {
        out['tool_calls'] = message.toolCalls.map((call) => ({
          function: { name: call.name, arguments: call.arguments ?? {} },
        }));
      }
      return out;
    }
    case 'tool':
      return { role: 'tool', content: message.content, tool_name: message.name };
  }
}

export function parseOllamaResponse(response: Record<string, unknown>, firstCallIndex = 0): ModelTurn {
  const message = response['message'] as Record<string, unknown> | undefined;
  if (!message || typeof message !== 'object')
    throw new RuntimeError('provider_bad_response', `${PROVIDER}: no message in the response`);
  const text = typeof message['content'] === 'string' ? message['content'] : '';
  const toolCalls: ToolCall[] = [];
  const rawCalls = message['tool_calls'];
  if (Array.isArray(rawCalls)) {
    rawCalls.forEach((raw, index) => {
      const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const name = call.function?.name;
      if (typeof name !== 'string')
        throw new RuntimeError('provider_bad_response', `${PROVIDER}: tool_calls[${index}] has no function name`);
      toolCalls.push({
        id: typeof call.id === 'string' ? call.id : `call_${firstCallIndex + index}`,
        name,
        ...parseArguments(call.function?.arguments),
      });
    });
  }
  const reason = response['done_reason'];
  const finish: ModelTurn['finish'] =
    toolCalls.length > 0
      ? 'tool_calls'
      : reason === 'length'
        ? 'length'
        : reason === 'stop' || reason === undefined
          ? 'stop'
          : 'other';
  const turn: ModelTurn = { text, toolCalls, finish };
  const input = response['prompt_eval_count'];
  const output = response['eval_count'];
  if (typeof input === 'number' || typeof output === 'number') {
    turn.usage = {};
    if (typeof input === 'number') turn.usage.inputTokens = input;
    if (typeof output === 'number') turn.usage.outputTokens = output;
  }
  return turn;
}
