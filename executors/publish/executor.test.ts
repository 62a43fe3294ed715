import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executorContext } from '../test-support';
import publishExecutor from './executor';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-publish-executor-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  writeFileSync(
    join(root, 'agents/text-stats/agent.json'),
    readFileSync(join(__dirname, '../../examples/text-stats/agent.json')),
  );
  execFileSync('git', ['init', '-q'], { cwd: root });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('publish executor', () => {
  it('needs the definition option', async () => {
    expect(await publishExecutor({ definition: '' }, executorContext(root))).toEqual({ success: false });
  });

  it('refuses a definition git does not have committed, and writes nothing', async () => {
    const result = await publishExecutor(
      { definition: 'agents/text-stats/agent.json', workerUrl: 'https://text-stats.example.workers.dev' },
      executorContext(root),
    );
    expect(result).toEqual({ success: false });
    expect(String(vi.mocked(console.error).mock.calls.at(-1)?.[0])).toMatch(
      /^error: agents\/text-stats\/agent\.json has uncommitted changes \(\?\? /,
    );
    expect(existsSync(join(root, 'registry'))).toBe(false);
  });
});
