/**
 * The example agents as an Nx workspace, with agentdef installed from its packed tarball: every
 * example compiles with `nx run-many -t compile --batch` (one process; that a batch compiles what
 * per-task runs compile, byte for byte, is e2e/nx-compile-batch.test.ts's), the reference router plans to a container
 * because of its tuned child, and forcing it onto a Worker fails closed naming that child. A
 * `--target` that is no target (a host's name) is answered with the target it means.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';
import { repoRoot } from './support/run-cli';

describe('the examples workspace', () => {
  let ws: TempWorkspace;
  beforeAll(() => {
    ws = createWorkspace('examples', packAgentdef());
    cpSync(join(repoRoot, 'examples'), join(ws.dir, 'examples'), { recursive: true });
    // The workspace declarations the adapters read: tool implementations and MCP servers.
    for (const file of ['tools.json', 'mcp.json'])
      if (existsSync(join(repoRoot, file))) cpSync(join(repoRoot, file), join(ws.dir, file));
    const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as Record<string, unknown>;
    nxJson.plugins = [{ plugin: 'agentdef', include: ['examples/**/agent.json', 'examples/**/agent.yaml'] }];
    writeFileSync(join(ws.dir, 'nx.json'), JSON.stringify(nxJson, null, 2));
  });

  it('compiles every example with nx run-many -t compile --batch', () => {
    const run = ws.nx(['run-many', '-t', 'compile', '--batch']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const examples = readdirSync(join(repoRoot, 'examples'), { withFileTypes: true }).filter(
      (d) => d.isDirectory() && /agent\.(json|ya?ml)/.test(readdirSync(join(repoRoot, 'examples', d.name)).join(' ')),
    );
    expect(run.stdout).toContain(`Successfully ran target compile for ${examples.length} projects`);
    const router = JSON.parse(readFileSync(join(ws.dir, 'dist/agents/write-router/plan.json'), 'utf8')) as {
      runtime: { declaredClass: string; chosenClass: string; reason: string };
      target: string;
    };
    expect(router.runtime.declaredClass).toBe('workers-preferred');
    expect(router.runtime.chosenClass).toBe('container-required');
    expect(router.target).toBe('hb3');
    expect(router.runtime.reason).toContain('splice-resolver@0.4.2');
  });

  it('refuses to compile the router for a Worker, naming the tuned child, and writes nothing', () => {
    const before = readFileSync(join(ws.dir, 'dist/agents/write-router/plan.json'), 'utf8');
    const run = ws.nx(['run', 'write-router:compile', '--target=cloudflare-dynamic-worker']);
    expect(run.status).not.toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toContain('runtime_capability_mismatch');
    expect(output).toMatch(/splice-resolver@0\.4\.2: tuned model pin/);
    expect(output).toContain('examples/write-router/agent.json:58:7');
    expect(readFileSync(join(ws.dir, 'dist/agents/write-router/plan.json'), 'utf8')).toBe(before);
    expect(existsSync(join(ws.dir, 'dist/agents/write-router/worker-descriptor.json'))).toBe(false);
  });

  it('answers --target=worker with the target it means, compiling nothing (other near misses: plugin/targets/targets.test.ts)', () => {
    const plan = join(ws.dir, 'dist/agents/text-stats/plan.json');
    const before = existsSync(plan) ? readFileSync(plan, 'utf8') : undefined;
    const run = ws.nx(['run', 'text-stats:compile', '--target=worker', '--skip-nx-cache']);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      'agentdef:compile: unknown target "worker": did you mean cloudflare-dynamic-worker? The targets are auto, cloudflare-dynamic-worker, hb3, kubernetes or local-mac',
    );
    expect(existsSync(plan) ? readFileSync(plan, 'utf8') : undefined).toBe(before);
  });

  it("validate reports a tool tools.json does not map, located at the tool's entry, and passes again once it is mapped (tools.json is an input)", () => {
    const toolsFile = join(ws.dir, 'tools.json');
    const mapped = readFileSync(toolsFile, 'utf8');
    const first = ws.nx(['run', 'text-stats:validate']);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    try {
      writeFileSync(toolsFile, mapped.replace('"text-metrics"', '"text-metricz"'));
      const run = ws.nx(['run', 'text-stats:validate']);
      expect(run.status).not.toBe(0);
      const output = run.stdout + run.stderr;
      expect(output).toContain(
        'tool-implementation: skill-package tool "text-metrics" has no implementation: the workspace\'s tools.json does not map it to a module',
      );
      const line = readFileSync(join(ws.dir, 'examples/text-stats/agent.json'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"id": "text-metrics"'));
      expect(output).toContain(`--> examples/text-stats/agent.json:${line}:5  (/toolInventory/0)`);
      expect(output).toContain(
        'add "tools": { "text-metrics": { "module": "./tools/text-metrics.ts", "export": "run" } } to tools.json',
      );
    } finally {
      writeFileSync(toolsFile, mapped);
    }
    const again = ws.nx(['run', 'text-stats:validate']);
    expect(again.status, again.stdout + again.stderr).toBe(0);
  });
});
