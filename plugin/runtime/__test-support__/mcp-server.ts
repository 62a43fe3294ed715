/**
 * A real MCP server (the official @modelcontextprotocol/sdk) over Streamable HTTP on loopback,
 * with sessions, answering as SSE streams or as plain JSON. Tools: `add` (text and structured
 * output) and `fail` (an `isError` result).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpTestServer {
  url: string;
  origin: string;
  /** Tool calls the server executed, in order. */
  calls: string[];
  /** HTTP requests received (method + JSON-RPC method). */
  requests: string[];
  /** Drops every session, as a restarted server would. */
  forgetSessions(): void;
  close(): Promise<void>;
}

export async function startMcpServer(options: { json: boolean }): Promise<McpTestServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const calls: string[] = [];
  const requests: string[] = [];
  const build = () => {
    const server = new McpServer({ name: 'calc-mcp', version: '1.0.0' });
    server.registerTool(
      'add',
      {
        description: 'Adds two numbers.',
        inputSchema: { a: z.number(), b: z.number() },
        outputSchema: { sum: z.number() },
      },
      async ({ a, b }) => {
        calls.push(`add(${a},${b})`);
        return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
      },
    );
    server.registerTool('echo', { description: 'Echoes.', inputSchema: { text: z.string() } }, async ({ text }) => {
      calls.push(`echo(${text})`);
      return { content: [{ type: 'text', text }] };
    });
    server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => {
      calls.push('fail()');
      return { content: [{ type: 'text', text: 'the database is on fire' }], isError: true };
    });
    return server;
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      requests.push(`${req.method} ${(body as { method?: string } | undefined)?.method ?? ''}`.trim());
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        if (typeof sid === 'string') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.json,
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        transport = created;
        await build().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    calls,
    requests,
    forgetSessions: () => transports.clear(),
    close: async () => {
      for (const t of transports.values()) await t.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
