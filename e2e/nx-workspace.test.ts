/**
 * agentdef as users meet it: packed with `npm pack`, installed into a fresh Nx workspace, driven
 * by the real `nx` CLI. Generators build a three-level DAG; compile, affected, graph and the cache
 * behave as Nx users expect; two clones sharing one cache restore identical outputs.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startRemoteCache } from './support/http-remote-cache';
import {
  cloneWorkspace,
  createWorkspace,
  packAgentdef,
  snapshotTree,
  type TempWorkspace,
} from './support/nx-workspace';

const ok = (r: { status: number | null; stdout: string; stderr: string }) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

describe('agentdef in a fresh Nx workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = createWorkspace('nx-e2e', packAgentdef());
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    // Three levels: root -> mid -> leaf (plus a tuned specialist under mid).
    ok(ws.nx(['g', 'agentdef:agent', 'leaf', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(
      ws.nx([
        'g',
        'agentdef:agent',
        'tuned',
        '--kind=agent',
        '--runtime=container-required',
        '--tier=tuned',
        '--provider=custom:acme-tuned',
        '--model=splice-7b',
        '--no-interactive',
      ]),
    );
    ok(
      ws.nx([
        'g',
        'agentdef:agent',
        'mid',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=leaf@0.1.0,tuned@0.1.0',
        '--no-interactive',
      ]),
    );
    ok(
      ws.nx([
        'g',
        'agentdef:agent',
        'root',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=mid@0.1.0',
        '--no-interactive',
      ]),
    );
  });

  it('infers one project per agent with validate, plan and compile targets', () => {
    const projects = ok(ws.nx(['show', 'projects', '--json'])).stdout;
    expect(
      (JSON.parse(projects) as string[]).filter((p) => ['leaf', 'tuned', 'mid', 'root'].includes(p)).sort(),
    ).toEqual(['leaf', 'mid', 'root', 'tuned']);
    const root = JSON.parse(ok(ws.nx(['show', 'project', 'root', '--json'])).stdout) as {
      targets: Record<string, { cache?: boolean; outputs?: string[] }>;
    };
    expect(Object.keys(root.targets)).toEqual(expect.arrayContaining(['validate', 'plan', 'compile']));
    expect(root.targets.compile!.cache).toBe(true);
    expect(root.targets.compile!.outputs).toEqual(['{options.outputPath}']);
  });

  it('draws the composition DAG as the project graph (edges equal the pins)', () => {
    ok(ws.nx(['graph', '--file=graph.json']));
    const graph = JSON.parse(readFileSync(join(ws.dir, 'graph.json'), 'utf8')) as {
      graph: { dependencies: Record<string, Array<{ target: string; type: string }>> };
    };
    const agents = ['leaf', 'tuned', 'mid', 'root'];
    const edges = agents
      .flatMap((a) =>
        (graph.graph.dependencies[a] ?? [])
          .filter((d) => agents.includes(d.target))
          .map((d) => `${a}->${d.target}:${d.type}`),
      )
      .sort();
    expect(edges).toEqual(['mid->leaf:implicit', 'mid->tuned:implicit', 'root->mid:implicit']);
  });

  it('compiles the leaf for local-mac and the root for hb3 (the --target option reaches the executor)', () => {
    ok(ws.nx(['run', 'leaf:compile', '--target=local-mac']));
    const leafPlan = JSON.parse(readFileSync(join(ws.dir, 'dist/agents/leaf/plan.json'), 'utf8')) as {
      target?: string;
    };
    expect(JSON.stringify(leafPlan)).toContain('local-mac');
    ok(ws.nx(['run', 'root:compile', '--target=hb3']));
    const rootPlan = readFileSync(join(ws.dir, 'dist/agents/root/plan.json'), 'utf8');
    expect(rootPlan).toContain('"hb3"');
    expect(rootPlan).not.toContain(ws.dir);
  });

  it('compiles the container specialist for kubernetes: the HB3 image contract and the manifests', () => {
    ok(ws.nx(['run', 'tuned:compile', '--target=kubernetes']));
    const out = join(ws.dir, 'dist/agents/tuned');
    expect(readFileSync(join(out, 'plan.json'), 'utf8')).toContain('"target": "kubernetes"');
    for (const file of ['hb3-job.json', 'image/Dockerfile', 'kubernetes/kustomization.yaml', 'kubernetes/service.yaml'])
      expect(existsSync(join(out, file)), file).toBe(true);
  });

  it('fails closed when an explicit target cannot host the tree, and writes nothing', () => {
    const before = existsSync(join(ws.dir, 'dist/agents/mid'));
    const run = ws.nx(['run', 'mid:compile', '--target=cloudflare-dynamic-worker']);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('runtime_capability_mismatch');
    expect(run.stdout + run.stderr).toContain('tuned');
    expect(existsSync(join(ws.dir, 'dist/agents/mid'))).toBe(before);
  });

  it('reports exactly the leaf and its ancestors as affected by a change to the leaf', () => {
    const out = ok(ws.nx(['show', 'projects', '--affected', '--files=leaf/agent.json', '--json'])).stdout;
    const affected = (JSON.parse(out) as string[]).filter((p) => p !== `nx-e2e-workspace`).sort();
    expect(affected).toEqual(['leaf', 'mid', 'root']);
  });

  it('serves a repeated compile from the cache', () => {
    ok(ws.nx(['run', 'root:compile', '--target=hb3']));
    const again = ok(ws.nx(['run', 'root:compile', '--target=hb3']));
    expect(again.stdout).toMatch(/existing outputs match the cache|local cache|read the output from the cache/i);
  });

  it('caches and restores the folder --outputPath names, not the default one', () => {
    const args = ['run', 'leaf:compile', '--target=local-mac', '--outputPath=out/leaf-elsewhere'];
    ok(ws.nx(args));
    const folder = join(ws.dir, 'out/leaf-elsewhere');
    const written = readFileSync(join(folder, 'plan.json'), 'utf8');
    rmSync(folder, { recursive: true, force: true }); // the output, never the cache
    const again = ok(ws.nx(args));
    expect(again.stdout).toMatch(/local cache|read the output from the cache/i);
    expect(readFileSync(join(folder, 'plan.json'), 'utf8')).toBe(written);
  });

  it("recompiles the root when its grandchild's definition changes, and hits the cache again once it is back", () => {
    ok(ws.nx(['run', 'root:compile', '--target=hb3']));
    const leafFile = join(ws.dir, 'leaf/agent.json');
    const original = readFileSync(leafFile, 'utf8');
    const edited = JSON.parse(original) as { identity: { name: string } };
    edited.identity.name = `${edited.identity.name} (edited)`;
    writeFileSync(leafFile, `${JSON.stringify(edited, null, 2)}\n`);
    try {
      // root -> mid -> leaf: only the pin edges (`^` inputs, which Nx hashes through every level) reach the leaf.
      const changed = ok(ws.nx(['run', 'root:compile', '--target=hb3']));
      expect(changed.stdout).not.toMatch(
        /existing outputs match the cache|local cache|read the output from the cache/i,
      );
    } finally {
      writeFileSync(leafFile, original);
    }
    const restored = ok(ws.nx(['run', 'root:compile', '--target=hb3']));
    expect(restored.stdout).toMatch(/existing outputs match the cache|local cache|read the output from the cache/i);
  });

  it('restores identical outputs from a shared cache in a second clone', async () => {
    // Nx shares a cache across machines through a remote cache; this one keeps its entries in
    // one folder on loopback. The two clones live in different folders.
    const cache = await startRemoteCache(join(ws.home, 'shared-cache'));
    try {
      const env = {
        NX_SELF_HOSTED_REMOTE_CACHE_SERVER: cache.url,
        NX_SELF_HOSTED_REMOTE_CACHE_ACCESS_TOKEN: cache.token,
      };
      const first = cloneWorkspace(ws, 'clone-a', env);
      const second = cloneWorkspace(ws, 'clone-b', env);
      const cold = ok(await first.nxAsync(['run-many', '-t', 'compile']));
      expect(cold.stdout).toMatch(/Successfully ran target compile for 4 projects/);
      expect(cold.stdout).toMatch(/Cache:\s+0\/4 hit/);
      expect(cache.stats.puts).toBe(4);
      const warm = ok(await second.nxAsync(['run-many', '-t', 'compile']));
      expect(warm.stdout).toMatch(/Cache:\s+4\/4 hit/);
      expect(cache.stats.hits).toBe(4);
      expect(snapshotTree(join(second.dir, 'dist'))).toEqual(snapshotTree(join(first.dir, 'dist')));
    } finally {
      await cache.close();
    }
  });

  it('keeps the graph whole when a definition is invalid: the project appears and its validate target reports', () => {
    const broken = join(ws.dir, 'broken');
    mkdirSync(broken, { recursive: true });
    const leaf = readFileSync(join(ws.dir, 'leaf', 'agent.json'), 'utf8');
    // A copy with its own slug and id (a shared id is a duplicate graph inference reports).
    const copy = leaf
      .replace('"slug": "leaf"', '"slug": "broken"')
      .replace(/"id": "[0-9A-Z]{26}"/, '"id": "01KZZZZZZZZZZZZZZZZZZZZZZZ"');
    writeFileSync(join(broken, 'agent.json'), copy.replace('"versionSemver": "0.1.0"', '"versionSemver": "^0.1.0"'));
    try {
      const projects = JSON.parse(ok(ws.nx(['show', 'projects', '--json'])).stdout) as string[];
      expect(projects).toEqual(expect.arrayContaining(['broken', 'leaf', 'mid', 'root', 'tuned']));
      const run = ws.nx(['run', 'broken:validate']);
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/broken\/agent\.json:\d+:\d+/);
      expect(run.stdout + run.stderr).toContain('/identity/versionSemver');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('refuses to generate an agent whose slug already exists', () => {
    const run = ws.nx(['g', 'agentdef:agent', 'leaf', '--no-interactive']);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/leaf.*already exists/i);
  });
});
