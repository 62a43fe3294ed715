/**
 * Every executor that writes (plan with `outputPath`, compile) goes through the one guarded
 * writer: an unsafe output folder is refused with a clear message and nothing on disk changes.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { treeSnapshot, unsafeOutputFolders } from '../plugin/compiler/test-support';
import compileExecutor from './compile/executor';
import { executorContext } from './test-support';
import planExecutor from './plan/executor';

const REPO = join(__dirname, '..');
let root: string;
let outside: string;
let folders: ReturnType<typeof unsafeOutputFolders>['folders'];
let errors: MockInstance;

const context = () => executorContext(root);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-executor-guard-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  ({ folders, outside } = unsafeOutputFolders(root));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const shells = {
  plan: (outputPath: string) => planExecutor({ definition: 'examples/write-router/agent.json', outputPath }, context()),
  compile: (outputPath: string) =>
    compileExecutor({ definition: 'examples/write-router/agent.json', outputPath }, context()),
  'compile --target local-mac': (outputPath: string) =>
    compileExecutor({ definition: 'examples/write-router/agent.json', target: 'local-mac', outputPath }, context()),
};

describe.each(Object.entries(shells))('the %s executor', (_name, run) => {
  it('refuses every unsafe output folder and changes nothing on disk', async () => {
    for (const { path, refusal } of folders) {
      const before = [treeSnapshot(root), treeSnapshot(outside)];
      errors.mockClear();
      expect(await run(path), path).toEqual({ success: false });
      const printed = errors.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(printed, path).toMatch(refusal);
      expect(printed, path).not.toContain(root);
      expect([treeSnapshot(root), treeSnapshot(outside)], path).toEqual(before);
    }
  });

  it('refuses an output folder outside the workspace (absolute or through ".."), writing nothing there', async () => {
    // Both were written, outside what Nx caches and restores.
    const sibling = `${basename(root)}-escape`;
    for (const path of [join(outside, 'fresh'), `../${sibling}`, `dist/../../${sibling}`]) {
      const before = [treeSnapshot(root), treeSnapshot(outside)];
      errors.mockClear();
      expect(await run(path), path).toEqual({ success: false });
      const printed = errors.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(printed, path).toMatch(
        /outputPath ".*" must be a folder inside the workspace \(relative to its root, without "\.\."\): Nx caches and restores only the workspace's folders/,
      );
      expect([treeSnapshot(root), treeSnapshot(outside)], path).toEqual(before);
    }
    expect(existsSync(join(root, '..', sibling))).toBe(false);
  });

  it('writes a fresh folder, then replaces its own output', async () => {
    expect(await run('dist/out')).toEqual({ success: true });
    expect(Object.keys(treeSnapshot(join(root, 'dist/out')))).toContain('.agentdef-output.json');
    expect(await run('dist/out')).toEqual({ success: true });
  });
});
