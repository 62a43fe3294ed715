/**
 * Against real stdio MCP servers: the code-search example server (official SDK McpServer) and a
 * server that crashes at start.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../runtime/agent-loop';
import { HostStartError } from './host-error';
import { startMcpStdioTools, type McpStdioTools, type StartMcpOptions } from './mcp-stdio-tools';
import { descendantsOf, settle } from './__test-support__/process-tree';

const REPO = join(__dirname, '..', '..', '..');
const servers: StartMcpOptions['servers'] = {
  'code-search-index': { command: 'node', args: ['examples/mcp/code-search/server.mjs'], env: {} },
  crashing: { command: 'node', args: ['plugin/hosts/node/__fixtures__/crash-at-start.mjs'], env: {} },
  missing: { command: 'agentdef-no-such-command', args: [], env: {} },
  'with-secret': {
    command: 'node',
    args: ['examples/mcp/code-search/server.mjs'],
    env: { INDEX_TOKEN: { from: 'secret', name: 'INDEX_TOKEN' } },
  },
};
const started: McpStdioTools[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});
const start = async (tools: StartMcpOptions['tools'], resolveEnv: StartMcpOptions['resolveEnv'] = () => undefined) => {
  const s = await startMcpStdioTools({ servers, tools, cwd: REPO, resolveEnv });
  started.push(s);
  return s;
};
const ctx = {
  runId: 'R',
  signal: new AbortController().signal,
  fetch,
  tool: { id: 'search', name: 'search', version: '2.1.0', kind: 'mcp-stdio', risk: 'low' },
} as ToolContext;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('stdio MCP servers through the official SDK client', () => {
  it('spawns the server, checks the declared tool and calls it, returning its structured result; close stops it', async () => {
    const mcp = await start([
      {
        toolId: 'search',
        server: 'code-search-index',
        name: 'search',
        agent: 'code-search@2.1.0',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' }, limit: { type: 'integer' } },
          required: ['text'],
        },
      },
    ]);
    const result = (await mcp.handlers['search']!({ text: 'callers of createNodes', limit: 2 }, ctx)) as {
      results: { path: string; startLine: number; endLine: number; score: number }[];
    };
    expect(result.results).toHaveLength(2);
    for (const r of result.results)
      expect(r).toMatchObject({ path: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number) });
    expect(result.results[0]!.score).toBeGreaterThanOrEqual(result.results[1]!.score);
    await expect(mcp.handlers['search']!({ limit: 2 }, ctx) as Promise<unknown>).rejects.toMatchObject({
      code: 'tool_failed',
    });
    const [pid] = mcp.pids();
    expect(alive(pid!)).toBe(true);
    await mcp.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid!)).toBe(false);
  });

  it('fails at start when a declared tool is missing, naming what the server offers, and stops the server', async () => {
    const attempt = start([{ toolId: 'find', server: 'code-search-index', name: 'find', agent: 'x@1.0.0' }]);
    await expect(attempt).rejects.toThrow(
      new HostStartError(
        'MCP server "code-search-index" does not offer tool "find" that x@1.0.0 declares (it offers: search); fix the server in mcp.json or the agent\'s toolInventory',
      ),
    );
    expect(await settle(() => descendantsOf(process.pid).filter((p) => p.args.includes('server.mjs')))).toEqual([]);
  });

  it('fails at start when the server publishes a different input schema', async () => {
    await expect(
      start([
        {
          toolId: 's',
          server: 'code-search-index',
          name: 'search',
          agent: 'x@1.0.0',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        },
      ]),
    ).rejects.toThrow(
      'tool "search" of MCP server "code-search-index" does not match the inputSchema x@1.0.0 declares: the server has no argument "query"',
    );
  });

  it('reports a server that crashes at start with its last stderr line', async () => {
    await expect(
      start([{ toolId: 'n', server: 'crashing', name: 'search_notes', agent: 'local-notes@0.3.0' }]),
    ).rejects.toThrow(
      'MCP server "crashing" (node plugin/hosts/node/__fixtures__/crash-at-start.mjs) exited while starting: notes-mcp: cannot open the index at /nonexistent/notes.db; run it by hand to see why, or fix "servers.crashing" in mcp.json',
    );
  });

  it('reports a command that does not exist, and an env reference that is not set', async () => {
    await expect(start([{ toolId: 'm', server: 'missing', name: 'x', agent: 'a@1.0.0' }])).rejects.toThrow(
      'MCP server "missing" cannot start: command "agentdef-no-such-command" was not found',
    );
    await expect(start([{ toolId: 's', server: 'with-secret', name: 'search', agent: 'a@1.0.0' }])).rejects.toThrow(
      'MCP server "with-secret" needs secret INDEX_TOKEN for its INDEX_TOKEN, which is not set',
    );
    const ok = await start([{ toolId: 's', server: 'with-secret', name: 'search', agent: 'a@1.0.0' }], (_s, _v, ref) =>
      ref.name === 'INDEX_TOKEN' ? 'token' : undefined,
    );
    expect(ok.pids()).toHaveLength(1);
  });
});
