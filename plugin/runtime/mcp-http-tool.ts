/**
 * MCP tools over Streamable HTTP, with fetch only: `initialize`, `notifications/initialized`, then
 * `tools/call`. Answers may come as JSON or as a Server-Sent Events stream; the session id
 * (`Mcp-Session-Id`) is kept for later calls and renewed once when the server forgets it (404).
 * A tool result is returned as its `structuredContent`, else its text, else its content blocks;
 * `isError: true` becomes a `tool_failed` error the loop hands back to the model.
 * On Workers the host passes the service binding's fetch; elsewhere the run's egress-checked
 * fetch is used, so an MCP server is reachable only when its origin is declared.
 */
import type { ToolHandler } from './agent-loop';
import { RuntimeError, isRuntimeError } from './errors';

export const MCP_PROTOCOL_VERSION = '2025-06-18';

export interface McpHttpToolOptions {
  /** The Streamable HTTP endpoint, for example `https://tools.example.com/mcp`. */
  url: string;
  /** The MCP tool name; default: the runtime tool's `name`. */
  toolName?: string;
  /** A fetch to use instead of the run's (a Workers service binding's `fetch`). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

interface Session {
  id?: string;
  protocolVersion: string;
}

type JsonRpcMessage = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code?: number; message?: string } };

async function readRpcResponse(response: Response, id: number): Promise<JsonRpcMessage> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const messages: unknown[] = [];
  if (type.includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) {
        try {
          messages.push(JSON.parse(data));
        } catch {
          // ignore keep-alives and partial events
        }
      }
    }
  } else {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) messages.push(...parsed);
      else messages.push(parsed);
    } catch {
      throw new RuntimeError('mcp_error', 'the MCP server answered with something that is not JSON');
    }
  }
  const match = messages.find(
    (m): m is JsonRpcMessage => m !== null && typeof m === 'object' && (m as JsonRpcMessage).id === id,
  );
  if (!match) throw new RuntimeError('mcp_error', 'the MCP server sent no response to the request');
  return match;
}

export function createMcpHttpToolHandler(options: McpHttpToolOptions): ToolHandler {
  let session: Session | undefined;
  let nextId = 1;

  return async (args, context) => {
    const fetchFn = options.fetch ?? context.fetch;
    const toolName = options.toolName ?? context.tool.name;

    const post = async (body: unknown, current: Session | undefined): Promise<Response> => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...options.headers,
      };
      if (current?.id) headers['mcp-session-id'] = current.id;
      if (current) headers['mcp-protocol-version'] = current.protocolVersion;
      try {
        return await fetchFn(options.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: context.signal,
        });
      } catch (error) {
        if (isRuntimeError(error) || context.signal.aborted) throw error;
        throw new RuntimeError(
          'mcp_error',
          `the MCP server could not be reached (${error instanceof Error ? error.name : 'error'})`,
        );
      }
    };

    const call = async (
      method: string,
      params: unknown,
      current: Session | undefined,
    ): Promise<{ message: JsonRpcMessage; response: Response }> => {
      const id = nextId++;
      const response = await post({ jsonrpc: '2.0', id, method, params }, current);
      if (!response.ok) {
        await response.body?.cancel();
        throw new RuntimeError('mcp_error', `MCP ${method}: HTTP ${response.status}`, { status: response.status });
      }
      const message = await readRpcResponse(response, id);
      if (message.error) throw new RuntimeError('mcp_error', `MCP ${method}: error ${message.error.code ?? ''}`.trim());
      return { message, response };
    };

    const open = async (): Promise<Session> => {
      const { message, response } = await call(
        'initialize',
        {
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'agentdef-runtime', version: '1.0.0' },
        },
        undefined,
      );
      const result = message.result as { protocolVersion?: unknown } | undefined;
      const opened: Session = {
        protocolVersion: typeof result?.protocolVersion === 'string' ? result.protocolVersion : MCP_PROTOCOL_VERSION,
      };
      const id = response.headers.get('mcp-session-id');
      if (id) opened.id = id;
      const ack = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, opened);
      await ack.body?.cancel();
      return opened;
    };

    session ??= await open();
    let outcome: JsonRpcMessage;
    try {
      outcome = (await call('tools/call', { name: toolName, arguments: args }, session)).message;
    } catch (error) {
      // A server that forgot the session answers 404: open a new one and retry once.
      if (!(isRuntimeError(error) && error.details['status'] === 404 && session.id)) throw error;
      session = await open();
      outcome = (await call('tools/call', { name: toolName, arguments: args }, session)).message;
    }
    const result = (outcome.result ?? {}) as {
      content?: { type?: string; text?: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    const blocks = Array.isArray(result.content) ? result.content : [];
    const text = blocks.every((b) => b.type === 'text') ? blocks.map((b) => b.text ?? '').join('\n') : undefined;
    if (result.isError)
      throw new RuntimeError('tool_failed', `${toolName}: ${(text ?? 'the tool reported an error').slice(0, 500)}`);
    if (result.structuredContent !== undefined) return result.structuredContent;
    return text ?? blocks;
  };
}
