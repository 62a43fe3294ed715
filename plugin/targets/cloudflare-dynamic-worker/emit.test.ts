/**
 * The Worker adapter on trees built in memory, in a temp workspace whose tools.json maps the test
 * tools: the files it emits, the isolate layout of quarantined children, the binding plan (and its
 * located conflicts), the wrangler config and determinism. Running the output in workerd is
 * e2e/worker/'s job.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPlan } from '../../compiler/plan';
import { chooseRuntime } from '../../compiler/runtime-choice';
import { emitAgent, type EmitInputs } from '../../compiler/compile';
import { agent, pins, tempWorkspace, tools, tree, type TempWorkspace } from '../../compiler/test-support';
import { loadWorkspaceConfig } from '../../compiler/workspace-config';
import type { HostPlan } from '../../host-contract/worker-host-plan';

let ws: TempWorkspace;
let context: EmitInputs;

beforeEach(() => {
  ws = tempWorkspace({
    'tools.json': { tools: { fmt: { module: './tools/fmt.ts', export: 'fmt' } } },
    'tools/fmt.ts':
      'export function fmt(args: Record<string, unknown>) {\n  return { formatted: String(args["text"]).trim() };\n}\n',
  });
  context = { workspaceRoot: ws.root, workspace: loadWorkspaceConfig(ws.root).config };
});
afterEach(() => ws.remove());

const emit = async (root: ReturnType<typeof tree>) => {
  const plan = buildPlan(root, chooseRuntime(root).choice!);
  return { plan, result: await emitAgent({ plan, resolved: root }, context) };
};
const file = (result: Awaited<ReturnType<typeof emit>>['result'], path: string) =>
  result.files!.find((f) => f.path === path)!.contents;

describe('the cloudflare-dynamic-worker adapter', () => {
  it('emits plan.json, src/, worker.js and its map, host-plan.json, loader.js, wrangler.jsonc and agent-card.json', async () => {
    const { plan, result } = await emit(tree(agent('a', '1.0.0', { cls: 'workers-only' })));
    expect(result.diagnostics).toEqual([]);
    expect(result.files!.map((f) => f.path)).toEqual([
      'agent-card.json',
      'host-plan.json',
      'loader.js',
      'plan.json',
      'src/agents/0-a.ts',
      'src/egress/0-a.ts',
      'src/env.ts',
      'src/index.ts',
      'worker.js',
      'worker.js.map',
      'wrangler.jsonc',
    ]);
    // The isolate's egress guard is the entry's first import (evaluated before any tool module) and holds its allow-list.
    expect(file(result, 'src/index.ts')).toMatch(/\*\/\nimport "\.\/egress\/0-a";\n/);
    expect(file(result, 'src/egress/0-a.ts')).toContain('installEgressGuard(["https://api.anthropic.com"], ');
    const hostPlan = JSON.parse(file(result, 'host-plan.json')) as HostPlan;
    expect(hostPlan).toMatchObject({
      target: 'cloudflare-dynamic-worker',
      planDigest: plan.digest,
      agent: { slug: 'a', version: '1.0.0' },
    });
    expect(hostPlan.egress).toEqual({ globalOutbound: 'egress-gateway', allow: ['https://api.anthropic.com'] });
    expect(file(result, 'src/agents/0-a.ts')).toContain(
      'import { fmt as fmtTool } from "agentdef:workspace/tools/fmt.ts";',
    );
    expect(file(result, 'worker.js')).toContain('formatted:');
    const card = JSON.parse(file(result, 'agent-card.json')) as {
      name: string;
      supportedInterfaces: { url: string }[];
    };
    expect(card.name).toBe('a');
    expect(card.supportedInterfaces[0]!.url).toBe('https://a.workers.dev.invalid/');
  });

  it('lays quarantined children out in isolates of their own, and in-module children in their parent', async () => {
    const leaf = (slug: string) => tree(agent(slug, '1.0.0', { cls: 'workers-only', models: [] }));
    const inner = tree(agent('inner', '1.0.0', { cls: 'workers-only', models: [], quarantine: false }), [leaf('c')]);
    const root = tree(agent('root', '2.0.0', { cls: 'workers-only', models: [], quarantine: true }), [
      leaf('b'),
      inner,
    ]);
    const { result } = await emit(root);
    expect(result.diagnostics).toEqual([]);
    const paths = result.files!.map((f) => f.path);
    expect(paths.filter((p) => p.startsWith('src/'))).toEqual([
      'src/agentdef-modules.d.ts',
      'src/agents/0-root.ts',
      'src/agents/1-b.ts',
      'src/agents/2-inner.ts',
      'src/agents/3-c.ts',
      'src/egress/0-root.ts',
      'src/egress/1-b.ts',
      'src/egress/2-inner.ts',
      'src/env.ts',
      'src/index.ts',
      'src/isolates/1-b.ts',
      'src/isolates/2-inner.ts',
    ]);
    expect(file(result, 'src/isolates/2-inner.ts')).toMatch(/\*\/\nimport "\.\.\/egress\/2-inner";\n/);
    const rootModule = file(result, 'src/agents/0-root.ts');
    expect(rootModule).toContain('import bIsolate from "agentdef:isolate/1-b";');
    expect(rootModule).toContain('kind: "isolate",');
    expect(file(result, 'src/agents/2-inner.ts')).toContain('{ kind: "module", agent: cAgent }');
    const hostPlan = JSON.parse(file(result, 'host-plan.json')) as HostPlan;
    expect(hostPlan.isolates.map((i) => [i.nodeId, i.secrets, i.egress.allow])).toEqual([
      ['root@2.0.0/b@1.0.0', ['AGENTDEF_RECEIPT_KEY'], []],
      ['root@2.0.0/inner@1.0.0', ['AGENTDEF_RECEIPT_KEY'], []],
    ]);
    expect(hostPlan.isolates.every((i) => /^sha-256:[0-9a-f]{64}$/.test(i.codeDigest))).toBe(true);
    expect(hostPlan.bindings.map((b) => [b.name, b.kind, b.loader])).toEqual([
      ['AGENTDEF_ISOLATES', 'service', 'isolate-service'],
      ['AGENTDEF_RECEIPTS', 'kv', 'kv-proxy'],
      ['AGENTDEF_RECEIPT_KEY', 'secret-ref', 'copy-secret'],
      ['AGENTDEF_TASKS', 'durable-object', 'task-store-proxy'],
      ['LOADER', 'worker-loader', 'not-provided'],
    ]);
    expect(hostPlan.egress).toEqual({ globalOutbound: 'blocked', allow: [] });
    expect(file(result, 'src/index.ts')).toContain(
      'export class AgentdefEgress extends WorkerEntrypoint<Env, EgressProps>',
    );
  });

  it('plans every binding kind into wrangler.jsonc, secrets by name only', async () => {
    const def = agent('b', '1.0.0', { cls: 'workers-only' });
    def.runtimeRequirements.bindings.push(
      { kind: 'kv', name: 'CACHE', namespaceId: '0123456789abcdef0123456789abcdef' },
      { kind: 'd1', name: 'DB' },
      { kind: 'r2', name: 'FILES', bucket: 'files' },
      { kind: 'queue', name: 'JOBS', queue: 'jobs' },
      { kind: 'service', name: 'AUTH', service: 'auth-worker' },
      { kind: 'custom', name: 'AI', type: 'ai' },
    );
    def.runtimeRequirements.limits.cpuMs = 75;
    const { result } = await emit(tree(def));
    const text = file(result, 'wrangler.jsonc');
    expect(text.split('\n')[0]).toMatch(
      /^\/\/ Generated by agentdef from b@1\.0\.0 \(plan [0-9a-f]{12}\)\. Do not edit\.$/,
    );
    expect(text).toContain('// Custom bindings to configure by hand: AI (ai).');
    const config = JSON.parse(text.replace(/^\/\/.*\n/gm, '')) as Record<string, unknown>;
    expect(config).toEqual({
      name: 'b',
      main: 'worker.js',
      compatibility_date: '2026-04-26',
      compatibility_flags: [],
      no_bundle: true,
      upload_source_maps: true,
      limits: { cpu_ms: 75 },
      kv_namespaces: [{ binding: 'AGENTDEF_RECEIPTS' }, { binding: 'CACHE', id: '0123456789abcdef0123456789abcdef' }],
      d1_databases: [{ binding: 'DB' }],
      r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
      queues: { producers: [{ binding: 'JOBS', queue: 'jobs' }] },
      services: [{ binding: 'AUTH', service: 'auth-worker' }],
      durable_objects: { bindings: [{ name: 'AGENTDEF_TASKS', class_name: 'AgentTaskStore' }] },
      migrations: [{ tag: 'agentdef-task-store-v1', new_sqlite_classes: ['AgentTaskStore'] }],
      secrets: { required: ['AGENTDEF_RECEIPT_KEY', 'ANTHROPIC_API_KEY'] },
    });
    expect(text).not.toContain('secrets-store://');
  });

  it('reports one binding name with two kinds, and a reserved name, at the binding that clashes', async () => {
    const child = agent('c', '1.0.0', { cls: 'workers-only', models: [] });
    child.runtimeRequirements.bindings.push({ kind: 'queue', name: 'SHARED' }, { kind: 'kv', name: 'LOADER' });
    const parent = agent('p', '1.0.0', { cls: 'workers-only', models: [] });
    parent.runtimeRequirements.bindings.push({ kind: 'kv', name: 'SHARED' });
    const { result } = await emit(tree(parent, [tree(child)]));
    expect(result.files).toBeUndefined();
    expect(result.diagnostics!.map((d) => [d.code, d.rule, d.file, d.path])).toEqual([
      ['runtime_capability_mismatch', 'worker-bindings', 'agents/c/agent.json', '/runtimeRequirements/bindings/0/name'],
      ['runtime_capability_mismatch', 'worker-bindings', 'agents/c/agent.json', '/runtimeRequirements/bindings/1/name'],
    ]);
    expect(result.diagnostics![0]!.message).toBe(
      'binding "SHARED" is a queue here, but p@1.0.0 needs it as a kv: one Worker env cannot hold both',
    );
  });

  it('refuses a definition that declares the task store binding itself, writing nothing', async () => {
    const def = agent('t', '1.0.0', { cls: 'workers-only', models: [] });
    def.runtimeRequirements.bindings.push({ kind: 'kv', name: 'AGENTDEF_TASKS' });
    const { result } = await emit(tree(def));
    expect(result.files).toBeUndefined();
    expect(result.diagnostics!.map((d) => [d.rule, d.path, d.message])).toEqual([
      [
        'worker-bindings',
        '/runtimeRequirements/bindings/0/name',
        'binding name "AGENTDEF_TASKS" is reserved by the Worker output (the Worker Loader, its isolate service and the task store)',
      ],
    ]);
  });

  it('emits the same bytes for the same plan, and different ones when a tool changes', async () => {
    const root = () =>
      tree(
        agent('a', '1.0.0', { cls: 'workers-only', models: [pins.small('claude-haiku-4-5')], tools: [tools.skill()] }),
      );
    const first = (await emit(root())).result.files!;
    expect((await emit(root())).result.files).toEqual(first);
    ws.write('tools/fmt.ts', 'export function fmt() {\n  return "changed";\n}\n');
    const changed = (await emit(root())).result.files!;
    const id = (files: typeof first) =>
      (JSON.parse(files.find((f) => f.path === 'host-plan.json')!.contents) as HostPlan).id;
    expect(id(changed)).not.toBe(id(first));
    expect(id(changed).split(':').slice(0, 2)).toEqual(id(first).split(':').slice(0, 2));
  });

  it("reports the Worker's bundle failing before the loader's, though the two are bundled at once", async () => {
    const root = tree(agent('a', '1.0.0', { cls: 'workers-only', models: [] }));
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const bundler = {
      bundle: async (request: { reusable?: boolean }) => ({
        ok: false as const,
        failures: [{ text: request.reusable ? 'the loader broke' : 'the worker broke' }],
      }),
      dispose: async () => {},
    };
    const result = await emitAgent({ plan, resolved: root }, { ...context, bundler });
    expect(result.diagnostics!.map((d) => d.message)).toEqual(['cannot bundle worker.js: the worker broke']);
  });

  it('rejects a maxBundleBytes that is not a whole number of bytes', async () => {
    const root = tree(agent('a', '1.0.0', { cls: 'workers-only' }));
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const result = await emitAgent({ plan, resolved: root }, { ...context, adapterOptions: { maxBundleBytes: 0 } });
    expect(result.diagnostics!.map((d) => [d.rule, d.message])).toEqual([
      ['worker-bundle-size', 'the adapter option maxBundleBytes must be a whole number of bytes, not 0'],
    ]);
  });
});
