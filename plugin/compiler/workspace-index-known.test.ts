/**
 * The index over known identities answers exactly as indexWorkspace when the known identities are
 * what the files state (as the project graph's are): every walked file counts once, known ones
 * unread, the others read; a known file the walk does not reach counts for nothing; and a plan
 * resolves and reports pins (an ambiguous one whose second copy nobody knew of included) the same.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readIdentity } from '../definition/workspace-definitions';
import { planAgent } from './compile';
import { agent, json, tempWorkspace, type TempWorkspace } from './test-support';
import { indexWorkspace } from './workspace-index';
import { knownIdentityIndex, type KnownIdentity, type KnownIndexStats } from './workspace-index-known';
import { readFileSync } from 'node:fs';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

const identity = (slug: string, version: string) =>
  `{ "identity": { "slug": "${slug}", "versionSemver": "${version}" } }`;

function workspace(): TempWorkspace {
  return tempWorkspace({
    'agents/alpha/agent.json': agent('alpha', '1.0.0'),
    'agents/alpha-copy/agent.json': agent('alpha', '1.0.0'),
    'agents/alpha-next/agent.yaml': 'identity:\n  slug: "\\x61lpha"\n  versionSemver: 1.1.0\n',
    'agents/beta/agent.json': agent('beta', '2.0.0'),
    'agents/odd/agent.json': identity('Not A Slug', '1.0.0'),
    'ignored/beta/agent.json': agent('beta', '2.0.0'),
    'gamma/agent.json': '{ "identity": ',
    'gamma/deeper/agent.yaml': 'identity: [',
    'dist/alpha/agent.json': agent('alpha', '1.0.0'),
    'tmp/beta/agent.json': agent('beta', '2.0.0'),
    'r/agent.json': agent('r', '0.1.0', {
      nodes: [
        ['alpha', '1.0.0'],
        ['beta', '2.0.0'],
        ['gamma', '1.0.0'],
        ['alpha', '1.1.0'],
      ],
    }),
  });
}

/** What graph inference knows: the identities the files state, for `files` only. */
function knownOf(root: string, files: readonly string[]): Map<string, KnownIdentity> {
  const known = new Map<string, KnownIdentity>();
  for (const file of files) {
    const found = readIdentity(readFileSync(join(root, file), 'utf8'), file);
    if (!('reason' in found)) known.set(file, found);
  }
  return known;
}

const SEEN = [
  'agents/alpha/agent.json',
  'agents/alpha-next/agent.yaml',
  'agents/beta/agent.json',
  'agents/odd/agent.json',
  'r/agent.json',
  // Nx would see these where they are not ignored; the compiler's walk never enters dist/ or tmp/.
  'dist/alpha/agent.json',
  'tmp/beta/agent.json',
];

const SLUGS = ['alpha', 'beta', 'gamma', 'deeper', 'r', 'Not A Slug', 'agents', 'ignored', 'dist', 'tmp', 'ghost', ''];

describe('knownIdentityIndex', () => {
  it('answers every slug as indexWorkspace, reading only the files whose identity is not known', () => {
    ws = workspace();
    const eager = indexWorkspace(ws.root);
    const stats: KnownIndexStats = { reused: 0, listed: 0, known: 0, read: 0 };
    const known = knownOf(ws.root, SEEN);
    // A file that does not exist (the graph is older than the workspace) counts for nothing either.
    known.set('agents/gone/agent.json', { slug: 'alpha', versionSemver: '1.0.0' });
    const index = knownIdentityIndex(ws.root, known, { stats });
    expect(stats).toEqual({ reused: 0, listed: 0, known: 0, read: 0 }); // nothing before the first question
    for (const slug of SLUGS) {
      expect(index.definitionsOf(slug), slug).toEqual(eager.definitionsOf(slug));
      expect(index.unreadableNamed(slug), slug).toEqual(eager.unreadableNamed(slug));
    }
    // The walked files with a known identity: the five the walk reaches; the other four were read.
    expect(stats.known).toBe(5);
    expect(stats.read).toBe(4);
    expect(eager.definitionsOf('beta').map((e) => e.file)).toEqual([
      'agents/beta/agent.json',
      'ignored/beta/agent.json',
    ]);
    expect(eager.unreadableNamed('gamma').map((u) => u.file)).toEqual(['gamma/agent.json', 'gamma/deeper/agent.yaml']);
  });

  it('answers as indexWorkspace with its folder listings kept between runs, and with nothing known', () => {
    ws = workspace();
    const eager = indexWorkspace(ws.root);
    const walkCachePath = join(ws.root, '.nx', 'workspace-data', 'walk.json');
    for (const known of [knownOf(ws.root, SEEN), knownOf(ws.root, SEEN), new Map<string, KnownIdentity>()]) {
      const index = knownIdentityIndex(ws.root, known, { walkCachePath });
      for (const slug of SLUGS) {
        expect(index.definitionsOf(slug), slug).toEqual(eager.definitionsOf(slug));
        expect(index.unreadableNamed(slug), slug).toEqual(eager.unreadableNamed(slug));
      }
    }
  });

  it('gives a plan the same diagnostics and sources as the CLI’s plan, the duplicate nobody knew of included', async () => {
    ws = workspace();
    const file = join(ws.root, 'r/agent.json');
    const cli = await planAgent({ file, workspaceRoot: ws.root });
    const stats: KnownIndexStats = { reused: 0, listed: 0, known: 0, read: 0 };
    const known = await planAgent({
      file,
      workspaceRoot: ws.root,
      index: knownIdentityIndex(ws.root, knownOf(ws.root, SEEN), { stats }),
    });
    expect(known.diagnostics).toEqual(cli.diagnostics);
    expect([...known.sources]).toEqual([...cli.sources]);
    const messages = cli.diagnostics.map((d) => d.message).join('\n');
    expect(messages).toMatch(
      /pin "alpha@1\.0\.0" matches 2 workspace definitions: agents\/alpha-copy\/agent\.json, agents\/alpha\/agent\.json/,
    );
    expect(messages).toMatch(
      /pin "beta@2\.0\.0" matches 2 workspace definitions: agents\/beta\/agent\.json, ignored\/beta\/agent\.json/,
    );
    expect(messages).toMatch(/pin "gamma@1\.0\.0" .* resolves to nothing: .*gamma\/agent\.json/);
    expect(stats.read).toBe(4);
  });

  it('resolves a child through known identities to the same plan as the CLI’s', async () => {
    ws = tempWorkspace({
      'kids/base/agent.json': agent('base', '1.0.0'),
      'top/agent.json': agent('top', '1.0.0', { nodes: [['base', '1.0.0']] }),
    });
    const file = join(ws.root, 'top/agent.json');
    const stats: KnownIndexStats = { reused: 0, listed: 0, known: 0, read: 0 };
    const known = knownOf(ws.root, ['kids/base/agent.json', 'top/agent.json']);
    const viaKnown = await planAgent({
      file,
      workspaceRoot: ws.root,
      index: knownIdentityIndex(ws.root, known, { stats }),
    });
    const cli = await planAgent({ file, workspaceRoot: ws.root });
    expect(viaKnown.diagnostics).toEqual([]);
    expect(viaKnown.plan).toEqual(cli.plan);
    expect(viaKnown.plan?.nodes.map((n) => n.file)).toEqual(['top/agent.json', 'kids/base/agent.json']);
    expect(stats).toMatchObject({ known: 2, read: 0 });
    expect(json(viaKnown.plan)).toBe(json(cli.plan));
  });
});
