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
    [['--artifacts', '../outside'], /--artifacts: the approved-artifacts folder must be a relative path inside the workspace/],
    [['--artifacts', '/abs/olute'], /--artifacts: the approved-artifacts folder must be a relative path inside the workspace/],
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
    const run = await captureRun((a, io) => runMcpCommand(a, io), ['--workspace', root, '--ledger', join(root, 'applications', 'greeter', 'application.json')], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --ledger: the ledger database could not be opened: SQLite SQLITE_NOTADB/);
    expect(run.stderr).toContain('usage: agentdef mcp');
  });
});

// Split so that no scanner takes it for a real credential.
const LEAKED = 'sk-proj-' + 'LeakedLeakedLeaked0123456789';

describe('agentdef mcp: a served session', () => {
  it('answers JSON-RPC on the output stream only, and ends when the input closes', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => {
      written += chunk.toString('utf8');
    });
    let stdout = '';
    let stderr = '';
    const io = { cwd: dir, stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s) };
    const done = runMcpCommand(['--workspace', root], io, { input, output });

    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    const lines = async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (written.split('\n').filter(Boolean).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return written.split('\n').filter(Boolean);
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } });
    await lines(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Lines the server cannot take are logged by kind only: nothing they hold reaches the log.
    input.write(`{"not json ${LEAKED}\n`);
    send({ jsonrpc: '2.0', id: 9, methodd: 'tools/list', params: { token: LEAKED } });
    send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: LEAKED, progress: 1 } });
    console.log('a stray console.log while serving');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'agentdef.application.plan', arguments: { manifestPath: 'applications/greeter/application.json', mode: 'dry-run' } } });
    const [initialized, list, plan] = (await lines(3)).map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> });
    input.end();
    expect(await done).toBe(0);

    expect([initialized?.id, list?.id, plan?.id]).toEqual([1, 2, 3]);
    expect(initialized?.result).toMatchObject({ serverInfo: { name: 'agentdef' } });
    expect((list?.result.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual(['agentdef.application.catalog', 'agentdef.application.plan', 'agentdef.application.execute']);
    expect(plan?.result).toMatchObject({ isError: false, structuredContent: { ok: true, plan: { application: { id: 'greeter' } } } });
    expect(stdout).toBe('');
    expect(written).not.toContain('stray');
    expect(stderr).toContain('a stray console.log while serving');
    expect(stderr).toContain('agentdef mcp: ignored an input line that is not JSON (its text is not logged)');
    expect(stderr).not.toContain(LEAKED);
    expect(written).not.toContain(LEAKED);
    expect(stderr).toContain('agentdef mcp: serving the application tools over stdio (execution ledger: in memory)');
  });
});
