/**
 * The project graph follows the pins whatever order definitions appear in, with no `nx reset`:
 * agentdef packed and installed into a fresh Nx workspace, the real `nx` CLI (daemon off), one
 * workspace carried through every step so Nx's file-map cache is warm from the step before.
 * A parent pins a child that does not exist yet; the child appears, is removed, changes version;
 * the pin changes; `nx graph` and `nx show projects --affected` are read after each step. Then
 * two definitions with one slug, and two with one `identity.id`: Nx reports agentdef's message.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { definitionJson, type DefinitionSpec } from '../plugin/graph/test-support';
import { createWorkspace, packAgentdef, type CommandResult, type TempWorkspace } from './support/nx-workspace';

const AGENTS = ['base', 'child', 'parent', 'twin', 'other'];

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

describe('the project graph without nx reset', () => {
  let ws: TempWorkspace;

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(ws.dir, file)), { recursive: true });
    writeFileSync(join(ws.dir, file), text);
  };
  const agent = (folder: string, spec: DefinitionSpec) => write(`${folder}/agent.json`, definitionJson(spec));
  const remove = (folder: string) => rmSync(join(ws.dir, folder), { recursive: true, force: true });

  /** `nx graph --file=graph.json`: its output, and every agent-to-agent edge of the file, as `source->target`. */
  const drawGraph = (): { output: string; edges: string[]; roots: Record<string, string> } => {
    rmSync(join(ws.dir, 'graph.json'), { force: true });
    const run = ws.nx(['graph', '--file=graph.json']);
    const { graph } = JSON.parse(readFileSync(join(ws.dir, 'graph.json'), 'utf8')) as {
      graph: {
        nodes: Record<string, { data: { root: string } }>;
        dependencies: Record<string, Array<{ target: string }>>;
      };
    };
    const edges = Object.entries(graph.dependencies)
      .filter(([source]) => AGENTS.includes(source))
      .flatMap(([source, deps]) => deps.filter((d) => AGENTS.includes(d.target)).map((d) => `${source}->${d.target}`))
      .sort();
    const roots = Object.fromEntries(Object.entries(graph.nodes).map(([name, node]) => [name, node.data.root]));
    return { output: run.stdout + run.stderr, edges, roots };
  };
  const graphEdges = (): string[] => {
    const { output, edges } = drawGraph();
    expect(output).not.toMatch(/error/i);
    return edges;
  };
  /** The agent projects `nx affected` reaches from a change to `file`. */
  const affectedBy = (file: string): string[] => {
    const out = ok(ws.nx(['show', 'projects', '--affected', `--files=${file}`, '--json'])).stdout;
    return (JSON.parse(out) as string[]).filter((p) => AGENTS.includes(p)).sort();
  };

  beforeAll(() => {
    ws = createWorkspace('graph-order', packAgentdef());
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    write('notes/readme.md', 'not an agent\n');
    // The parent already has an edge (to base) and pins a child that does not exist yet.
    agent('base', { slug: 'base', version: '1.0.0' });
    agent('parent', { slug: 'parent', version: '1.0.0', pins: ['base@1.0.0', 'child@1.0.0'] });
  });

  it('draws the existing edge only while the child is missing', () => {
    expect(graphEdges()).toEqual(['parent->base']);
    expect(affectedBy('base/agent.json')).toEqual(['base', 'parent']);
    expect(affectedBy('notes/readme.md')).toEqual([]);
  });

  it('gains the edge when the child appears after its parent (the parent file unchanged)', () => {
    agent('child', { slug: 'child', version: '1.0.0' });
    expect(graphEdges()).toEqual(['parent->base', 'parent->child']);
    expect(affectedBy('child/agent.json')).toEqual(['child', 'parent']);
    expect(affectedBy('notes/readme.md')).toEqual([]);
  });

  it('drops the edge when the child is removed, and draws it again when the child comes back', () => {
    remove('child');
    expect(graphEdges()).toEqual(['parent->base']);
    expect(affectedBy('parent/agent.json')).toEqual(['parent']);
    agent('child', { slug: 'child', version: '1.0.0' });
    expect(graphEdges()).toEqual(['parent->base', 'parent->child']);
  });

  it('follows a version change of the child: a pin that no longer resolves draws no edge', () => {
    agent('child', { slug: 'child', version: '2.0.0' });
    expect(graphEdges()).toEqual(['parent->base']);
    expect(affectedBy('child/agent.json')).toEqual(['child']);
  });

  it('follows a change of the pin: to the version that resolves, then to one that does not', () => {
    agent('parent', { slug: 'parent', version: '1.0.0', pins: ['base@1.0.0', 'child@2.0.0'] });
    expect(graphEdges()).toEqual(['parent->base', 'parent->child']);
    expect(affectedBy('child/agent.json')).toEqual(['child', 'parent']);
    agent('parent', { slug: 'parent', version: '1.0.0', pins: ['base@1.0.0', 'child@3.0.0'] });
    expect(graphEdges()).toEqual(['parent->base']);
    expect(affectedBy('child/agent.json')).toEqual(['child']);
    expect(affectedBy('base/agent.json')).toEqual(['base', 'parent']);
  });

  // Nx draws the rest of the graph (a partial graph) and prints the plugin's message.
  it('reports two definitions with one slug itself: both files and identity.slug, not Nx advice to write a project.json', () => {
    agent('twin', { slug: 'base', version: '1.1.0' });
    try {
      const { output, edges, roots } = drawGraph();
      expect(output).toMatch(
        /twin\/agent\.json:\d+:\d+: identity\.slug "base" is already stated by base\/agent\.json:\d+:\d+/,
      );
      expect(output).toContain('change /identity/slug in one of the two files');
      expect(output).not.toMatch(/project\.json/);
      expect(edges).toEqual(['parent->base']);
      expect(roots['base']).toBe('base');
    } finally {
      remove('twin');
    }
    expect(graphEdges()).toEqual(['parent->base']); // clean again once one is gone
  });

  it('reports two agents with one identity.id, naming both files and the field, and keeps both projects', () => {
    const id = '01KZZZZZZZZZZZZZZZZZZZZZZZ';
    agent('base', { slug: 'base', version: '1.0.0', id });
    agent('other', { slug: 'other', version: '1.0.0', id });
    try {
      const { output, edges, roots } = drawGraph();
      expect(output).toMatch(
        new RegExp(
          `other/agent\\.json:\\d+:\\d+: identity\\.id "${id}" is already stated by base/agent\\.json:\\d+:\\d+`,
        ),
      );
      expect(output).toContain('a new ULID in /identity/id');
      expect(edges).toEqual(['parent->base']);
      expect(roots['other']).toBe('other');
    } finally {
      remove('other');
    }
    expect(graphEdges()).toEqual(['parent->base']);
  });
});
