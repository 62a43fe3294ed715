/**
 * Properties of the writer under random interruptions. A run of the writer is cut at a random
 * file-system call, either by an error (the call throws) or by a stop (the call never returns, which
 * is what the disk looks like when the process dies at that point). Whatever the cut, the
 * destination is the previous output or the new one, whole: never missing, never a mix; after a
 * failed write nothing is left beside it, and the next write succeeds and leaves only its output.
 */
import * as fc from 'fast-check';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markerContents, OUTPUT_MARKER } from './output-guard';
import type { EmittedFile } from '../targets/target';
import { treeSnapshot } from './test-support';
import { nodeOutputFs, type OutputFs, writeOutputAtomic } from './write-output';

const root = mkdtempSync(join(tmpdir(), 'agentdef-write-prop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const segment = fc.constantFrom('a', 'b', 'c', 'plan.json', 'worker.js', 'sub', 'é');
const filePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
/** A valid emitted tree: distinct paths, none both a file and a folder. */
const outputFiles = fc
  .uniqueArray(fc.record({ path: filePath, contents: fc.string({ maxLength: 40 }) }), {
    selector: (f) => f.path,
    minLength: 1,
    maxLength: 6,
  })
  .map((files) => {
    const paths = new Set(files.map((f) => f.path));
    return files.filter(
      (f) => !f.path.split('/').some((_, i, parts) => i > 0 && paths.has(parts.slice(0, i).join('/'))),
    );
  });

const expected = (files: readonly EmittedFile[]) => {
  const out: Record<string, string> = { [OUTPUT_MARKER]: markerContents(files.map((f) => f.path)) };
  for (const file of files) out[file.path] = file.contents;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
};

type Cut = { kind: 'throw' | 'stop'; at: number };

/** The writer's file system with the `at`-th call cut. `stop` never settles (sync calls cannot stop: they throw). */
function cutFs(cut: Cut, onStop: () => void): OutputFs {
  let calls = 0;
  const fail = (syscall: string) => Object.assign(new Error('cut'), { code: 'EIO', syscall });
  const wrap =
    <A extends unknown[], R>(name: string, real: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (++calls !== cut.at) return real(...args);
      if (cut.kind === 'throw') return Promise.reject(fail(name));
      onStop();
      return new Promise<R>(() => {});
    };
  const wrapSync =
    <A extends unknown[], R>(name: string, real: (...args: A) => R) =>
    (...args: A): R => {
      if (++calls === cut.at) throw fail(name);
      return real(...args);
    };
  return {
    mkdir: wrap('mkdir', nodeOutputFs.mkdir),
    writeFile: wrap('write', nodeOutputFs.writeFile),
    rename: wrap('rename', nodeOutputFs.rename),
    rm: wrap('rm', nodeOutputFs.rm),
    exists: wrap('lstat', nodeOutputFs.exists),
    renameSync: wrapSync('rename', (from: string, to: string) => renameSync(from, to)),
    existsSync: wrapSync('lstat', nodeOutputFs.existsSync),
  };
}

let runs = 0;
describe('writeOutputAtomic under random interruptions', () => {
  it('leaves the destination the previous or the new output, whole, wherever it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        outputFiles,
        outputFiles,
        fc.record({ kind: fc.constantFrom('throw' as const, 'stop' as const), at: fc.integer({ min: 1, max: 30 }) }),
        async (before, after, cut) => {
          const workspace = join(root, `w${runs++}`);
          const dest = join(workspace, 'dist', 'agent');
          expect(await writeOutputAtomic(dest, before, { workspaceRoot: workspace })).toEqual({ ok: true });
          const old = expected(before);
          const next = expected(after);
          expect(treeSnapshot(dest)).toEqual(old);

          let stopped!: () => void;
          const stop = new Promise<'stopped'>((resolve) => {
            stopped = () => resolve('stopped');
          });
          const outcome = await Promise.race([
            writeOutputAtomic(dest, after, { workspaceRoot: workspace, fs: cutFs(cut, stopped) }),
            stop,
          ]);
          // The disk as a crash at the cut would leave it, or as the finished write left it.
          expect(existsSync(dest)).toBe(true);
          const now = treeSnapshot(dest);
          if (outcome === 'stopped') expect([old, next]).toContainEqual(now);
          else if (outcome.ok) expect(now).toEqual(next);
          else {
            expect(now).toEqual(old);
            expect(outcome.error).not.toContain(root);
            expect(readdirSync(join(workspace, 'dist'))).toEqual(['agent']);
          }
          if (outcome === 'stopped') return; // the stopped writer is still "running" in this process
          // The next write always succeeds and leaves only its output.
          expect(await writeOutputAtomic(dest, after, { workspaceRoot: workspace })).toEqual({ ok: true });
          expect(treeSnapshot(dest)).toEqual(next);
          expect(readdirSync(join(workspace, 'dist'))).toEqual(['agent']);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('removes what failed writes of this process left beside the output, once they are over', async () => {
    const workspace = join(root, 'own-leftover');
    const dest = join(workspace, 'out');
    expect(await writeOutputAtomic(dest, [{ path: 'a', contents: '1' }], { workspaceRoot: workspace })).toEqual({
      ok: true,
    });
    const result = await writeOutputAtomic(dest, [{ path: 'a', contents: '2' }], {
      workspaceRoot: workspace,
      fs: {
        rm: (path, options) =>
          path.includes('.old-')
            ? Promise.reject(Object.assign(new Error('denied'), { code: 'EPERM' }))
            : nodeFs.rm(path, options),
      },
    });
    expect(result.ok && result.warning).toMatch(/could not be removed from \.out\.old-/);
    expect(readdirSync(workspace).length).toBe(2);
    expect(await writeOutputAtomic(dest, [{ path: 'a', contents: '3' }], { workspaceRoot: workspace })).toEqual({
      ok: true,
    });
    expect(readdirSync(workspace)).toEqual(['out']);
    expect(treeSnapshot(dest)).toEqual(expected([{ path: 'a', contents: '3' }]));
  });
});
