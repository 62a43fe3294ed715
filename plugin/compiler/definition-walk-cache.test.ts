/**
 * The cached walk finds exactly what `findDefinitionFiles` finds, after every kind of change to
 * the workspace, with a broken, foreign or forged cache file, and lists again only the folders
 * whose stat changed. Folder times are set an hour back after each change (as if the change were
 * old), so a change made in the same clock tick as the listing before it still moves the folder's
 * modification time: the test never depends on the clock's resolution.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findDefinitionFiles } from '../definition/workspace-definitions';
import { findDefinitionFilesCached, type WalkCacheStats } from './definition-walk-cache';
import { agent, tempWorkspace, type TempWorkspace } from './test-support';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

/** Every folder's access and modification times an hour back (its change time becomes now). */
function backdate(root: string): void {
  const past = new Date(Date.now() - 3_600_000);
  const walk = (dir: string) => {
    utimesSync(dir, past, past);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  walk(root);
}

/** The cached walk, its folder times trusted as soon as they are older than the listing (they are backdated). */
function cachedWalk(root: string, stats?: WalkCacheStats): string[] {
  return findDefinitionFilesCached(root, join(root, '.nx', 'walk.json'), { racyMs: -3_600_000 }, stats);
}

function workspace(): TempWorkspace {
  return tempWorkspace({
    '.nx/keep': '', // where the cache file goes (creating the folder would change the root's listing)
    'a/agent.json': agent('a', '1.0.0'),
    'b/agent.yaml': 'identity: {}\n',
    'b/agent.yml': 'identity: {}\n',
    'c/d/e/agent.json': agent('e', '1.0.0'),
    'c/notes.md': '# not a definition\n',
    'dist/x/agent.json': agent('x', '1.0.0'),
    'node_modules/p/agent.json': agent('p', '1.0.0'),
    'z/agent.json/agent.json': agent('z', '1.0.0'),
  });
}

describe('findDefinitionFilesCached', () => {
  it('equals findDefinitionFiles after every change, listing again only the folders that changed', () => {
    ws = workspace();
    const root = ws.root;
    const changes: Array<[string, () => void]> = [
      ['nothing', () => {}],
      ['a definition added to a listed folder', () => ws?.write('c/agent.json', agent('c', '1.0.0'))],
      ['a folder with a definition added deep down', () => ws?.write('c/d/f/g/agent.yaml', 'identity: {}\n')],
      ['a definition removed', () => rmSync(join(root, 'b/agent.yml'))],
      ['a folder renamed', () => renameSync(join(root, 'c/d'), join(root, 'c/dd'))],
      ['a folder renamed to a skipped name', () => renameSync(join(root, 'a'), join(root, 'tmp'))],
      ['a skipped folder renamed back', () => renameSync(join(root, 'tmp'), join(root, 'a'))],
      [
        'a folder replaced by a link to itself',
        () => {
          renameSync(join(root, 'c/dd'), join(root, 'moved'));
          symlinkSync(join(root, 'moved'), join(root, 'c/dd'));
        },
      ],
      [
        'a definition file replaced by a folder',
        () => {
          rmSync(join(root, 'a/agent.json'));
          mkdirSync(join(root, 'a/agent.json'));
          ws?.write('a/agent.json/agent.yaml', 'identity: {}\n');
        },
      ],
      [
        'a file named like a folder the walk knew',
        () => {
          rmSync(join(root, 'z'), { recursive: true });
          writeFileSync(join(root, 'z'), 'now a file\n');
        },
      ],
      ['a whole tree removed', () => rmSync(join(root, 'moved'), { recursive: true })],
    ];
    for (const [what, change] of changes) {
      backdate(root);
      cachedWalk(root); // settled: every listing kept, each folder's times an hour old
      change();
      const stats = { reused: 0, listed: 0 };
      expect(cachedWalk(root, stats), what).toEqual(findDefinitionFiles(root));
      if (what === 'nothing') expect(stats.listed).toBe(0);
      else {
        expect(stats.listed, what).toBeGreaterThan(0);
        expect(stats.reused, what).toBeGreaterThan(0);
      }
    }
    expect(findDefinitionFiles(root)).toEqual(['a/agent.json/agent.yaml', 'b/agent.yaml', 'c/agent.json']);
  });

  it('lists a folder again while its times are too recent to prove anything (a change in the same tick would not show)', () => {
    ws = workspace();
    const cachePath = join(ws.root, '.nx', 'walk.json');
    const first = { reused: 0, listed: 0 };
    expect(findDefinitionFilesCached(ws.root, cachePath, {}, first)).toEqual(findDefinitionFiles(ws.root));
    const second = { reused: 0, listed: 0 };
    expect(findDefinitionFilesCached(ws.root, cachePath, {}, second)).toEqual(findDefinitionFiles(ws.root));
    // Just written: no folder is two seconds older than its listing, so none is trusted.
    expect(second.reused).toBe(0);
    expect(second.listed).toBe(first.listed);
  });

  it('answers as findDefinitionFiles whatever the cache file holds', () => {
    ws = workspace();
    const root = ws.root;
    const cachePath = join(root, '.nx', 'walk.json');
    backdate(root);
    cachedWalk(root);
    const good = readFileSync(cachePath, 'utf8');
    const cache = JSON.parse(good) as {
      listings: Record<string, { stat: number[] | string; folders: string[]; files: string[] }>;
    };
    const forged = structuredClone(cache);
    for (const listing of Object.values(forged.listings)) listing.stat = [1, 2, 3]; // a stat no folder has
    forged.listings['a'] = { stat: 'x', folders: ['hidden'], files: ['agent.yaml'] }; // not a stat
    forged.listings['b'] = { stat: [0, 0], folders: ['hidden'], files: ['agent.yaml'] };
    const foreignWalk = { ...cache, walk: '[[],[]]' };
    for (const text of [
      '',
      'not json',
      '[]',
      '{"format":"agentdef-definition-walk/v0","listings":{}}',
      JSON.stringify({ ...cache, listings: { '': { stat: cache.listings['']?.stat, folders: 'a', files: [] } } }),
      JSON.stringify({ ...cache, listings: { '': { stat: cache.listings['']?.stat, folders: [1], files: [] } } }),
      JSON.stringify(forged),
      JSON.stringify(foreignWalk),
    ]) {
      writeFileSync(cachePath, text);
      expect(cachedWalk(root), text.slice(0, 60)).toEqual(findDefinitionFiles(root));
    }
    // A link where the cache file stands is not followed (and is replaced, not written through).
    rmSync(cachePath);
    writeFileSync(join(root, 'elsewhere.json'), good);
    symlinkSync(join(root, 'elsewhere.json'), cachePath);
    expect(cachedWalk(root)).toEqual(findDefinitionFiles(root));
    expect(readFileSync(join(root, 'elsewhere.json'), 'utf8')).toBe(good);
  });

  it('takes the plain walk’s options, and keeps listings for one set of options apart from another', () => {
    ws = workspace();
    backdate(ws.root);
    const only = { fileNames: ['agent.yaml'], skipDirectories: ['c'] };
    const cachePath = join(ws.root, '.nx', 'walk.json');
    expect(findDefinitionFilesCached(ws.root, cachePath, { ...only, racyMs: -3_600_000 })).toEqual(
      findDefinitionFiles(ws.root, only),
    );
    expect(cachedWalk(ws.root)).toEqual(findDefinitionFiles(ws.root));
    expect(findDefinitionFilesCached(ws.root, cachePath, { ...only, racyMs: -3_600_000 })).toEqual(['b/agent.yaml']);
  });
});
