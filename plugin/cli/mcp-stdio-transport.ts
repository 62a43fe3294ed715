/**
 * The stdio transport of `agentdef mcp`: newline-delimited JSON-RPC over a readable and a writable
 * stream, like the SDK's `StdioServerTransport`, with a bounded line reader.
 *
 * The SDK's reader concatenates every chunk onto one growing buffer (quadratic copying: a 64 MiB
 * line cost about 40 s of CPU) and, once a line passes its limit, closes the transport without a
 * word, so the client's request is never answered and the session is over. Here each line's chunks
 * are kept apart and joined once; a line longer than `maxLineBytes` is skipped up to its newline
 * without being kept, answered with a JSON-RPC error (`-32600` without an id: nothing of the line
 * was read), reported to `onerror` as a `MessageTooLargeError`, and serving goes on.
 *
 * Every line is answered as JSON-RPC 2.0 says, and serving goes on: a line that is not JSON with
 * `-32700`; a JSON value that is not a valid request (not an object, a batch, no or a
 * non-string method, a wrong `jsonrpc`, an unknown member, an id that is not a string or a number)
 * with `-32600` and the request's id when it is a string or a number; a request that is
 * valid but for its params (not an object, or a `_meta` that is not one) with `-32602` (the SDK's
 * transport dropped all of these unanswered, and its client waited for ever). A valid notification
 * goes to the SDK, which ignores a method it does not know; a response (no method, a result or an
 * error), even a malformed one, is never answered; a blank line is no message. None of the answers
 * quotes the line, and `onerror` gets an `UnreadableMessageError` naming its kind only (V8's and
 * Zod's errors quote what the client sent, which may hold a secret).
 *
 * An answer whose request id cannot be read carries no `id` member: MCP 2025-11-25's
 * `JSONRPCErrorResponse` makes the id optional and allows only a string or an integer (JSON-RPC
 * 2.0's `id: null` is outside it, and the SDK's client drops such an answer).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A line longer than the transport reads; its text is never kept. */
export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`an input message is larger than ${limit} bytes`);
    this.name = 'MessageTooLargeError';
  }
}

/** What was wrong with a line the transport did not pass on; it never carries the line's text. */
export type UnreadableMessageKind = 'not-json' | 'invalid-request' | 'invalid-params' | 'invalid-response';

/** A line that is not a valid JSON-RPC message: answered (or, for a response, ignored), never quoted. */
export class UnreadableMessageError extends Error {
  constructor(readonly kind: UnreadableMessageKind) {
    super(`an input line could not be taken (${kind})`);
    this.name = 'UnreadableMessageError';
  }
}

export const PARSE_ERROR_MESSAGE = 'Parse error: an input line is not JSON; it was not read';
export const INVALID_REQUEST_MESSAGE =
  'Invalid Request: an input message is not a valid JSON-RPC 2.0 request; it was not read';
const INVALID_PARAMS_MESSAGE = 'Invalid params: params must be an object (and its _meta, if any, an object)';

/** The members a JSON-RPC request may have. */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

const NEWLINE = 0x0a;
const BLANK = /^[\t\r ]*$/;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private length = 0;
  /** Inside a line that passed the limit: its bytes are dropped up to its newline. */
  private skipping = false;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes: number,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (!this.closed) {
      const end = rest.indexOf(NEWLINE);
      const piece = end === -1 ? rest : rest.subarray(0, end);
      if (!this.skipping && this.length + piece.length > this.maxLineBytes) {
        this.chunks = [];
        this.length = 0;
        this.skipping = true;
      }
      if (!this.skipping && piece.length > 0) {
        this.chunks.push(piece);
        this.length += piece.length;
      }
      if (end === -1) return;
      rest = rest.subarray(end + 1);
      if (this.skipping) {
        this.skipping = false;
        this.tooLarge();
      } else {
        const line = Buffer.concat(this.chunks, this.length).toString('utf8');
        this.chunks = [];
        this.length = 0;
        this.deliver(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private tooLarge(): void {
    this.onerror?.(new MessageTooLargeError(this.maxLineBytes));
    this.answer(
      undefined,
      ErrorCode.InvalidRequest,
      `Invalid Request: a message is larger than ${this.maxLineBytes} bytes; it was not read`,
    );
  }

  private answer(id: RequestId | undefined, code: number, message: string): void {
    void this.send({
      jsonrpc: '2.0',
      ...(id !== undefined ? { id } : {}),
      error: { code, message },
    } as unknown as JSONRPCMessage).catch(() => {});
  }

  private deliver(line: string): void {
    if (BLANK.test(line)) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.onerror?.(new UnreadableMessageError('not-json'));
      this.answer(undefined, ErrorCode.ParseError, PARSE_ERROR_MESSAGE);
      return;
    }
    let message: JSONRPCMessage | undefined;
    try {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      if (parsed.success) message = parsed.data;
    } catch {
      message = undefined;
    }
    if (message === undefined) this.answerInvalid(value);
    else this.onmessage?.(message);
  }

  /** Answers a JSON value that is not a JSON-RPC message (a response excepted), without quoting any of it. */
  private answerInvalid(value: unknown): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.onerror?.(new UnreadableMessageError('invalid-request'));
      this.answer(undefined, ErrorCode.InvalidRequest, INVALID_REQUEST_MESSAGE);
      return;
    }
    const members = value as Record<string, unknown>;
    if (!Object.hasOwn(members, 'method') && (Object.hasOwn(members, 'result') || Object.hasOwn(members, 'error'))) {
      this.onerror?.(new UnreadableMessageError('invalid-response'));
      return;
    }
    const id =
      Object.hasOwn(members, 'id') &&
      (typeof members.id === 'string' || (typeof members.id === 'number' && Number.isFinite(members.id)))
        ? members.id
        : undefined;
    const onlyParamsWrong =
      id !== undefined &&
      Object.keys(members).every((key) => REQUEST_MEMBERS.has(key)) &&
      JSONRPCRequestSchema.safeParse({ jsonrpc: members.jsonrpc, id, method: members.method }).success;
    if (onlyParamsWrong) {
      this.onerror?.(new UnreadableMessageError('invalid-params'));
      this.answer(id, ErrorCode.InvalidParams, INVALID_PARAMS_MESSAGE);
      return;
    }
    this.onerror?.(new UnreadableMessageError('invalid-request'));
    this.answer(id, ErrorCode.InvalidRequest, INVALID_REQUEST_MESSAGE);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.length = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
