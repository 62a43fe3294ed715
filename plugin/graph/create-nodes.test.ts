import { AggregateCreateNodesError, type CreateNodesResult, type ProjectConfiguration } from '@nx/devkit';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_DEFINITION_GLOB, createNodes, createNodesV2 } from './create-nodes';
import { inferenceCachePath } from './inference-cache';
import { normalizePluginOptions, type AgentdefPluginOptions } from './options';
import { definitionJson, nodesContext, tempWorkspace, type TempWorkspace } from './test-support';

const DEFINITION_NAMES = new Set(['agent.json', 'agent.yaml', 'agent.yml']);

/** What Nx would hand the plugin: every definition file of the workspace. */
function definitionFiles(ws: TempWorkspace): string[] {
  return ws.files().filter((f) => DEFINITION_NAMES.has(posix.basename(f)));
}

async function infer(ws: TempWorkspace, options?: AgentdefPluginOptions, files = definitionFiles(ws)) {
  return createNodesV2[1](files, options, nodesContext(ws.root));
}

function projectsOf(results: ReadonlyArray<readonly [string, CreateNodesResult]>): Record<string, ProjectConfiguration> {
  const out: Record<string, ProjectConfiguration> = {};
  for (const [, result] of results) {
    for (const [root, project] of Object.entries(result.projects ?? {})) out[project.name!] = { ...project, root } as ProjectConfiguration;
  }
  return out;
}

const YAML_AGENT = [
  'schemaVersion: agent-definition/v1',
  'identity:',
  '  slug: pdf-extractor',
  '  versionSemver: 1.2.0',
  'runtimeRequirements:',
  '  runtimeCapabilityClass: container-required',
  'lifecycleState: tool-shipped',
  'composition:',
  '  kind: leaf',
  '',
].join('\n');

describe('createNodes', () => {
  let ws: TempWorkspace;
  const savedEnv = { ...process.env };

  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    delete process.env.NX_PROJECT_GRAPH_CACHE_DIRECTORY;
    ws = tempWorkspace({
      'agents/write-router/agent.json': definitionJson({ slug: 'write-router', version: '1.4.0', pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0', 'published@2.0.0'] }),
      'agents/splice-resolver/agent.json': definitionJson({ slug: 'splice-resolver', version: '0.4.2', runtime: 'container-required' }),
      'agents/fallback-writer/agent.json': definitionJson({ slug: 'fallback-writer', version: '1.1.0' }),
      'agents/edit-assistant/agent.json': definitionJson({ slug: 'edit-assistant', version: '1.0.0', pins: ['write-router@1.4.0'] }),
      'agents/pdf/agent.yaml': YAML_AGENT,
      // A registry snapshot pinning a workspace agent and another (unpublished) snapshot.
      'registry/agents/published/2.0.0.json': definitionJson({ slug: 'published', version: '2.0.0', pins: ['splice-resolver@0.4.2', 'deep@3.0.0'] }),
      // Matches the glob, but lives in the registry: never a project.
      'registry/agents/old/agent.json': definitionJson({ slug: 'write-router', version: '1.0.0' }),
    });
  });

  afterEach(() => {
    ws.remove();
    process.env = { ...savedEnv };
  });

  it('exports one createNodes tuple under both names, for agent.json and agent.yaml', () => {
    expect(createNodesV2).toBe(createNodes);
    expect(createNodes[0]).toBe(AGENT_DEFINITION_GLOB);
    expect(AGENT_DEFINITION_GLOB).toBe('**/agent.{json,yaml,yml}');
  });

  it('infers one project per definition, named by its slug, rooted at its folder, tagged', async () => {
    const results = await infer(ws);
    expect(results.map(([file]) => file).sort()).toEqual([
      'agents/edit-assistant/agent.json',
      'agents/fallback-writer/agent.json',
      'agents/pdf/agent.yaml',
      'agents/splice-resolver/agent.json',
      'agents/write-router/agent.json',
    ]);
    const projects = projectsOf(results);
    expect(Object.keys(projects).sort()).toEqual(['edit-assistant', 'fallback-writer', 'pdf-extractor', 'splice-resolver', 'write-router']);
    expect(projects['pdf-extractor']!.root).toBe('agents/pdf');
    expect(projects['pdf-extractor']!.tags).toEqual(['agentdef', 'agentdef:container-required', 'agentdef:tool-shipped']);
    expect(projects['write-router']!.tags).toEqual(['agentdef', 'agentdef:workers-preferred', 'agentdef:composed']);
    expect(projects['write-router']!.metadata?.agentdef).toMatchObject({
      definition: 'agents/write-router/agent.json',
      slug: 'write-router',
      versionSemver: '1.4.0',
      pins: [
        { slug: 'splice-resolver', version: '0.4.2', line: expect.any(Number) },
        { slug: 'fallback-writer', version: '1.1.0', line: expect.any(Number) },
        { slug: 'published', version: '2.0.0', line: expect.any(Number) },
      ],
    });
  });

  it('infers cacheable validate, plan and compile targets running the agentdef executors', async () => {
    const project = projectsOf(await infer(ws))['edit-assistant']!;
    const { validate, plan, compile } = project.targets!;
    expect(validate).toMatchObject({ executor: 'agentdef:validate', cache: true, options: { definition: '{projectRoot}/agent.json' }, outputs: [] });
    expect(Object.keys(validate!.options)).toEqual(['definition']); // its schema takes nothing else
    expect(plan).toMatchObject({
      executor: 'agentdef:plan',
      cache: true,
      options: { definition: '{projectRoot}/agent.json', registryRoot: 'registry/agents', maxDepth: 16, maxNodes: 512 },
      outputs: [],
    });
    expect(compile).toMatchObject({
      executor: 'agentdef:compile',
      cache: true,
      options: { definition: '{projectRoot}/agent.json', target: 'auto', outputPath: 'dist/agents/{projectName}', registryRoot: 'registry/agents', maxDepth: 16, maxNodes: 512 },
      outputs: ['{workspaceRoot}/dist/agents/{projectName}'],
    });
    expect(compile!.dependsOn).toBeUndefined();
    expect(project.namedInputs).toEqual({ agentdefDefinition: ['{projectRoot}/agent.json'] });
  });

  it('gives validate its own file as input, and plan/compile the whole tree: ^ children plus every reached file', async () => {
    const projects = projectsOf(await infer(ws));
    expect(projects['edit-assistant']!.targets!.validate!.inputs).toEqual(['agentdefDefinition']);
    // edit-assistant -> write-router -> {splice-resolver, fallback-writer, published (registry) -> {splice-resolver, deep (registry)}}
    const tree = [
      'agentdefDefinition',
      '^agentdefDefinition',
      '{workspaceRoot}/agents/write-router/agent.json',
      '{workspaceRoot}/agents/splice-resolver/agent.json',
      '{workspaceRoot}/agents/fallback-writer/agent.json',
      '{workspaceRoot}/registry/agents/published/2.0.0.json',
      '{workspaceRoot}/registry/agents/deep/3.0.0.json',
    ];
    expect(projects['edit-assistant']!.targets!.plan!.inputs).toEqual(tree);
    // compile also hashes the --target given on the command line
    expect(projects['edit-assistant']!.targets!.compile!.inputs).toEqual([...tree, '{workspaceRoot}/mcp.json', '{workspaceRoot}/tools.json', { env: 'AGENTDEF_COMPILE_TARGET' }]);
    expect(projects['splice-resolver']!.targets!.plan!.inputs).toEqual(['agentdefDefinition', '^agentdefDefinition']);
  });

  it('makes compile read the tool modules tools.json maps (their folders), so editing a tool recompiles', async () => {
    const giveTool = (slug: string, id: string) => {
      const file = `agents/${slug}/agent.json`;
      const def = JSON.parse(ws.read(file)) as { toolInventory: unknown[] };
      def.toolInventory = [{ id, name: id, version: '1.0.0', provenance: 'skill-package', risk: 'low' }];
      ws.write(file, JSON.stringify(def, null, 2));
    };
    const [childTool, parentTool] = ['child-tool', 'parent-tool'];
    giveTool('splice-resolver', childTool);
    giveTool('write-router', parentTool);
    ws.write(
      'tools.json',
      JSON.stringify({
        tools: {
          [childTool!]: { module: './tools/a/index.ts', export: 'a' },
          [parentTool!]: { module: './b.ts', export: 'b' },
          unused: { module: './tools/unused/x.ts', export: 'x' },
          c: { module: '../outside.ts', export: 'c' },
        },
      }),
    );
    const projects = projectsOf(await infer(ws));
    const extra = (slug: string) => projects[slug]!.targets!.compile!.inputs!.filter((i) => typeof i === 'string' && i.startsWith('{workspaceRoot}/') && !i.endsWith('.json') && !i.includes('registry/'));
    // a child's tools are its ancestors' inputs too (children are compiled into the parent); unrelated tools are nobody's
    expect(extra('splice-resolver')).toEqual(['{workspaceRoot}/tools/a/**/*']);
    expect(extra('write-router')).toEqual(['{workspaceRoot}/b.ts', '{workspaceRoot}/tools/a/**/*']);
  });

  it('resolves a pin whose version no workspace agent has from the registry', async () => {
    ws.write('agents/fallback-writer/agent.json', definitionJson({ slug: 'fallback-writer', version: '1.2.0' }));
    const router = projectsOf(await infer(ws))['write-router']!;
    expect(router.targets!.compile!.inputs).toContain('{workspaceRoot}/registry/agents/fallback-writer/1.1.0.json');
    expect(router.targets!.compile!.inputs).not.toContain('{workspaceRoot}/agents/fallback-writer/agent.json');
  });

  it('applies the plugin options: target names, output and registry folders, bounds', async () => {
    const projects = projectsOf(await infer(ws, { targetNames: { compile: 'build-agent', validate: 'check' }, outputRoot: 'out/agents', registryRoot: 'registry/agents', maxDepth: 4, maxNodes: 40 }));
    const router = projects['write-router']!;
    expect(Object.keys(router.targets!)).toEqual(['check', 'plan', 'build-agent', 'run']);
    expect(router.targets!['build-agent']).toMatchObject({
      executor: 'agentdef:compile',
      options: { outputPath: 'out/agents/{projectName}', maxDepth: 4, maxNodes: 40 },
      outputs: ['{workspaceRoot}/out/agents/{projectName}'],
    });
    expect(router.metadata?.targetGroups).toEqual({ agentdef: ['check', 'plan', 'build-agent'] });
  });

  it('treats files under a custom registryRoot as snapshots, not projects', async () => {
    ws.write('snapshots/a/agent.json', definitionJson({ slug: 'snap', version: '1.0.0' }));
    const names = Object.keys(projectsOf(await infer(ws, { registryRoot: 'snapshots' })));
    expect(names).not.toContain('snap');
    expect(names).toContain('write-router'); // registry/agents is an ordinary folder now
  });

  describe('invalid definitions', () => {
    it('still infers a project, named after its folder, when the definition does not parse', async () => {
      ws.write('agents/broken-one/agent.json', '{ "identity": { "slug": "never-read" ');
      ws.write('agents/half/agent.json', JSON.stringify({ identity: { slug: 'half', versionSemver: 'one' }, composition: 'dag' }));
      const projects = projectsOf(await infer(ws));
      expect(projects['broken-one']).toMatchObject({ root: 'agents/broken-one', tags: ['agentdef'] });
      expect(projects['broken-one']!.targets!.validate).toMatchObject({ executor: 'agentdef:validate', options: { definition: '{projectRoot}/agent.json' } });
      // schema-invalid but readable: the slug it states names it
      expect(projects['half']).toMatchObject({ root: 'agents/half', metadata: { agentdef: { slug: 'half', versionSemver: 'one', pins: [] } } });
      expect(Object.keys(projects)).toHaveLength(7);
    });

    it('reports an unreadable definition once, as an AggregateCreateNodesError that keeps every other project', async () => {
      mkdirSync(join(ws.root, 'agents/dir/agent.json'), { recursive: true }); // a folder where a file should be
      const error = await infer(ws, undefined, [...definitionFiles(ws), 'agents/dir/agent.json']).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AggregateCreateNodesError);
      const aggregate = error as AggregateCreateNodesError;
      expect(aggregate.errors.map(([file]) => file)).toEqual(['agents/dir/agent.json']);
      expect(aggregate.errors[0]![1].message).toMatch(/agents\/dir\/agent\.json: cannot read the agent definition \(EISDIR\)/);
      expect(Object.keys(projectsOf(aggregate.partialResults)).sort()).toEqual(['edit-assistant', 'fallback-writer', 'pdf-extractor', 'splice-resolver', 'write-router']);
    });

    it('reports a second definition in one folder and keeps the agent.json project', async () => {
      ws.write('agents/fallback-writer/agent.yaml', YAML_AGENT);
      const error = (await infer(ws).catch((e: unknown) => e)) as AggregateCreateNodesError;
      expect(error).toBeInstanceOf(AggregateCreateNodesError);
      expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([['agents/fallback-writer/agent.yaml', expect.stringMatching(/already holds agents\/fallback-writer\/agent\.json/)]]);
      expect(projectsOf(error.partialResults)['fallback-writer']!.root).toBe('agents/fallback-writer');
    });
  });

  describe('the inference cache', () => {
    const cacheFile = (options?: AgentdefPluginOptions) => inferenceCachePath(ws.root, normalizePluginOptions(options).hash);
    const readCache = (options?: AgentdefPluginOptions) => JSON.parse(readFileSync(cacheFile(options), 'utf8')) as { pluginVersion: string; entries: Record<string, { slug?: string }> };
    /** Rewrites every cached summary's slug: a later run that shows it was served from the cache. */
    const poison = (options?: AgentdefPluginOptions, pluginVersion?: string) => {
      const data = readCache(options);
      for (const entry of Object.values(data.entries)) if (entry.slug) entry.slug = `cached-${entry.slug}`;
      if (pluginVersion !== undefined) data.pluginVersion = pluginVersion;
      writeFileSync(cacheFile(options), JSON.stringify(data));
    };

    it('lives in the workspace data directory, one file per options hash', async () => {
      await infer(ws);
      expect(cacheFile()).toBe(join(ws.root, '.nx', 'workspace-data', `agentdef-${normalizePluginOptions(undefined).hash}.json`));
      // five projects and the one published snapshot that exists
      expect(Object.keys(readCache().entries)).toHaveLength(6);
    });

    it('serves a second run from the cache', async () => {
      await infer(ws);
      poison();
      const names = Object.keys(projectsOf(await infer(ws))).sort();
      expect(names).toEqual(['cached-edit-assistant', 'cached-fallback-writer', 'cached-pdf-extractor', 'cached-splice-resolver', 'cached-write-router']);
    });

    it('misses for a changed definition, and keeps only the entries in use', async () => {
      await infer(ws);
      poison();
      ws.write('agents/fallback-writer/agent.json', definitionJson({ slug: 'fallback-writer', version: '1.1.1' }));
      const projects = projectsOf(await infer(ws));
      expect(projects['fallback-writer']!.metadata?.agentdef.versionSemver).toBe('1.1.1');
      expect(projects['cached-splice-resolver']).toBeDefined();
      expect(Object.keys(readCache().entries)).toHaveLength(6);
    });

    it('misses for changed options (another cache file) and for another plugin version', async () => {
      await infer(ws);
      poison();
      expect(Object.keys(projectsOf(await infer(ws, { maxDepth: 3 })))).toContain('write-router');
      expect(existsSync(cacheFile({ maxDepth: 3 }))).toBe(true);
      poison(undefined, '0.0.0-older');
      expect(Object.keys(projectsOf(await infer(ws)))).toContain('write-router');
    });

    it('honours NX_WORKSPACE_DATA_DIRECTORY', async () => {
      process.env.NX_WORKSPACE_DATA_DIRECTORY = 'elsewhere/data';
      await infer(ws);
      expect(existsSync(join(ws.root, 'elsewhere/data', `agentdef-${normalizePluginOptions(undefined).hash}.json`))).toBe(true);
      expect(existsSync(join(ws.root, '.nx'))).toBe(false);
    });

    it('treats a corrupt cache file as a cold cache', async () => {
      mkdirSync(join(ws.root, '.nx', 'workspace-data'), { recursive: true });
      writeFileSync(cacheFile(), '{ not json');
      expect(Object.keys(projectsOf(await infer(ws)))).toContain('write-router');
      expect(Object.keys(readCache().entries)).toHaveLength(6);
    });
  });
});
