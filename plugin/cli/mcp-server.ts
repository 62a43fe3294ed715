/**
 * The MCP wiring of `agentdef mcp`: the official SDK's low-level `Server` over a bounded
 * stdio transport (mcp-stdio-transport.ts), offering exactly the three application tools.
 *
 * - `tools/list` returns the three contracts of mcp-tool-contracts.ts, each with its closed
 *   `inputSchema` and its `outputSchema`.
 * - `tools/call` hands the arguments, exactly as they arrived on the wire (captured before the
 *   SDK's request schema copies them and drops keys such as an own `__proto__`), to
 *   `callApplicationTool` (mcp-tool-calls.ts), which checks them and calls the
 *   `ApplicationService`; the result carries `structuredContent` and a short text, with
 *   `isError: true` for refused arguments and refusals. The request's abort signal goes to
 *   `execute`, so a cancellation reaches the step owner. An unknown tool is a protocol error.
 * - In front of the SDK: before `initialize` only `ping` is answered (-32600 for the rest), and a
 *   request whose params do not fit the MCP schema is -32602 with one short line; a `tools/list`
 *   cursor is never one of ours (-32602). A request's `task` member is dropped: no tasks
 *   capability is declared, so a task-augmented request is served as a normal one.
 *
 * Only the protocol is written to the output stream; the server's own diagnostics go to `log`
 * (stderr). `serveApplicationMcp` resolves when the transport closes: the client closed the input
 * stream, or `stop()` was called.
 */
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApplicationService } from '../application/application-service';
import { callApplicationTool } from '../application/mcp-tool-calls';
import { APPLICATION_TOOLS, isApplicationToolName } from '../application/mcp-tool-contracts';
import {
  BoundedStdioTransport,
  MessageTooLargeError,
  UnreadableMessageError,
  type UnreadableMessageKind,
} from './mcp-stdio-transport';

export const MCP_SERVER_NAME = 'agentdef';

/**
 * The largest message the server reads: the biggest arguments the contracts admit (a 4 MiB
 * manifest text and 4 MiB of entry point JSON) even when every character is escaped.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface ApplicationMcpServerOptions {
  readonly service: ApplicationService;
  /** The package version the server announces. */
  readonly version: string;
  /** One line of the server's own diagnostics (never protocol): stderr. */
  readonly log: (line: string) => void;
}

const INSTRUCTIONS = [
  'agentdef application composition. Call agentdef.application.catalog for the component revisions, their config schemas and the catalog/adapter-policy digests;',
  'agentdef.application.plan to verify a manifest and get its plan digest; agentdef.application.execute with that digest as expectedPlanDigest, an idempotency key',
  'and a JSON value for every entry point. Packs, adapters and operator authority are never arguments: the host supplies them.',
].join(' ');

/** The `tools/list` entries: exactly the three tools. */
export function listedApplicationTools(): Tool[] {
  return APPLICATION_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: structuredClone(tool.inputSchema) as Tool['inputSchema'],
    outputSchema: structuredClone(tool.outputSchema) as Tool['outputSchema'],
    annotations: { ...tool.annotations },
  }));
}

/** At most this many raw `tools/call` arguments wait for their handler (a request the SDK refuses never reaches it). */
const MAX_PENDING_ARGUMENTS = 256;

/**
 * The raw `arguments` of each `tools/call`, by request id, exactly as they arrived: the SDK's own
 * request schema drops some keys (an own `__proto__`) while copying them, and a tool must see, and
 * refuse, everything the caller sent.
 */
function captureRawArguments(transport: Transport): (requestId: RequestId) => { found: boolean; value: unknown } {
  const pending = new Map<RequestId, unknown>();
  // Set before `connect`: the SDK keeps a handler already on the transport and calls it first.
  transport.onmessage = (message: JSONRPCMessage) => {
    const request = message as { method?: unknown; id?: unknown; params?: unknown };
    if (request.method !== 'tools/call' || (typeof request.id !== 'string' && typeof request.id !== 'number')) return;
    const params = request.params;
    const value =
      params !== null && typeof params === 'object' && Object.hasOwn(params, 'arguments')
        ? (params as { arguments: unknown }).arguments
        : undefined;
    pending.delete(request.id);
    pending.set(request.id, value);
    if (pending.size > MAX_PENDING_ARGUMENTS) pending.delete(pending.keys().next().value as RequestId);
  };
  return (requestId) => {
    if (!pending.has(requestId)) return { found: false, value: undefined };
    const value = pending.get(requestId);
    pending.delete(requestId);
    return { found: true, value };
  };
}

/** The requests this server answers, with the SDK's schema of each. */
const SERVED_REQUESTS = new Map<
  string,
  {
    safeParse(value: unknown): {
      success: boolean;
      error?: { issues: readonly { code: string; path: readonly PropertyKey[]; expected?: unknown }[] };
    };
  }
>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/** Field names of the MCP schema, the only path segments a message may name (a client's own key may be a secret). */
const SCHEMA_FIELDS = new Set([
  'params',
  'arguments',
  'name',
  'cursor',
  'protocolVersion',
  'capabilities',
  'clientInfo',
  'version',
  'title',
  'description',
  'websiteUrl',
  'icons',
  'src',
  'mimeType',
  'sizes',
  'theme',
  '_meta',
  'progressToken',
  'task',
  'ttl',
  'experimental',
  'roots',
  'listChanged',
  'sampling',
  'elicitation',
  'tasks',
]);

/**
 * Why `message` is not a valid `method` request, in one line that names schema fields and the
 * expected type only (the SDK's own answer was its Zod issues as JSON, code -32603, quoting the
 * client's keys); undefined when it is valid.
 */
export function invalidParamsMessage(method: string, message: unknown): string | undefined {
  const schema = SERVED_REQUESTS.get(method);
  const parsed = schema?.safeParse(message);
  if (parsed === undefined || parsed.success) return undefined;
  const issues = parsed.error?.issues ?? [];
  const first = issues[0];
  if (first === undefined) return 'Invalid params';
  const path = first.path
    .map((segment) =>
      typeof segment === 'number'
        ? String(segment)
        : typeof segment === 'string' && SCHEMA_FIELDS.has(segment)
          ? segment
          : '*',
    )
    .join('.');
  const what =
    first.code === 'invalid_type' && typeof first.expected === 'string' && /^[a-z]{1,20}$/.test(first.expected)
      ? `expected ${first.expected}`
      : /^[a-z_]{1,40}$/.test(first.code)
        ? first.code
        : 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `Invalid params: ${path || 'the request'}: ${what}${more}`;
}

/**
 * Drops the `task` member of a request's params (MCP 2025-11-25 tasks). This server declares no
 * tasks capability, and a receiver that does not "MUST process requests of that type normally,
 * ignoring any task-augmentation metadata if present": the SDK instead refused the request with
 * -32603 before its handler ran. The task is ignored whatever its shape, as a server that never
 * heard of tasks would ignore it. `params` is the transport's own parsed copy.
 */
function ignoreTaskAugmentation(params: unknown): void {
  if (params !== null && typeof params === 'object' && !Array.isArray(params) && Object.hasOwn(params, 'task'))
    delete (params as Record<string, unknown>).task;
}

/**
 * Puts a gate in front of the SDK's handling of `transport`'s messages: before `initialize`, every
 * request but `ping` is refused (-32600: nothing is served before the version is negotiated), and
 * a served request whose params do not fit its schema is refused with -32602 and a short message.
 */
function gateRequests(transport: Transport): void {
  const sdk = transport.onmessage;
  let initialized = false;
  const refuse = (id: RequestId, code: number, message: string) => {
    void transport.send({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage).catch(() => {});
  };
  transport.onmessage = (message, extra) => {
    const request = message as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number')) {
      ignoreTaskAugmentation(request.params);
      if (!initialized && request.method !== 'initialize' && request.method !== 'ping') {
        refuse(
          request.id,
          ErrorCode.InvalidRequest,
          'Invalid Request: the session is not initialized; send initialize first (only ping is answered before it)',
        );
        return;
      }
      const invalid = invalidParamsMessage(request.method, message);
      if (invalid !== undefined) {
        refuse(request.id, ErrorCode.InvalidParams, invalid);
        return;
      }
      if (request.method === 'initialize') initialized = true;
    }
    sdk?.(message, extra);
  };
}

/** Creates the server (the two handlers) and connects it to `transport`. */
export async function connectApplicationMcp(
  options: ApplicationMcpServerOptions,
  transport: Transport,
): Promise<Server> {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'agentdef application composition', version: options.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const rawArguments = captureRawArguments(transport);
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    // Every tool is on the one page, and no cursor is ever issued: any cursor is not one of ours.
    if (request.params?.cursor !== undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        'Invalid params: unknown cursor; this server lists every tool on one page and issues no cursor',
      );
    return { tools: listedApplicationTools() };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const raw = rawArguments(extra.requestId);
    const name = request.params.name;
    if (!isApplicationToolName(name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool; this server offers exactly ${APPLICATION_TOOLS.map((t) => t.name).join(', ')}`,
      );
    }
    const result = await callApplicationTool(
      options.service,
      name,
      raw.found ? raw.value : request.params.arguments,
      extra.signal,
    );
    if (result.internalError !== undefined)
      options.log(`agentdef mcp: internal error in ${name}: ${result.internalError}`);
    const answer: CallToolResult = { content: [{ type: 'text', text: result.text }], isError: result.isError };
    if (result.structuredContent !== undefined)
      answer.structuredContent = result.structuredContent as Record<string, unknown>;
    return answer;
  });
  server.onerror = (error) => options.log(`agentdef mcp: ${describeProtocolError(error)}`);
  await server.connect(transport);
  gateRequests(transport);
  return server;
}

const UNREADABLE_LOG_LINES: Readonly<Record<UnreadableMessageKind, string>> = {
  'not-json': 'answered -32700 to an input line that is not JSON (its text is not logged)',
  'invalid-request':
    'answered -32600 to an input message that is not a valid JSON-RPC request (its text is not logged)',
  'invalid-params': 'answered -32602 to a request whose params are not an object (its text is not logged)',
  'invalid-response': 'ignored an input response that is not valid JSON-RPC (its text is not logged)',
  'duplicate-member': 'refused an input message that names a member twice in one object (its text is not logged)',
};

/**
 * One line for an error the SDK reports outside any request (a line that is not JSON, a message
 * that is not JSON-RPC, a failed send). Its own messages quote what the client sent (V8's JSON
 * errors quote the line, the SDK's quote whole messages), which may hold a secret: only the kind
 * of error is logged, never its text.
 */
export function describeProtocolError(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  if (error instanceof UnreadableMessageError) return UNREADABLE_LOG_LINES[error.kind];
  if (error instanceof SyntaxError) return 'ignored an input line that is not JSON (its text is not logged)';
  if (name === 'ZodError') return 'ignored an input message that is not JSON-RPC (its text is not logged)';
  if (error instanceof MessageTooLargeError)
    return `ignored an input message larger than ${error.limit} bytes (its text is not kept or logged)`;
  return `protocol error (${/^[A-Za-z][A-Za-z0-9]{0,40}$/.test(name) ? name : 'unknown'}; its text is not logged)`;
}

export interface ServingApplicationMcp {
  /** Resolves when the transport has closed. */
  readonly closed: Promise<void>;
  /** Closes the transport (and so ends serving). */
  stop(): Promise<void>;
}

/** Serves the three tools over stdio (or the given streams) until the client closes the input or `stop()` is called. */
export async function serveApplicationMcp(
  options: ApplicationMcpServerOptions & { readonly input?: Readable; readonly output?: Writable },
): Promise<ServingApplicationMcp> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const transport = new BoundedStdioTransport(input, output, MAX_MESSAGE_BYTES);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  let server: Server | undefined;
  const stop = async (): Promise<void> => {
    await (server ?? transport).close();
  };
  // The SDK's stdio transport does not watch for the end of its input: closing it here ends serving.
  const onEnd = () => {
    void stop();
  };
  input.once('end', onEnd);
  input.once('close', onEnd);
  void closed.then(() => {
    input.off('end', onEnd);
    input.off('close', onEnd);
  });
  server = await connectApplicationMcp(options, transport);
  server.onclose = () => markClosed();
  return { closed, stop };
}
