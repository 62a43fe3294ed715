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
import { findDefinitionFiles } from './workspace-definitions';
import { findDefinitionFilesCached, type WalkCacheStats } from './definition-walk-cache';
import { agent, tempWorkspace, type TempWorkspace } from '../compiler/test-support';

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
    const cache = JSON.parse(good) as { format: string; walk: string; stats: string; entries: unknown[] };
    const entries = cache.entries as string[];
    const at = (folder: string) => entries.findIndex((entry) => entry.startsWith(`${folder}\u0000`));
    expect(at('')).toBe(0);
    expect(at('c/d')).toBeGreaterThan(0);
    /** The cache with entry `index` replaced, its stat still the folder's own (so only the shape check refuses it). */
    const withEntry = (index: number, entry: unknown) =>
      JSON.stringify({ ...cache, entries: entries.map((e, i) => (i === index ? entry : e)) });
    const statBytes = Buffer.from(cache.stats, 'base64');
    const noStatMatches = Buffer.alloc(statBytes.length);
    for (let i = 0; i < noStatMatches.length; i += 8) noStatMatches.writeDoubleLE(i + 1, i); // a stat no folder has
    const forged: string[] = [
      '',
      'not json',
      '[]',
      '{"format":"agentdef-definition-walk/v1","walk":"","listings":{}}',
      JSON.stringify({ ...cache, walk: '[[],[]]' }), // listings made for another walk
      JSON.stringify({ ...cache, stats: noStatMatches.toString('base64') }),
      JSON.stringify({ ...cache, stats: statBytes.subarray(0, 24).toString('base64') }), // stats for one entry only
      JSON.stringify({ ...cache, stats: 7 }),
      JSON.stringify({ ...cache, entries: 'a' }),
      JSON.stringify({ ...cache, entries: [1, ...entries.slice(1)] }),
      JSON.stringify({ ...cache, entries: [null, ...entries.slice(1)] }),
      // The root's entry, its stat right, naming folders the walk must never enter or files it never finds:
      withEntry(0, '\u0000..\u0000'), // the workspace's parent (and, through it, the root again: no end)
      withEntry(0, '\u0000.\u0000'),
      withEntry(0, '\u0000a//c\u0000'), // an empty name
      withEntry(0, '\u0000a/node_modules\u0000'), // a skipped folder
      withEntry(0, '\u0000c/a\u0000'), // not in order
      withEntry(0, '\u0000a/a\u0000'), // twice
      withEntry(0, '\u0000a\u0000notes.md'), // not a definition file name
      withEntry(0, '\u0000a'), // parts missing
      withEntry(0, '\u0000a\u0000\u0000'), // a part too many
      withEntry(0, 'c\u0000a\u0000'), // another folder's name
      withEntry(at('c/d'), 'c/d\u0000..\u0000'), // deeper down
      // Two folders' entries swapped (each now beside the other's stat).
      JSON.stringify({
        ...cache,
        entries: entries.map((e, i) => (i === 0 ? entries[at('c/d')] : i === at('c/d') ? entries[0] : e)),
      }),
    ];
    for (const text of forged) {
      writeFileSync(cachePath, text);
      const stats = { reused: 0, listed: 0 };
      expect(cachedWalk(root, stats), text.slice(0, 60)).toEqual(findDefinitionFiles(root));
      expect(stats.listed, text.slice(0, 60)).toBeGreaterThan(0); // the forged part was not used
      // And the file is replaced by a good one: the next walk lists nothing.
      const next = { reused: 0, listed: 0 };
      expect(cachedWalk(root, next)).toEqual(findDefinitionFiles(root));
      expect(next.listed, text.slice(0, 60)).toBe(0);
    }
    // The good file as written: every listing reused.
    writeFileSync(cachePath, good);
    const reused = { reused: 0, listed: 0 };
    expect(cachedWalk(root, reused)).toEqual(findDefinitionFiles(root));
    expect(reused.listed).toBe(0);
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
