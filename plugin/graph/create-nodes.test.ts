import { AggregateCreateNodesError, type CreateNodesResult, type ProjectConfiguration } from '@nx/devkit';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asText, edited } from '../application/__test-support__/application-manifests';
import { OUTBOX_FOLDER } from '../application/local-gateway-owner';
import { DEFAULT_ARTIFACTS_FOLDER } from '../operations/open-application-host';
import { INPUTS_FILE } from '../../generators/application/scaffold-manifest';
import { approvedArtifactsInputs, CHECK_INPUTS_FILE, COMPONENT_HOST_FILE } from './application-project';
import { DEFAULT_APPROVED_ARTIFACTS } from './options';
import {
  AGENT_DEFINITION_GLOB,
  APPLICATION_MANIFEST_GLOB,
  createNodes,
  createNodesV2,
  INFERENCE_GLOB,
} from './create-nodes';
import { inferenceCachePath } from './inference-cache';
import { normalizePluginOptions, type AgentdefPluginOptions } from './options';
import { definitionJson, nodesContext, tempWorkspace, type TempWorkspace } from './test-support';

const DEFINITION_NAMES = new Set([
  'agent.json',
  'agent.yaml',
  'agent.yml',
  'application.json',
  'application.yaml',
  'application.yml',
]);

/** What Nx would hand the plugin: every definition file of the workspace. */
function definitionFiles(ws: TempWorkspace): string[] {
  return ws.files().filter((f) => DEFINITION_NAMES.has(posix.basename(f)));
}

async function infer(ws: TempWorkspace, options?: AgentdefPluginOptions, files = definitionFiles(ws)) {
  return createNodesV2[1](files, options, nodesContext(ws.root));
}

function projectsOf(
  results: ReadonlyArray<readonly [string, CreateNodesResult]>,
): Record<string, ProjectConfiguration> {
  const out: Record<string, ProjectConfiguration> = {};
  for (const [, result] of results) {
    for (const [root, project] of Object.entries(result.projects ?? {}))
      out[project.name!] = { ...project, root } as ProjectConfiguration;
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
      'agents/write-router/agent.json': definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0', 'published@2.0.0'],
      }),
      'agents/splice-resolver/agent.json': definitionJson({
        slug: 'splice-resolver',
        version: '0.4.2',
        runtime: 'container-required',
      }),
      'agents/fallback-writer/agent.json': definitionJson({ slug: 'fallback-writer', version: '1.1.0' }),
      'agents/edit-assistant/agent.json': definitionJson({
        slug: 'edit-assistant',
        version: '1.0.0',
        pins: ['write-router@1.4.0'],
      }),
      'agents/pdf/agent.yaml': YAML_AGENT,
      // A registry snapshot pinning a workspace agent and another (unpublished) snapshot.
      'registry/agents/published/2.0.0.json': definitionJson({
        slug: 'published',
        version: '2.0.0',
        pins: ['splice-resolver@0.4.2', 'deep@3.0.0'],
      }),
      // Matches the glob, but lives in the registry: never a project.
      'registry/agents/old/agent.json': definitionJson({ slug: 'write-router', version: '1.0.0' }),
    });
  });

  afterEach(() => {
    ws.remove();
    process.env = { ...savedEnv };
  });

  it('exports one createNodes tuple under both names, for agent and application files', () => {
    expect(createNodesV2).toBe(createNodes);
    expect(createNodes[0]).toBe(INFERENCE_GLOB);
    expect(AGENT_DEFINITION_GLOB).toBe('**/agent.{json,yaml,yml}');
    expect(APPLICATION_MANIFEST_GLOB).toBe('**/application.{json,yaml,yml}');
    // Nx takes one glob per plugin: the two above, in one
    expect(INFERENCE_GLOB).toBe('**/{agent,application}.{json,yaml,yml}');
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
    expect(Object.keys(projects).sort()).toEqual([
      'edit-assistant',
      'fallback-writer',
      'pdf-extractor',
      'splice-resolver',
      'write-router',
    ]);
    expect(projects['pdf-extractor']!.root).toBe('agents/pdf');
    expect(projects['pdf-extractor']!.tags).toEqual([
      'agentdef',
      'agentdef:container-required',
      'agentdef:tool-shipped',
    ]);
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
    expect(validate).toMatchObject({
      executor: 'agentdef:validate',
      cache: true,
      options: { definition: '{projectRoot}/agent.json' },
      outputs: [],
    });
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
      options: {
        definition: '{projectRoot}/agent.json',
        target: 'auto',
        outputPath: 'dist/agents/{projectName}',
        registryRoot: 'registry/agents',
        maxDepth: 16,
        maxNodes: 512,
      },
      outputs: ['{options.outputPath}'],
    });
    expect(compile!.dependsOn).toBeUndefined();
    expect(project.namedInputs).toEqual({ agentdefDefinition: ['{projectRoot}/agent.json'] });
  });

  it('gives validate its own file and tools.json (the tool mapping) as input, and plan/compile the whole tree: ^ children (Nx follows them through every level) plus every file behind a registry snapshot', async () => {
    const projects = projectsOf(await infer(ws));
    expect(projects['edit-assistant']!.targets!.validate!.inputs).toEqual([
      'agentdefDefinition',
      '{workspaceRoot}/tools.json',
    ]);
    // edit-assistant -> write-router -> {splice-resolver, fallback-writer, published (registry) -> {splice-resolver, deep (registry)}}:
    // the workspace children are dependencies (pin edges), so `^agentdefDefinition` covers them;
    // splice-resolver is reached through the snapshot too, but it is a dependency already.
    const tree = [
      'agentdefDefinition',
      '^agentdefDefinition',
      '{workspaceRoot}/registry/agents/published/2.0.0.json',
      '{workspaceRoot}/registry/agents/deep/3.0.0.json',
      '{workspaceRoot}/registry/agents/index.json',
    ];
    expect(projects['edit-assistant']!.targets!.plan!.inputs).toEqual(tree);
    // compile also hashes the --target given on the command line
    expect(projects['edit-assistant']!.targets!.compile!.inputs).toEqual([
      ...tree,
      '{workspaceRoot}/mcp.json',
      '{workspaceRoot}/tools.json',
      { env: 'AGENTDEF_COMPILE_TARGET' },
    ]);
    expect(projects['splice-resolver']!.targets!.plan!.inputs).toEqual(['agentdefDefinition', '^agentdefDefinition']);
  });

  it('lists a workspace definition reached only through a registry snapshot (no pin edge leads past a snapshot)', async () => {
    ws.write('agents/lonely/agent.json', definitionJson({ slug: 'lonely', version: '1.0.0' }));
    ws.write(
      'registry/agents/bridge/1.0.0.json',
      definitionJson({ slug: 'bridge', version: '1.0.0', pins: ['lonely@1.0.0'] }),
    );
    ws.write(
      'agents/via-bridge/agent.json',
      definitionJson({ slug: 'via-bridge', version: '1.0.0', pins: ['bridge@1.0.0'] }),
    );
    const projects = projectsOf(await infer(ws));
    expect(projects['via-bridge']!.targets!.plan!.inputs).toEqual([
      'agentdefDefinition',
      '^agentdefDefinition',
      '{workspaceRoot}/registry/agents/bridge/1.0.0.json',
      '{workspaceRoot}/agents/lonely/agent.json',
      '{workspaceRoot}/registry/agents/index.json',
    ]);
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
    const extra = (slug: string) =>
      projects[slug]!.targets!.compile!.inputs!.filter(
        (i) =>
          typeof i === 'string' && i.startsWith('{workspaceRoot}/') && !i.endsWith('.json') && !i.includes('registry/'),
      );
    // a child's tools are its ancestors' inputs too (children are compiled into the parent); unrelated tools are nobody's
    expect(extra('splice-resolver')).toEqual(['{workspaceRoot}/tools/a/**/*']);
    expect(extra('write-router')).toEqual(['{workspaceRoot}/b.ts', '{workspaceRoot}/tools/a/**/*']);
  });

  it('makes the registry index an input of plan and compile only for trees that reach a registry snapshot', async () => {
    const projects = projectsOf(await infer(ws));
    const index = '{workspaceRoot}/registry/agents/index.json';
    for (const slug of ['edit-assistant', 'write-router']) {
      expect(projects[slug]!.targets!.plan!.inputs).toContain(index);
      expect(projects[slug]!.targets!.compile!.inputs).toContain(index);
      expect(projects[slug]!.targets!.validate!.inputs).not.toContain(index);
    }
    // splice-resolver pins nothing: editing the registry index leaves its cache alone
    expect(projects['splice-resolver']!.targets!.plan!.inputs).not.toContain(index);
    expect(projects['splice-resolver']!.targets!.compile!.inputs).not.toContain(index);
    const custom = projectsOf(await infer(ws, { registryRoot: 'registry/agents/' }));
    expect(custom['write-router']!.targets!.plan!.inputs).toContain(index);
  });

  it('resolves a pin whose version no workspace agent has from the registry', async () => {
    ws.write('agents/fallback-writer/agent.json', definitionJson({ slug: 'fallback-writer', version: '1.2.0' }));
    const router = projectsOf(await infer(ws))['write-router']!;
    expect(router.targets!.compile!.inputs).toContain('{workspaceRoot}/registry/agents/fallback-writer/1.1.0.json');
    expect(router.targets!.compile!.inputs).not.toContain('{workspaceRoot}/agents/fallback-writer/agent.json');
  });

  it('applies the plugin options: target names, output and registry folders, bounds', async () => {
    const projects = projectsOf(
      await infer(ws, {
        targetNames: { compile: 'build-agent', validate: 'check' },
        outputRoot: 'out/agents',
        registryRoot: 'registry/agents',
        maxDepth: 4,
        maxNodes: 40,
        operationalTargets: true,
      }),
    );
    const router = projects['write-router']!;
    expect(Object.keys(router.targets!)).toEqual([
      'check',
      'plan',
      'build-agent',
      'run',
      'serve',
      'promote',
      'publish',
      'deploy',
      'eval',
    ]);
    expect(router.targets!['build-agent']).toMatchObject({
      executor: 'agentdef:compile',
      options: { outputPath: 'out/agents/{projectName}', maxDepth: 4, maxNodes: 40 },
      outputs: ['{options.outputPath}'],
    });
    expect(router.metadata?.targetGroups).toEqual({ agentdef: ['check', 'plan', 'build-agent'] });
    // serve (like run) depends on the renamed compile and serves its output folder
    expect(router.targets!['serve']).toMatchObject({
      dependsOn: ['build-agent'],
      options: { outputPath: 'out/agents/{projectName}' },
    });
  });

  it('infers the operational targets (run, serve, promote, publish, deploy) only with operationalTargets, leaving the others as they are', async () => {
    const lean = projectsOf(await infer(ws));
    const full = projectsOf(await infer(ws, { operationalTargets: true }));
    expect(Object.keys(lean['write-router']!.targets!)).toEqual(['validate', 'plan', 'compile', 'eval']);
    expect(Object.keys(full['write-router']!.targets!)).toEqual([
      'validate',
      'plan',
      'compile',
      'run',
      'serve',
      'promote',
      'publish',
      'deploy',
      'eval',
    ]);
    const operational = ['run', 'serve', 'promote', 'publish', 'deploy'];
    for (const name of Object.keys(full)) {
      const { targets, ...project } = full[name]!;
      const { targets: leanTargets, ...leanProject } = lean[name]!;
      expect(leanProject).toEqual(project);
      expect(leanTargets).toEqual(
        Object.fromEntries(Object.entries(targets!).filter(([target]) => !operational.includes(target))),
      );
    }
  });

  it('infers an uncached serve target (not continuous: Nx would report its failures as success) that compiles first and hands the output folder to agentdef:serve', async () => {
    const router = projectsOf(await infer(ws, { operationalTargets: true }))['write-router']!;
    expect(router.targets!['serve']).toEqual({
      executor: 'agentdef:serve',
      options: { outputPath: 'dist/agents/{projectName}' },
      dependsOn: ['compile'],
      cache: false,
      metadata: expect.objectContaining({ technologies: ['agentdef'] }),
    });
    expect(router.targets!['run']!.dependsOn).toEqual(['compile']);
  });

  it('infers an uncached promote target that hands the definition to agentdef:promote', async () => {
    const router = projectsOf(await infer(ws, { operationalTargets: true }))['write-router']!;
    expect(router.targets!['promote']).toMatchObject({
      executor: 'agentdef:promote',
      options: { definition: '{projectRoot}/agent.json' },
      cache: false,
    });
    expect(router.targets!['promote']!.dependsOn).toBeUndefined();
    expect(router.targets!['publish']).toMatchObject({
      executor: 'agentdef:publish',
      options: { definition: '{projectRoot}/agent.json', registryRoot: 'registry/agents' },
      cache: false,
    });
  });

  it('infers an uncached deploy target that compiles first and hands the output folder to agentdef:deploy', async () => {
    const router = projectsOf(await infer(ws, { operationalTargets: true }))['write-router']!;
    expect(router.targets!['deploy']).toEqual({
      executor: 'agentdef:deploy',
      options: { outputPath: 'dist/agents/{projectName}' },
      dependsOn: ['compile'],
      cache: false,
      metadata: expect.objectContaining({ technologies: ['agentdef'] }),
    });
    const renamed = projectsOf(await infer(ws, { targetNames: { compile: 'deploy' }, operationalTargets: true }))[
      'write-router'
    ]!;
    expect(renamed.targets!['deploy']!.executor).toBe('agentdef:compile');
  });

  it('treats files under a custom registryRoot as snapshots, not projects', async () => {
    ws.write('snapshots/a/agent.json', definitionJson({ slug: 'snap', version: '1.0.0' }));
    // registry/agents is an ordinary folder now: its old write-router copy is a second write-router
    const error = (await infer(ws, { registryRoot: 'snapshots' }).catch(
      (e: unknown) => e,
    )) as AggregateCreateNodesError;
    expect(error).toBeInstanceOf(AggregateCreateNodesError);
    expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([
      [
        'registry/agents/old/agent.json',
        expect.stringContaining('identity.slug "write-router" is already stated by agents/write-router/agent.json'),
      ],
    ]);
    const names = Object.keys(projectsOf(error.partialResults));
    expect(names).not.toContain('snap');
    expect(projectsOf(error.partialResults)['write-router']!.root).toBe('agents/write-router');
  });

  describe('invalid definitions', () => {
    it('still infers a project, named after its folder, when the definition does not parse', async () => {
      ws.write('agents/broken-one/agent.json', '{ "identity": { "slug": "never-read" ');
      ws.write(
        'agents/half/agent.json',
        JSON.stringify({ identity: { slug: 'half', versionSemver: 'one' }, composition: 'dag' }),
      );
      const projects = projectsOf(await infer(ws));
      expect(projects['broken-one']).toMatchObject({ root: 'agents/broken-one', tags: ['agentdef'] });
      expect(projects['broken-one']!.targets!.validate).toMatchObject({
        executor: 'agentdef:validate',
        options: { definition: '{projectRoot}/agent.json' },
      });
      // schema-invalid but readable: the slug it states names it
      expect(projects['half']).toMatchObject({
        root: 'agents/half',
        metadata: { agentdef: { slug: 'half', versionSemver: 'one', pins: [] } },
      });
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
      expect(aggregate.errors[0]![1].message).toMatch(
        /agents\/dir\/agent\.json: cannot read the agent definition \(EISDIR\)/,
      );
      expect(Object.keys(projectsOf(aggregate.partialResults)).sort()).toEqual([
        'edit-assistant',
        'fallback-writer',
        'pdf-extractor',
        'splice-resolver',
        'write-router',
      ]);
    });

    it('reports two definitions with one slug (both files, the field to change) and keeps the first by path as the project', async () => {
      ws.write('agents/writer-copy/agent.json', definitionJson({ slug: 'write-router', version: '2.0.0' }));
      const error = (await infer(ws).catch((e: unknown) => e)) as AggregateCreateNodesError;
      expect(error).toBeInstanceOf(AggregateCreateNodesError);
      const slugLine = (file: string) =>
        ws
          .read(file)
          .split('\n')
          .findIndex((l) => l.includes('"slug": "write-router"')) + 1;
      expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([
        [
          'agents/writer-copy/agent.json',
          `agents/writer-copy/agent.json:${slugLine('agents/writer-copy/agent.json')}:13: identity.slug "write-router" is already stated by agents/write-router/agent.json:${slugLine('agents/write-router/agent.json')}:13; each agent is one Nx project named by its slug and pins resolve by it, so change /identity/slug in one of the two files (and the pins that mean it)`,
        ],
      ]);
      const projects = projectsOf(error.partialResults);
      expect(projects['write-router']!.root).toBe('agents/write-router');
      expect(Object.values(projects).map((p) => p.root)).not.toContain('agents/writer-copy');
      // The rest of the graph is whole, edges included.
      expect(Object.keys(projects).sort()).toEqual([
        'edit-assistant',
        'fallback-writer',
        'pdf-extractor',
        'splice-resolver',
        'write-router',
      ]);
    });

    it('reports two agents with one identity.id and keeps both projects (their names differ)', async () => {
      const id = '01JF3Z8Q2M0000000000000000';
      ws.write('agents/fallback-writer/agent.json', definitionJson({ slug: 'fallback-writer', version: '1.1.0', id }));
      ws.write('agents/splice-resolver/agent.json', definitionJson({ slug: 'splice-resolver', version: '0.4.2', id }));
      const error = (await infer(ws).catch((e: unknown) => e)) as AggregateCreateNodesError;
      expect(error).toBeInstanceOf(AggregateCreateNodesError);
      expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([
        [
          'agents/splice-resolver/agent.json',
          `agents/splice-resolver/agent.json:4:11: identity.id "${id}" is already stated by agents/fallback-writer/agent.json:4:11; an id names exactly one agent, so give one of the two files a new ULID in /identity/id`,
        ],
      ]);
      expect(Object.keys(projectsOf(error.partialResults)).sort()).toEqual([
        'edit-assistant',
        'fallback-writer',
        'pdf-extractor',
        'splice-resolver',
        'write-router',
      ]);
    });

    it('reports a second definition in one folder and keeps the agent.json project', async () => {
      ws.write('agents/fallback-writer/agent.yaml', YAML_AGENT);
      const error = (await infer(ws).catch((e: unknown) => e)) as AggregateCreateNodesError;
      expect(error).toBeInstanceOf(AggregateCreateNodesError);
      expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([
        [
          'agents/fallback-writer/agent.yaml',
          expect.stringMatching(/already holds agents\/fallback-writer\/agent\.json/),
        ],
      ]);
      expect(projectsOf(error.partialResults)['fallback-writer']!.root).toBe('agents/fallback-writer');
    });
  });

  describe('the inference cache', () => {
    const cacheFile = (options?: AgentdefPluginOptions) =>
      inferenceCachePath(ws.root, normalizePluginOptions(options).hash);
    const readCache = (options?: AgentdefPluginOptions) =>
      JSON.parse(readFileSync(cacheFile(options), 'utf8')) as {
        pluginVersion: string;
        entries: Record<string, { slug?: string }>;
      };
    /** Rewrites every cached summary's slug: a later run that shows it was served from the cache. */
    const poison = (options?: AgentdefPluginOptions, pluginVersion?: string) => {
      const data = readCache(options);
      for (const entry of Object.values(data.entries)) if (entry.slug) entry.slug = `cached-${entry.slug}`;
      if (pluginVersion !== undefined) data.pluginVersion = pluginVersion;
      writeFileSync(cacheFile(options), JSON.stringify(data));
    };

    it('lives in the workspace data directory, one file per options hash', async () => {
      await infer(ws);
      expect(cacheFile()).toBe(
        join(ws.root, '.nx', 'workspace-data', `agentdef-${normalizePluginOptions(undefined).hash}.json`),
      );
      // five projects and the one published snapshot that exists
      expect(Object.keys(readCache().entries)).toHaveLength(6);
    });

    it('serves a second run from the cache', async () => {
      await infer(ws);
      poison();
      const names = Object.keys(projectsOf(await infer(ws))).sort();
      expect(names).toEqual([
        'cached-edit-assistant',
        'cached-fallback-writer',
        'cached-pdf-extractor',
        'cached-splice-resolver',
        'cached-write-router',
      ]);
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
      expect(
        existsSync(join(ws.root, 'elsewhere/data', `agentdef-${normalizePluginOptions(undefined).hash}.json`)),
      ).toBe(true);
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

/** A schema-valid manifest (the application fixture) composing `agents` (`slug@version`), fanned out from its template. */
function applicationText(id: string, agents: Array<`${string}@${string}`>, format: 'json' | 'yaml' = 'json'): string {
  const manifest = edited((m) => {
    m.id = id;
    m.nodes = m.nodes.filter((n: { id: string }) => n.id !== 'planner' && n.id !== 'result');
    m.edges = m.edges.filter((e: { from: { node: string } }) => e.from.node === 'question');
    m.outputs = [];
    agents.forEach((pin, i) => {
      const [slug, version] = pin.split('@') as [string, string];
      m.nodes.push({
        id: `agent-${i}`,
        component: { id: 'agentdef.registered-agent', revision: '1.0.0' },
        config: { slug, version },
      });
      m.nodes.push({ id: `out-${i}`, component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} });
      m.edges.push({ from: { node: 'template', port: 'prompt' }, to: { node: `agent-${i}`, port: 'prompt' } });
      m.edges.push({ from: { node: `agent-${i}`, port: 'plan' }, to: { node: `out-${i}`, port: 'value' } });
      m.outputs.push({ name: `plan${i}`, node: `out-${i}`, port: 'value' });
    });
  });
  return asText(manifest, format);
}

describe('createNodes for application manifests', () => {
  let ws: TempWorkspace;
  const savedEnv = { ...process.env };

  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    delete process.env.NX_PROJECT_GRAPH_CACHE_DIRECTORY;
    ws = tempWorkspace({
      'agents/write-router/agent.json': definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2', 'published@2.0.0'],
      }),
      'agents/splice-resolver/agent.json': definitionJson({ slug: 'splice-resolver', version: '0.4.2' }),
      'agents/pdf/agent.yaml': YAML_AGENT,
      'registry/agents/published/2.0.0.json': definitionJson({
        slug: 'published',
        version: '2.0.0',
        pins: ['deep@3.0.0'],
      }),
      'apps/triage/application.json': applicationText('support-triage', [
        'write-router@1.4.0',
        'pdf-extractor@1.2.0',
        'unpublished@1.0.0',
      ]),
      'apps/summary/application.yaml': applicationText('summary', ['splice-resolver@0.4.2'], 'yaml'),
    });
  });

  afterEach(() => {
    ws.remove();
    process.env = { ...savedEnv };
  });

  it('infers one project per manifest, named by its id, rooted at its folder, beside the agent projects', async () => {
    const results = await infer(ws);
    expect(results.map(([file]) => file)).toEqual([
      'agents/pdf/agent.yaml',
      'agents/splice-resolver/agent.json',
      'agents/write-router/agent.json',
      'apps/summary/application.yaml',
      'apps/triage/application.json',
    ]);
    const projects = projectsOf(results);
    expect(projects['support-triage']).toMatchObject({
      root: 'apps/triage',
      tags: ['agentdef', 'agentdef:application'],
      namedInputs: { agentdefManifest: ['{projectRoot}/application.json'] },
    });
    expect(projects['summary']).toMatchObject({
      root: 'apps/summary',
      namedInputs: { agentdefManifest: ['{projectRoot}/application.yaml'] },
    });
    expect(projects['support-triage']!.metadata).toMatchObject({
      description: 'Application support-triage@1.0.0',
      technologies: ['agentdef'],
      targetGroups: { agentdef: ['plan', 'check', 'execute'] },
      agentdefApplication: {
        manifest: 'apps/triage/application.json',
        id: 'support-triage',
        revision: '1.0.0',
        agents: [
          { slug: 'write-router', version: '1.4.0', line: expect.any(Number) },
          { slug: 'pdf-extractor', version: '1.2.0', line: expect.any(Number) },
          { slug: 'unpublished', version: '1.0.0', line: expect.any(Number) },
        ],
      },
    });
    // an application is no agent: createDependencies tells them apart by their metadata
    expect(projects['support-triage']!.metadata!.agentdef).toBeUndefined();
  });

  it('infers plan and check (cached) and execute (never cached), dry-run by default', async () => {
    const { plan, check, execute } = projectsOf(await infer(ws))['support-triage']!.targets!;
    expect(plan).toMatchObject({
      executor: 'agentdef:application-plan',
      cache: true,
      options: { manifest: '{projectRoot}/application.json', mode: 'dry-run' },
      outputs: [],
    });
    expect(check).toMatchObject({
      executor: 'agentdef:application-check',
      cache: true,
      options: { manifest: '{projectRoot}/application.json' },
      outputs: [],
    });
    expect(Object.keys(check!.options)).toEqual(['manifest']); // its schema takes only the manifest
    expect(execute).toEqual({
      executor: 'agentdef:application-execute',
      cache: false,
      options: { manifest: '{projectRoot}/application.json', mode: 'dry-run' },
      metadata: {
        description: 'Plans, then executes the application step by step (dry-run unless --mode=live); never cached',
        technologies: ['agentdef'],
      },
    });
  });

  it('gives plan and check the manifest plus the whole tree of every composed agent as inputs', async () => {
    const projects = projectsOf(await infer(ws));
    // triage -> write-router -> {splice-resolver, published (registry) -> deep (registry)}, pdf-extractor, unpublished (registry)
    // (the composed workspace agents and their workspace children are dependencies: `^agentdefDefinition`)
    const triage = [
      'agentdefManifest',
      '^agentdefDefinition',
      '{workspaceRoot}/registry/agents/published/2.0.0.json',
      '{workspaceRoot}/registry/agents/deep/3.0.0.json',
      '{workspaceRoot}/registry/agents/unpublished/1.0.0.json',
      // the index vouching for those snapshots: editing only it replans
      '{workspaceRoot}/registry/agents/index.json',
      // the reference gateway's approvals are owner evidence a plan binds; live runs' outbox is not
      '{workspaceRoot}/approved-artifacts/**/*',
      '!{workspaceRoot}/approved-artifacts/outbox/**/*',
    ];
    expect(projects['support-triage']!.targets!.plan!.inputs).toEqual(triage);
    // check also runs a dry-run with the entrypoint values beside the manifest
    expect(projects['support-triage']!.targets!.check!.inputs).toEqual([...triage, '{projectRoot}/inputs.json']);
    expect(projects['summary']!.targets!.plan!.inputs).toEqual([
      'agentdefManifest',
      '^agentdefDefinition',
      '{workspaceRoot}/approved-artifacts/**/*',
      '!{workspaceRoot}/approved-artifacts/outbox/**/*',
    ]);
  });

  it('names the file the generator writes sample inputs to, and check reads them from', () => {
    expect(CHECK_INPUTS_FILE).toBe(INPUTS_FILE);
  });

  it('names the folder the CLI reads approvals from by default, less its outbox', () => {
    expect(DEFAULT_APPROVED_ARTIFACTS).toBe(DEFAULT_ARTIFACTS_FOLDER);
    expect(approvedArtifactsInputs(DEFAULT_APPROVED_ARTIFACTS)).toEqual([
      `{workspaceRoot}/${DEFAULT_ARTIFACTS_FOLDER}/**/*`,
      `!{workspaceRoot}/${DEFAULT_ARTIFACTS_FOLDER}/${OUTBOX_FOLDER}/**/*`,
    ]);
  });

  it('passes the approvedArtifacts option as --artifacts, and a component-host.mjs beside the manifest as --host', async () => {
    ws.write(`apps/triage/${COMPONENT_HOST_FILE}`, 'export default { packs: [], adapters: [], ownerResolvers: [] };\n');
    const projects = projectsOf(await infer(ws, { approvedArtifacts: 'ops/approved' }));
    const plan = projects['support-triage']!.targets!.plan!;
    expect(plan.options).toMatchObject({ artifacts: 'ops/approved', host: `{projectRoot}/${COMPONENT_HOST_FILE}` });
    expect(plan.inputs).toEqual(
      expect.arrayContaining([
        '{workspaceRoot}/ops/approved/**/*',
        '!{workspaceRoot}/ops/approved/outbox/**/*',
        `{projectRoot}/${COMPONENT_HOST_FILE}`,
      ]),
    );
    expect(projects['support-triage']!.targets!.execute!.options).toMatchObject({
      artifacts: 'ops/approved',
      host: `{projectRoot}/${COMPONENT_HOST_FILE}`,
    });
    const defaults = projectsOf(await infer(ws));
    expect(defaults['support-triage']!.targets!.check!.options).not.toHaveProperty('artifacts');
  });

  it('renames the application targets with applicationTargetNames, leaving the agent targets alone', async () => {
    const projects = projectsOf(
      await infer(ws, {
        applicationTargetNames: { plan: 'plan-app', execute: 'run-app' },
        targetNames: { validate: 'check-agent' },
        operationalTargets: true,
      }),
    );
    expect(Object.keys(projects['support-triage']!.targets!)).toEqual(['plan-app', 'check', 'run-app']);
    expect(projects['support-triage']!.targets!['run-app']!.executor).toBe('agentdef:application-execute');
    expect(projects['support-triage']!.metadata!.targetGroups).toEqual({ agentdef: ['plan-app', 'check', 'run-app'] });
    expect(Object.keys(projects['write-router']!.targets!)).toEqual([
      'check-agent',
      'plan',
      'compile',
      'run',
      'serve',
      'promote',
      'publish',
      'deploy',
      'eval',
    ]);
  });

  it('still infers a project for an invalid manifest: by its id, or by its folder when the id is unreadable', async () => {
    ws.write('apps/half/application.json', JSON.stringify({ id: 'half-app', nodes: 'none', bounds: {} }));
    ws.write('apps/Broken_Name/application.json', '{ "id": "never-read" ');
    ws.write('apps/no-id/application.yml', 'nodes: []\n');
    const projects = projectsOf(await infer(ws));
    expect(projects['half-app']).toMatchObject({
      root: 'apps/half',
      metadata: { description: 'Application half-app@?', agentdefApplication: { id: 'half-app', agents: [] } },
    });
    expect(projects['Broken_Name']).toMatchObject({
      root: 'apps/Broken_Name',
      metadata: { description: 'Application apps/Broken_Name/application.json (its id is unreadable)' },
    });
    expect(projects['Broken_Name']!.targets!.check).toMatchObject({
      executor: 'agentdef:application-check',
      options: { manifest: '{projectRoot}/application.json' },
    });
    expect(projects['no-id']).toMatchObject({
      root: 'apps/no-id',
      namedInputs: { agentdefManifest: ['{projectRoot}/application.yml'] },
    });
  });

  it('reports a manifest beside an agent definition, or a second manifest in a folder, and keeps every other project', async () => {
    ws.write('agents/pdf/application.json', applicationText('pdf-app', []));
    ws.write('apps/summary/application.json', applicationText('summary-json', []));
    mkdirSync(join(ws.root, 'apps/dir/application.json'), { recursive: true });
    const error = (await infer(ws, undefined, [...definitionFiles(ws), 'apps/dir/application.json']).catch(
      (e: unknown) => e,
    )) as AggregateCreateNodesError;
    expect(error).toBeInstanceOf(AggregateCreateNodesError);
    expect(error.errors.map(([file, e]) => [file, e.message])).toEqual([
      [
        'agents/pdf/application.json',
        expect.stringMatching(
          /^agents\/pdf\/application\.json: agents\/pdf already holds the agent definition agents\/pdf\/agent\.yaml; a folder is one project/,
        ),
      ],
      ['apps/dir/application.json', 'apps/dir/application.json: cannot read the application manifest (EISDIR)'],
      [
        'apps/summary/application.yaml',
        expect.stringMatching(
          /apps\/summary already holds apps\/summary\/application\.json; a folder holds one application manifest/,
        ),
      ],
    ]);
    const projects = projectsOf(error.partialResults);
    expect(Object.keys(projects).sort()).toEqual([
      'pdf-extractor',
      'splice-resolver',
      'summary-json',
      'support-triage',
      'write-router',
    ]);
    expect(projects['pdf-extractor']!.root).toBe('agents/pdf');
  });

  it('never infers a manifest under the registry folder', async () => {
    ws.write('registry/agents/app/application.json', applicationText('registry-app', []));
    expect(Object.keys(projectsOf(await infer(ws)))).not.toContain('registry-app');
  });
});
