import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findDefinitionFiles, findWorkspaceRoot, readIdentity } from '../definition/workspace-definitions';
import { indexWorkspace, lookupWorkspace } from './workspace-index';
import { agent, tempWorkspace, type TempWorkspace } from './test-support';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

describe('workspace index', () => {
  it('finds agent.json, agent.yaml and agent.yml in a stable order, skipping tool folders', () => {
    ws = tempWorkspace({
      'b/agent.json': agent('b', '1.0.0'),
      'a/z/agent.yaml': 'identity:\n  slug: a\n  versionSemver: 2.0.0\n',
      'a/agent.yml': 'identity: { slug: a, versionSemver: 1.0.0 }\n',
      'a/other.json': agent('other', '1.0.0'),
      'node_modules/x/agent.json': agent('x', '1.0.0'),
      'dist/agents/b/agent.json': agent('b', '9.0.0'),
      '.nx/cache/agent.json': agent('b', '9.0.1'),
      'tmp/agent.json': agent('b', '9.0.2'),
      '.git/agent.json': agent('b', '9.0.3'),
      'deep/er/still/agent.json': agent('c', '0.1.0'),
    });
    expect(findDefinitionFiles(ws.root)).toEqual([
      'a/agent.yml',
      'a/z/agent.yaml',
      'b/agent.json',
      'deep/er/still/agent.json',
    ]);
    const index = indexWorkspace(ws.root);
    expect([...index.bySlug.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(index.bySlug.get('a')).toEqual([
      { slug: 'a', versionSemver: '1.0.0', file: 'a/agent.yml' },
      { slug: 'a', versionSemver: '2.0.0', file: 'a/z/agent.yaml' },
    ]);
    expect(lookupWorkspace(index, 'b', '1.0.0')).toEqual([{ slug: 'b', versionSemver: '1.0.0', file: 'b/agent.json' }]);
    expect(lookupWorkspace(index, 'b', '9.0.0')).toEqual([]);
  });

  it('sorts versions by semver and reports files it cannot read the identity of', () => {
    ws = tempWorkspace({
      'v10/agent.json': agent('s', '1.10.0'),
      'v9/agent.json': agent('s', '1.9.0'),
      'broken/agent.json': '{ "identity": ',
      'noid/agent.json': '{ "identity": { "slug": 3 } }',
    });
    const index = indexWorkspace(ws.root);
    expect(index.bySlug.get('s')?.map((e) => e.versionSemver)).toEqual(['1.9.0', '1.10.0']);
    expect(index.unreadable.map((u) => u.file)).toEqual(['broken/agent.json', 'noid/agent.json']);
    expect(index.unreadable[0]!.reason).toMatch(/cannot be parsed/);
    expect(index.unreadable[1]!.reason).toMatch(/identity/);
  });

  it('does not follow symbolic links (no loops, one path per file)', () => {
    ws = tempWorkspace({ 'real/agent.json': agent('r', '1.0.0') });
    mkdirSync(join(ws.root, 'links'));
    symlinkSync(join(ws.root, 'real'), join(ws.root, 'links', 'again'), 'dir');
    symlinkSync(ws.root, join(ws.root, 'links', 'loop'), 'dir');
    expect(findDefinitionFiles(ws.root)).toEqual(['real/agent.json']);
  });

  it('honours a custom list of skipped folders', () => {
    ws = tempWorkspace({ 'vendor/agent.json': agent('v', '1.0.0'), 'dist/agent.json': agent('d', '1.0.0') });
    expect(findDefinitionFiles(ws.root, { skipDirectories: ['vendor'] })).toEqual(['dist/agent.json']);
  });

  it('reads only the identity: a schema-invalid file is still indexed', () => {
    expect(readIdentity('{"identity":{"slug":"q","versionSemver":"^1"},"junk":true}', 'agent.json')).toEqual({
      slug: 'q',
      versionSemver: '^1',
    });
    expect(readIdentity('\uFEFF{"identity":{"slug":"q","versionSemver":"1.0.0"}}', 'agent.json')).toEqual({
      slug: 'q',
      versionSemver: '1.0.0',
    });
    expect(readIdentity('identity: [', 'agent.yaml')).toHaveProperty('reason');
  });

  it('finds the workspace root by nx.json, falling back to package.json', () => {
    ws = tempWorkspace({ 'a/b/agent.json': agent('a', '1.0.0'), 'pkg/package.json': '{}', 'pkg/x/agent.json': '{}' });
    expect(findWorkspaceRoot(join(ws.root, 'a', 'b'))).toBe(ws.root);
    expect(findWorkspaceRoot(join(ws.root, 'pkg', 'x'))).toBe(ws.root);
  });
});
