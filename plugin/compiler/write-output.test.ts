import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputPath, writeOutputAtomic } from './write-output';

let parent: string;
let dest: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'agentdef-write-'));
  dest = join(parent, 'out');
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

/** Every file below `dir`, relative path → contents. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p).split('\\').join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const previous = () => {
  mkdirSync(join(dest, 'sub'), { recursive: true });
  writeFileSync(join(dest, 'plan.json'), 'old plan');
  writeFileSync(join(dest, 'sub', 'old.txt'), 'old file');
  return snapshot(dest);
};

describe('writeOutputAtomic', () => {
  it('writes every file, nested folders included, and leaves nothing beside the output', async () => {
    const result = await writeOutputAtomic(dest, [
      { path: 'plan.json', contents: '{}\n' },
      { path: 'a/b/c.txt', contents: 'deep ✓' },
    ]);
    expect(result).toEqual({ ok: true });
    expect(snapshot(dest)).toEqual({ 'a/b/c.txt': 'deep ✓', 'plan.json': '{}\n' });
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('replaces the previous output as a whole', async () => {
    previous();
    expect(await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'new plan' }])).toEqual({ ok: true });
    expect(snapshot(dest)).toEqual({ 'plan.json': 'new plan' });
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('leaves the previous output intact when a write fails half way', async () => {
    const before = previous();
    let writes = 0;
    const result = await writeOutputAtomic(
      dest,
      [
        { path: 'plan.json', contents: 'new plan' },
        { path: 'worker.js', contents: 'new code' },
        { path: 'more.txt', contents: 'never' },
      ],
      {
        fs: {
          writeFile: async (path, contents) => {
            if (++writes === 2) throw Object.assign(new Error('disk full'), { code: 'ENOSPC', syscall: 'write' });
            await nodeFs.writeFile(path, contents);
          },
        },
      },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe('cannot write out/worker.js: ENOSPC (write); the previous output is unchanged');
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('moves the previous output back when the final rename fails', async () => {
    const before = previous();
    const result = await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'new plan' }], {
      fs: {
        rename: async (from, to) => {
          if (from.includes('.tmp-')) throw Object.assign(new Error('busy'), { code: 'EBUSY', syscall: 'rename' });
          await nodeFs.rename(from, to);
        },
      },
    });
    expect(result).toEqual({ ok: false, error: 'cannot replace out: EBUSY (rename); the previous output is unchanged' });
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('fails without touching anything when the previous output cannot be moved aside', async () => {
    const before = previous();
    const result = await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'new' }], {
      fs: {
        rename: async () => {
          throw Object.assign(new Error('denied'), { code: 'EACCES', syscall: 'rename' });
        },
      },
    });
    expect(result.ok).toBe(false);
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('succeeds with a warning when the old output cannot be removed afterwards', async () => {
    previous();
    const result = await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'new' }], {
      fs: {
        rm: async (path, options) => {
          if (path.includes('.old-')) throw Object.assign(new Error('denied'), { code: 'EPERM' });
          await nodeFs.rm(path, options);
        },
      },
    });
    expect(result.ok).toBe(true);
    expect(result.ok && result.warning).toMatch(/^the new output is in place, but the previous one could not be removed from \.out\.old-/);
    expect(snapshot(dest)).toEqual({ 'plan.json': 'new' });
  });

  it('creates missing parent folders', async () => {
    const deep = join(parent, 'x', 'y', 'out');
    expect(await writeOutputAtomic(deep, [{ path: 'f', contents: '1' }])).toEqual({ ok: true });
    expect(readFileSync(join(deep, 'f'), 'utf8')).toBe('1');
  });

  it('reports a parent that is a file, naming no absolute path', async () => {
    writeFileSync(join(parent, 'blocker'), '');
    const result = await writeOutputAtomic(join(parent, 'blocker', 'out'), [{ path: 'f', contents: '1' }], { displayName: 'blocker/out' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^cannot write blocker\/out: cannot create a temporary folder beside it: (ENOTDIR|EEXIST)/);
    expect(!result.ok && result.error).not.toContain(parent);
  });

  it('refuses unsafe or clashing paths before writing anything', async () => {
    for (const files of [
      [{ path: '../escape', contents: '' }],
      [{ path: '/etc/passwd', contents: '' }],
      [{ path: 'a//b', contents: '' }],
      [{ path: 'a\\b', contents: '' }],
      [{ path: './a', contents: '' }],
      [{ path: 'C:/x', contents: '' }],
      [{ path: '', contents: '' }],
      [
        { path: 'a', contents: '' },
        { path: 'a', contents: '' },
      ],
      [
        { path: 'a', contents: '' },
        { path: 'a/b', contents: '' },
      ],
    ]) {
      const result = await writeOutputAtomic(dest, files);
      expect(result.ok).toBe(false);
    }
    expect(readdirSync(parent)).toEqual([]);
  });

  it('checkOutputPath accepts ordinary relative paths', () => {
    expect(checkOutputPath('plan.json')).toBeUndefined();
    expect(checkOutputPath('a/b-c/d.e.js')).toBeUndefined();
    expect(checkOutputPath('a/../b')).toMatch(/segment/);
  });
});
