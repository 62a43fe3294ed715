/**
 * The index the executors build from the project graph (the graph made by agentdef's own
 * createNodes, on the files Nx would hand it) answers as indexWorkspace on the same workspace,
 * and the plan and compile executors print and write what they print and write without it (the
 * compiler's own walk, as `agentdef plan` plans): a duplicate slug@version with one copy in a
 * folder Nx ignores is reported the same, and a child pin resolves through the graph.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { formatDiagnostics } from '../plugin/definition/format-diagnostics';
import { findDefinitionFiles } from '../plugin/definition/workspace-definitions';
import { planAgent } from '../plugin/compiler/compile';
import { indexWorkspace } from '../plugin/compiler/workspace-index';
import { agent, json } from '../plugin/compiler/test-support';
import { contextWithGraph, inferredProjectGraph } from './__test-support__/inferred-project-graph';
import type { TaskGraph } from '@nx/devkit';
import compileBatchExecutor from './compile/batch';
import compileExecutor from './compile/executor';
import { graphPinLookup, knownIdentitiesOf, walkCachePathFor } from './graph-pin-lookup';
import planExecutor from './plan/executor';
import { executorContext } from './test-support';

const REPO = join(__dirname, '..');
let root: string;
let logs: MockInstance;
let errors: MockInstance;
const printed = (spy: MockInstance) => spy.mock.calls.map((c) => c.join(' ')).join('\n');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-graph-lookup-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(root, 'examples'), { recursive: true });
  logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

/** The definition files Nx would match: all of them, minus those in `ignored` folders (.gitignore, .nxignore). */
const seenByNx = (ignored: readonly string[] = []) =>
  findDefinitionFiles(root).filter((file) => !ignored.some((folder) => file.startsWith(`${folder}/`)));

describe('the index from the project graph', () => {
  it('answers every slug as indexWorkspace, with copies Nx cannot see and one the graph left out', async () => {
    // A copy of an example's slug@version in an ignored folder, and another in a visible one (inference reports it and keeps the first).
    const fallback = readFileSync(join(root, 'examples/fallback-writer/agent.json'), 'utf8');
    write('vendor/fallback-writer/agent.json', fallback);
    write('twins/fallback-writer/agent.json', fallback);
    write('vendor/broken/splice-resolver/agent.json', '{ "identity": ');
    const graph = await inferredProjectGraph(root, seenByNx(['vendor']));
    const known = knownIdentitiesOf(graph);
    expect(known.has('twins/fallback-writer/agent.json')).toBe(false); // left out of the graph
    expect(known.get('examples/fallback-writer/agent.json')).toEqual({
      slug: 'fallback-writer',
      versionSemver: '1.1.0',
    });
    const lookup = graphPinLookup({ root, projectGraph: graph });
    const eager = indexWorkspace(root);
    for (const slug of [...eager.bySlug.keys(), 'broken', 'vendor', 'ghost']) {
      expect(lookup?.definitionsOf(slug), slug).toEqual(eager.definitionsOf(slug));
      expect(lookup?.unreadableNamed(slug), slug).toEqual(eager.unreadableNamed(slug));
    }
    expect(eager.definitionsOf('fallback-writer').map((e) => e.file)).toEqual([
      'examples/fallback-writer/agent.json',
      'twins/fallback-writer/agent.json',
      'vendor/fallback-writer/agent.json',
    ]);
    expect(existsSync(walkCachePathFor(root))).toBe(true);
  });

  it('keeps only well-formed metadata of this agentdef, and none of a file two projects claim', async () => {
    const graph = await inferredProjectGraph(root, seenByNx());
    const base = knownIdentitiesOf(graph);
    expect(base.size).toBeGreaterThan(5);
    const node = (name: string, agentdef: unknown) => ({
      name,
      type: 'app',
      data: { root: name, metadata: { agentdef } },
    });
    const real = graph.nodes['fallback-writer']?.data.metadata?.['agentdef'] as Record<string, unknown>;
    const hostile = {
      nodes: {
        ...graph.nodes,
        a: node('a', { ...real, pluginVersion: '0.0.0-other' }),
        b: node('b', { ...real, definition: '../outside/agent.json' }),
        c: node('c', { ...real, definition: 'x/./agent.json' }),
        d: node('d', { ...real, definition: 'y/agent.json', slug: 'Not A Slug' }),
        e: node('e', { ...real, definition: 'z/agent.json', versionSemver: 7 }),
        f: node('f', { ...real, definition: 'w\\agent.json' }),
        twin: node('twin', { ...real }), // claims examples/fallback-writer/agent.json too
        g: node('g', null),
        h: { name: 'h', type: 'app', data: { root: 'h' } },
      },
      dependencies: {},
    };
    const known = knownIdentitiesOf(hostile as never);
    const expected = new Map(base);
    expected.delete('examples/fallback-writer/agent.json');
    expect(known).toEqual(expected);
    expect(knownIdentitiesOf(undefined).size).toBe(0);
    expect(knownIdentitiesOf({ nodes: {}, dependencies: {} }).size).toBe(0);
    expect(graphPinLookup(executorContext(root))).toBeUndefined(); // no agent in the graph: the compiler's own index
  });
});

describe('the plan executor with the project graph', () => {
  beforeEach(() => {
    write('parent/agent.json', json(agent('parent', '1.0.0', { nodes: [['base', '1.0.0']] })));
    write('base/agent.json', json(agent('base', '1.0.0')));
  });

  it('resolves a child pin through the graph and prints the plan the compiler’s own index gives', async () => {
    const graph = await inferredProjectGraph(root, seenByNx());
    expect(await planExecutor({ definition: 'parent/agent.json' }, contextWithGraph(root, graph, 'parent'))).toEqual({
      success: true,
    });
    const viaGraph = printed(logs);
    expect(viaGraph).toContain('base@1.0.0');
    expect(existsSync(walkCachePathFor(root))).toBe(true); // the graph's index walked (the compiler's own would not keep listings)
    logs.mockClear();
    expect(await planExecutor({ definition: 'parent/agent.json' }, executorContext(root, 'parent', 'plan'))).toEqual({
      success: true,
    });
    expect(printed(logs)).toBe(viaGraph);
    expect(printed(errors)).toBe('');
  });

  it('reports a duplicate slug@version whose second copy lies in a folder Nx ignores, as `agentdef plan` does', async () => {
    write('vendor/base/agent.json', json(agent('base', '1.0.0')));
    const graph = await inferredProjectGraph(root, seenByNx(['vendor']));
    expect(knownIdentitiesOf(graph).has('vendor/base/agent.json')).toBe(false);
    const cli = await planAgent({ file: join(root, 'parent/agent.json'), workspaceRoot: root });
    const expected = formatDiagnostics(cli.diagnostics, { format: 'text', sources: cli.sources });
    expect(expected).toMatch(
      /pin "base@1\.0\.0" matches 2 workspace definitions: base\/agent\.json, vendor\/base\/agent\.json/,
    );
    expect(await planExecutor({ definition: 'parent/agent.json' }, contextWithGraph(root, graph, 'parent'))).toEqual({
      success: false,
    });
    expect(printed(errors)).toBe(expected);
    expect(printed(logs)).toBe('');
  });

  it('compiles a composition to the same files with and without the graph, per task and as a batch', async () => {
    const graph = await inferredProjectGraph(root, seenByNx());
    const context = contextWithGraph(root, graph, 'write-router', 'compile');
    const options = { definition: 'examples/write-router/agent.json', outputPath: 'dist/graph' };
    expect(await compileExecutor(options, context)).toEqual({ success: true });
    expect(await compileExecutor({ ...options, outputPath: 'dist/walk' }, executorContext(root))).toEqual({
      success: true,
    });
    const task = 'write-router:compile';
    const batchGraph = {
      roots: [task],
      tasks: {
        [task]: { id: task, target: { project: 'write-router', target: 'compile' }, overrides: {}, outputs: [] },
      },
      dependencies: { [task]: [] },
      continuousDependencies: { [task]: [] },
    } as unknown as TaskGraph;
    const results = [];
    for await (const result of compileBatchExecutor(
      batchGraph,
      { [task]: { ...options, outputPath: 'dist/batch' } },
      { definition: '' },
      context,
    ))
      results.push(result);
    expect(results.map((r) => [r.task, r.result.success])).toEqual([[task, true]]);
    const planOf = (dir: string) => readFileSync(join(root, dir, 'plan.json'), 'utf8');
    expect(planOf('dist/graph')).toBe(planOf('dist/walk'));
    expect(planOf('dist/batch')).toBe(planOf('dist/walk'));
    expect(JSON.parse(planOf('dist/graph')).nodes.map((n: { file: string }) => n.file)).toEqual([
      'examples/write-router/agent.json',
      'examples/splice-resolver/agent.json',
      'examples/fallback-writer/agent.json',
    ]);
  });
});
