/**
 * A JSON-RPC answer as a Server-Sent Events stream (A2A §9.4.2): each event is one
 * `data: {"jsonrpc":"2.0","id":…,"result":…}` line and a blank line. A comment line every
 * `keepAliveMs` keeps idle connections open through proxies. When the client goes away the stream
 * is cancelled and `onClosed` runs once; it runs once too when the server closes the stream.
 */
export interface SseStream {
  response: Response;
  /** Sends one result; false once the stream is closed. */
  send(result: unknown): boolean;
  /** Sends one JSON-RPC error and closes. */
  fail(error: { code: number; message: string; data?: unknown[] }): void;
  close(): void;
  readonly closed: boolean;
}

export function openSseStream(id: string | number | null, onClosed: () => void, keepAliveMs = 15_000): SseStream {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const finish = () => {
    if (closed) return;
    closed = true;
    if (keepAlive !== undefined) clearInterval(keepAlive);
    onClosed();
  };
  const write = (text: string) => {
    if (closed || !controller) return false;
    try {
      controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      finish();
      return false;
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      keepAlive = setInterval(() => write(': keep-alive\n\n'), keepAliveMs);
    },
    cancel() {
      finish();
    },
  });
  const stream: SseStream = {
    response: new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    }),
    send: (result) => write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`),
    fail(error) {
      write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
      stream.close();
    },
    close() {
      if (closed) return;
      try {
        controller?.close();
      } catch {
        // Already closed by the client.
      }
      finish();
    },
    get closed() {
      return closed;
    },
  };
  return stream;
}
