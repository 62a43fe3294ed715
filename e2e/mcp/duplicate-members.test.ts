/**
 * `agentdef mcp` reads each line strictly: a member name given twice in one object (which
 * JSON.parse resolves to the last value, while a proxy or a log reader may take the first) is
 * refused, never served. Raw lines to the real server (`node bin/agentdef.cjs mcp`), each followed
 * by a ping: what comes before the ping's answer is the answer to that line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREETER_PATH, writeMcpWorkspace } from '../../plugin/application/__test-support__/mcp-workspace';
import { agentdefBin } from '../support/run-cli';

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-duplicates-'));
  mkdirSync(join(dir, 'home'));
  root = join(dir, 'workspace');
  mkdirSync(root);
  writeMcpWorkspace(root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

function session(child: ChildProcessWithoutNullStreams) {
  const answers: Answer[] = [];
  let pending = '';
  let wake: (() => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line !== '') answers.push(JSON.parse(line) as Answer);
    wake?.();
  });
  let seen = 0;
  let pingId = 1000;
  /** Sends `line`, then a ping; returns the answers written before the ping's. */
  const answersTo = async (line: string): Promise<Answer[]> => {
    const ping = ++pingId;
    child.stdin.write(`${line}\n${JSON.stringify({ jsonrpc: '2.0', id: ping, method: 'ping' })}\n`);
    for (;;) {
      const at = answers.findIndex((answer, index) => index >= seen && answer.id === ping);
      if (at !== -1) {
        const got = answers.slice(seen, at);
        seen = at + 1;
        return got;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  /** Sends `line` and waits for the answer to request `id` (a tool call is answered after a ping sent with it). */
  const answerTo = async (id: number, line: string): Promise<Answer> => {
    child.stdin.write(`${line}\n`);
    for (;;) {
      const found = answers.find((answer) => answer.id === id);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return { answersTo, answerTo };
}

describe('agentdef mcp: a member name given twice', () => {
  it('is refused wherever it is, with the request id when it can be read, and serving goes on', async () => {
    const child = spawn(process.execPath, [agentdefBin, 'mcp', '--workspace', root], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const { answersTo, answerTo } = session(child);
      const initialize = JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'dup', version: '1.0.0' } },
      });
      const [initialized] = await answersTo(
        `${initialize}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}`,
      );
      expect(initialized?.result).toMatchObject({ serverInfo: { name: 'agentdef' } });

      const dryRun = `"mode":"dry-run","manifestPath":${JSON.stringify(GREETER_PATH)}`;
      const invalidParams = (id: number) => ({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32602,
          message: 'Invalid params: a member name appears twice in one object of the params; the request was not read',
        },
      });
      const invalidRequest = (id?: number) => ({
        jsonrpc: '2.0',
        ...(id !== undefined ? { id } : {}),
        error: {
          code: -32600,
          message: 'Invalid Request: a member name appears twice in one object of the message; it was not read',
        },
      });
      const cases: [string, string, object[]][] = [
        [
          'the tool name twice',
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"agentdef.application.catalog","name":"agentdef.application.execute","arguments":{}}}',
          [invalidParams(1)],
        ],
        [
          'the mode twice in the arguments',
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"agentdef.application.plan","arguments":{${dryRun},"mode":"live"}}}`,
          [invalidParams(2)],
        ],
        [
          'a repeat deep in the arguments',
          `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"agentdef.application.plan","arguments":{${dryRun},"x":[{"a":1,"a":2}]}}}`,
          [invalidParams(3)],
        ],
        [
          'params twice',
          '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"agentdef.application.catalog","arguments":{}},"params":{"name":"agentdef.application.execute"}}',
          [invalidRequest(4)],
        ],
        ['the method twice', '{"jsonrpc":"2.0","id":5,"method":"ping","method":"tools/list"}', [invalidRequest(5)]],
        ['the id twice: no id is answered', '{"jsonrpc":"2.0","id":6,"id":7,"method":"ping"}', [invalidRequest()]],
        [
          'a notification',
          '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"requestId":2}}',
          [invalidRequest()],
        ],
        ['a response is never answered', '{"jsonrpc":"2.0","id":8,"result":{"a":1,"a":2}}', []],
        [
          'with escapes: "name" and "n\\u0061me" are one name',
          '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"agentdef.application.catalog","n\\u0061me":"agentdef.application.plan","arguments":{}}}',
          [invalidParams(9)],
        ],
      ];
      for (const [what, line, expected] of cases)
        expect({ what, answers: await answersTo(line) }).toEqual({ what, answers: expected });

      // The same calls without the repeat are served.
      const catalog = await answerTo(
        20,
        '{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"agentdef.application.catalog","arguments":{}}}',
      );
      expect(catalog).toMatchObject({ id: 20, result: { isError: false } });
      const plan = await answerTo(
        21,
        `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"agentdef.application.plan","arguments":{${dryRun}}}}`,
      );
      expect(plan).toMatchObject({ id: 21, result: { isError: false, structuredContent: { ok: true } } });

      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr).toContain(
        'agentdef mcp: refused an input message that names a member twice in one object (its text is not logged)',
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
