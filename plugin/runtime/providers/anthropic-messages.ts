/**
 * Anthropic Messages (`POST {baseUrl}/v1/messages`), non-streaming, with tools:
 * `x-api-key` and `anthropic-version` headers, `tools: [{ name, description, input_schema }]`,
 * `tool_use` content blocks back, results as `tool_result` blocks in the next user message.
 * Consecutive messages of one role are merged (the API wants alternating turns).
 */
import { RuntimeError } from '../errors';
import type { ChatMessage, ModelClient, ModelRequest, ModelTurn, ProviderClientOptions, ToolCall } from './model-turn';
import { parseArguments, samplingExtras, withReplayed } from './model-turn';
import { postJson } from './post-json';

const PROVIDER = 'anthropic-messages';
export const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_MAX_TOKENS = 1024;

export function createAnthropicMessagesClient(options: ProviderClientOptions): ModelClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/messages`;
  return {
    wire: 'anthropic-messages',
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelTurn> {
      const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...options.headers };
      if (options.apiKey) headers['x-api-key'] = options.apiKey;
      const { body: response, replayed } = await postJson(
        PROVIDER,
        options.fetch,
        url,
        headers,
        anthropicRequestBody(options, request),
        request.signal,
      );
      return withReplayed(parseAnthropicResponse(response), replayed);
    },
  };
}

type Block = Record<string, unknown>;

export function anthropicRequestBody(
  options: Pick<ProviderClientOptions, 'model' | 'sampling'>,
  request: ModelRequest,
): Record<string, unknown> {
  const messages: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of request.messages) push(...toAnthropicBlocks(message));
  const s = options.sampling ?? {};
  const body: Record<string, unknown> = {
    ...samplingExtras(s),
    model: options.model,
    max_tokens: s.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
  };
  if (request.system) body['system'] = request.system;
  if (request.tools.length > 0)
    body['tools'] = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema,
    }));
  if (s.temperature !== undefined) body['temperature'] = s.temperature;
  if (s.topP !== undefined) body['top_p'] = s.topP;
  if (s.topK !== undefined) body['top_k'] = s.topK;
  if (s.stop !== undefined && s.stop.length > 0) body['stop_sequences'] = s.stop;
  return body;
}

function toAnthropicBlocks(message: ChatMessage): ['user' | 'assistant', Block[]] {
  switch (message.role) {
    case 'user':
      return ['user', [{ type: 'text', text: message.content }]];
    case 'assistant': {
      const blocks: Block[] = [];
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {} });
      if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
      return ['assistant', blocks];
    }
    case 'tool': {
      const block: Block = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
      if (message.isError) block['is_error'] = true;
      return ['user', [block]];
    }
  }
}

export function parseAnthropicResponse(response: Record<string, unknown>): ModelTurn {
  const content = response['content'];
  if (!Array.isArray(content))
    throw new RuntimeError('provider_bad_response', `${PROVIDER}: no content array in the response`);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((raw, index) => {
    const block = raw as { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown };
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use') {
      if (typeof block.name !== 'string')
        throw new RuntimeError('provider_bad_response', `${PROVIDER}: content[${index}] tool_use has no name`);
      toolCalls.push({
        id: typeof block.id === 'string' ? block.id : `call_${index}`,
        name: block.name,
        ...parseArguments(block.input),
      });
    }
  });
  const reason = response['stop_reason'];
  const finish: ModelTurn['finish'] =
    toolCalls.length > 0 || reason === 'tool_use'
      ? 'tool_calls'
      : reason === 'end_turn' || reason === 'stop_sequence'
        ? 'stop'
        : reason === 'max_tokens'
          ? 'length'
          : 'other';
  const turn: ModelTurn = { text: texts.join(''), toolCalls, finish };
  const usage = response['usage'] as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  if (usage && typeof usage === 'object') {
    turn.usage = {};
    if (typeof usage.input_tokens === 'number') turn.usage.inputTokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') turn.usage.outputTokens = usage.output_tokens;
  }
  return turn;
}
