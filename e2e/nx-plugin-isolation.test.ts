/**
 * agentdef under Nx's default plugin isolation: every plugin loaded in a worker process of its
 * own (NX_ISOLATE_PLUGINS unset), as every user's workspace runs it. The other end-to-end tests
 * load plugins in the nx process (e2e/support/pack.ts: a third of each command's CPU); this file
 * holds the plugin to the same behaviour with isolation on: inference, the pin edges, a
 * generator, an executor and the cache.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';

const ok = (r: { status: number | null; stdout: string; stderr: string }) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

describe("agentdef with Nx's isolated plugin workers", () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = createWorkspace('nx-isolation', packAgentdef());
    delete ws.env['NX_ISOLATE_PLUGINS'];
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    ok(ws.nx(['g', 'agentdef:agent', 'leaf', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(
      ws.nx([
        'g',
        'agentdef:agent',
        'root',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=leaf@0.1.0',
        '--no-interactive',
      ]),
    );
  });

  it('runs with isolation on (the environment leaves Nx its default)', () => {
    expect(ws.env['NX_ISOLATE_PLUGINS']).toBeUndefined();
    const report = ok(ws.nx(['show', 'projects', '--json'], { NX_PERF_LOGGING: 'true' }));
    expect(report.stdout + report.stderr).toMatch(/start-plugin-worker:agentdef/);
  });

  it('infers the projects and draws the pin as an edge', () => {
    const projects = JSON.parse(ok(ws.nx(['show', 'projects', '--json'])).stdout) as string[];
    expect(projects.filter((p) => p === 'leaf' || p === 'root').sort()).toEqual(['leaf', 'root']);
    ok(ws.nx(['graph', '--file=graph.json']));
    const graph = JSON.parse(readFileSync(join(ws.dir, 'graph.json'), 'utf8')) as {
      graph: { dependencies: Record<string, Array<{ target: string; type: string }>> };
    };
    expect((graph.graph.dependencies['root'] ?? []).map((d) => `${d.target}:${d.type}`)).toEqual(['leaf:implicit']);
  });

  it('compiles through the executor, then serves the same compile from the cache', () => {
    ok(ws.nx(['run', 'root:compile']));
    const plan = JSON.parse(readFileSync(join(ws.dir, 'dist/agents/root/plan.json'), 'utf8')) as { edges: unknown[] };
    expect(plan.edges).toEqual([{ from: 'root@0.1.0', kind: 'pin', to: 'root@0.1.0/leaf@0.1.0' }]);
    const again = ok(ws.nx(['run', 'root:compile']));
    expect(again.stdout).toMatch(/existing outputs match the cache|local cache|read the output from the cache/i);
  });
});
