/**
 * OpenAI Chat Completions (`POST {baseUrl}/chat/completions`), non-streaming, with function tools:
 * `tools: [{ type: 'function', function: { name, description, parameters } }]` out,
 * `choices[0].message.tool_calls[].function.{name, arguments}` back, tool results as
 * `{ role: 'tool', tool_call_id, content }`. Also speaks to OpenAI-compatible servers.
 */
import { RuntimeError } from '../errors';
import type { ChatMessage, ModelClient, ModelRequest, ModelTurn, ProviderClientOptions, ToolCall } from './model-turn';
import { parseArguments, samplingExtras, withReplayed } from './model-turn';
import { postJson } from './post-json';

const PROVIDER = 'openai-chat';

export function createOpenAiChatClient(options: ProviderClientOptions): ModelClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    wire: 'openai-chat',
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelTurn> {
      const headers: Record<string, string> = { ...options.headers };
      if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
      const body = openAiRequestBody(options, request);
      const { body: response, replayed } = await postJson(PROVIDER, options.fetch, url, headers, body, request.signal);
      return withReplayed(parseOpenAiResponse(response), replayed);
    },
  };
}

export function openAiRequestBody(
  options: Pick<ProviderClientOptions, 'model' | 'sampling'>,
  request: ModelRequest,
): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOpenAiMessage(message));
  const s = options.sampling ?? {};
  const body: Record<string, unknown> = { ...samplingExtras(s), model: options.model, messages };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }
  if (s.temperature !== undefined) body['temperature'] = s.temperature;
  if (s.topP !== undefined) body['top_p'] = s.topP;
  if (s.maxTokens !== undefined) body['max_tokens'] = s.maxTokens;
  if (s.seed !== undefined) body['seed'] = s.seed;
  if (s.stop !== undefined && s.stop.length > 0) body['stop'] = s.stop;
  return body;
}

function toOpenAiMessage(message: ChatMessage): unknown {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const out: Record<string, unknown> = {
        role: 'assistant',
        content: message.content === '' && message.toolCalls?.length ? null : message.content,
      };
      if (message.toolCalls && message.toolCalls.length > 0) {
        out['tool_calls'] = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: {
            name: call.name,
            arguments: call.arguments ? JSON.stringify(call.arguments) : (call.rawArguments ?? '{}'),
          },
        }));
      }
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

export function parseOpenAiResponse(response: Record<string, unknown>): ModelTurn {
  const choices = response['choices'];
  const choice = Array.isArray(choices) ? (choices[0] as Record<string, unknown> | undefined) : undefined;
  const message = choice?.['message'] as Record<string, unknown> | undefined;
  if (!message || typeof message !== 'object')
    throw new RuntimeError('provider_bad_response', `${PROVIDER}: no choices[0].message in the response`);
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
        id: typeof call.id === 'string' ? call.id : `call_${index}`,
        name,
        ...parseArguments(call.function?.arguments),
      });
    });
  }
  const reason = choice?.['finish_reason'];
  const finish: ModelTurn['finish'] =
    toolCalls.length > 0 || reason === 'tool_calls'
      ? 'tool_calls'
      : reason === 'stop'
        ? 'stop'
        : reason === 'length'
          ? 'length'
          : 'other';
  const usage = response['usage'] as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  const turn: ModelTurn = { text, toolCalls, finish };
  if (usage && typeof usage === 'object') {
    turn.usage = {};
    if (typeof usage.prompt_tokens === 'number') turn.usage.inputTokens = usage.prompt_tokens;
    if (typeof usage.completion_tokens === 'number') turn.usage.outputTokens = usage.completion_tokens;
  }
  return turn;
}
