import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../definition/diagnostic';
import { loadDefinition } from '../definition/load-definition';
import { indexRegistrySnapshots } from '../registry/__test-support__/registry-fixture';
import { snapshotSha256 } from '../registry/registry-index';
import { digestOf } from './canonical-json';
import { FolderRegistry, type AgentRegistry } from '../registry/agent-registry';
import { resolveComposition, walkTree, type ResolveOptions } from './resolve';
import { agent, json, positionOf, tempWorkspace, type TempWorkspace } from './test-support';
import { indexWorkspace } from './workspace-index';
import { stringify as toYaml } from 'yaml';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

async function resolveFile(workspace: TempWorkspace, file: string, options: Partial<ResolveOptions> = {}) {
  indexRegistrySnapshots(workspace.root);
  const loaded = loadDefinition(join(workspace.root, file), file);
  expect(loaded.diagnostics).toEqual([]);
  expect(loaded.definition).toBeDefined();
  return resolveComposition(
    { definition: loaded.definition!, document: loaded.document! },
    {
      index: indexWorkspace(workspace.root),
      registry: new FolderRegistry({ workspaceRoot: workspace.root }),
      workspaceRoot: workspace.root,
      ...options,
    },
  );
}

const errorsOf = (diagnostics: Diagnostic[], rule: string) =>
  diagnostics.filter((d) => d.rule === rule && d.severity === 'error');

describe('resolveComposition: where a pin resolves', () => {
  it('takes the workspace definition first, then the registry snapshot', async () => {
    ws = tempWorkspace({
      'agents/root/agent.json': agent('root', '0.1.0', {
        nodes: [
          ['a', '3.3.3'],
          ['b', '4.4.4'],
        ],
      }),
      'agents/a/agent.json': agent('a', '3.3.3', { description: 'workspace copy' }),
      'registry/agents/a/3.3.3.json': agent('a', '3.3.3', { description: 'registry copy' }),
      'registry/agents/b/4.4.4.json': agent('b', '4.4.4'),
    });
    const result = await resolveFile(ws, 'agents/root/agent.json');
    expect(result.diagnostics).toEqual([]);
    expect(result.root.children.map((c) => [c.key, c.source, c.file, c.depth, c.pinPointer])).toEqual([
      ['a@3.3.3', 'workspace', 'agents/a/agent.json', 1, '/composition/nodes/0'],
      ['b@4.4.4', 'registry', 'registry/agents/b/4.4.4.json', 1, '/composition/nodes/1'],
    ]);
    expect(result.root.children[0]!.definition.metadata.description).toBe('workspace copy');
    expect(result.nodeCount).toBe(3);
    expect([...result.sources.keys()]).toEqual([
      'agents/root/agent.json',
      'agents/a/agent.json',
      'registry/agents/b/4.4.4.json',
    ]);
  });

  it('records the content digest of every node (SHA-256 of its canonical JSON)', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['a', '3.3.3']] }),
      'a/agent.json': agent('a', '3.3.3'),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    const [root, child] = walkTree(result.root);
    expect(root!.digest).toBe(digestOf(JSON.parse(readFileSync(join(ws.root, 'r/agent.json'), 'utf8'))));
    expect(child!.digest).toBe(digestOf(agent('a', '3.3.3')));
    expect(child!.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives a YAML child the same digest as the same definition in JSON', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['y', '3.3.3']] }),
      'y/agent.yaml': `# a comment the digest ignores\n${toYaml(agent('y', '3.3.3'))}`,
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics).toEqual([]);
    expect(result.root.children[0]!.file).toBe('y/agent.yaml');
    expect(result.root.children[0]!.digest).toBe(digestOf(agent('y', '3.3.3')));
  });

  it('resolves recursively through the registry', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['m', '2.0.0']] }),
      'registry/agents/m/2.0.0.json': agent('m', '2.0.0', { nodes: [['leaf', '1.0.0']] }),
      'leaf/agent.json': agent('leaf', '1.0.0'),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics).toEqual([]);
    expect(walkTree(result.root).map((n) => `${n.depth} ${n.key} ${n.source}`)).toEqual([
      '0 r@0.1.0 workspace',
      '1 m@2.0.0 registry',
      '2 leaf@1.0.0 workspace',
    ]);
  });
});

describe('resolveComposition: exact versions only', () => {
  it('reports a missing version at the pin, with the parent file and every version that exists', async () => {
    ws = tempWorkspace({
      'agents/root/agent.json': agent('root', '0.1.0', {
        nodes: [
          ['fallback', '1.1.0'],
          ['splice', '3.3.3'],
        ],
      }),
      'agents/fallback/agent.json': agent('fallback', '1.1.0'),
      'agents/splice/agent.json': agent('splice', '3.3.4'),
      'old/splice/agent.json': agent('splice', '3.2.0'),
      'registry/agents/splice/3.3.5.json': agent('splice', '3.3.5'),
      'registry/agents/splice/3.3.4.json': agent('splice', '3.3.4'),
    });
    const result = await resolveFile(ws, 'agents/root/agent.json');
    const [d, ...rest] = result.diagnostics;
    expect(rest).toEqual([]);
    const text = readFileSync(join(ws.root, 'agents/root/agent.json'), 'utf8');
    expect(d).toMatchObject({
      code: 'agent_definition_invalid',
      rule: 'unresolved-pin',
      severity: 'error',
      file: 'agents/root/agent.json',
      path: '/composition/nodes/1/version',
      ...positionOf(text, '"3.3.3"'),
    });
    expect(d!.message).toBe(
      'pin "splice@3.3.3" in agents/root/agent.json resolves to nothing: neither the workspace nor the registry registry/agents has splice at exactly 3.3.3; ' +
        'versions that exist: 3.2.0 (workspace old/splice/agent.json); 3.3.4 (workspace agents/splice/agent.json, registry registry/agents); 3.3.5 (registry registry/agents)',
    );
    expect(d!.suggestion).toContain('"splice@3.3.5"');
    // Never a silent pick of another version.
    expect(result.root.children.map((c) => c.key)).toEqual(['fallback@1.1.0']);
  });

  it('locates a missing pin in a YAML parent too', async () => {
    const text = `# root in YAML\n${toYaml(
      agent('r', '0.1.0', {
        nodes: [
          ['a', '3.3.3'],
          ['b', '7.7.7'],
        ],
      }),
    )}`;
    ws = tempWorkspace({ 'r/agent.yaml': text, 'a/agent.json': agent('a', '3.3.3') });
    const result = await resolveFile(ws, 'r/agent.yaml');
    expect(result.diagnostics.map((d) => [d.rule, d.file, d.line, d.column])).toEqual([
      ['unresolved-pin', 'r/agent.yaml', ...Object.values(positionOf(text, '7.7.7'))],
    ]);
  });

  it('says so when no version of the slug exists anywhere', async () => {
    ws = tempWorkspace({ 'r/agent.json': agent('r', '0.1.0', { nodes: [['ghost', '3.3.3']] }) });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toBe(
      'pin "ghost@3.3.3" in r/agent.json resolves to nothing: no definition of "ghost" exists in the workspace or in the registry registry/agents',
    );
  });

  it('points at a definition file of that slug whose identity cannot be read', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['typo', '3.3.3']] }),
      'agents/typo/agent.json': '{ "identity": { "slug": "typo", ',
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toMatch(
      /; unreadable definition files that may be it: agents\/typo\/agent\.json \(cannot be parsed/,
    );
  });

  it('reports the pin in the file that holds it, also inside a registry snapshot', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['m', '2.0.0']] }),
      'registry/agents/m/2.0.0.json': agent('m', '2.0.0', { nodes: [['gone', '3.3.3']] }),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics.map((d) => [d.rule, d.file])).toEqual([
      ['unresolved-pin', 'registry/agents/m/2.0.0.json'],
    ]);
    expect(result.diagnostics[0]!.line).toBe(
      positionOf(json(agent('m', '2.0.0', { nodes: [['gone', '3.3.3']] })), '"3.3.3"').line,
    );
  });

  it('refuses two workspace definitions of the same slug@version', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['a', '3.3.3']] }),
      'x/agent.json': agent('a', '3.3.3'),
      'y/agent.json': agent('a', '3.3.3'),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics.map((d) => [d.rule, d.path, d.message])).toEqual([
      [
        'ambiguous-pin',
        '/composition/nodes/0',
        'pin "a@3.3.3" matches 2 workspace definitions: x/agent.json, y/agent.json',
      ],
    ]);
    expect(result.root.children).toEqual([]);
  });

  it('refuses a registry snapshot whose identity is another version', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['b', '4.4.4']] }),
      'registry/agents/b/4.4.4.json': agent('b', '4.4.5'),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics.map((d) => [d.rule, d.message])).toEqual([
      [
        'pin-identity-mismatch',
        'pin "b@4.4.4" resolves to registry/agents/b/4.4.4.json, but that file defines b@4.4.5',
      ],
    ]);
  });

  it('reports a registry that fails at the pin', async () => {
    ws = tempWorkspace({ 'r/agent.json': agent('r', '0.1.0', { nodes: [['b', '4.4.4']] }) });
    const failing: AgentRegistry = {
      description: 'registry https://kym.example',
      resolve: async () => {
        throw new Error('503 Service Unavailable');
      },
      versions: async () => [],
    };
    const result = await resolveFile(ws, 'r/agent.json', { registry: failing });
    expect(result.diagnostics.map((d) => [d.rule, d.path, d.message])).toEqual([
      ['registry-unavailable', '/composition/nodes/0', 'pin "b@4.4.4" could not be looked up: 503 Service Unavailable'],
    ]);
  });
});

describe('resolveComposition: registry integrity', () => {
  it('reports a snapshot edited after publishing as registry-integrity at the pin, with both digests', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['b', '4.4.4']] }),
      'registry/agents/b/4.4.4.json': agent('b', '4.4.4'),
    });
    indexRegistrySnapshots(ws.root);
    const path = join(ws.root, 'registry/agents/b/4.4.4.json');
    const recorded = snapshotSha256(readFileSync(path));
    const edited = readFileSync(path, 'utf8').replace('"4.4.4"', '"4.4.4" ');
    writeFileSync(path, edited);
    const loaded = loadDefinition(join(ws.root, 'r/agent.json'), 'r/agent.json');
    const result = await resolveComposition(
      { definition: loaded.definition!, document: loaded.document! },
      {
        index: indexWorkspace(ws.root),
        registry: new FolderRegistry({ workspaceRoot: ws.root }),
        workspaceRoot: ws.root,
      },
    );
    expect(result.diagnostics.map((d) => [d.rule, d.path, d.file])).toEqual([
      ['registry-integrity', '/composition/nodes/0', 'r/agent.json'],
    ]);
    const message = result.diagnostics[0]!.message;
    expect(message).toContain(`recorded sha256:${recorded}, snapshot sha256:${snapshotSha256(Buffer.from(edited))}`);
    expect(message).toContain('was changed after it was published');
    expect(result.diagnostics[0]!.suggestion).toContain('agentdef publish');
    const pinLine = readFileSync(join(ws.root, 'r/agent.json'), 'utf8').split('\n')[result.diagnostics[0]!.line - 1];
    expect(pinLine).toMatch(/"b"|4\.4\.4|\{/);
  });

  it('reports a snapshot the index does not list as registry-integrity, recorded digest none', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', { nodes: [['b', '4.4.4']] }),
      'registry/agents/b/4.4.4.json': agent('b', '4.4.4'),
    });
    // No index at all: the snapshot was copied in, never published.
    const loaded = loadDefinition(join(ws.root, 'r/agent.json'), 'r/agent.json');
    const result = await resolveComposition(
      { definition: loaded.definition!, document: loaded.document! },
      {
        index: indexWorkspace(ws.root),
        registry: new FolderRegistry({ workspaceRoot: ws.root }),
        workspaceRoot: ws.root,
      },
    );
    expect(result.diagnostics.map((d) => [d.rule, d.path])).toEqual([['registry-integrity', '/composition/nodes/0']]);
    expect(result.diagnostics[0]!.message).toMatch(/recorded none, snapshot sha256:[0-9a-f]{64}/);
  });
});

describe('resolveComposition: every child is validated in its own file', () => {
  it("surfaces a child's own diagnostics located in the child, and marks the pin", async () => {
    const child = agent('a', '3.3.3') as unknown as Record<string, unknown>;
    child['lifecycleState'] = 'shipped-ish';
    ws = tempWorkspace({ 'r/agent.json': agent('r', '0.1.0', { nodes: [['a', '3.3.3']] }), 'a/agent.json': child });
    const result = await resolveFile(ws, 'r/agent.json');
    const own = result.diagnostics.filter((d) => d.file === 'a/agent.json');
    expect(own.length).toBeGreaterThan(0);
    expect(own[0]).toMatchObject({ path: '/lifecycleState', ...positionOf(json(child), '"shipped-ish"') });
    const marked = errorsOf(result.diagnostics, 'invalid-child');
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ file: 'r/agent.json', path: '/composition/nodes/0' });
    expect(marked[0]!.message).toMatch(/^pin "a@3\.3\.3" resolves to a\/agent\.json, which has \d+ errors? of its own/);
    expect(result.root.children).toEqual([]); // a schema-invalid child has no definition to descend into
    expect(result.sources.get('a/agent.json')).toBe(json(child));
  });

  it("reports a shared child's own diagnostics once, however often it is pinned", async () => {
    const bad = agent('shared', '3.3.3') as unknown as Record<string, unknown>;
    bad['lifecycleState'] = 'nope';
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', {
        nodes: [
          ['b', '1.0.0'],
          ['c', '1.0.0'],
        ],
      }),
      'b/agent.json': agent('b', '1.0.0', { nodes: [['shared', '3.3.3']] }),
      'c/agent.json': agent('c', '1.0.0', { nodes: [['shared', '3.3.3']] }),
      'shared/agent.json': bad,
    });
    const result = await resolveFile(ws, 'r/agent.json');
    const own = result.diagnostics.filter((d) => d.file === 'shared/agent.json');
    expect(new Set(own.map((d) => `${d.path} ${d.message}`)).size).toBe(own.length);
    expect(errorsOf(result.diagnostics, 'invalid-child').map((d) => d.file)).toEqual(['b/agent.json', 'c/agent.json']);
  });

  it('resolves a diamond into one node per occurrence', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', {
        nodes: [
          ['b', '1.0.0'],
          ['c', '1.0.0'],
        ],
      }),
      'b/agent.json': agent('b', '1.0.0', { nodes: [['d', '1.0.0']] }),
      'c/agent.json': agent('c', '1.0.0', { nodes: [['d', '1.0.0']] }),
      'd/agent.json': agent('d', '1.0.0'),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(result.diagnostics).toEqual([]);
    expect(walkTree(result.root).map((n) => n.key)).toEqual(['r@0.1.0', 'b@1.0.0', 'd@1.0.0', 'c@1.0.0', 'd@1.0.0']);
    expect(result.nodeCount).toBe(5);
  });
});

describe('resolveComposition: cycles', () => {
  it('prints the whole cycle at the pin that closes it', async () => {
    ws = tempWorkspace({
      'a/agent.json': agent('a', '1.0.0', { nodes: [['b', '2.0.0']] }),
      'b/agent.json': agent('b', '2.0.0', { nodes: [['a', '1.0.0']] }),
    });
    const result = await resolveFile(ws, 'a/agent.json');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      rule: 'composition-cycle',
      code: 'agent_definition_invalid',
      file: 'b/agent.json',
      path: '/composition/nodes/0',
      message: 'composition cycle: a@1.0.0 -> b@2.0.0 -> a@1.0.0',
      line: positionOf(json(agent('b', '2.0.0', { nodes: [['a', '1.0.0']] })), '"slug": "a"').line - 1,
    });
  });

  it('finds a cycle below the root and a definition that pins itself', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', {
        nodes: [
          ['a', '1.0.0'],
          ['self', '1.0.0'],
        ],
      }),
      'a/agent.json': agent('a', '1.0.0', { nodes: [['b', '2.0.0']] }),
      'b/agent.json': agent('b', '2.0.0', { nodes: [['c', '3.0.0']] }),
      'c/agent.json': agent('c', '3.0.0', { nodes: [['a', '1.0.0']] }),
      'self/agent.json': agent('self', '1.0.0', { nodes: [['self', '1.0.0']] }),
    });
    const result = await resolveFile(ws, 'r/agent.json');
    expect(errorsOf(result.diagnostics, 'composition-cycle').map((d) => [d.file, d.path, d.message])).toEqual([
      ['c/agent.json', '/composition/nodes/0', 'composition cycle: a@1.0.0 -> b@2.0.0 -> c@3.0.0 -> a@1.0.0'],
      ['self/agent.json', '/composition/nodes/0', 'composition cycle: self@1.0.0 -> self@1.0.0'],
    ]);
    // The single-file rule also refuses the self-pin; the resolver adds the cycle and goes no deeper.
    expect(result.diagnostics.some((d) => d.file === 'self/agent.json' && d.rule === 'composition-shape')).toBe(true);
    expect(walkTree(result.root).filter((n) => n.slug === 'self')).toHaveLength(1);
  });

  it('does not call two versions of one slug on one path a cycle', async () => {
    ws = tempWorkspace({
      'x1/agent.json': agent('x', '1.0.0', { nodes: [['y', '1.0.0']] }),
      'y/agent.json': agent('y', '1.0.0', { nodes: [['x', '2.0.0']] }),
      'x2/agent.json': agent('x', '2.0.0'),
    });
    const result = await resolveFile(ws, 'x1/agent.json');
    expect(result.diagnostics).toEqual([]);
    expect(walkTree(result.root).map((n) => n.key)).toEqual(['x@1.0.0', 'y@1.0.0', 'x@2.0.0']);
  });
});

describe('resolveComposition: bounds', () => {
  const chain = (length: number) => {
    const files: Record<string, object> = {};
    for (let i = 0; i < length; i++)
      files[`c${i}/agent.json`] = agent(`c${i}`, '1.0.0', i + 1 < length ? { nodes: [[`c${i + 1}`, '1.0.0']] } : {});
    return files;
  };

  it('stops at maxDepth with a located diagnostic that shows the path', async () => {
    ws = tempWorkspace(chain(6));
    const result = await resolveFile(ws, 'c0/agent.json', { maxDepth: 3 });
    expect(result.diagnostics.map((d) => [d.rule, d.file, d.path])).toEqual([
      ['composition-too-deep', 'c3/agent.json', '/composition/nodes/0'],
    ]);
    expect(result.diagnostics[0]!.message).toBe(
      'pin "c4@1.0.0" would sit at depth 4, deeper than maxDepth 3: c0@1.0.0 -> c1@1.0.0 -> c2@1.0.0 -> c3@1.0.0 -> c4@1.0.0',
    );
    expect(result.nodeCount).toBe(4);
  });

  it('defaults maxDepth to 16', async () => {
    ws = tempWorkspace(chain(18));
    const result = await resolveFile(ws, 'c0/agent.json');
    expect(result.diagnostics.map((d) => [d.rule, d.file])).toEqual([['composition-too-deep', 'c16/agent.json']]);
    expect(walkTree(result.root).at(-1)!.depth).toBe(16);
  });

  it('stops at maxNodes, once, at the pin that would exceed it', async () => {
    ws = tempWorkspace({
      'r/agent.json': agent('r', '0.1.0', {
        nodes: [
          ['a', '1.0.0'],
          ['b', '1.0.0'],
          ['c', '1.0.0'],
          ['d', '1.0.0'],
        ],
      }),
      'a/agent.json': agent('a', '1.0.0'),
      'b/agent.json': agent('b', '1.0.0'),
      'c/agent.json': agent('c', '1.0.0'),
      'd/agent.json': agent('d', '1.0.0'),
    });
    const result = await resolveFile(ws, 'r/agent.json', { maxNodes: 3 });
    expect(result.diagnostics.map((d) => [d.rule, d.file, d.path])).toEqual([
      ['composition-too-large', 'r/agent.json', '/composition/nodes/2'],
    ]);
    expect(result.diagnostics[0]!.message).toContain('more than maxNodes 3 nodes');
    expect(result.nodeCount).toBe(3);
    expect(result.root.children.map((c) => c.slug)).toEqual(['a', 'b']);
  });

  it('bounds a diamond lattice that would otherwise explode', async () => {
    const files: Record<string, object> = {};
    const levels = 12;
    for (let i = 0; i < levels; i++) {
      files[`l${i}a/agent.json`] = agent(
        `l${i}a`,
        '1.0.0',
        i + 1 < levels
          ? {
              nodes: [
                [`l${i + 1}a`, '1.0.0'],
                [`l${i + 1}b`, '1.0.0'],
              ],
            }
          : {},
      );
      files[`l${i}b/agent.json`] = agent(
        `l${i}b`,
        '1.0.0',
        i + 1 < levels
          ? {
              nodes: [
                [`l${i + 1}a`, '1.0.0'],
                [`l${i + 1}b`, '1.0.0'],
              ],
            }
          : {},
      );
    }
    ws = tempWorkspace(files);
    const result = await resolveFile(ws, 'l0a/agent.json');
    expect(result.nodeCount).toBe(512);
    expect(errorsOf(result.diagnostics, 'composition-too-large')).toHaveLength(1);
  });
});
