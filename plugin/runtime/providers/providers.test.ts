import { afterEach, describe, expect, it } from 'vitest';
import type { StubServer, Wire } from '../__test-support__/stub-provider';
import { sendJson, startScriptedProvider, startServer } from '../__test-support__/stub-provider';
import { RuntimeError } from '../errors';
import { ANTHROPIC_VERSION, createAnthropicMessagesClient } from './anthropic-messages';
import type { ChatMessage, ModelClient, ProviderClientOptions } from './model-turn';
import { createOllamaChatClient } from './ollama-chat';
import { createOpenAiChatClient } from './openai-chat';

const KEY = 'sk-provider-test-KEY-987654321';
const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const factories: Record<Wire, (o: ProviderClientOptions) => ModelClient> = {
  'openai-chat': createOpenAiChatClient,
  'anthropic-messages': createAnthropicMessagesClient,
  'ollama-chat': createOllamaChatClient,
};

const addTool = {
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
};

async function captureError(promise: Promise<unknown>): Promise<RuntimeError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RuntimeError);
    return error as RuntimeError;
  }
  throw new Error('expected a rejection');
}

for (const wire of ['openai-chat', 'anthropic-messages', 'ollama-chat'] as const) {
  describe(`${wire} client against a loopback stub`, () => {
    const apiKey = wire === 'ollama-chat' ? undefined : KEY;

    it('sends tools, normalises tool calls, and sends tool results back in the wire format', async () => {
      const stub = await startScriptedProvider({
        wire,
        ...(apiKey ? { apiKey } : {}),
        script: [
          {
            toolCalls: [
              { name: 'add', arguments: { a: 2, b: 3 } },
              { name: 'add', arguments: { a: 10, b: 1 } },
            ],
          },
          { text: (ctx) => `results: ${ctx.lastToolResults.join(' | ')}` },
        ],
      });
      servers.push(stub);
      const client = factories[wire]({
        baseUrl: stub.baseUrl,
        model: 'm-1',
        ...(apiKey ? { apiKey } : {}),
        sampling: { temperature: 0.2, topP: 0.9, topK: 5, maxTokens: 99, seed: 3, stop: ['END'] },
        fetch,
      });
      const first = await client.complete({
        system: 'be exact',
        messages: [{ role: 'user', content: 'add things' }],
        tools: [addTool],
      });
      expect(first.finish).toBe('tool_calls');
      expect(first.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
        ['add', { a: 2, b: 3 }],
        ['add', { a: 10, b: 1 }],
      ]);
      expect(new Set(first.toolCalls.map((c) => c.id)).size).toBe(2);
      const messages: ChatMessage[] = [
        { role: 'user', content: 'add things' },
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0]!.id, name: 'add', content: '{"sum":5}' },
        { role: 'tool', toolCallId: first.toolCalls[1]!.id, name: 'add', content: '{"sum":11}' },
      ];
      const second = await client.complete({ system: 'be exact', messages, tools: [addTool] });
      expect(second.finish).toBe('stop');
      expect(second.toolCalls).toEqual([]);
      expect(second.text).toBe('results: {"sum":5} | {"sum":11}');
      expect(second.usage).toEqual({ inputTokens: 10, outputTokens: 5 });

      const body = stub.requests[1]!.body;
      if (wire === 'openai-chat') {
        expect(stub.requests[0]!.path).toBe('/v1/chat/completions');
        expect(stub.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
        expect(body.messages[0]).toEqual({ role: 'system', content: 'be exact' });
        expect(body.tools[0]).toEqual({
          type: 'function',
          function: { name: 'add', description: addTool.description, parameters: addTool.inputSchema },
        });
        expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 99, seed: 3, stop: ['END'] });
        expect(body.messages[2].tool_calls[0].function.arguments).toBe('{"a":2,"b":3}');
      } else if (wire === 'anthropic-messages') {
        expect(stub.requests[0]!.path).toBe('/v1/messages');
        expect(stub.requests[0]!.headers['x-api-key']).toBe(KEY);
        expect(stub.requests[0]!.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
        expect(stub.requests[0]!.headers['authorization']).toBeUndefined();
        expect(body.system).toBe('be exact');
        expect(body.tools[0]).toEqual({
          name: 'add',
          description: addTool.description,
          input_schema: addTool.inputSchema,
        });
        expect(body).toMatchObject({ max_tokens: 99, temperature: 0.2, top_p: 0.9, top_k: 5, stop_sequences: ['END'] });
        // both tool results merged into ONE user turn, as the API requires
        expect(body.messages).toHaveLength(3);
        expect(body.messages[2].content.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result']);
      } else {
        expect(stub.requests[0]!.path).toBe('/api/chat');
        expect(stub.requests[0]!.headers['authorization']).toBeUndefined();
        expect(body).toMatchObject({
          stream: false,
          options: { temperature: 0.2, top_p: 0.9, top_k: 5, seed: 3, num_predict: 99, stop: ['END'] },
        });
        expect(body.messages[2].tool_calls[0].function.arguments).toEqual({ a: 2, b: 3 });
        expect(body.messages[3]).toEqual({ role: 'tool', content: '{"sum":5}', tool_name: 'add' });
      }
    });

    it('maps an HTTP error to provider_http_error without the provider message (which may echo the key)', async () => {
      const stub = await startScriptedProvider({ wire, apiKey: 'the-right-key-123456', script: [{ text: 'never' }] });
      servers.push(stub);
      const client = factories[wire]({ baseUrl: stub.baseUrl, model: 'm', apiKey: KEY, fetch });
      const error = await captureError(client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      expect(error.code).toBe('provider_http_error');
      expect(error.details['status']).toBe(401);
      expect(error.message).toMatch(/HTTP 401/);
      expect(JSON.stringify({ m: error.message, d: error.details, s: error.stack })).not.toContain(KEY);
    });

    it('maps an unreachable provider to provider_unreachable', async () => {
      const stub = await startServer(() => undefined);
      const url = stub.url;
      await stub.close();
      const client = factories[wire]({
        baseUrl: wire === 'openai-chat' ? `${url}/v1` : url,
        model: 'm',
        ...(apiKey ? { apiKey } : {}),
        fetch,
      });
      const error = await captureError(client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      expect(error.code).toBe('provider_unreachable');
      expect(error.message).not.toContain(KEY);
    });

    it('maps a malformed response to provider_bad_response', async () => {
      const stub = await startServer((_req, res) => sendJson(res, 200, { unexpected: true }));
      servers.push(stub);
      const client = factories[wire]({
        baseUrl: wire === 'openai-chat' ? `${stub.url}/v1` : stub.url,
        model: 'm',
        fetch,
      });
      const error = await captureError(client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      expect(error.code).toBe('provider_bad_response');
    });

    it('stops waiting when the signal aborts', async () => {
      const stub = await startScriptedProvider({ wire, script: [{ hang: true }] });
      servers.push(stub);
      const client = factories[wire]({ baseUrl: stub.baseUrl, model: 'm', fetch });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('stop')), 50);
      await expect(
        client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: controller.signal }),
      ).rejects.toThrow('stop');
    });
  });
}

describe('tool-call argument parsing', () => {
  it('keeps unparsable arguments as raw text instead of throwing', async () => {
    const stub = await startServer((_req, res) =>
      sendJson(res, 200, {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{not json' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    );
    servers.push(stub);
    const client = createOpenAiChatClient({ baseUrl: `${stub.url}/v1`, model: 'm', fetch });
    const turn = await client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [addTool] });
    expect(turn.toolCalls[0]).toEqual({ id: 'c1', name: 'add', arguments: undefined, rawArguments: '{not json' });
  });
});
