import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, agenticConfig, memorySink, toolOnlyConfig } from './__test-support__/configs';
import type { McpTestServer } from './__test-support__/mcp-server';
import { startMcpServer } from './__test-support__/mcp-server';
import { startScriptedProvider } from './__test-support__/stub-provider';
import type { ToolContext } from './agent-loop';
import { createEgressFetch } from './egress';
import { createMcpHttpToolHandler } from './mcp-http-tool';
import { generateReceiptKeyPair } from './receipts';
import { runAgent } from './run-agent';
import type { RuntimeTool } from './runtime-config';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((s) => s.close()));
});
let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
beforeAll(async () => {
  keys = await generateReceiptKeyPair();
});

async function mcp(json: boolean): Promise<McpTestServer> {
  const server = await startMcpServer({ json });
  closers.push(server);
  return server;
}

function context(tool: RuntimeTool, allow: string[]): ToolContext {
  return {
    runId: '01JA0000000000000000000000',
    tool,
    signal: new AbortController().signal,
    fetch: createEgressFetch({ allow }),
  };
}

const ADD: RuntimeTool = {
  id: 'mcp.add',
  name: 'add',
  version: '1.0.0',
  kind: 'mcp-http',
  risk: 'low',
  mcpServer: 'calc-mcp',
};

for (const json of [false, true]) {
  describe(`MCP Streamable HTTP client against the official MCP server (${json ? 'JSON' : 'SSE'} responses)`, () => {
    it('initialises a session once and calls tools, returning structured content or text', async () => {
      const server = await mcp(json);
      const ctx = context(ADD, [server.origin]);
      const add = createMcpHttpToolHandler({ url: server.url });
      expect(await add({ a: 2, b: 3 }, ctx)).toEqual({ sum: 5 });
      expect(await add({ a: 10, b: 20 }, ctx)).toEqual({ sum: 30 });
      const echo = createMcpHttpToolHandler({ url: server.url, toolName: 'echo' });
      expect(await echo({ text: 'hello' }, ctx)).toBe('hello');
      expect(server.calls).toEqual(['add(2,3)', 'add(10,20)', 'echo(hello)']);
      expect(server.requests.filter((r) => r.endsWith('initialize'))).toHaveLength(2); // one per handler
    });

    it('turns isError results into tool_failed and renews a forgotten session', async () => {
      const server = await mcp(json);
      const ctx = context(ADD, [server.origin]);
      const fail = createMcpHttpToolHandler({ url: server.url, toolName: 'fail' });
      await expect(fail({}, ctx)).rejects.toMatchObject({
        code: 'tool_failed',
        message: 'fail: the database is on fire',
      });
      const add = createMcpHttpToolHandler({ url: server.url });
      await add({ a: 1, b: 1 }, ctx);
      server.forgetSessions();
      expect(await add({ a: 1, b: 2 }, ctx)).toEqual({ sum: 3 });
    });
  });
}

describe('mcp-http tools in a run', () => {
  it('the model calls a tool served by an MCP server the config names; no host code needed', async () => {
    const server = await mcp(false);
    const provider = await startScriptedProvider({
      wire: 'anthropic-messages',
      apiKey: TEST_KEY,
      script: [
        { toolCalls: [{ name: 'add', arguments: { a: 40, b: 2 } }] },
        { text: (ctx) => `MCP said ${ctx.lastToolResults[0]}` },
      ],
    });
    closers.push(provider);
    const sink = memorySink();
    const config = agenticConfig('anthropic-messages', provider.baseUrl, { tools: [{ ...ADD, url: server.url }] });
    const result = await runAgent(
      config,
      { text: 'add 40 and 2' },
      { secrets: { ANTHROPIC_API_KEY: TEST_KEY }, receipts: { signingKey: keys.privateJwk, sink } },
    );
    expect(result.stopReason).toBe('answer');
    expect(result.answer?.text).toBe('MCP said {"sum":42}');
    expect(server.calls).toEqual(['add(40,2)']);
    expect(result.toolCalls).toEqual([{ seq: 1, step: 1, name: 'add', toolId: 'mcp.add', ok: true }]);
  });

  it('an MCP server on an undeclared origin is blocked by egress', async () => {
    const server = await mcp(true);
    const tool: RuntimeTool = { ...ADD, kind: 'mcp-http' };
    const config = toolOnlyConfig({
      tools: [tool],
      skills: [{ id: 'add', name: 'Add', description: 'Adds.', version: '1.0.0', tags: ['add'], toolId: 'mcp.add' }],
    });
    const handler = createMcpHttpToolHandler({ url: server.url });
    const result = await runAgent(
      config,
      { text: '{"a":1,"b":2}' },
      { tools: { 'mcp.add': handler }, receipts: { signingKey: keys.privateJwk } },
    );
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('egress_blocked');
    expect(server.requests).toEqual([]);
  });
});
