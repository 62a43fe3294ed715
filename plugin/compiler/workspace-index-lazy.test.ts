/**
 * The lazy index answers exactly as the eager one: the same definitions (order included) and the
 * same unreadable files for every slug, on a workspace built to defeat a byte search (slugs stated
 * through JSON and YAML escapes, aliases, folding, files that are not UTF-8, files without an
 * identity in folders named like a slug); and a plan reports ambiguous and unresolved pins the same
 * way with either.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planAgent } from './compile';
import { agent, json, tempWorkspace, type TempWorkspace } from './test-support';
import { indexWorkspace } from './workspace-index';
import { lazyWorkspaceIndex } from './workspace-index-lazy';

let ws: TempWorkspace | undefined;
let outside: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  outside?.remove();
});

const identity = (slug: string, version: string) =>
  `{ "identity": { "slug": "${slug}", "versionSemver": "${version}" } }`;

function hostileWorkspace(): TempWorkspace {
  const workspace = tempWorkspace({
    'a/agent.json': agent('alpha', '1.0.0'),
    'b/agent.json': identity('\\u0061lpha', '1.0.0'), // alpha, written with an escape
    'b2/agent.json': json(agent('alpha', '1.2.0')).replace('"alpha"', '"\\u0061\\u006c\\u0070\\u0068\\u0061"'),
    'c/agent.yaml': 'identity:\n  slug: "\\x62eta"\n  versionSemver: 2.0.0\n', // beta
    'c2/agent.yaml': 'identity:\n  slug: "be\\\n    ta"\n  versionSemver: 2.1.0\n', // beta, an escaped line break
    'd/agent.yaml': 'x: &s gamma\nidentity:\n  slug: *s\n  versionSemver: 3.0.0\n',
    'e/agent.yml': 'identity:\n  slug: delta\n    x\n  versionSemver: 4.0.0\n', // "delta x": not delta
    'e2/agent.yml': "identity: { slug: 'delta', versionSemver: '4.0.1' }\n",
    'e3/agent.yaml': 'identity:\n  slug: >-\n    delta\n  versionSemver: 4.0.2\n',
    'alpha/agent.json': '{ "identity": ',
    'beta/x/agent.json': '{ "identity": { "slug": 3 } }',
    'beta-two/agent.json': identity('epsilon', '1.0.0'),
    'gamma/agent.json': '',
    'zeta/deeper/agent.yaml': 'identity: [',
    'dup/one/agent.json': identity('eta', '1.0.0'),
    'dup/two/agent.json': identity('eta', '1.0.0'),
    'delta/agent.json': '',
    'epsilon-2/agent.json': '',
  });
  writeFileSync(
    join(workspace.root, 'delta/agent.json'),
    Buffer.from([0x7b, 0xff, 0x64, 0x65, 0x6c, 0x74, 0x61, 0x7d]),
  ); // not UTF-8, holds "delta"
  writeFileSync(join(workspace.root, 'epsilon-2/agent.json'), Buffer.from([0xff, 0xfe, 0x7b, 0x00])); // UTF-16
  return workspace;
}

/** The slugs asked about on the hostile workspace: every one it states, and near misses. */
const hostileSlugs = (eager: ReturnType<typeof indexWorkspace>) => [
  ...eager.bySlug.keys(),
  'alpha',
  'beta',
  'gamma',
  'delta',
  'delta x',
  'epsilon',
  'epsilon-2',
  'eta',
  'zeta',
  'deeper',
  'x',
  'agent',
  'a',
  'ghost',
  'beta-two',
  'dup',
  'one',
  '\\u0061lpha',
  'a/agent.json',
  '',
];

describe('lazy workspace index', () => {
  it('answers every slug exactly as indexWorkspace does', () => {
    ws = hostileWorkspace();
    const eager = indexWorkspace(ws.root);
    const lazy = lazyWorkspaceIndex(ws.root);
    for (const slug of hostileSlugs(eager)) {
      expect(lazy.definitionsOf(slug), slug).toEqual(eager.definitionsOf(slug));
      expect(lazy.unreadableNamed(slug), slug).toEqual(eager.unreadableNamed(slug));
      expect(eager.unreadableNamed(slug)).toEqual(eager.unreadable.filter((u) => u.file.split('/').includes(slug)));
    }
    // The escapes were read as the parsers read them, and the workspace holds what the test means.
    expect(eager.definitionsOf('alpha').map((e) => e.file)).toEqual(['a/agent.json', 'b/agent.json', 'b2/agent.json']);
    expect(eager.definitionsOf('beta').map((e) => e.file)).toEqual(['c/agent.yaml', 'c2/agent.yaml']);
    expect(eager.definitionsOf('delta').map((e) => e.file)).toEqual(['e2/agent.yml', 'e3/agent.yaml']);
    expect(eager.definitionsOf('delta x').map((e) => e.file)).toEqual(['e/agent.yml']);
    expect(eager.unreadable.map((u) => u.file)).toEqual([
      'alpha/agent.json',
      'beta/x/agent.json',
      'delta/agent.json',
      'epsilon-2/agent.json',
      'gamma/agent.json',
      'zeta/deeper/agent.yaml',
    ]);
  });

  it('answers the same when the bytes kept for searching are bounded: files past the bound are parsed when read', () => {
    ws = hostileWorkspace();
    const eager = indexWorkspace(ws.root);
    for (const limit of [0, 1, 60, 200, 400]) {
      const lazy = lazyWorkspaceIndex(ws.root, {}, limit);
      for (const slug of hostileSlugs(eager)) {
        expect(lazy.definitionsOf(slug), `${slug} (limit ${limit})`).toEqual(eager.definitionsOf(slug));
        expect(lazy.unreadableNamed(slug), `${slug} (limit ${limit})`).toEqual(eager.unreadableNamed(slug));
      }
    }
  });

  it('answers as indexWorkspace on YAML spellings, links, a FIFO and a folder named like a definition', () => {
    outside = tempWorkspace({ 'agent.json': identity('theta', '1.0.0') });
    ws = tempWorkspace({
      'y1/agent.yaml': 'identity: !!map\n  slug: !!str theta\n  versionSemver: "1.0.1"\n',
      'y2/agent.yaml': 'base: &b {slug: theta, versionSemver: 1.0.2}\nidentity: *b\n',
      'y3/agent.yaml': 'identity:\n  <<: {slug: theta, versionSemver: 1.0.3}\n', // no merge keys: no slug
      'y4/agent.yaml': '%YAML 1.1\n---\nidentity:\n  slug: theta\n  versionSemver: 1.0.4\n',
      'y5/agent.yaml': 'identity:\n  slug: |\n    theta\n  versionSemver: 1.0.5\n', // "theta\n"
      'y6/agent.yaml': 'identity:\r\n  slug: theta\r\n  versionSemver: 1.0.6\r\n',
      'y7/agent.yaml': '? identity\n: ? slug\n  : theta\n  versionSemver: 1.0.7\n',
      'y8/agent.yaml': '%TAG !e! tag:yaml.org,2002:\n---\nidentity: {slug: !e!str theta, versionSemver: 1.0.8}\n',
      'y9/agent.yaml': 'identity:\n  slug: the\u0085ta\n  versionSemver: 1.0.9\n', // NEL and LS stay in the value: not theta
      'y10/agent.yaml': 'identity:\n  slug: the\u2028ta\n  versionSemver: 1.0.10\n',
      'y11/agent.yaml': 'identity: {slug: theta, versionSemver: 1.0.11, slug: iota}\n',
      'j1/agent.json': '\ufeff{"identity":{"versionSemver":"2.0.0","slug":"theta"}}',
      'j2/agent.json': identity('THETA', '2.0.1'),
      'j3/agent.json':
        '{"identity":{"slug":"theta","versionSemver":"2.0.2"},"identity":{"slug":"iota","versionSemver":"2.0.2"}}',
      'folder/agent.json/agent.json': identity('theta', '3.0.0'),
    });
    execFileSync('mkfifo', [join(ws.root, 'folder/agent.yaml')]);
    mkdirSync(join(ws.root, 'links/theta'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'links/theta/out')); // a folder outside: not followed
    symlinkSync(join(outside.root, 'agent.json'), join(ws.root, 'links/agent.json')); // a file outside: not a definition file
    symlinkSync(join(ws.root, 'links'), join(ws.root, 'links/theta/loop')); // a loop: not followed
    const eager = indexWorkspace(ws.root);
    const lazy = lazyWorkspaceIndex(ws.root);
    for (const slug of [
      'theta',
      'THETA',
      'iota',
      'the\u0085ta',
      'the\u2028ta',
      'links',
      'folder',
      'out',
      'loop',
      'y3',
      'j3',
    ]) {
      expect(lazy.definitionsOf(slug), slug).toEqual(eager.definitionsOf(slug));
      expect(lazy.unreadableNamed(slug), slug).toEqual(eager.unreadableNamed(slug));
    }
    expect(eager.definitionsOf('theta').map((e) => e.versionSemver)).toEqual([
      '1.0.1',
      '1.0.2',
      '1.0.4',
      '1.0.6',
      '1.0.7',
      '1.0.8',
      '2.0.0',
      '3.0.0',
    ]);
    expect(eager.definitionsOf('the\u2028ta').map((e) => e.file)).toEqual(['y10/agent.yaml']);
    expect(eager.unreadable.map((u) => u.file)).toEqual(['j3/agent.json', 'y11/agent.yaml', 'y3/agent.yaml']);
  });

  it('gives a plan the same ambiguous and unresolved pins as the full index', async () => {
    ws = hostileWorkspace();
    ws.write(
      'r/agent.json',
      agent('r', '0.1.0', {
        nodes: [
          ['alpha', '1.0.0'],
          ['beta', '2.0.0'],
          ['gamma', '3.0.0'],
          ['delta', '9.9.9'],
          ['eta', '1.0.0'],
          ['zeta', '1.0.0'],
          ['alpha', '1.2.0'],
        ],
      }),
    );
    const file = join(ws.root, 'r/agent.json');
    const lazy = await planAgent({ file, workspaceRoot: ws.root });
    const eager = await planAgent({ file, workspaceRoot: ws.root, index: indexWorkspace(ws.root) });
    expect(lazy.diagnostics).toEqual(eager.diagnostics);
    expect([...lazy.sources]).toEqual([...eager.sources]);
    expect(lazy.diagnostics.map((d) => d.rule)).toEqual(expect.arrayContaining(['ambiguous-pin', 'unresolved-pin']));
    expect(lazy.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /pin "alpha@1\.0\.0" matches 2 workspace definitions: a\/agent\.json, b\/agent\.json/,
    );
    expect(lazy.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /pin "eta@1\.0\.0" matches 2 workspace definitions/,
    );
    expect(lazy.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /pin "zeta@1\.0\.0" in r\/agent\.json resolves to nothing: .*unreadable definition files that may be it: zeta\/deeper\/agent\.yaml/,
    );
  });
});
