import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markerContents, OUTPUT_MARKER } from './output-guard';
import { treeSnapshot } from './test-support';
import { checkOutputPath, writeOutputAtomic, type WriteOutputOptions } from './write-output';

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

/** The files of an output folder as the writer leaves them: the given files and the marker listing them. */
const output = (files: Record<string, string>) => ({ ...files, [OUTPUT_MARKER]: markerContents(Object.keys(files)) });

/** A previous output the writer made (it carries the marker). */
const previous = () => {
  mkdirSync(join(dest, 'sub'), { recursive: true });
  writeFileSync(join(dest, 'plan.json'), 'old plan');
  writeFileSync(join(dest, 'sub', 'old.txt'), 'old file');
  writeFileSync(join(dest, OUTPUT_MARKER), markerContents(['plan.json', 'sub/old.txt']));
  return snapshot(dest);
};

/** The writer's options for a workspace rooted at the temp folder. */
const at = (more: Partial<WriteOutputOptions> = {}): WriteOutputOptions => ({ workspaceRoot: parent, ...more });

describe('writeOutputAtomic', () => {
  it('writes every file, nested folders included, and leaves nothing beside the output', async () => {
    const result = await writeOutputAtomic(
      dest,
      [
        { path: 'plan.json', contents: '{}\n' },
        { path: 'a/b/c.txt', contents: 'deep ✓' },
      ],
      at(),
    );
    expect(result).toEqual({ ok: true });
    expect(snapshot(dest)).toEqual(output({ 'a/b/c.txt': 'deep ✓', 'plan.json': '{}\n' }));
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('replaces the previous output as a whole', async () => {
    previous();
    expect(await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'new plan' }], at())).toEqual({ ok: true });
    expect(snapshot(dest)).toEqual(output({ 'plan.json': 'new plan' }));
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
      at({
        fs: {
          writeFile: async (path, contents) => {
            if (++writes === 3) throw Object.assign(new Error('disk full'), { code: 'ENOSPC', syscall: 'write' });
            await nodeFs.writeFile(path, contents);
          },
        },
      }),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe(
      'cannot write out/worker.js: ENOSPC (write); the previous output is unchanged',
    );
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('names the first file, in the order given, that could not be written, whichever write fails first', async () => {
    const before = previous();
    const result = await writeOutputAtomic(
      dest,
      [
        { path: 'plan.json', contents: 'new plan' },
        { path: 'src/a.ts', contents: 'a' },
        { path: 'worker.js', contents: 'new code' },
      ],
      at({
        fs: {
          writeFile: async (path, contents) => {
            // src/a.ts fails late, worker.js at once: the report still names src/a.ts.
            if (path.endsWith('a.ts'))
              await new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
                Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES', syscall: 'open' })),
              );
            if (path.endsWith('worker.js'))
              throw Object.assign(new Error('disk full'), { code: 'ENOSPC', syscall: 'write' });
            await nodeFs.writeFile(path, contents);
          },
        },
      }),
    );
    expect(!result.ok && result.error).toBe(
      'cannot write out/src/a.ts: EACCES (open); the previous output is unchanged',
    );
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('moves the previous output back when the final rename fails', async () => {
    const before = previous();
    const result = await writeOutputAtomic(
      dest,
      [{ path: 'plan.json', contents: 'new plan' }],
      at({
        fs: {
          renameSync: (from, to) => {
            if (from.includes('.tmp-')) throw Object.assign(new Error('busy'), { code: 'EBUSY', syscall: 'rename' });
            renameSync(from, to);
          },
        },
      }),
    );
    expect(result).toEqual({
      ok: false,
      error: 'cannot replace out: EBUSY (rename); the previous output is unchanged',
    });
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('fails without touching anything when the previous output cannot be moved aside', async () => {
    const before = previous();
    const result = await writeOutputAtomic(
      dest,
      [{ path: 'plan.json', contents: 'new' }],
      at({
        fs: {
          renameSync: () => {
            throw Object.assign(new Error('denied'), { code: 'EACCES', syscall: 'rename' });
          },
        },
      }),
    );
    expect(result.ok).toBe(false);
    expect(snapshot(dest)).toEqual(before);
    expect(readdirSync(parent)).toEqual(['out']);
  });

  it('succeeds with a warning when the old output cannot be removed afterwards', async () => {
    previous();
    const result = await writeOutputAtomic(
      dest,
      [{ path: 'plan.json', contents: 'new' }],
      at({
        fs: {
          rm: async (path, options) => {
            if (path.includes('.old-')) throw Object.assign(new Error('denied'), { code: 'EPERM' });
            await nodeFs.rm(path, options);
          },
        },
      }),
    );
    expect(result.ok).toBe(true);
    expect(result.ok && result.warning).toMatch(
      /^the new output is in place, but the previous one could not be removed from \.out\.old-/,
    );
    expect(snapshot(dest)).toEqual(output({ 'plan.json': 'new' }));
  });

  it('creates missing parent folders', async () => {
    const deep = join(parent, 'x', 'y', 'out');
    expect(await writeOutputAtomic(deep, [{ path: 'f', contents: '1' }], at())).toEqual({ ok: true });
    expect(readFileSync(join(deep, 'f'), 'utf8')).toBe('1');
  });

  it('reports a parent that is a file, naming no absolute path', async () => {
    writeFileSync(join(parent, 'blocker'), '');
    const result = await writeOutputAtomic(
      join(parent, 'blocker', 'out'),
      [{ path: 'f', contents: '1' }],
      at({ displayName: 'blocker/out' }),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(
      /^cannot write blocker\/out: cannot create a temporary folder beside it: (ENOTDIR|EEXIST)/,
    );
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
      const result = await writeOutputAtomic(dest, files, at());
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

describe('the writer replaces only what it wrote', () => {
  const tree = treeSnapshot;
  const workspace = () => {
    const root = join(parent, 'ws');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'nx.json'), '{}');
    writeFileSync(join(root, 'src', 'agent.json'), '{"keep":true}');
    return root;
  };
  const refused = async (destination: string, root: string, pattern: RegExp) => {
    const before = tree(parent);
    const result = await writeOutputAtomic(destination, [{ path: 'plan.json', contents: 'new' }], {
      workspaceRoot: root,
      displayName: 'the-output',
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(pattern);
    expect(!result.ok && result.error).not.toContain(parent);
    expect(tree(parent)).toEqual(before);
  };

  it('refuses the workspace root and every folder that holds it', async () => {
    const root = workspace();
    await refused(root, root, /it is or contains the workspace root/);
    await refused(parent, root, /it is or contains the workspace root/);
    await refused(join(root, 'src', '..'), root, /it is or contains the workspace root/);
  });

  it('refuses a source folder, a folder with a stray plan.json, and a file', async () => {
    const root = workspace();
    await refused(join(root, 'src'), root, /holds files agentdef did not write \(no \.agentdef-output\.json marker\)/);
    mkdirSync(join(root, 'infra'));
    writeFileSync(join(root, 'infra', 'plan.json'), 'terraform plan');
    writeFileSync(join(root, 'infra', 'main.tf'), 'resource {}');
    await refused(join(root, 'infra'), root, /holds files agentdef did not write/);
    await refused(join(root, 'nx.json'), root, /it is a file/);
  });

  it('refuses an output folder that gained files agentdef did not write, and a forged marker', async () => {
    const root = workspace();
    const out = join(root, 'dist', 'a');
    expect(await writeOutputAtomic(out, [{ path: 'plan.json', contents: 'v1' }], { workspaceRoot: root })).toEqual({
      ok: true,
    });
    writeFileSync(join(out, 'notes.md'), 'mine');
    await refused(out, root, /it holds notes\.md, which agentdef did not write/);
    rmSync(join(out, 'notes.md'));
    writeFileSync(join(out, OUTPUT_MARKER), '{"format":"something-else","files":[]}');
    await refused(out, root, /is not a marker agentdef wrote/);
  });

  it('refuses a symbolic link, and a path whose links lead out of the workspace or onto it', async () => {
    const root = workspace();
    const elsewhere = join(parent, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'precious.txt'), 'keep');
    symlinkSync(elsewhere, join(root, 'link-out'));
    await refused(join(root, 'link-out'), root, /a symbolic link on the way leads out of the workspace/);
    await refused(join(root, 'link-out', 'agent'), root, /a symbolic link on the way leads out of the workspace/);
    symlinkSync(root, join(parent, 'to-root'));
    await refused(
      join(parent, 'to-root'),
      root,
      /through a symbolic link it is or contains the workspace root|it is a symbolic link/,
    );
    const empty = join(root, 'empty');
    mkdirSync(empty);
    symlinkSync(empty, join(root, 'link-in'));
    await refused(join(root, 'link-in'), root, /it is a symbolic link/);
  });

  it('writes into a missing or empty folder, then replaces its own output', async () => {
    const root = workspace();
    mkdirSync(join(root, 'empty'));
    expect(
      await writeOutputAtomic(join(root, 'empty'), [{ path: 'a', contents: '1' }], { workspaceRoot: root }),
    ).toEqual({ ok: true });
    expect(
      await writeOutputAtomic(join(root, 'empty'), [{ path: 'b/c', contents: '2' }], { workspaceRoot: root }),
    ).toEqual({ ok: true });
    expect(snapshot(join(root, 'empty'))).toEqual(output({ 'b/c': '2' }));
    expect(
      await writeOutputAtomic(join(root, 'x'), [{ path: OUTPUT_MARKER, contents: '{}' }], { workspaceRoot: root }),
    ).toMatchObject({ ok: false });
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('recovers from a crash between the two renames: the previous output comes back, dead leftovers go', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    previous();
    const aside = join(parent, `.out.old-${deadPid}-0123abcd`);
    await nodeFs.rename(dest, aside);
    mkdirSync(join(parent, `.out.tmp-${deadPid}-89abcdef`));
    writeFileSync(join(parent, `.out.tmp-${deadPid}-89abcdef`, OUTPUT_MARKER), markerContents([]));
    mkdirSync(join(parent, `.out.tmp-${deadPid}-00000000`));
    writeFileSync(join(parent, `.out.tmp-${deadPid}-00000000`, 'user.txt'), "not the writer's");
    const result = await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'next' }], at());
    expect(result).toEqual({ ok: true });
    expect(snapshot(dest)).toEqual(output({ 'plan.json': 'next' }));
    expect(readdirSync(parent).sort()).toEqual([`.out.tmp-${deadPid}-00000000`, 'out']);
  });

  it('removes only leftovers that are provably its own: unfinished ones yes, a link or a folder with unlisted files no', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    previous();
    const name = (kind: string, hex: string) => join(parent, `.out.${kind}-${deadPid}-${hex}`);
    mkdirSync(name('tmp', '00000001')); // died right after creating its temp folder
    mkdirSync(name('tmp', '00000002'));
    writeFileSync(join(name('tmp', '00000002'), OUTPUT_MARKER), '{"format":"agentdef-out'); // marker cut short
    mkdirSync(join(name('old', '00000003'), 'sub'), { recursive: true }); // a removal cut short: marker kept last
    writeFileSync(join(name('old', '00000003'), OUTPUT_MARKER), markerContents(['plan.json', 'sub/x']));
    mkdirSync(name('old', '00000004')); // looks like ours, but holds a file its marker does not list
    writeFileSync(join(name('old', '00000004'), OUTPUT_MARKER), markerContents(['plan.json']));
    writeFileSync(join(name('old', '00000004'), 'notes.txt'), 'mine');
    mkdirSync(join(parent, 'elsewhere'));
    writeFileSync(join(parent, 'elsewhere', OUTPUT_MARKER), markerContents([]));
    symlinkSync(join(parent, 'elsewhere'), name('tmp', '00000005')); // a link is never the writer's
    mkdirSync(name('tmp', '00000006'));
    writeFileSync(join(name('tmp', '00000006'), 'user.txt'), 'not a marker'); // one file, not the marker
    expect(await writeOutputAtomic(dest, [{ path: 'plan.json', contents: 'next' }], at())).toEqual({ ok: true });
    expect(readdirSync(parent).sort()).toEqual([
      `.out.old-${deadPid}-00000004`,
      `.out.tmp-${deadPid}-00000005`,
      `.out.tmp-${deadPid}-00000006`,
      'elsewhere',
      'out',
    ]);
    expect(readFileSync(join(name('old', '00000004'), 'notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(join(parent, 'elsewhere'))).toEqual([OUTPUT_MARKER]);
  });

  it('never follows a link inside its own output: a linked folder is refused, a linked file is replaced and its target stays', async () => {
    const root = workspace();
    const outside = join(parent, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'precious.txt'), 'keep');
    const out = join(root, 'dist', 'a');
    expect(
      await writeOutputAtomic(
        out,
        [
          { path: 'plan.json', contents: 'v1' },
          { path: 'data/x.txt', contents: 'x' },
        ],
        { workspaceRoot: root },
      ),
    ).toEqual({ ok: true });
    // A listed folder swapped for a link out of the workspace: not what the writer wrote, refused.
    rmSync(join(out, 'data'), { recursive: true });
    symlinkSync(outside, join(out, 'data'));
    await refused(out, root, /it holds data, which agentdef did not write/);
    // A listed file swapped for such a link: the folder is replaced, the link's target stays.
    rmSync(join(out, 'data'));
    mkdirSync(join(out, 'data'));
    writeFileSync(join(out, 'data', 'x.txt'), 'x');
    rmSync(join(out, 'plan.json'));
    symlinkSync(join(outside, 'precious.txt'), join(out, 'plan.json'));
    expect(await writeOutputAtomic(out, [{ path: 'plan.json', contents: 'v2' }], { workspaceRoot: root })).toEqual({
      ok: true,
    });
    expect(tree(outside)).toEqual({ 'precious.txt': 'keep' });
    expect(snapshot(out)).toEqual(output({ 'plan.json': 'v2' }));
  });

  it('refuses a marker that is a link, or one that lists a path outside the folder', async () => {
    const root = workspace();
    const out = join(root, 'dist', 'b');
    expect(await writeOutputAtomic(out, [{ path: 'plan.json', contents: 'v1' }], { workspaceRoot: root })).toEqual({
      ok: true,
    });
    writeFileSync(join(parent, 'elsewhere.json'), markerContents(['plan.json']));
    rmSync(join(out, OUTPUT_MARKER));
    symlinkSync(join(parent, 'elsewhere.json'), join(out, OUTPUT_MARKER));
    await refused(out, root, /is not a marker agentdef wrote/);
  });
});
