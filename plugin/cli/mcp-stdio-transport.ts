/**
 * The stdio transport of `agentdef mcp`: newline-delimited JSON-RPC over a readable and a writable
 * stream, like the SDK's `StdioServerTransport`, with a bounded line reader.
 *
 * The SDK's reader concatenates every chunk onto one growing buffer (quadratic copying: a 64 MiB
 * line cost about 40 s of CPU) and, once a line passes its limit, closes the transport without a
 * word, so the client's request is never answered and the session is over. Here each line's chunks
 * are kept apart and joined once; a line longer than `maxLineBytes` is skipped up to its newline
 * without being kept, answered with a JSON-RPC error (`-32600`, without an id: nothing of the line
 * was read), reported to `onerror` as a `MessageTooLargeError`, and serving goes on.
 *
 * A line that is not JSON, or not a JSON-RPC message, goes to `onerror` as the SDK's transport
 * reports it (a `SyntaxError`, a `ZodError`), and serving goes on. A request that is one but for
 * its params (not an object, or a `_meta` that is not one) is also answered, with `-32602`: the
 * SDK's transport dropped it unanswered and its client waited for ever.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than the transport reads; its text is never kept. */
export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`an input message is larger than ${limit} bytes`);
    this.name = 'MessageTooLargeError';
  }
}

const NEWLINE = 0x0a;

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
    const message = `Invalid Request: a message is larger than ${this.maxLineBytes} bytes; it was not read`;
    void this.send({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message } } as JSONRPCMessage).catch(() => {});
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error as Error);
      if (!(error instanceof SyntaxError)) this.answerMalformedParams(line);
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers a JSON-RPC request whose only fault is its params; anything else stays unanswered, as before. */
  private answerMalformedParams(line: string): void {
    const value = JSON.parse(line) as { jsonrpc?: unknown; id?: unknown; method?: unknown } | null;
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return;
    const id = value.id;
    if (!((typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id)))) return;
    const message = 'Invalid params: params must be an object (and its _meta, if any, an object)';
    void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message } } as JSONRPCMessage).catch(() => {});
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
