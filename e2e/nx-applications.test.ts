/**
 * Applications as Nx users meet them: agentdef packed with `npm pack`, installed into a fresh Nx
 * workspace, driven by the real `nx` CLI. The generators make three agents and an application
 * composing two of them; the application is a project above its agents in the graph, `nx affected`
 * reaches it from any agent below it, and its `plan`, `execute` and `check` targets run (plan and
 * check cached, execute never).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';

const ok = (r: { status: number | null; stdout: string; stderr: string }) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

const MANIFEST = 'apps/triage/application.json';
const QUESTION = '--input=request.value={"question":"Why is the build red?"}';
const FROM_CACHE = /existing outputs match the cache|local cache|read the output from the cache/i;

describe('applications in a fresh Nx workspace', () => {
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = createWorkspace('nx-apps', packAgentdef());
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    // writer -> leaf; reviewer alone; the application composes writer and reviewer.
    ok(ws.nx(['g', 'agentdef:agent', 'leaf', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(
      ws.nx([
        'g',
        'agentdef:agent',
        'writer',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=leaf@0.1.0',
        '--no-interactive',
      ]),
    );
    ok(ws.nx(['g', 'agentdef:agent', 'reviewer', '--kind=agent', '--runtime=workers-preferred', '--no-interactive']));
    ok(
      ws.nx([
        'g',
        'agentdef:application',
        'triage',
        '--directory=apps',
        '--agents=writer@0.1.0,reviewer@0.1.0',
        '--no-interactive',
      ]),
    );
  });

  it('generates the manifest with its digests filled in, and makes its include cover applications', () => {
    const manifest = JSON.parse(readFileSync(join(ws.dir, MANIFEST), 'utf8')) as {
      id: string;
      source: { uri: string; sha256: string };
      nodes: Array<{ id: string; config: unknown }>;
    };
    expect(manifest.id).toBe('triage');
    expect(manifest.source.uri).toBe(`workspace:/${MANIFEST}`);
    expect(manifest.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.source.sha256).not.toBe('0'.repeat(64));
    expect(manifest.nodes.map((n) => n.id)).toEqual([
      'request',
      'prompt',
      'agent-1',
      'agent-2',
      'result-1',
      'result-2',
    ]);
    expect(manifest.nodes.slice(2, 4).map((n) => n.config)).toEqual([
      { slug: 'writer', version: '0.1.0' },
      { slug: 'reviewer', version: '0.1.0' },
    ]);
    const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as {
      plugins: Array<{ plugin: string; include?: string[] }>;
    };
    expect(nxJson.plugins.find((p) => p.plugin === 'agentdef')!.include).toEqual(
      expect.arrayContaining(['**/agent.json', '**/application.json', '**/application.yaml', '**/application.yml']),
    );
  });

  it('infers the application as a project with plan and check (cached) and execute (never cached)', () => {
    const projects = JSON.parse(ok(ws.nx(['show', 'projects', '--json'])).stdout) as string[];
    expect(projects).toEqual(expect.arrayContaining(['leaf', 'writer', 'reviewer', 'triage']));
    const triage = JSON.parse(ok(ws.nx(['show', 'project', 'triage', '--json'])).stdout) as {
      root: string;
      tags: string[];
      targets: Record<string, { executor: string; cache?: boolean; options: Record<string, unknown> }>;
    };
    expect(triage.root).toBe('apps/triage');
    expect(triage.tags).toEqual(expect.arrayContaining(['agentdef', 'agentdef:application']));
    expect(Object.keys(triage.targets)).toEqual(expect.arrayContaining(['plan', 'check', 'execute']));
    expect(triage.targets.plan).toMatchObject({
      executor: 'agentdef:application-plan',
      cache: true,
      options: { manifest: MANIFEST, mode: 'dry-run' },
    });
    expect(triage.targets.check).toMatchObject({ executor: 'agentdef:application-check', cache: true });
    expect(triage.targets.execute).toMatchObject({
      executor: 'agentdef:application-execute',
      cache: false,
      options: { mode: 'dry-run' },
    });
  });

  it('draws the application above the agents it composes in nx graph', () => {
    ok(ws.nx(['graph', '--file=graph.json']));
    const graph = JSON.parse(readFileSync(join(ws.dir, 'graph.json'), 'utf8')) as {
      graph: { dependencies: Record<string, Array<{ target: string; type: string }>> };
    };
    const edges = (project: string) =>
      (graph.graph.dependencies[project] ?? []).map((d) => `${d.target}:${d.type}`).sort();
    expect(edges('triage')).toEqual(['reviewer:implicit', 'writer:implicit']);
    expect(edges('writer')).toEqual(['leaf:implicit']);
    expect(edges('reviewer')).toEqual([]);
  });

  it('reports the application as affected by a change to any agent below it, and only then', () => {
    const affected = (file: string) =>
      (JSON.parse(ok(ws.nx(['show', 'projects', '--affected', `--files=${file}`, '--json'])).stdout) as string[])
        .filter((p) => p !== 'nx-apps-workspace')
        .sort();
    expect(affected('leaf/agent.json')).toEqual(['leaf', 'triage', 'writer']);
    expect(affected('reviewer/agent.json')).toEqual(['reviewer', 'triage']);
    expect(affected(MANIFEST)).toEqual(['triage']);
  });

  it('plans the application, serves a repeated plan from the cache, and plans again when an agent below it changes', () => {
    const first = ok(ws.nx(['run', 'triage:plan']));
    expect(first.stdout).toContain('triage@0.1.0: plan (dry-run)');
    expect(first.stdout).toMatch(/plan digest {6}[0-9a-f]{64}/);
    expect(ok(ws.nx(['run', 'triage:plan'])).stdout).toMatch(FROM_CACHE);

    const live = ok(ws.nx(['run', 'triage:plan', '--mode=live']));
    expect(live.stdout).toContain('triage@0.1.0: plan (live)');
    expect(live.stdout).not.toMatch(FROM_CACHE);

    // The leaf is two levels down (triage -> writer -> leaf): its definition is an input of the plan.
    const leafFile = join(ws.dir, 'leaf', 'agent.json');
    const leaf = readFileSync(leafFile, 'utf8');
    writeFileSync(leafFile, leaf.replace(/"description": "([^"]*)"/, '"description": "$1 (edited)"'));
    try {
      const replanned = ok(ws.nx(['run', 'triage:plan']));
      expect(replanned.stdout).not.toMatch(FROM_CACHE);
      expect(replanned.stdout).toContain('triage@0.1.0: plan (dry-run)');
    } finally {
      writeFileSync(leafFile, leaf);
    }
  });

  it('executes the application dry-run with an entrypoint value, and never from the cache', () => {
    const run = ok(ws.nx(['run', 'triage:execute', QUESTION]));
    expect(run.stdout).toContain('triage@0.1.0: succeeded (dry-run)');
    expect(run.stdout).toMatch(/result-1: completed/);
    const again = ok(ws.nx(['run', 'triage:execute', QUESTION]));
    expect(again.stdout).toContain('triage@0.1.0: succeeded (dry-run)');
    expect(again.stdout).not.toMatch(FROM_CACHE);
  });

  it('executes with the inputs.json the generator wrote beside the manifest (as check does) when no option names the values; an explicit one wins', () => {
    const promptDigest = (r: { stdout: string }) => /"promptDigest":"([0-9a-f]{64})"/.exec(r.stdout)?.[1];
    const byDefault = ok(ws.nx(['run', 'triage:execute']));
    expect(byDefault.stdout).toContain('triage@0.1.0: succeeded (dry-run)');
    expect(byDefault.stdout + byDefault.stderr).toContain(
      `note: entrypoint values from ${MANIFEST.replace('application.json', 'inputs.json')}, beside the manifest`,
    );
    const named = ok(
      ws.nx(['run', 'triage:execute', `--inputs=${MANIFEST.replace('application.json', 'inputs.json')}`]),
    );
    expect(promptDigest(byDefault)).toMatch(/^[0-9a-f]{64}$/);
    expect(promptDigest(named)).toBe(promptDigest(byDefault));
    const explicit = ok(ws.nx(['run', 'triage:execute', QUESTION]));
    expect(explicit.stdout + explicit.stderr).not.toContain('note: entrypoint values from');
    expect(promptDigest(explicit)).toMatch(/^[0-9a-f]{64}$/);
    expect(promptDigest(explicit)).not.toBe(promptDigest(byDefault));
  });

  it('checks the generated application offline (every local verification check), and fails an edited one', () => {
    const passed = ok(ws.nx(['run', 'triage:check']));
    expect(passed.stdout).toContain('apps/triage/application.json: local verification');
    expect(passed.stdout).not.toMatch(/^ {2}FAIL /m);
    expect(passed.stdout).toMatch(/^ {2}ok +offline-execution /m);
    const file = join(ws.dir, MANIFEST);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"template": "{{question}}"', '"template": "Q: {{question}}"'));
    try {
      const run = ws.nx(['run', 'triage:check']);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(/^ {2}FAIL +canonical-hashing .*\/source\/sha256/m);
      // plan reports the same problem located in the file
      const plan = ws.nx(['run', 'triage:plan']);
      expect(plan.status).not.toBe(0);
      expect(plan.stdout + plan.stderr).toMatch(/apps\/triage\/application\.json:\d+:\d+/);
      expect(plan.stdout + plan.stderr).toContain('/source/sha256');
    } finally {
      writeFileSync(file, text);
    }
  });

  it('refuses to generate an application over an existing one, or from an agent the workspace lacks', () => {
    const again = ws.nx([
      'g',
      'agentdef:application',
      'triage',
      '--directory=apps',
      '--agents=writer@0.1.0',
      '--no-interactive',
    ]);
    expect(again.status).not.toBe(0);
    expect(again.stdout + again.stderr).toContain('apps/triage/application.json already exists');
    const unknown = ws.nx(['g', 'agentdef:application', 'other', '--agents=writer@9.9.9', '--no-interactive']);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stdout + unknown.stderr).toMatch(
      /writer@9\.9\.9 does not resolve to an agent definition in the workspace/,
    );
  });

  it('refuses to generate a project the plugin would refuse (it broke every nx command): an agent named like the application, constructor, an agent in its folder', () => {
    const projects = ok(ws.nx(['show', 'projects', '--json'])).stdout;
    for (const args of [['agents/triage'], ['constructor'], ['other', '--directory=apps/triage']]) {
      const run = ws.nx(['g', 'agentdef:agent', ...args, '--no-interactive']);
      expect(run.status, args.join(' ')).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(
        /agentdef:agent: .*(already names the project of apps\/triage\/application\.json|cannot name an Nx project|is already the project of apps\/triage\/application\.json).*Nothing was written/,
      );
    }
    const app = ws.nx(['g', 'agentdef:application', 'constructor', '--agents=writer@0.1.0', '--no-interactive']);
    expect(app.status).not.toBe(0);
    expect(app.stdout + app.stderr).toContain('"constructor" cannot name an Nx project');
    for (const file of [
      'agents/triage/agent.json',
      'constructor/agent.json',
      'apps/triage/agent.json',
      'constructor/application.json',
    ])
      expect(existsSync(join(ws.dir, file)), file).toBe(false);
    expect(ok(ws.nx(['show', 'projects', '--json'])).stdout).toBe(projects);
  });
});
