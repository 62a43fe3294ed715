import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRunCommand } from './run';

const root = mkdtempSync(join(tmpdir(), 'agentdef-cli-run-'));
writeFileSync(join(root, 'nx.json'), '{}');
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runRunCommand(argv, { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('agentdef run', () => {
  it('exits 2 with the usage on bad arguments', async () => {
    for (const argv of [
      [],
      ['a', 'b'],
      ['out', '--port', 'http'],
      ['out', '--port', '70000'],
      ['out', '--nope'],
      ['out', '--task-store'],
      ['out', '--task-store', ''],
      ['out', '--task-store', 'mysql://user:p4ss-w0rd@db.internal/tasks'],
      ['out', '--task-store', 'secret:lower-case'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('p4ss-w0rd');
      expect(result.stderr).toMatch(
        /^error: .*\nusage: agentdef run <output folder> \[--port n\] \[--weights dir\] \[--receipts file\] \[--task-store file\|url\] \[--serve\] \[--record dir \| --replay dir\] \[--log-format text\|json\]\n$/,
      );
    }
  });

  it('exits 2 naming what to compile when the folder is no HB3 or local-mac output', async () => {
    const result = await run(['dist/agents/nothing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(root, 'dist/agents/nothing')} holds neither hb3-job.json nor launcher.json: compile the agent with --target hb3, --target kubernetes or --target local-mac first\n`,
    );
  });

  it('refuses a --receipts path that is no receipts file before starting anything, and leaves it as it was', async () => {
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    symlinkSync(outside, join(root, 'link.jsonl'));
    mkdirSync(join(root, 'folder.jsonl'));
    execFileSync('mkfifo', [join(root, 'fifo.jsonl')]);
    writeFileSync(join(root, 'package.json'), '{\n  "name": "mine"\n}\n');
    for (const [path, why] of [
      ['link.jsonl', 'it is a symbolic link, and agentdef never appends receipts through one'],
      ['folder.jsonl', 'it is not a regular file'],
      ['fifo.jsonl', 'it is not a regular file'],
      ['package.json', 'it holds something other than receipts'],
    ] as const) {
      const result = await run(['dist/agents/nothing', '--receipts', path]);
      expect(result.code).toBe(2);
      expect(result.stderr.startsWith(`error: --receipts ${join(root, path)}: ${why}`)).toBe(true);
      expect(result.stdout).toBe('');
    }
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe('{\n  "name": "mine"\n}\n');
    expect(lstatSync(join(root, 'fifo.jsonl')).isFIFO()).toBe(true);
    const empty = await run(['out', '--receipts', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('error: --receipts names a file');
  });
});
