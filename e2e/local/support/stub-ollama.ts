/**
 * A stub Ollama on loopback: real HTTP, Ollama's wire format. `GET /api/tags` lists the models it
 * has; `POST /api/chat` (stream: false) answers scripted turns, with tool calls as Ollama sends
 * them (`message.tool_calls[].function.{name, arguments}` with arguments as an object). Requests
 * are checked like Ollama does (a model it has, messages, tool results naming their tool).
 */
import {
  sendJson,
  startServer,
  type RecordedRequest,
  type StubServer,
} from '../../../plugin/runtime/__test-support__/stub-provider';

export type OllamaTurn = { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { text: string };

/** The chat request as the stub received it. */
export interface OllamaChat {
  model: string;
  messages: { role: string; content: string; tool_name?: string; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
}

/** `respond` decides each turn from the request alone, so concurrent conversations stay apart. */
export async function startStubOllama(options: {
  models: string[];
  respond: (chat: OllamaChat) => OllamaTurn;
}): Promise<StubServer & { chats(): RecordedRequest[] }> {
  const server = await startServer((req, res) => {
    if (req.method === 'GET' && req.path === '/api/tags')
      return sendJson(res, 200, { models: options.models.map((name) => ({ name, model: name, size: 1 })) });
    if (req.method !== 'POST' || req.path !== '/api/chat') return sendJson(res, 404, { error: `no route ${req.path}` });
    const body = req.body as { model?: string; messages?: { role: string; tool_name?: string }[]; stream?: boolean };
    if (!body || !options.models.includes(body.model ?? ''))
      return sendJson(res, 404, { error: `model "${body?.model}" not found, try pulling it first` });
    if (body.stream !== false) return sendJson(res, 400, { error: 'this stub serves stream:false only' });
    if (
      !Array.isArray(body.messages) ||
      body.messages.some((m) => m.role === 'tool' && typeof m.tool_name !== 'string')
    )
      return sendJson(res, 400, { error: 'bad messages' });
    let step: OllamaTurn;
    try {
      step = options.respond(body as OllamaChat);
    } catch (error) {
      return sendJson(res, 500, { error: String(error) });
    }
    const message =
      'toolCalls' in step
        ? {
            role: 'assistant',
            content: '',
            tool_calls: step.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
          }
        : { role: 'assistant', content: step.text };
    return sendJson(res, 200, {
      model: body.model,
      created_at: '2026-01-01T00:00:00Z',
      message,
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 12,
      eval_count: 7,
    });
  });
  return { ...server, chats: () => server.requests.filter((r) => r.path === '/api/chat') };
}
