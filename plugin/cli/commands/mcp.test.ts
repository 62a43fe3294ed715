/**
 * `agentdef mcp` in process: usage errors for bad flags, a missing workspace, an artifacts folder
 * outside the workspace and an unusable ledger; and a served session over in-memory streams, where
 * the output stream carries JSON-RPC lines only, `console` output is diverted to stderr while
 * serving, and closing the input ends the command with exit code 0.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMcpWorkspace } from '../../application/__test-support__/mcp-workspace';
import { runMcpCommand } from './mcp';
import { captureRun } from './test-support';

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-command-'));
  root = join(dir, 'ws');
  mkdirSync(root);
  writeMcpWorkspace(root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agentdef mcp: usage errors', () => {
  it.each([
    [['--unknown'], /Unknown option '--unknown'/],
    [['stray'], /positional/i],
    [
      ['--artifacts', '../outside'],
      /--artifacts: the approved-artifacts folder must be a relative path inside the workspace/,
    ],
    [
      ['--artifacts', '/abs/olute'],
      /--artifacts: the approved-artifacts folder must be a relative path inside the workspace/,
    ],
    [['--ledger', ''], /--ledger needs the path of a SQLite file/],
  ])('%j', async (argv, message) => {
    const run = await captureRun((a, io) => runMcpCommand(a, io), ['--workspace', root, ...argv], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('usage: agentdef mcp');
  });

  it('a workspace that is not a folder', async () => {
    const run = await captureRun((a, io) => runMcpCommand(a, io), ['--workspace', 'missing-folder'], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/the workspace missing-folder is not a folder/);
    expect(run.stderr).toContain('usage: agentdef mcp');
  });

  it('a ledger file that is not a SQLite database', async () => {
    const run = await captureRun(
      (a, io) => runMcpCommand(a, io),
      ['--workspace', root, '--ledger', join(root, 'applications', 'greeter', 'application.json')],
      dir,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --ledger: the ledger database could not be opened: SQLite SQLITE_NOTADB/);
    expect(run.stderr).toContain('usage: agentdef mcp');
  });
});

// Split so that no scanner takes it for a real credential.
const LEAKED = 'sk-proj-' + 'LeakedLeakedLeaked0123456789';

describe('agentdef mcp: a served session', () => {
  it('answers JSON-RPC on the output stream only, answers lines it cannot take as JSON-RPC 2.0 says without quoting them, and ends when the input closes', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    const wakers: (() => void)[] = [];
    output.on('data', (chunk: Buffer) => {
      written += chunk.toString('utf8');
      for (const wake of wakers.splice(0)) wake();
    });
    let stdout = '';
    let stderr = '';
    const io = { cwd: dir, stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s) };
    const done = runMcpCommand(['--workspace', root], io, { input, output });

    const answers = () =>
      written
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              id?: unknown;
              result?: Record<string, unknown>;
              error?: { code: number; message: string };
            },
        );
    /** Waits for the answer to request `id`; returns every answer written since `from` answers, that one included. */
    const answersThrough = async (from: number, id: number) => {
      for (;;) {
        const all = answers();
        const at = all.findIndex((answer, index) => index >= from && answer.id === id);
        if (at !== -1) return all.slice(from, at + 1);
        await new Promise<void>((resolve) => wakers.push(resolve));
      }
    };
    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    });
    const [initialized] = await answersThrough(0, 1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // Each line the server cannot take, then a ping: what is written before the ping's answer is
    // the answer to that line. None of them quotes what the client sent.
    // An answer whose id cannot be read has no id member (MCP 2025-11-25's JSONRPCErrorResponse).
    const parseError = {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: an input line is not JSON; it was not read' },
    };
    const invalidRequest = (id?: string | number) => ({
      jsonrpc: '2.0',
      ...(id !== undefined ? { id } : {}),
      error: {
        code: -32600,
        message: 'Invalid Request: an input message is not a valid JSON-RPC 2.0 request; it was not read',
      },
    });
    const cases: [string, object[]][] = [
      [`{"not json ${LEAKED}`, [parseError]],
      [`{"jsonrpc":"2.0","id":3,"method":"ping"`, [parseError]],
      ['\u00ff\u0000', [parseError]],
      [
        JSON.stringify({ jsonrpc: '2.0', id: 9, methodd: 'tools/list', params: { token: LEAKED } }),
        [invalidRequest(9)],
      ],
      [JSON.stringify({ jsonrpc: '2.0', id: 'req-9', params: { token: LEAKED } }), [invalidRequest('req-9')]],
      [JSON.stringify({ jsonrpc: '2.0', id: 10, method: 42 }), [invalidRequest(10)]],
      [JSON.stringify({ jsonrpc: '1.0', id: 11, method: 'ping' }), [invalidRequest(11)]],
      [JSON.stringify({ id: 12, method: 'ping' }), [invalidRequest(12)]],
      [JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'ping', [LEAKED]: true }), [invalidRequest(13)]],
      [JSON.stringify({ jsonrpc: '2.0', id: { token: LEAKED }, method: 'ping' }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '2.0', id: [LEAKED], method: 'ping' }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '2.0', id: true, method: 'ping' }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '2.0', method: 1, params: LEAKED }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: LEAKED }), [invalidRequest()]],
      [JSON.stringify({ jsonrpc: '1.0', method: 'notifications/initialized' }), [invalidRequest()]],
      [JSON.stringify([]), [invalidRequest()]],
      [JSON.stringify([{ jsonrpc: '2.0', id: 14, method: 'ping' }]), [invalidRequest()]],
      [JSON.stringify(LEAKED), [invalidRequest()]],
      ['42', [invalidRequest()]],
      ['null', [invalidRequest()]],
      // A notification with a method the server does not know is ignored silently.
      [JSON.stringify({ jsonrpc: '2.0', method: `notifications/unknown-${LEAKED}`, params: { token: LEAKED } }), []],
      [
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: LEAKED, progress: 1 },
        }),
        [],
      ],
      // A response, even a malformed one, is never answered (two peers would answer each other for ever).
      [JSON.stringify({ jsonrpc: '2.0', id: 15, result: LEAKED }), []],
      [JSON.stringify({ jsonrpc: '2.0', id: { token: LEAKED }, error: { code: 1, message: LEAKED } }), []],
      // A blank line is no message.
      ['', []],
      ['  \t', []],
    ];
    let seen = answers().length;
    let pingId = 1000;
    for (const [line, expected] of cases) {
      input.write(`${line}\n`);
      send({ jsonrpc: '2.0', id: ++pingId, method: 'ping' });
      const got = await answersThrough(seen, pingId);
      seen += got.length;
      expect({ line, answers: got }).toEqual({
        line,
        answers: [...expected, { jsonrpc: '2.0', id: pingId, result: {} }],
      });
    }

    console.log('a stray console.log while serving');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const [list] = await answersThrough(seen, 2);
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'agentdef.application.plan',
        arguments: { manifestPath: 'applications/greeter/application.json', mode: 'dry-run' },
      },
    });
    const [plan] = await answersThrough(seen + 1, 3);
    input.end();
    expect(await done).toBe(0);

    expect([initialized?.id, list?.id, plan?.id]).toEqual([1, 2, 3]);
    expect(initialized?.result).toMatchObject({ serverInfo: { name: 'agentdef' } });
    expect((list?.result?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual([
      'agentdef.application.catalog',
      'agentdef.application.plan',
      'agentdef.application.execute',
    ]);
    expect(plan?.result).toMatchObject({
      isError: false,
      structuredContent: { ok: true, plan: { application: { id: 'greeter' } } },
    });
    expect(stdout).toBe('');
    expect(written).not.toContain('stray');
    expect(stderr).toContain('a stray console.log while serving');
    expect(stderr).toContain(
      'agentdef mcp: answered -32700 to an input line that is not JSON (its text is not logged)',
    );
    expect(stderr).toContain(
      'agentdef mcp: answered -32600 to an input message that is not a valid JSON-RPC request (its text is not logged)',
    );
    expect(stderr).toContain(
      'agentdef mcp: ignored an input response that is not valid JSON-RPC (its text is not logged)',
    );
    expect(stderr).not.toContain(LEAKED);
    expect(written).not.toContain(LEAKED);
    expect(stderr).toContain('agentdef mcp: serving the application tools over stdio (execution ledger: in memory)');
  });
});
