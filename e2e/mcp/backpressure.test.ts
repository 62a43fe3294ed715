/**
 * `agentdef mcp` when its client stops reading: the real server (`node bin/agentdef.cjs mcp`) gets
 * 20,000 catalog calls while the test does not read its standard output. The server must stop
 * reading its input instead of keeping the answers in memory (before: 882 MiB and a
 * MaxListenersExceededWarning, one 'drain' listener per waiting write). Its peak resident memory
 * (VmHWM in /proc/<pid>/status) stays within a generous bound over what it had after
 * `initialize`, the requests it did not take are still waiting in the test's pipe, and once the
 * test reads again every answer arrives, each once.
 *
 * "Settled" is read from the kernel, not a clock: the server sleeps (state S) and its CPU time
 * stops moving across consecutive looks.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMcpWorkspace } from '../../plugin/application/__test-support__/mcp-workspace';
import { agentdefBin } from '../support/run-cli';

const CALLS = 20_000;
/** Growth allowed over the memory after `initialize`: generous (the unbounded server grew by 700 MiB). */
const GROWTH_BOUND_KIB = 160 * 1024;

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-mcp-backpressure-'));
  mkdirSync(join(dir, 'home'));
  root = join(dir, 'workspace');
  mkdirSync(root);
  writeMcpWorkspace(root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]);
}

/** The process's state letter and its user + system CPU ticks (proc(5): fields 3, 14 and 15). */
function schedule(pid: number): { state: string; ticks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '?', ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Resolves once `pid` has slept with unchanged CPU time for `looks` consecutive looks. */
async function settled(pid: number, looks = 8): Promise<void> {
  let last = -1;
  let still = 0;
  while (still < looks) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { state, ticks } = schedule(pid);
    still = state === 'S' && ticks === last ? still + 1 : 0;
    last = ticks;
  }
}

type Answer = { id?: unknown; result?: { isError?: boolean }; error?: unknown };

/** Answers read from the child's stdout, by id; `wait(n)` resolves once n answers have come. */
function answerReader(child: ChildProcessWithoutNullStreams) {
  const answers = new Map<unknown, Answer>();
  let repeated = 0;
  let pending = '';
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      const answer = JSON.parse(line) as Answer;
      if (answers.has(answer.id)) repeated++;
      answers.set(answer.id, answer);
    }
    wake?.();
  };
  return {
    answers,
    repeated: () => repeated,
    start: () => {
      child.stdout.on('data', onData);
      child.stdout.resume();
    },
    stop: () => {
      child.stdout.off('data', onData);
      child.stdout.pause();
    },
    wait: async (count: number) => {
      while (answers.size < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

describe('agentdef mcp: backpressure', () => {
  it('stops reading while its answers are not read, stays within bounded memory, and answers everything once reading resumes', async () => {
    const child = spawn(process.execPath, [agentdefBin, 'mcp', '--workspace', root], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache'), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const pid = child.pid as number;
    const reader = answerReader(child);
    try {
      reader.start();
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1.0.0' } },
        })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
      );
      await reader.wait(1);
      await settled(pid);
      const baseline = statusField(pid, 'VmRSS');

      // The client stops reading, and keeps sending.
      reader.stop();
      const call = (id: number) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'agentdef.application.catalog', arguments: {} },
        });
      const lines: string[] = [];
      for (let id = 1; id <= CALLS; id++) lines.push(call(id));
      child.stdin.write(`${lines.join('\n')}\n`);
      const sentBytes = child.stdin.writableLength;
      await settled(pid);

      const peak = statusField(pid, 'VmHWM');
      expect(peak - baseline, `peak ${peak} KiB, after initialize ${baseline} KiB`).toBeLessThan(GROWTH_BOUND_KIB);
      // The server stopped reading: most of what was sent still waits in the test's side of the pipe.
      expect(child.stdin.writableLength).toBeGreaterThan(sentBytes / 2);

      // Reading resumes: every call is answered, once, with the catalog.
      reader.start();
      await reader.wait(CALLS + 1);
      expect(reader.repeated()).toBe(0);
      for (let id = 1; id <= CALLS; id++) {
        const answer = reader.answers.get(id);
        expect(answer?.error).toBeUndefined();
        expect(answer?.result?.isError).toBe(false);
      }
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stderr).not.toContain('MaxListenersExceededWarning');
      expect(stderr).not.toMatch(/Warning/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
