import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kymRef } from '../definition/workspace-definitions';
import { indexRegistrySnapshots } from './__test-support__/registry-fixture';
import { FolderRegistry, MemoryRegistry, parseKymRef, RegistryIntegrityError, resolveKymRef } from './agent-registry';
import { readRegistryIndex, snapshotSha256 } from './registry-index';
import { agent, json, tempWorkspace, type TempWorkspace } from '../compiler/test-support';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.remove());

describe('FolderRegistry', () => {
  it('resolves exactly <root>/<slug>/<version>.json with its bytes and a workspace-relative name', async () => {
    ws = tempWorkspace({
      'registry/agents/s/1.0.0.json': agent('s', '1.0.0'),
      'registry/agents/s/1.1.0.json': agent('s', '1.1.0'),
    });
    indexRegistrySnapshots(ws.root);
    const registry = new FolderRegistry({ workspaceRoot: ws.root });
    const hit = await registry.resolve('s', '1.0.0');
    expect(hit).toMatchObject({
      slug: 's',
      version: '1.0.0',
      ref: 'kym://agents/s@1.0.0',
      file: 'registry/agents/s/1.0.0.json',
      format: 'json',
    });
    expect(Buffer.from(hit!.bytes).equals(readFileSync(join(ws.root, 'registry/agents/s/1.0.0.json')))).toBe(true);
    expect(await registry.resolve('s', '1.0.1')).toBeUndefined();
    expect(await registry.resolve('t', '1.0.0')).toBeUndefined();
    expect(registry.description).toBe('registry registry/agents');
  });

  it('lists versions in semver order, ignoring other files', async () => {
    ws = tempWorkspace({
      'registry/agents/s/1.10.0.json': '{}',
      'registry/agents/s/1.9.0.json': '{}',
      'registry/agents/s/1.9.0-rc.1.json': '{}',
      'registry/agents/s/latest.json': '{}',
      'registry/agents/s/README.md': 'x',
    });
    expect(await new FolderRegistry({ workspaceRoot: ws.root }).versions('s')).toEqual([
      '1.9.0-rc.1',
      '1.9.0',
      '1.10.0',
    ]);
    expect(await new FolderRegistry({ workspaceRoot: ws.root }).versions('none')).toEqual([]);
  });

  it('takes a configurable root, relative to the workspace or absolute', async () => {
    ws = tempWorkspace({ 'snapshots/s/2.0.0.json': agent('s', '2.0.0') });
    indexRegistrySnapshots(ws.root, 'snapshots');
    const relativeRoot = new FolderRegistry({ workspaceRoot: ws.root, registryRoot: 'snapshots' });
    expect((await relativeRoot.resolve('s', '2.0.0'))?.file).toBe('snapshots/s/2.0.0.json');
    const absoluteRoot = new FolderRegistry({ workspaceRoot: ws.root, registryRoot: join(ws.root, 'snapshots') });
    expect((await absoluteRoot.resolve('s', '2.0.0'))?.file).toBe('snapshots/s/2.0.0.json');
    expect(await new FolderRegistry({ workspaceRoot: ws.root, registryRoot: 'missing' }).versions('s')).toEqual([]);
  });

  it('never reaches outside its root for malformed names', async () => {
    ws = tempWorkspace({ 'registry/secret.json': '{}', 'registry/agents/s/1.0.0.json': '{}' });
    const registry = new FolderRegistry({ workspaceRoot: ws.root });
    expect(await registry.resolve('..', 'secret')).toBeUndefined();
    expect(await registry.resolve('s/../..', '1.0.0')).toBeUndefined();
    expect(await registry.resolve('s', '../1.0.0')).toBeUndefined();
    expect(await registry.versions('../agents')).toEqual([]);
  });

  it('rejects (rather than answering "missing") when a snapshot exists but cannot be read', async () => {
    ws = tempWorkspace();
    mkdirSync(join(ws.root, 'registry/agents/s/1.0.0.json'), { recursive: true });
    await expect(new FolderRegistry({ workspaceRoot: ws.root }).resolve('s', '1.0.0')).rejects.toThrow(
      /cannot read s@1\.0\.0/,
    );
  });
});

describe('FolderRegistry: the index is tamper evidence', () => {
  it('refuses a snapshot edited after it was recorded, naming both digests', async () => {
    ws = tempWorkspace({ 'registry/agents/s/1.0.0.json': agent('s', '1.0.0') });
    indexRegistrySnapshots(ws.root);
    const path = join(ws.root, 'registry/agents/s/1.0.0.json');
    const recorded = snapshotSha256(readFileSync(path));
    const edited = readFileSync(path, 'utf8').replace('"1.0.0"', '"1.0.0" ');
    writeFileSync(path, edited);
    const attempt = new FolderRegistry({ workspaceRoot: ws.root }).resolve('s', '1.0.0');
    await expect(attempt).rejects.toBeInstanceOf(RegistryIntegrityError);
    await expect(attempt).rejects.toThrow(
      `registry registry/agents: registry/agents/s/1.0.0.json was changed after it was published: registry/agents/index.json records sha256:${recorded}, the snapshot is sha256:${snapshotSha256(Buffer.from(edited))}`,
    );
  });

  it('refuses a snapshot the index does not list, and one checked against a malformed index', async () => {
    ws = tempWorkspace({ 'registry/agents/s/1.0.0.json': agent('s', '1.0.0') });
    const registry = new FolderRegistry({ workspaceRoot: ws.root });
    await expect(registry.resolve('s', '1.0.0')).rejects.toThrow(
      /registry\/agents\/s\/1\.0\.0\.json is not recorded in registry\/agents\/index\.json \(there is no index\): recorded digest none, snapshot digest sha256:[0-9a-f]{64}/,
    );
    writeFileSync(
      join(ws.root, 'registry/agents/index.json'),
      '{"registryIndexVersion":"agentdef-registry-index/v1","snapshots":[{"slug":"s"}]}',
    );
    await expect(registry.resolve('s', '1.0.0')).rejects.toThrow(
      /cannot be checked \(registry\/agents\/index\.json: snapshots\/0\/version is not an exact semantic version\)/,
    );
    expect(readRegistryIndex(join(ws.root, 'registry/agents'), 'registry/agents')).toEqual({
      ok: false,
      problem: 'registry/agents/index.json: snapshots/0/version is not an exact semantic version',
    });
  });
});

describe('kym:// references', () => {
  it('parses kym://agents/<slug>@<version> and nothing else', () => {
    expect(parseKymRef('kym://agents/write-router@1.4.0')).toEqual({ slug: 'write-router', version: '1.4.0' });
    expect(parseKymRef(kymRef('a', '1.0.0-rc.1'))).toEqual({ slug: 'a', version: '1.0.0-rc.1' });
    for (const bad of [
      'kym://agents/write-router',
      'kym://agents/Write@1.0.0',
      'kym://agents/a@^1.0.0',
      'kym://tools/a@1.0.0',
      'https://agents/a@1.0.0',
      'kym://agents/a@1.0.0/x',
      'kym://agents/../a@1.0.0',
    ]) {
      expect(parseKymRef(bad)).toBeUndefined();
    }
  });

  it('resolves through any registry', async () => {
    ws = tempWorkspace({ 'registry/agents/a/1.0.0.json': agent('a', '1.0.0') });
    indexRegistrySnapshots(ws.root);
    const folder = new FolderRegistry({ workspaceRoot: ws.root });
    expect((await resolveKymRef(folder, 'kym://agents/a@1.0.0'))?.file).toBe('registry/agents/a/1.0.0.json');
    expect(await resolveKymRef(folder, 'kym://agents/a@2.0.0')).toBeUndefined();
    expect(await resolveKymRef(folder, 'not a ref')).toBeUndefined();
    const memory = new MemoryRegistry().add('a', '3.0.0', json(agent('a', '3.0.0')));
    const hit = await resolveKymRef(memory, 'kym://agents/a@3.0.0');
    expect(new TextDecoder().decode(hit!.bytes)).toBe(json(agent('a', '3.0.0')));
    expect(await memory.versions('a')).toEqual(['3.0.0']);
  });
});
