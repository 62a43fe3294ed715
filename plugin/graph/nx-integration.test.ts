/**
 * The plugin inside real Nx (the repository's nx 23, no daemon), on a temporary workspace: Nx's
 * own merge of a project.json over the inferred project, its project graph, and its task hasher.
 * The executors are a stub package here; the hash only needs them to resolve.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentdefPluginOptions } from './options';
import { asText, edited } from '../application/__test-support__/application-manifests';
import { definitionJson, REPO_ROOT, tempWorkspace, type TempWorkspace } from './test-support';
import { HUNG_CHILD_MS } from '../../e2e/support/hung-child';

/** Runs in the workspace: builds the graph, hashes `project:target` tasks, prints JSON. */
const PROBE = `
const nx = (m) => require(require.resolve(m, { paths: [process.env.AGENTDEF_REPO] }));
(async () => {
  const { createProjectGraphAsync } = nx('nx/src/project-graph/project-graph');
  const { readNxJson } = nx('nx/src/config/configuration');
  const { createTaskGraph } = nx('nx/src/tasks-runner/create-task-graph');
  const { createTaskHasher } = nx('nx/src/hasher/create-task-hasher');
  const { hashTask } = nx('nx/src/hasher/hash-task');
  const graph = await createProjectGraphAsync({ exitOnError: false });
  const nxJson = readNxJson();
  const hashes = {};
  for (const id of JSON.parse(process.env.AGENTDEF_TASKS)) {
    const [project, target] = id.split(':');
    const taskGraph = createTaskGraph(graph, {}, [project], [target], undefined, {});
    const task = taskGraph.tasks[id];
    await hashTask(createTaskHasher(graph, nxJson), graph, taskGraph, task, process.env, null);
    hashes[id] = { hash: task.hash, projectConfiguration: task.hashDetails.nodes[project + ':ProjectConfiguration'], nodes: Object.keys(task.hashDetails.nodes).sort() };
  }
  const projects = Object.fromEntries(Object.entries(graph.nodes).map(([name, node]) => [name, node.data]));
  const dependencies = Object.fromEntries(Object.entries(graph.dependencies).map(([name, deps]) => [name, deps.map((d) => d.target + ':' + d.type)]));
  process.stdout.write(JSON.stringify({ projects, dependencies, hashes }));
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
`;

interface Probe {
  projects: Record<
    string,
    {
      root: string;
      tags?: string[];
      targets: Record<string, { options: Record<string, unknown>; inputs?: unknown[]; cache?: boolean }>;
    }
  >;
  dependencies: Record<string, string[]>;
  hashes: Record<string, { hash: string; projectConfiguration: string; nodes: string[] }>;
}

function setUpWorkspace(ws: TempWorkspace): void {
  ws.write('package.json', JSON.stringify({ name: 'probe-workspace', private: true }));
  // Nx compiles the TypeScript plugin with the workspace's tsconfig.
  copyFileSync(join(REPO_ROOT, 'tsconfig.base.json'), join(ws.root, 'tsconfig.base.json'));
  const stub = join(ws.root, 'node_modules', 'agentdef');
  mkdirSync(stub, { recursive: true });
  writeFileSync(
    join(stub, 'package.json'),
    JSON.stringify({ name: 'agentdef', version: '0.0.0-stub', executors: './executors.json' }),
  );
  const executor = { implementation: './executor.js', schema: './schema.json' };
  writeFileSync(
    join(stub, 'executors.json'),
    JSON.stringify({
      executors: {
        validate: executor,
        plan: executor,
        compile: executor,
        'application-plan': executor,
        'application-check': executor,
        'application-execute': executor,
      },
    }),
  );
  writeFileSync(join(stub, 'schema.json'), JSON.stringify({ type: 'object', properties: {} }));
  writeFileSync(join(stub, 'executor.js'), 'module.exports = async () => ({ success: true });\n');
  mkdirSync(join(ws.root, 'home'), { recursive: true });
}

function probe(ws: TempWorkspace, options: AgentdefPluginOptions, tasks: string[]): Probe {
  ws.write(
    'nx.json',
    JSON.stringify({
      plugins: [
        {
          plugin: join(REPO_ROOT, 'plugin', 'index.ts'),
          include: ['agents/**/agent.json', 'apps/**/application.json'],
          options,
        },
      ],
      useDaemonProcess: false,
    }),
  );
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('NX_') && !key.startsWith('VITEST')) env[key] = value;
  const run = spawnSync(process.execPath, ['-e', PROBE], {
    cwd: ws.root,
    encoding: 'utf8',
    timeout: HUNG_CHILD_MS,
    env: {
      ...env,
      HOME: join(ws.root, 'home'),
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      AGENTDEF_REPO: REPO_ROOT,
      AGENTDEF_TASKS: JSON.stringify(tasks),
    },
  });
  if (run.status !== 0) throw new Error(`probe failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(run.stdout) as Probe;
}

describe('the plugin in a real Nx workspace', () => {
  let ws: TempWorkspace;
  let first: Probe;
  const tasks = ['write-router:validate', 'write-router:compile', 'triage:plan'];

  beforeAll(() => {
    ws = tempWorkspace({
      'agents/write-router/agent.json': definitionJson({
        slug: 'write-router',
        version: '1.4.0',
        pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0'],
      }),
      'agents/splice-resolver/agent.json': definitionJson({ slug: 'splice-resolver', version: '0.4.2' }),
      'agents/fallback-writer/agent.json': definitionJson({ slug: 'fallback-writer', version: '1.0.0' }),
      // An application composing write-router (the fixture's registered agent, re-pointed).
      'apps/triage/application.json': asText(
        edited((m) => {
          m.id = 'triage';
          m.nodes.find((n: { id: string }) => n.id === 'planner').config = { slug: 'write-router', version: '1.4.0' };
        }),
        'json',
      ),
      // Explicit settings on top of an inferred project.
      'agents/splice-resolver/project.json': JSON.stringify({
        tags: ['team:edit'],
        targets: { compile: { options: { target: 'hb3' } } },
      }),
    });
    setUpWorkspace(ws);
    first = probe(ws, {}, tasks);
  });
  afterAll(() => ws?.remove());

  it('builds the project graph: inferred projects and pin edges (none for a version mismatch)', () => {
    expect(Object.keys(first.projects).sort()).toEqual([
      'fallback-writer',
      'splice-resolver',
      'triage',
      'write-router',
    ]);
    expect(first.dependencies['write-router']).toEqual(['splice-resolver:implicit']);
    expect(first.projects['write-router']!.targets.compile!.options).toMatchObject({
      definition: 'agents/write-router/agent.json',
      outputPath: 'dist/agents/write-router',
    });
  });

  it('keeps a project.json on top of the inferred project (Nx merges them)', () => {
    const splice = first.projects['splice-resolver']!;
    expect(splice.root).toBe('agents/splice-resolver');
    expect(splice.tags).toEqual(expect.arrayContaining(['agentdef', 'agentdef:workers-preferred', 'team:edit']));
    expect(splice.targets.compile!.options).toMatchObject({
      target: 'hb3',
      definition: 'agents/splice-resolver/agent.json',
      maxDepth: 16,
    });
    expect(splice.targets.compile!.cache).toBe(true);
    expect(Object.keys(splice.targets)).toEqual(expect.arrayContaining(['validate', 'plan', 'compile']));
  });

  it('hashes the task stably, and changing a plugin option changes it through the project configuration', () => {
    const again = probe(ws, {}, tasks);
    expect(again.hashes).toEqual(first.hashes);

    // (Every agent option lands in the inferred agent configuration; the unit tests show each one does.)
    const changed = probe(ws, { maxDepth: 3 }, tasks);
    for (const task of tasks.filter((t) => t.startsWith('write-router:'))) {
      // nx.json is an input of every task anyway; the project configuration proves the options themselves count
      expect(changed.hashes[task]!.projectConfiguration).not.toBe(first.hashes[task]!.projectConfiguration);
      expect(changed.hashes[task]!.hash).not.toBe(first.hashes[task]!.hash);
    }
    // The application executors take no resolution bound: the application's configuration stays, nx.json still counts.
    expect(changed.hashes['triage:plan']!.projectConfiguration).toBe(first.hashes['triage:plan']!.projectConfiguration);
    expect(changed.hashes['triage:plan']!.hash).not.toBe(first.hashes['triage:plan']!.hash);
  });

  it('hashes the pinned children into compile and only the definition into validate', () => {
    const compileNodes = first.hashes['write-router:compile']!.nodes;
    expect(compileNodes).toEqual(
      expect.arrayContaining([
        'write-router:agents/write-router/agent.json',
        'splice-resolver:agents/splice-resolver/agent.json',
      ]),
    );
    expect(compileNodes.some((n) => n.includes('registry/agents/fallback-writer/1.1.0.json'))).toBe(true);
    expect(compileNodes).toContain('env:AGENTDEF_COMPILE_TARGET'); // --target on the command line
    const validateNodes = first.hashes['write-router:validate']!.nodes;
    expect(validateNodes.some((n) => n.includes('splice-resolver/agent.json'))).toBe(false);
  });

  it('puts an application above the agents it composes, and hashes their whole trees into its plan', () => {
    expect(first.dependencies['triage']).toEqual(['write-router:implicit']);
    expect(first.projects['triage']!.targets.plan!.options).toEqual({
      manifest: 'apps/triage/application.json',
      mode: 'dry-run',
    });
    const planNodes = first.hashes['triage:plan']!.nodes;
    expect(planNodes).toEqual(
      expect.arrayContaining([
        'triage:apps/triage/application.json',
        'write-router:agents/write-router/agent.json',
        'splice-resolver:agents/splice-resolver/agent.json',
      ]),
    );
    expect(planNodes.some((n) => n.includes('registry/agents/fallback-writer/1.1.0.json'))).toBe(true);
  });
});
