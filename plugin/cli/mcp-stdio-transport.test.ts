/**
 * The stdio transport's reading bound, on its own over in-memory streams: at most
 * `maxUnanswered` requests are read and not yet answered; an answer, or a cancellation of a
 * request (the SDK answers a cancelled request with nothing), lets reading go on, and reading
 * resumes with the rest of a chunk it held, in order. (The output-full half, with the real
 * process: e2e/mcp/backpressure.test.ts.)
 */
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedStdioTransport } from './mcp-stdio-transport';

const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
const cancel = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`;

async function setUp(maxUnanswered: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume(); // the client reads everything: only the unanswered bound applies
  const transport = new BoundedStdioTransport(input, output, 1024 * 1024, maxUnanswered);
  const read: JSONRPCMessage[] = [];
  transport.onmessage = (message) => read.push(message);
  await transport.start();
  /** Lets the streams deliver what was written. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const ids = () => read.map((m) => (m as { id?: unknown }).id ?? (m as { method: string }).method);
  return { input, transport, settle, ids };
}

describe('BoundedStdioTransport: requests read and not yet answered', () => {
  it('reads no more than the bound, then one more line per answer, in order', async () => {
    const { input, transport, settle, ids } = await setUp(3);
    input.write([1, 2, 3, 4, 5, 6].map(request).join(''));
    await settle();
    expect(ids()).toEqual([1, 2, 3]);
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    await settle();
    expect(ids()).toEqual([1, 2, 3, 4]);
    // An answer to no request read does not count.
    await transport.send({ jsonrpc: '2.0', id: 99, result: {} });
    await settle();
    expect(ids()).toEqual([1, 2, 3, 4]);
    await transport.send({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } });
    await transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await settle();
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6]);
    await transport.close();
  });

  it('takes a cancellation read under the bound as the end of that request', async () => {
    const { input, transport, settle, ids } = await setUp(2);
    input.write(`${request(1)}${cancel(1)}${request(2)}${request(3)}${request(4)}`);
    await settle();
    // 1 was cancelled (no answer will come), so 2 and 3 are read; 4 waits.
    expect(ids()).toEqual([1, 'notifications/cancelled', 2, 3]);
    await transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await settle();
    expect(ids()).toEqual([1, 'notifications/cancelled', 2, 3, 4]);
    await transport.close();
  });

  it('counts a reused id once per request', async () => {
    const { input, transport, settle, ids } = await setUp(2);
    input.write(`${request(7)}${request(7)}${request(8)}`);
    await settle();
    expect(ids()).toEqual([7, 7]);
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} });
    await settle();
    expect(ids()).toEqual([7, 7, 8]);
    await transport.close();
  });
});
