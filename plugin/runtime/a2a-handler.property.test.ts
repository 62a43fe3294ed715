/**
 * Property: whatever JSON-RPC body a client sends, the A2A handler answers a well-formed JSON-RPC
 * response (the request's id echoed when it is valid, never an internal error, never a stack
 * trace), and keeps answering a valid request afterwards. The handler runs an agentic config
 * against a stub model (the real provider wire format over loopback) behind a real HTTP server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, calcTools, memorySink } from './__test-support__/configs';
import { answerProblem, jsonRpcBodies } from './__test-support__/jsonrpc-envelopes';
import type { ServedHandler } from './__test-support__/serve-handler';
import { serveHandler } from './__test-support__/serve-handler';
import type { StubServer } from './__test-support__/stub-provider';
import { startScriptedProvider } from './__test-support__/stub-provider';
import { createA2aHandler } from './a2a-handler';
import { generateReceiptKeyPair } from './receipts';

let stub: StubServer & { baseUrl: string };
let served: ServedHandler;
const internalErrors: unknown[] = [];

beforeAll(async () => {
  stub = await startScriptedProvider({ wire: 'openai-chat', apiKey: TEST_KEY, script: [{ text: 'ok' }] });
  const keys = await generateReceiptKeyPair();
  const handler = createA2aHandler(agenticConfig('openai-chat', stub.baseUrl), {
    secrets: { OPENAI_API_KEY: TEST_KEY },
    tools: calcTools,
    receipts: { signingKey: keys.privateJwk, sink: memorySink() },
    maxBodyBytes: 512 * 1024,
    log: (event) => {
      if (event.event.endsWith('internal_error')) internalErrors.push(event);
    },
  });
  served = await serveHandler(handler);
});

afterAll(async () => {
  await served?.close();
  await stub?.close();
});

async function post(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${served.url}/a2a/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const VALID = JSON.stringify({
  jsonrpc: '2.0',
  id: 'still-there',
  method: 'SendMessage',
  params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
});

describe('random JSON-RPC envelopes against the A2A handler', () => {
  it('always get a well-formed JSON-RPC answer, and a valid request is answered afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(jsonRpcBodies, async (body) => {
        const { status, text } = await post(body);
        const problem = answerProblem(body, status, text);
        if (problem) throw new Error(`${problem}\nrequest: ${body.slice(0, 300)}\nanswer: ${text.slice(0, 300)}`);
      }),
      { numRuns: 400 },
    );
    expect(stub.requests.length).toBeGreaterThan(10); // many envelopes ran the agent, not only refusals
    expect(internalErrors).toEqual([]);
    const after = await post(VALID);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text)).toMatchObject({
      id: 'still-there',
      result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } },
    });
  });

  it('the checker itself rejects what it must (an internal error, a wrong id, a stack trace)', () => {
    const request = '{"jsonrpc":"2.0","id":5,"method":"x"}';
    expect(
      answerProblem(request, 200, '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}'),
    ).toBeUndefined();
    expect(
      answerProblem(request, 200, '{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error"}}'),
    ).toContain('internal');
    expect(answerProblem(request, 200, '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"x"}}')).toContain(
      'id',
    );
    expect(
      answerProblem(
        request,
        200,
        '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"TypeError: x\\n    at f (a.ts:1:2)"}}',
      ),
    ).toBeDefined();
    expect(answerProblem(request, 500, '{"error":"internal error"}')).toBeDefined();
    expect(
      answerProblem(request, 200, '{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"x"}}'),
    ).toBeDefined();
    const notification = '{"jsonrpc":"2.0","method":"x"}';
    expect(answerProblem(notification, 204, '')).toBeUndefined();
    expect(
      answerProblem(
        notification,
        200,
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}',
      ),
    ).toContain('notification');
    expect(answerProblem('{"jsonrpc":"1.0","method":"x"}', 204, '')).toBeDefined();
    const streamed = '{"jsonrpc":"2.0","id":5,"method":"SendStreamingMessage"}';
    expect(
      answerProblem(
        streamed,
        200,
        'data: {"jsonrpc":"2.0","id":5,"result":{"task":{}}}\n\ndata: {"jsonrpc":"2.0","id":5,"result":{}}\n\n',
      ),
    ).toBeUndefined();
    expect(
      answerProblem(
        streamed,
        200,
        'data: {"jsonrpc":"2.0","id":5,"result":{"task":{}}}\n\ndata: {"jsonrpc":"2.0","id":6,"result":{}}\n\n',
      ),
    ).toContain('stream event');
  });
});
