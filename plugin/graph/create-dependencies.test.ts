import { DependencyType, type CreateDependenciesContext, type RawProjectGraphDependency } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asText, edited } from '../application/__test-support__/application-manifests';
import { createDependencies } from './create-dependencies';
import { createNodesV2 } from './create-nodes';
import { definitionJson, dependenciesContext, nodesContext, tempWorkspace, type TempWorkspace } from './test-support';

async function graphContext(ws: TempWorkspace): Promise<CreateDependenciesContext> {
  const files = ws.files().filter((f) => /\/(agent|application)\.(json|yaml|yml)$/.test(f));
  const results = await createNodesV2[1](files, {}, nodesContext(ws.root));
  return dependenciesContext(ws, results);
}

const edges = (deps: RawProjectGraphDependency[]) =>
  deps.map((d) => `${d.source} -> ${d.target} (${d.type}${'sourceFile' in d ? `, ${d.sourceFile}` : ''})`).sort();

describe('createDependencies', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    ws = tempWorkspace({
      'examples/edit-assistant/agent.json': definitionJson({
        slug: 'edit-assistant',
        version: '1.0.0',
        pins: ['write-router@1.4.0'],
      }),
      'examples/write-router/agent.json': definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0'],
      }),
      'examples/splice-resolver/agent.json': definitionJson({ slug: 'splice-resolver', version: '0.4.2' }),
      'examples/fallback-writer/agent.json': definitionJson({ slug: 'fallback-writer', version: '1.1.0' }),
      'examples/other/notes.md': 'not a definition\n',
    });
  });
  afterEach(() => ws.remove());

  it('adds an implicit edge (no source file for Nx to cache it under) for every pin a workspace agent answers', async () => {
    const deps = await createDependencies({}, await graphContext(ws));
    expect(edges(deps)).toEqual([
      'edit-assistant -> write-router (implicit)',
      'write-router -> fallback-writer (implicit)',
      'write-router -> splice-resolver (implicit)',
    ]);
    expect(deps.every((d) => d.type === DependencyType.implicit && !('sourceFile' in d))).toBe(true);
  });

  it('adds no edge for a pin at another version (it resolves from the registry) or to an unknown slug', async () => {
    ws.write('examples/fallback-writer/agent.json', definitionJson({ slug: 'fallback-writer', version: '1.2.0' }));
    ws.write(
      'examples/write-router/agent.json',
      definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0', 'nowhere@1.0.0'],
      }),
    );
    const deps = await createDependencies({}, await graphContext(ws));
    expect(edges(deps)).toEqual([
      'edit-assistant -> write-router (implicit)',
      'write-router -> splice-resolver (implicit)',
    ]);
  });

  it('reads pins from the project metadata and roots from context.projects (keyed by name), not from the disk', async () => {
    const context = await graphContext(ws);
    ws.remove(); // nothing left to read
    // A project.json may rename a project; its edges follow the name.
    const { ['write-router']: router, ...rest } = context.projects;
    const projects = { ...rest, 'renamed-router': { ...router!, name: 'renamed-router' } };
    const projectFileMap = {
      ...context.fileMap.projectFileMap,
      'renamed-router': context.fileMap.projectFileMap['write-router']!,
    };
    const renamed = {
      ...context,
      projects,
      fileMap: { ...context.fileMap, projectFileMap },
      filesToProcess: { ...context.fileMap, projectFileMap },
    };
    expect(edges(await createDependencies({}, renamed))).toEqual([
      'edit-assistant -> renamed-router (implicit)',
      'renamed-router -> fallback-writer (implicit)',
      'renamed-router -> splice-resolver (implicit)',
    ]);
  });

  it('adds no self edge and no duplicate edge, and ignores projects it did not infer', async () => {
    ws.write(
      'examples/loop/agent.json',
      definitionJson({
        slug: 'loop',
        version: '1.0.0',
        pins: ['loop@1.0.0', 'splice-resolver@0.4.2', 'splice-resolver@0.4.2'],
      }),
    );
    const context = await graphContext(ws);
    const withForeign = {
      ...context,
      projects: {
        ...context.projects,
        lib: { root: 'libs/lib', name: 'lib', metadata: { js: { packageName: 'lib' } } },
      },
    };
    const deps = await createDependencies({}, withForeign);
    expect(edges(deps).filter((e) => e.startsWith('loop'))).toEqual(['loop -> splice-resolver (implicit)']);
  });

  it('draws the same edges whatever Nx reports as changed (an unchanged parent still gains and loses its child)', async () => {
    // Nx hands only changed files in filesToProcess and restores the rest from its cache; the
    // edges must come from the projects alone, or a child created after its parent is missed.
    const context = await graphContext(ws);
    const nothingChanged = { ...context, filesToProcess: { projectFileMap: {}, nonProjectFiles: [] } };
    expect(edges(await createDependencies({}, nothingChanged))).toEqual(edges(await createDependencies({}, context)));
    const { ['write-router']: _router, ...withoutRouter } = context.projects;
    expect(edges(await createDependencies({}, { ...nothingChanged, projects: withoutRouter }))).toEqual([]);
  });
});

/** The application fixture, with its one registered agent node per `slug@version` in `agents`. */
function applicationJson(id: string, agents: Array<`${string}@${string}`>): string {
  return asText(
    edited((m) => {
      m.id = id;
      const template = m.nodes.find((n: { id: string }) => n.id === 'planner');
      m.nodes = m.nodes.filter((n: { id: string }) => n.id !== 'planner');
      agents.forEach((pin, i) => {
        const [slug, version] = pin.split('@') as [string, string];
        m.nodes.push({ ...template, id: i === 0 ? 'planner' : `planner-${i}`, config: { slug, version } });
      });
    }),
    'json',
  );
}

describe('createDependencies for applications', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    delete process.env.NX_WORKSPACE_DATA_DIRECTORY;
    ws = tempWorkspace({
      'agents/write-router/agent.json': definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2'],
      }),
      'agents/splice-resolver/agent.json': definitionJson({ slug: 'splice-resolver', version: '0.4.2' }),
      'agents/fallback-writer/agent.json': definitionJson({ slug: 'fallback-writer', version: '1.1.0' }),
      'apps/triage/application.json': applicationJson('triage', [
        'write-router@1.4.0',
        'fallback-writer@1.1.0',
        'write-router@1.4.0',
      ]),
    });
  });
  afterEach(() => ws.remove());

  it('adds one implicit edge from an application to each agent it composes', async () => {
    const deps = await createDependencies({}, await graphContext(ws));
    expect(edges(deps)).toEqual([
      'triage -> fallback-writer (implicit)',
      'triage -> write-router (implicit)',
      'write-router -> splice-resolver (implicit)',
    ]);
  });

  it('adds no edge for an agent at another version or one no project answers (it resolves from the registry)', async () => {
    ws.write(
      'apps/triage/application.json',
      applicationJson('triage', ['write-router@1.5.0', 'nowhere@1.0.0', 'splice-resolver@0.4.2']),
    );
    expect(edges(await createDependencies({}, await graphContext(ws))).filter((e) => e.startsWith('triage'))).toEqual([
      'triage -> splice-resolver (implicit)',
    ]);
  });

  it('follows renamed projects (context.projects is keyed by name) and never makes an application a target', async () => {
    const context = await graphContext(ws);
    const { triage, ['write-router']: router, ...rest } = context.projects;
    const projects = {
      ...rest,
      'triage-app': { ...triage!, name: 'triage-app' },
      router: { ...router!, name: 'router' },
    };
    const projectFileMap = {
      ...context.fileMap.projectFileMap,
      'triage-app': context.fileMap.projectFileMap['triage']!,
      router: context.fileMap.projectFileMap['write-router']!,
    };
    const renamed = {
      ...context,
      projects,
      fileMap: { ...context.fileMap, projectFileMap },
      filesToProcess: { ...context.fileMap, projectFileMap },
    };
    expect(edges(await createDependencies({}, renamed))).toEqual([
      'router -> splice-resolver (implicit)',
      'triage-app -> fallback-writer (implicit)',
      'triage-app -> router (implicit)',
    ]);
  });

  it('draws the edges of an application from the projects, not the file map', async () => {
    const context = await graphContext(ws);
    const untracked = {
      ...context,
      fileMap: { projectFileMap: {}, nonProjectFiles: [] },
      filesToProcess: { projectFileMap: {}, nonProjectFiles: [] },
    };
    expect(edges(await createDependencies({}, untracked)).filter((e) => e.startsWith('triage'))).toEqual([
      'triage -> fallback-writer (implicit)',
      'triage -> write-router (implicit)',
    ]);
  });
});
