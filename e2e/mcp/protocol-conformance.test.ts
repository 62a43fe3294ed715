/**
 * `agentdef mcp` against MCP 2025-11-25 at the protocol level, as a conformance suite checks it:
 * the official SDK's stdio transport (`StdioClientTransport`, with and without its `Client`)
 * spawns the real server (`node bin/agentdef.cjs mcp`) over a temporary workspace.
 *
 * Covered: version negotiation (every version the SDK offers, and an unknown one), declared
 * capabilities, ping, requests before `initialize` (refused, ping excepted), a cursor the server
 * never issued (-32602), params of the wrong shape on every served method (-32602 with a short
 * message, never the SDK's Zod dump or a value the client sent), notifications/cancelled, a
 * message over the size limit (answered, then serving goes on), and exit when stdin closes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREETER_PATH, writeMcpWorkspace } from '../../plugin/application/__test-support__/mcp-workspace';
import { MAX_MESSAGE_BYTES } from '../../plugin/cli/mcp-server';
import { agentdefBin } from '../support/run-cli';

let dir: string;
let root: string;

// Split so that no scanner takes it for a real credential.
const LEAKED = 'sk-proj-' + 'ConformanceLeak0123456789abcdef';

function transportFor(): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [agentdefBin, 'mcp', '--workspace', root],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return { transport, stderr: () => stderr };
}

/**
 * The SDK's transport without its `Client`: messages exactly as written, answers by id. The
 * answers are read from the server's stdout line by line, not through the SDK's transport, which
 * passes an error answer without an id to no request.
 */
async function rawSession() {
  const { transport, stderr } = transportFor();
  const received: JSONRPCMessage[] = [];
  const waiters: (() => void)[] = [];
  transport.onmessage = () => {};
  transport.onerror = () => {};
  await transport.start();
  const stdout = (transport as unknown as { _process?: { stdout?: NodeJS.ReadableStream | null } })._process?.stdout;
  if (!stdout) throw new Error('the SDK transport has no child stdout');
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line !== '') received.push(JSON.parse(line) as JSONRPCMessage);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (found: () => JSONRPCMessage | undefined): Promise<JSONRPCMessage> => {
    for (;;) {
      const message = found();
      if (message !== undefined) return message;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const answer = (id: number) => until(() => received.find((m) => (m as { id?: unknown }).id === id));
  const request = async (id: number, method: string, params?: unknown) => {
    await transport.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage);
    return (await answer(id)) as {
      id: number;
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
  };
  const initialize = async (id: number, protocolVersion = LATEST_PROTOCOL_VERSION) => {
    const answered = await request(id, 'initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'conformance', version: '1.0.0' },
    });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answered;
  };
  return { transport, stderr, received, until, request, initialize };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-conformance-'));
  mkdirSync(join(dir, 'home'));
  root = join(dir, 'workspace');
  mkdirSync(root);
  writeMcpWorkspace(root);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agentdef mcp: lifecycle', () => {
  it('answers initialize with the version asked for when it supports it, else with its latest; declares only tools', async () => {
    const session = await rawSession();
    try {
      let id = 1;
      for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01', 'not-a-version']) {
        const answered = await session.request(id++, 'initialize', {
          protocolVersion: version,
          capabilities: {},
          clientInfo: { name: 'conformance', version: '1.0.0' },
        });
        const expected = SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : LATEST_PROTOCOL_VERSION;
        expect(answered.result).toMatchObject({
          protocolVersion: expected,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'agentdef' },
        });
        expect(Object.keys(answered.result?.capabilities as object)).toEqual(['tools']);
      }
    } finally {
      await session.transport.close();
    }
  });

  it('refuses every request but ping before initialize, and serves them after', async () => {
    const session = await rawSession();
    try {
      expect((await session.request(1, 'ping')).result).toEqual({});
      const early = await session.request(2, 'tools/call', {
        name: 'agentdef.application.plan',
        arguments: { manifestPath: GREETER_PATH, mode: 'dry-run' },
      });
      expect(early.result).toBeUndefined();
      expect(early.error?.code).toBe(ErrorCode.InvalidRequest);
      expect(early.error?.message).toMatch(/initialize/);
      expect((await session.request(3, 'tools/list')).error?.code).toBe(ErrorCode.InvalidRequest);
      expect((await session.initialize(4)).result?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
      expect((await session.request(5, 'tools/list')).result?.tools).toHaveLength(3);
      expect(
        (
          await session.request(6, 'tools/call', {
            name: 'agentdef.application.plan',
            arguments: { manifestPath: GREETER_PATH, mode: 'dry-run' },
          })
        ).result,
      ).toMatchObject({ isError: false });
    } finally {
      await session.transport.close();
    }
  });

  it('exits with code 0 when its input closes', async () => {
    const { transport } = transportFor();
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(transport);
    const exited = new Promise<number | null>((resolve) => {
      const child = (
        transport as unknown as { _process?: { once(event: 'exit', listener: (code: number | null) => void): void } }
      )._process;
      child?.once('exit', resolve);
    });
    await client.close();
    expect(await exited).toBe(0);
  });
});

describe('agentdef mcp: requests the server must refuse with -32602', () => {
  it('a tools/list cursor it never issued', async () => {
    const { transport } = transportFor();
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = await client.listTools();
      expect(listed.nextCursor).toBeUndefined();
      const refused = await client.listTools({ cursor: 'bogus' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((refused as McpError).message).toMatch(/cursor/);
    } finally {
      await client.close();
    }
  });

  it('params of the wrong shape, on every method it serves: a short message, no Zod dump, nothing the client sent', async () => {
    const session = await rawSession();
    try {
      await session.initialize(1);
      const cases: [string, unknown][] = [
        ['tools/call', { name: 'agentdef.application.plan', arguments: LEAKED }],
        ['tools/call', { name: 'agentdef.application.plan', arguments: [LEAKED] }],
        ['tools/call', { name: 42, arguments: {} }],
        ['tools/call', { arguments: { mode: 'dry-run' } }],
        ['tools/call', LEAKED],
        ['tools/list', { cursor: 7 }],
        ['initialize', { protocolVersion: 7, clientInfo: LEAKED }],
        ['ping', { _meta: LEAKED }],
      ];
      let id = 10;
      for (const [method, params] of cases) {
        const answered = await session.request(id++, method, params);
        expect({ method, params, result: answered.result }).toEqual({ method, params, result: undefined });
        expect({ method, params, code: answered.error?.code }).toEqual({
          method,
          params,
          code: ErrorCode.InvalidParams,
        });
        const message = answered.error?.message ?? '';
        expect(message).toMatch(/^Invalid params/);
        expect(message).not.toContain('\n');
        expect(message).not.toContain('"code"');
        expect(message).not.toContain(LEAKED);
      }
      // Still serving.
      expect((await session.request(99, 'ping')).result).toEqual({});
      expect(session.stderr()).not.toContain(LEAKED);
    } finally {
      await session.transport.close();
    }
  });
});

describe('agentdef mcp: lines that are not valid JSON-RPC requests (JSON-RPC 2.0)', () => {
  it('answers a line that is not JSON with -32700 and an invalid request with -32600, its id when readable, and never quotes them', async () => {
    const session = await rawSession();
    try {
      await session.initialize(1);
      const stdin = (session.transport as unknown as { _process?: { stdin?: NodeJS.WritableStream | null } })._process
        ?.stdin;
      if (!stdin) throw new Error('the SDK transport has no child stdin');
      // No id member where the request's id cannot be read (MCP 2025-11-25's JSONRPCErrorResponse
      // holds a string or an integer id, or none).
      const cases: [string, number, string | number | undefined][] = [
        [`{"not json ${LEAKED}`, ErrorCode.ParseError, undefined],
        [
          JSON.stringify({ jsonrpc: '2.0', id: 'x-1', methodd: 'tools/list', params: { token: LEAKED } }),
          ErrorCode.InvalidRequest,
          'x-1',
        ],
        [JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'ping' }), ErrorCode.InvalidRequest, 7],
        [
          JSON.stringify({ jsonrpc: '2.0', id: { token: LEAKED }, method: 'ping' }),
          ErrorCode.InvalidRequest,
          undefined,
        ],
        [JSON.stringify({ jsonrpc: '2.0', id: false, method: 'ping' }), ErrorCode.InvalidRequest, undefined],
        [JSON.stringify([{ jsonrpc: '2.0', id: 8, method: 'ping' }]), ErrorCode.InvalidRequest, undefined],
      ];
      let id = 100;
      for (const [line, code, answerId] of cases) {
        const before = session.received.length;
        stdin.write(`${line}\n`);
        expect((await session.request(++id, 'ping')).result).toEqual({});
        const answers = session.received.slice(before).filter((m) => (m as { id?: unknown }).id !== id);
        expect({ line, answers }).toEqual({
          line,
          answers: [
            {
              jsonrpc: '2.0',
              ...(answerId !== undefined ? { id: answerId } : {}),
              error: {
                code,
                message: expect.stringMatching(code === ErrorCode.ParseError ? /^Parse error/ : /^Invalid Request/),
              },
            },
          ],
        });
      }
      // An unknown notification is ignored silently.
      const before = session.received.length;
      await session.transport.send({ jsonrpc: '2.0', method: `notifications/unknown-${LEAKED}` });
      expect((await session.request(200, 'ping')).result).toEqual({});
      expect(session.received.slice(before)).toEqual([{ jsonrpc: '2.0', id: 200, result: {} }]);
      expect(JSON.stringify(session.received)).not.toContain(LEAKED);
      expect(session.stderr()).not.toContain(LEAKED);
      expect(session.stderr()).toContain('answered -32700 to an input line that is not JSON');
    } finally {
      await session.transport.close();
    }
  });
});

describe('agentdef mcp: task-augmented requests (MCP 2025-11-25 tasks; the server declares no tasks capability)', () => {
  it('runs a tools/call that carries a task as a normal call, ignoring the task (official SDK client)', async () => {
    const { transport, stderr } = transportFor();
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.tasks).toBeUndefined();
      const called = await client.callTool({
        name: 'agentdef.application.plan',
        arguments: { manifestPath: GREETER_PATH, mode: 'dry-run' },
        task: { ttl: 60_000 },
      });
      expect(called).toMatchObject({
        isError: false,
        structuredContent: { ok: true, plan: { application: { id: 'greeter' } } },
      });
      expect(called).not.toHaveProperty('task');
      const catalog = await client.callTool({ name: 'agentdef.application.catalog', arguments: {}, task: {} });
      expect(catalog).toMatchObject({
        isError: false,
        structuredContent: { schemaVersion: 'agentdef.application-catalog/v1' },
      });
      expect(stderr()).not.toMatch(/task/i);
    } finally {
      await client.close();
    }
  });

  it('ignores a task member of any shape on every request it serves, and still checks the rest of the params', async () => {
    const session = await rawSession();
    try {
      expect((await session.initialize(1, LATEST_PROTOCOL_VERSION)).result?.protocolVersion).toBe(
        LATEST_PROTOCOL_VERSION,
      );
      const plan = { name: 'agentdef.application.plan', arguments: { manifestPath: GREETER_PATH, mode: 'dry-run' } };
      for (const [id, task] of [
        [2, { ttl: 1000 }],
        [3, LEAKED],
        [4, { ttl: LEAKED }],
        [5, null],
      ] as const) {
        const answered = await session.request(id, 'tools/call', { ...plan, task });
        expect({ task, error: answered.error }).toEqual({ task, error: undefined });
        expect(answered.result).toMatchObject({ isError: false, structuredContent: { ok: true } });
      }
      expect((await session.request(6, 'tools/list', { task: { ttl: 1000 } })).result?.tools).toHaveLength(3);
      expect((await session.request(7, 'ping', { task: { ttl: 1000 } })).result).toEqual({});
      const stillChecked = await session.request(8, 'tools/call', { name: 42, arguments: {}, task: { ttl: 1000 } });
      expect(stillChecked.error?.code).toBe(ErrorCode.InvalidParams);
      expect(session.stderr()).not.toContain(LEAKED);
    } finally {
      await session.transport.close();
    }
  });
});

describe('agentdef mcp: notifications and limits', () => {
  it('takes notifications/cancelled for an unknown or finished request without answering it', async () => {
    const session = await rawSession();
    try {
      await session.initialize(1);
      await session.request(2, 'tools/call', { name: 'agentdef.application.catalog', arguments: {} });
      await session.transport.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2, reason: LEAKED },
      });
      await session.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12345 } });
      expect((await session.request(3, 'ping')).result).toEqual({});
      expect(session.received.filter((m) => (m as { id?: unknown }).id === 2)).toHaveLength(1);
      expect(session.received.filter((m) => (m as { id?: unknown }).id === 12345)).toHaveLength(0);
      expect(session.stderr()).not.toContain(LEAKED);
    } finally {
      await session.transport.close();
    }
  });

  it('answers a message over the size limit with -32600, keeps none of it, and goes on serving', async () => {
    const session = await rawSession();
    try {
      await session.initialize(1);
      const huge = `${LEAKED}${'x'.repeat(MAX_MESSAGE_BYTES)}`;

      await session.transport.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'agentdef.application.plan', arguments: { mode: 'dry-run', manifestText: huge } },
      });
      const refused = (await session.until(() => session.received.find((m) => 'error' in m && !('id' in m)))) as {
        error: { code: number; message: string };
      };
      expect(refused.error.code).toBe(ErrorCode.InvalidRequest);
      expect(refused.error.message).toMatch(/larger than \d+ bytes/);
      expect((await session.request(3, 'ping')).result).toEqual({});
      expect(
        (
          await session.request(4, 'tools/call', {
            name: 'agentdef.application.plan',
            arguments: { manifestPath: GREETER_PATH, mode: 'dry-run' },
          })
        ).result,
      ).toMatchObject({ isError: false });
      expect(session.stderr()).toContain('ignored an input message larger than');
      expect(session.stderr()).not.toContain(LEAKED);
    } finally {
      await session.transport.close();
    }
  });
});
