/**
 * The bundler port: adapters bundle only through it (a fake one stands in here), name agentdef's
 * modules by specifier and never a path of this machine, and a tool module that does not bundle
 * is reported the same way for every target: at the tool's entry in tools.json.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bundler, BundleRequest } from './bundler';
import { createEsbuildBundler } from './bundle';
import { emitAgent, planAgent } from './compile';
import { COMPILE_TARGETS, type CompileTarget } from '../targets/targets';
import { loadWorkspaceConfig } from './workspace-config';

const REPO = join(__dirname, '..', '..');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A bundler that records every request and answers with a marker, or with the given failure. */
function fakeBundler(failure?: string): Bundler & { requests: BundleRequest[] } {
  const requests: BundleRequest[] = [];
  return {
    requests,
    async bundle(request) {
      requests.push(request);
      if (failure)
        return { ok: false, failures: [{ text: failure, file: 'examples/tools/text-metrics.ts', line: 1, column: 0 }] };
      const code = `/* fake bundle of ${request.outFile} */\n`;
      return { ok: true, code, ...(request.sourcemap === false ? {} : { map: '{}' }), bytes: code.length };
    },
    async dispose() {},
  };
}

/** text-stats is Worker-only; planned here for every target its tree allows or not, with the one that fits. */
async function planned(target: CompileTarget) {
  const slug =
    target === 'cloudflare-dynamic-worker'
      ? 'text-stats'
      : target === 'hb3' || target === 'kubernetes'
        ? 'pdf-extractor'
        : 'local-notes';
  const file = join(REPO, 'examples', slug, slug === 'pdf-extractor' ? 'agent.yaml' : 'agent.json');
  const result = await planAgent({ file, workspaceRoot: REPO, target });
  return { plan: result.plan!, resolved: result.resolved! };
}

describe('the bundler port', () => {
  it.each(COMPILE_TARGETS)('%s bundles only through it, naming no path of this machine', async (target) => {
    const bundler = fakeBundler();
    const result = await emitAgent(await planned(target), {
      workspaceRoot: REPO,
      workspace: loadWorkspaceConfig(REPO).config,
      bundler,
    });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(bundler.requests.length).toBeGreaterThan(0);
    const texts = result.files!.map((f) => f.contents).join('\n');
    expect(texts).toContain('/* fake bundle of ');
    const requests = JSON.stringify(bundler.requests);
    expect(requests).not.toContain(REPO);
    expect(requests).not.toContain(tmpdir());
    expect(requests).toMatch(/agentdef:(runtime|node-host\/)/);
  });

  it('reports a tool module that does not bundle at its entry in tools.json, for every target', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'agentdef-bundler-'));
    temps.push(ws);
    writeFileSync(join(ws, 'nx.json'), '{}');
    cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
    writeFileSync(
      join(ws, 'tools.json'),
      JSON.stringify(
        { tools: { 'text-metrics': { module: './examples/tools/text-metrics.ts', export: 'noSuchExport' } } },
        null,
        2,
      ),
    );
    const file = join(ws, 'examples', 'text-stats', 'agent.json');
    const workspace = loadWorkspaceConfig(ws).config;
    for (const target of ['cloudflare-dynamic-worker', 'hb3', 'local-mac'] as const) {
      const plan = await planAgent({
        file,
        workspaceRoot: ws,
        target: target === 'cloudflare-dynamic-worker' ? 'auto' : target,
      });
      if (!plan.plan) continue; // text-stats is Worker-only: the other targets refuse it before any bundling
      const real = await emitAgent({ plan: plan.plan, resolved: plan.resolved! }, { workspaceRoot: ws, workspace });
      expect(real.files).toBeUndefined();
      expect(real.diagnostics).toEqual([
        expect.objectContaining({ rule: 'bundle', file: 'tools.json', line: 3, path: '/tools/text-metrics' }),
      ]);
      expect(real.diagnostics[0]!.message).toMatch(
        /^cannot bundle tool "text-metrics" from \.\/examples\/tools\/text-metrics\.ts: .*noSuchExport/,
      );
    }
    // On a Node host target, a failure that names none of the tree's tools lands at the root definition.
    const hb3 = await planned('hb3');
    const failed = await emitAgent(hb3, {
      workspaceRoot: REPO,
      workspace: loadWorkspaceConfig(REPO).config,
      bundler: fakeBundler('Could not resolve "left-pad"'),
    });
    expect(failed.diagnostics.map((d) => [d.rule, d.file, d.path])).toEqual([
      ['bundle', 'examples/pdf-extractor/agent.yaml', ''],
    ]);
    expect(failed.diagnostics[0]!.message).toBe(
      'cannot bundle the container entrypoint: examples/tools/text-metrics.ts:1:1: Could not resolve "left-pad"',
    );
  });

  it('serves no stale bundle: a bundler shared across compiles rebundles a tool module that changed', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'agentdef-bundler-'));
    temps.push(ws);
    writeFileSync(join(ws, 'nx.json'), '{}');
    cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
    cpSync(join(REPO, 'tools.json'), join(ws, 'tools.json'));
    const planned = await planAgent({ file: join(ws, 'examples', 'text-stats', 'agent.json'), workspaceRoot: ws });
    const inputs = {
      workspaceRoot: ws,
      workspace: loadWorkspaceConfig(ws).config,
      bundler: createEsbuildBundler({ workspaceRoot: ws }),
    };
    const worker = async () =>
      (await emitAgent({ plan: planned.plan!, resolved: planned.resolved! }, inputs)).files!.find(
        (f) => f.path === 'worker.js',
      )!.contents;
    const before = await worker();
    expect(before).not.toContain('edited-between-compiles');
    const tool = join(ws, 'examples', 'tools', 'text-metrics.ts');
    writeFileSync(
      tool,
      `${readFileSync(tool, 'utf8')}\nexport const marker = console.log('edited-between-compiles');\n`,
    );
    expect(await worker()).toContain('edited-between-compiles');
  });

  it.each(COMPILE_TARGETS)(
    'reports a tool module that does not exist at its line in tools.json before bundling, for %s',
    async (target) => {
      const ws = mkdtempSync(join(tmpdir(), 'agentdef-bundler-'));
      temps.push(ws);
      writeFileSync(join(ws, 'nx.json'), '{}');
      cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
      const toolsJson = {
        tools: {
          'text-metrics': { module: './examples/tools/gone.ts', export: 'countText' },
          'diff-apply': { module: './examples/tools/gone.ts', export: 'applyUnifiedDiff' },
        },
      };
      writeFileSync(join(ws, 'tools.json'), JSON.stringify(toolsJson, null, 2));
      // text-stats (Worker-only) pins text-metrics; write-router's tree (container or local) bundles diff-apply.
      const slug = target === 'cloudflare-dynamic-worker' ? 'text-stats' : 'write-router';
      const planned = await planAgent({ file: join(ws, 'examples', slug, 'agent.json'), workspaceRoot: ws, target });
      const bundler = fakeBundler();
      const result = await emitAgent(
        { plan: planned.plan!, resolved: planned.resolved! },
        { workspaceRoot: ws, workspace: loadWorkspaceConfig(ws).config, bundler },
      );
      const toolId = slug === 'text-stats' ? 'text-metrics' : 'diff-apply';
      expect(result.files).toBeUndefined();
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          rule: 'tool-implementation',
          file: 'tools.json',
          path: `/tools/${toolId}/module`,
          severity: 'error',
        }),
      ]);
      expect(bundler.requests).toEqual([]);
    },
  );
});
