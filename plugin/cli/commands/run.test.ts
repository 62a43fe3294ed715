import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    for (const argv of [[], ['a', 'b'], ['out', '--port', 'http'], ['out', '--port', '70000'], ['out', '--nope'], ['out', '--task-store'], ['out', '--task-store', '']]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: .*\nusage: agentdef run <output folder> \[--port n\] \[--weights dir\] \[--receipts file\] \[--task-store file\] \[--serve\]\n$/);
    }
  });

  it('exits 2 naming what to compile when the folder is no HB3 or local-mac output', async () => {
    const result = await run(['dist/agents/nothing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${join(root, 'dist/agents/nothing')} holds neither hb3-job.json nor launcher.json: compile the agent with --target hb3 or --target local-mac first\n`);
  });
});
