import { logger, readNxJson, updateNxJson, type Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from 'nx/src/devkit-testing-exports';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alreadyRegisteredMessage, DEFAULT_INCLUDE, initGenerator, isPluginRegistered } from './generator';

describe('agentdef:init', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('registers the plugin in nx.json for every agent.json / agent.yaml and application manifest', async () => {
    expect(isPluginRegistered(tree)).toBe(false);
    await initGenerator(tree, {});
    expect(readNxJson(tree)?.plugins).toEqual([
      {
        plugin: 'agentdef',
        include: [
          '**/agent.json',
          '**/agent.yaml',
          '**/agent.yml',
          '**/application.json',
          '**/application.yaml',
          '**/application.yml',
        ],
        options: { operationalTargets: true },
      },
    ]);
    expect(DEFAULT_INCLUDE).toContain('**/agent.yaml');
    expect(isPluginRegistered(tree)).toBe(true);
  });

  it('is idempotent and keeps other plugins and an existing registration as they are', async () => {
    updateNxJson(tree, {
      ...readNxJson(tree),
      plugins: [
        '@nx/js/typescript',
        { plugin: 'agentdef', include: ['agents/**/agent.json'], options: { outputRoot: 'out' } },
      ],
    });
    const before = tree.read('nx.json', 'utf-8');
    await initGenerator(tree, {});
    await initGenerator(tree, {});
    expect(tree.read('nx.json', 'utf-8')).toBe(before);
  });

  it('says when the plugin is already registered, naming where, and says nothing when it registers it', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    updateNxJson(tree, { ...readNxJson(tree), plugins: ['@nx/js/typescript'] });
    await initGenerator(tree, {});
    expect(info).not.toHaveBeenCalled();
    await initGenerator(tree, {});
    expect(info.mock.calls).toEqual([[alreadyRegisteredMessage(1)]]);
    expect(alreadyRegisteredMessage(1)).toBe(
      'agentdef:init: the agentdef plugin is already registered in nx.json (plugins[1]); nothing changed',
    );
  });

  it('adds itself after existing plugins, once', async () => {
    updateNxJson(tree, { ...readNxJson(tree), plugins: ['@nx/js/typescript'] });
    await initGenerator(tree, {});
    await initGenerator(tree, {});
    expect(readNxJson(tree)?.plugins).toEqual([
      '@nx/js/typescript',
      { plugin: 'agentdef', include: DEFAULT_INCLUDE, options: { operationalTargets: true } },
    ]);
  });

  it('leaves the operational targets out with --operationalTargets=false (the plugin option is not written)', async () => {
    await initGenerator(tree, { operationalTargets: false });
    expect(readNxJson(tree)?.plugins).toEqual([{ plugin: 'agentdef', include: DEFAULT_INCLUDE }]);
  });
});
