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
 * A line is also read strictly (runtime/strict-json.ts): a member name given twice anywhere in it
 * (`"name"` twice, `"mode":"dry-run","mode":"live"` in the arguments), which JSON.parse resolves
 * to the last value while a proxy may read the first, is refused, never served: `-32602` with the
 * request's id when the repeat is inside `params`, else `-32600` (without an id when the id
 * itself is repeated). So is nesting deeper than `MAX_MESSAGE_DEPTH` or a number out of range.
 *
 * Answers are written with backpressure: while the output is full (its `write` returned false, up
 * to its 'drain') or `maxUnanswered` requests are read and not yet answered, no more input is read
 * (the input is paused and the rest of a chunk already read is held), so a client that does not
 * read its answers stops the server reading instead of growing its memory. One 'drain' listener
 * serves every waiting write. A cancellation ends its request's count (the SDK answers a cancelled
 * request with nothing); with `maxUnanswered` requests unanswered, even a cancellation is read
 * only after one answer.
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
import { parseStrictJson } from '../runtime/strict-json';
import { topLevelMemberNames } from './top-level-members';

/** A line longer than the transport reads; its text is never kept. */
export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`an input message is larger than ${limit} bytes`);
    this.name = 'MessageTooLargeError';
  }
}

/** What was wrong with a line the transport did not pass on; it never carries the line's text. */
export type UnreadableMessageKind =
  | 'not-json'
  | 'invalid-request'
  | 'invalid-params'
  | 'invalid-response'
  | 'duplicate-member';

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
export const DUPLICATE_MEMBER_MESSAGE =
  'Invalid Request: a member name appears twice in one object of the message; it was not read';
export const DUPLICATE_PARAMS_MEMBER_MESSAGE =
  'Invalid params: a member name appears twice in one object of the params; the request was not read';

/** Deepest nesting a message may have (the tools' own arguments nest a few levels; entry point values are JSON text). */
export const MAX_MESSAGE_DEPTH = 256;

/** Requests read and not yet answered, past which no more input is read until one is answered. */
export const MAX_UNANSWERED_REQUESTS = 64;

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
  /** The output's `write` returned false and its 'drain' has not come yet. */
  private outputFull = false;
  /** Sends waiting for the output's 'drain'. */
  private drainWaiters: (() => void)[] = [];
  /** Requests read and not yet answered, by id (a client may reuse an id), and their number. */
  private readonly unanswered = new Map<RequestId, number>();
  private unansweredCount = 0;
  /** Input read but not yet taken apart, held while reading waits; the input is paused meanwhile. */
  private held: Buffer | undefined;
  private paused = false;
  private pumping = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes: number,
    private readonly maxUnanswered = MAX_UNANSWERED_REQUESTS,
  ) {}

  /** Whether reading waits: the output is full, or too many requests wait for their answers. */
  private mustWait(): boolean {
    return this.outputFull || this.unansweredCount >= this.maxUnanswered;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.pump(this.held === undefined ? bytes : Buffer.concat([this.held, bytes]));
  };

  private readonly onDrain = (): void => {
    this.outputFull = false;
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.readOn();
  };

  /** Reads on when nothing makes reading wait any more: first what was held, then the input. */
  private readOn(): void {
    if (this.pumping || this.closed || this.mustWait() || !this.paused) return;
    const rest = this.held;
    this.held = undefined;
    if (rest !== undefined) this.pump(rest);
    if (this.held === undefined && !this.mustWait() && !this.closed) {
      this.paused = false;
      this.input.resume();
    }
  }

  /** Takes lines from `bytes` until they run out or reading must wait (then the rest is held and the input paused). */
  private pump(bytes: Buffer): void {
    this.held = undefined;
    this.pumping = true;
    try {
      this.takeLines(bytes);
    } finally {
      this.pumping = false;
    }
  }

  private takeLines(bytes: Buffer): void {
    let rest = bytes;
    while (!this.closed) {
      if (this.mustWait() && rest.length > 0) {
        this.held = rest;
        if (!this.paused) {
          this.paused = true;
          this.input.pause();
        }
        return;
      }
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
  }

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
    const strict = parseStrictJson(line, MAX_MESSAGE_DEPTH);
    if (!strict.ok) {
      this.answerNotStrict(line, value, strict.reason);
      return;
    }
    let message: JSONRPCMessage | undefined;
    try {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      if (parsed.success) message = parsed.data;
    } catch {
      message = undefined;
    }
    if (message === undefined) {
      this.answerInvalid(value);
      return;
    }
    this.noteRead(message);
    this.onmessage?.(message);
  }

  /** Counts a request read (it waits for its answer); a cancellation means the SDK will send none. */
  private noteRead(message: JSONRPCMessage): void {
    const request = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
    if (typeof request.method !== 'string') return;
    if (request.id !== undefined) {
      const id = request.id as RequestId;
      this.unanswered.set(id, (this.unanswered.get(id) ?? 0) + 1);
      this.unansweredCount++;
    } else if (request.method === 'notifications/cancelled') {
      const id = request.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.noteAnswered(id);
    }
  }

  private noteAnswered(id: RequestId): void {
    const count = this.unanswered.get(id);
    if (count === undefined) return;
    if (count <= 1) this.unanswered.delete(id);
    else this.unanswered.set(id, count - 1);
    this.unansweredCount--;
  }

  /**
   * Answers a JSON line the strict reading refuses (a repeated member name, nesting deeper than
   * `MAX_MESSAGE_DEPTH`, a number out of range) without serving it or quoting any of it: `-32602`
   * with the id when only the params are at fault, else `-32600`, with the id unless the id itself is repeated.
   */
  private answerNotStrict(line: string, value: unknown, reason: string): void {
    const members = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    if (
      members !== undefined &&
      !Object.hasOwn(members, 'method') &&
      (Object.hasOwn(members, 'result') || Object.hasOwn(members, 'error'))
    ) {
      this.onerror?.(new UnreadableMessageError('invalid-response'));
      return;
    }
    const names = members !== undefined ? topLevelMemberNames(line) : [];
    const topRepeated = new Set(names).size !== names.length;
    const idText = (members as { id?: unknown } | undefined)?.id;
    const id =
      names.filter((name) => name === 'id').length === 1 &&
      (typeof idText === 'string' || (typeof idText === 'number' && Number.isFinite(idText)))
        ? idText
        : undefined;
    const duplicate = reason.startsWith('duplicate property name');
    this.onerror?.(new UnreadableMessageError(duplicate ? 'duplicate-member' : 'invalid-request'));
    if (duplicate && !topRepeated && id !== undefined && Object.hasOwn(members as object, 'params'))
      this.answer(id, ErrorCode.InvalidParams, DUPLICATE_PARAMS_MEMBER_MESSAGE);
    else if (duplicate) this.answer(id, ErrorCode.InvalidRequest, DUPLICATE_MEMBER_MESSAGE);
    else
      this.answer(
        id,
        ErrorCode.InvalidRequest,
        reason.startsWith('nesting too deep')
          ? `Invalid Request: the message nests deeper than ${MAX_MESSAGE_DEPTH} levels; it was not read`
          : 'Invalid Request: the message holds a number out of range; it was not read',
      );
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
    this.output.on('drain', this.onDrain);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.output.off('drain', this.onDrain);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.length = 0;
    this.held = undefined;
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.onclose?.();
  }

  /** Writes `message`; resolves once the output has taken it (at once, or at its next 'drain'). */
  send(message: JSONRPCMessage): Promise<void> {
    const answer = message as { method?: unknown; id?: unknown };
    const written = this.output.write(`${JSON.stringify(message)}\n`);
    if (!written) this.outputFull = true;
    if (answer.method === undefined && (typeof answer.id === 'string' || typeof answer.id === 'number')) {
      this.noteAnswered(answer.id);
      this.readOn();
    }
    if (written || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }
}
