/**
 * What the Worker adapter writes, independent of running it: the file set, the host plan's
 * `WorkerCode` shape and id, determinism (compile twice, or in another folder: the same bytes;
 * no absolute path, no timestamp), the size budget, and located errors for a tool without an
 * implementation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../plugin/compiler/canonical-json';
import type { HostPlan } from '../../plugin/host-contract/worker-host-plan';
import {
  compileWorker,
  exampleWorkspace,
  filesBelow,
  repoRoot,
  type ExampleWorkspace,
} from './support/example-workspace';

let ws: ExampleWorkspace;
let other: ExampleWorkspace;

beforeAll(() => {
  ws = exampleWorkspace('output');
  other = exampleWorkspace('output-elsewhere', { nested: 'deeper/still' });
});
afterAll(() => {
  ws.remove();
  other.remove();
});

describe('the Worker output', () => {
  it('holds src/, worker.js with its map, host-plan.json, loader.js, wrangler.jsonc, agent-card.json and plan.json', async () => {
    const { result, files } = await compileWorker(ws.root, 'text-digest');
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect([...files.keys()]).toEqual([
      'agent-card.json',
      'host-plan.json',
      'loader.js',
      'plan.json',
      'src/agentdef-modules.d.ts',
      'src/agents/0-text-digest.ts',
      'src/agents/1-text-classify.ts',
      'src/agents/2-keyword-extract.ts',
      'src/egress/0-text-digest.ts',
      'src/egress/1-text-classify.ts',
      'src/egress/2-keyword-extract.ts',
      'src/env.ts',
      'src/index.ts',
      'src/isolates/1-text-classify.ts',
      'src/isolates/2-keyword-extract.ts',
      'worker.js',
      'worker.js.map',
      'wrangler.jsonc',
    ]);
    const worker = files.get('worker.js')!;
    expect(worker).toMatch(/\/\/# sourceMappingURL=worker\.js\.map\n$/);
    expect(worker.split('\n').length).toBeLessThan(30); // minified
    expect(worker).not.toMatch(/from\s*["']node:/);
    const map = JSON.parse(files.get('worker.js.map')!) as { file: string; sources: string[] };
    expect(map.file).toBe('worker.js');
    expect(map.sources).toEqual(
      expect.arrayContaining([
        'src/index.ts',
        'src/agents/0-text-digest.ts',
        'agentdef/plugin/runtime/a2a-handler.ts',
        'agentdef/plugin/hosts/worker/isolate-runner.ts',
      ]),
    );
    expect(map.sources.every((s) => !s.startsWith('/') && !s.includes('..'))).toBe(true);
    // Only the tools this tree uses are bundled (the classifier's, inside its isolate's code), not every tool tools.json maps.
    expect(worker).toContain('codeLineShare');
    expect(worker).not.toContain('text/html, text/plain;q=0.9');
  });

  it('writes a host plan that is exactly the WorkerCode the loader passes to env.LOADER.get, with an id from the plan and the code', async () => {
    const { result, files } = await compileWorker(ws.root, 'web-summarizer');
    const plan = JSON.parse(files.get('host-plan.json')!) as HostPlan;
    const worker = files.get('worker.js')!;
    expect(Object.keys(plan.workerCode).sort()).toEqual([
      'compatibilityDate',
      'compatibilityFlags',
      'env',
      'limits',
      'mainModule',
      'modules',
    ]);
    expect(plan.workerCode).toEqual({
      compatibilityDate: '2026-04-26',
      compatibilityFlags: [],
      limits: { cpuMs: 100 },
      mainModule: 'worker.js',
      modules: { 'worker.js': worker },
      env: {},
    });
    expect(plan.id).toBe(`web-summarizer@2.0.0:${result.plan!.digest.slice(0, 16)}:${sha256Hex(worker).slice(0, 16)}`);
    expect(plan.planDigest).toBe(result.plan!.digest);
    expect(plan.egress).toEqual({
      globalOutbound: 'egress-gateway',
      allow: ['https://api.openai.com', 'https://fetch.acme.dev', 'https://web.archive.org'],
    });
    expect(plan.bindings.map((b) => [b.name, b.kind, b.purpose, b.loader])).toEqual([
      ['AGENTDEF_RECEIPTS', 'kv', 'receipt-sink', 'kv-proxy'],
      ['AGENTDEF_RECEIPT_KEY', 'secret-ref', 'receipt-key', 'copy-secret'],
      ['AGENTDEF_TASKS', 'durable-object', 'task-store', 'task-store-proxy'],
      ['OPENAI_API_KEY', 'secret-ref', 'model-key', 'copy-secret'],
      ['SUMMARY_CACHE', 'kv', 'declared', 'kv-proxy'],
    ]);
    expect(JSON.stringify(plan.bindings)).not.toContain('secrets-store://');
    const wrangler = JSON.parse(files.get('wrangler.jsonc')!.replace(/^\/\/.*\n/gm, '')) as Record<string, unknown>;
    expect(wrangler).toMatchObject({
      name: 'web-summarizer',
      main: 'worker.js',
      no_bundle: true,
      limits: { cpu_ms: 100 },
      secrets: { required: ['AGENTDEF_RECEIPT_KEY', 'OPENAI_API_KEY'] },
    });

    // A changed definition is a new isolate.
    ws.edit('web-summarizer', (d) => {
      d.metadata.description += ' Now with more care.';
    });
    const changed = JSON.parse(
      (await compileWorker(ws.root, 'web-summarizer')).files.get('host-plan.json')!,
    ) as HostPlan;
    expect(changed.id).not.toBe(plan.id);
    expect(changed.id.split(':')[1]).not.toBe(plan.id.split(':')[1]);
  });

  it('gives the same bytes twice, and in another folder: no absolute path, no timestamp', async () => {
    const first = await compileWorker(ws.root, 'text-digest', { outDir: join(ws.root, 'out/a') });
    const second = await compileWorker(ws.root, 'text-digest', { outDir: join(ws.root, 'out/b') });
    const elsewhere = await compileWorker(other.root, 'text-digest', { outDir: join(other.root, 'somewhere/else') });
    const a = filesBelow(first.outDir);
    expect(filesBelow(second.outDir)).toEqual(a);
    expect(filesBelow(elsewhere.outDir)).toEqual(a);
    for (const [path, bytes] of a) {
      const text = bytes.toString('utf8');
      for (const absolute of [ws.root, other.root, repoRoot, '/work/', '/home/', '/tmp/'])
        expect(text, path).not.toContain(absolute);
      expect(text, path).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    }
  });

  it('enforces the size budget with a located error, and reports the size', async () => {
    const { result } = await compileWorker(ws.root, 'text-stats', {
      adapterOptions: { maxBundleBytes: 10_000 },
      outDir: join(ws.root, 'out/budget'),
    });
    expect(result.files).toBeUndefined();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: 'runtime_capability_mismatch',
      rule: 'worker-bundle-size',
      file: 'examples/text-stats/agent.json',
      line: 1,
    });
    expect(errors[0]!.message).toMatch(
      /^worker\.js is \d+ bytes \(\d+\.\d KiB\), above the Worker size budget of 10000 bytes \(9\.8 KiB\)$/,
    );
    const fits = await compileWorker(ws.root, 'text-stats', { adapterOptions: { maxBundleBytes: 3 * 1024 * 1024 } });
    expect(fits.files.get('worker.js')!.length).toBeGreaterThan(10_000);
    // The compile summary (CLI, executor) prints the size against the budget.
    expect(fits.result.summary).toBe(
      `worker.js ${(Buffer.byteLength(fits.files.get('worker.js')!) / 1024).toFixed(1)} KiB of the 3072.0 KiB budget`,
    );
  });

  it('reports a bundled tool without an implementation at its line, and a missing module at its line in tools.json', async () => {
    const tools = JSON.parse(ws.read('tools.json')) as { tools: Record<string, { module: string; export: string }> };
    const { 'text-metrics': textMetrics, ...rest } = tools.tools;
    ws.write('tools.json', JSON.stringify({ tools: rest }, null, 2));
    const unmapped = await compileWorker(ws.root, 'text-stats', { outDir: join(ws.root, 'out/unmapped') });
    expect(
      unmapped.result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.file, d.path]),
    ).toEqual([['tool-implementation', 'examples/text-stats/agent.json', '/toolInventory/0']]);

    ws.write(
      'tools.json',
      JSON.stringify(
        { tools: { ...rest, 'text-metrics': { ...textMetrics!, module: './examples/tools/nope.ts' } } },
        null,
        2,
      ),
    );
    const missing = await compileWorker(ws.root, 'text-stats', { outDir: join(ws.root, 'out/missing') });
    const error = missing.result.diagnostics.find((d) => d.severity === 'error')!;
    expect(error).toMatchObject({
      rule: 'tool-implementation',
      file: 'tools.json',
      path: '/tools/text-metrics/module',
    });
    expect(readFileSync(join(ws.root, 'tools.json'), 'utf8').split('\n')[error.line - 1]).toContain('nope.ts');

    ws.write(
      'tools.json',
      JSON.stringify({ tools: { ...rest, 'text-metrics': { ...textMetrics!, export: 'noSuchExport' } } }, null, 2),
    );
    const badExport = await compileWorker(ws.root, 'text-stats', { outDir: join(ws.root, 'out/export') });
    const bundleError = badExport.result.diagnostics.find((d) => d.severity === 'error')!;
    // The same failure is reported the same way for every target: at the tool's entry in tools.json.
    expect(bundleError).toMatchObject({ rule: 'bundle', file: 'tools.json', path: '/tools/text-metrics' });
    expect(bundleError.message).toContain('cannot bundle tool "text-metrics" from ./examples/tools/text-metrics.ts');
    expect(bundleError.message).toContain('noSuchExport');
    writeFileSync(join(ws.root, 'tools.json'), JSON.stringify(tools, null, 2));
  });
});
