/**
 * `agentdef compile --out` goes through the one guarded writer: an unsafe output folder is
 * refused (exit 2, a clear message, no absolute path) and nothing on disk changes.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeSnapshot, unsafeOutputFolders } from '../../compiler/test-support';
import { runCompileCommand } from './compile';
import { captureRun, copyExamplesWorkspace } from './test-support';

let root: string;
let outside: string;
let folders: ReturnType<typeof unsafeOutputFolders>['folders'];
beforeEach(() => {
  root = copyExamplesWorkspace('agentdef-cli-destination-');
  ({ folders, outside } = unsafeOutputFolders(root));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('agentdef compile --out', () => {
  it.each(['hb3', 'local-mac'])(
    'refuses every unsafe output folder for --target %s and changes nothing on disk',
    async (target) => {
      for (const { path, refusal } of folders) {
        const before = [treeSnapshot(root), treeSnapshot(outside)];
        const { code, stdout, stderr } = await captureRun(
          runCompileCommand,
          ['examples/write-router/agent.json', '--target', target, '--out', path],
          root,
        );
        expect(code, path).toBe(2);
        expect(stdout, path).toBe('');
        expect(stderr, path).toMatch(refusal);
        expect(stderr, path).not.toContain(root);
        expect([treeSnapshot(root), treeSnapshot(outside)], path).toEqual(before);
      }
    },
  );

  it('replaces its own output, and refuses it once a user file is added', async () => {
    const out = ['examples/write-router/agent.json', '--out', 'dist/wr'];
    expect((await captureRun(runCompileCommand, out, root)).code).toBe(0);
    expect((await captureRun(runCompileCommand, out, root)).code).toBe(0);
    writeFileSync(join(root, 'dist/wr/NOTES.md'), 'mine');
    const refused = await captureRun(runCompileCommand, out, root);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to replace dist/wr: it holds NOTES.md, which agentdef did not write');
  });
});
