import { describe, expect, it } from 'vitest';
import { ALL_HOSTS } from '../../definition/runtime-hosts';
import { buildPlan } from '../plan';
import { chooseRuntime } from '../runtime-choice';
import { COMPILE_TARGETS, TARGET_HOST } from '../targets';
import { agent, pins, tools, tree } from '../test-support';
import { ADAPTERS, adapterFor } from './index';
import { EMPTY_WORKSPACE_CONFIG } from '../workspace-config';

const CONTEXT = { workspaceRoot: '/nonexistent-workspace', workspace: EMPTY_WORKSPACE_CONFIG, options: {} };

const router = () =>
  tree(agent('write-router', '1.4.0', { quarantine: true }), [
    tree(agent('splice-resolver', '0.4.2', { cls: 'container-required', models: [pins.tuned()], tools: [tools.native()] })),
    tree(agent('fallback-writer', '1.1.0')),
  ]);

describe('adapters', () => {
  it('has one adapter per target, on that target host', () => {
    expect(Object.keys(ADAPTERS).sort()).toEqual([...COMPILE_TARGETS].sort());
    for (const target of COMPILE_TARGETS) {
      expect(adapterFor(target).target).toBe(target);
      expect(adapterFor(target).hosts).toEqual([TARGET_HOST[target]]);
    }
    expect(new Set(COMPILE_TARGETS.map((t) => TARGET_HOST[t]))).toEqual(new Set(ALL_HOSTS));
  });

  it.each([
    ['hb3', 'hb3-job.json', 'entrypoint.js'],
    ['local-mac', 'launcher.json', 'launcher.js'],
  ] as const)('%s emits plan.json and %s', async (target, descriptor, entry) => {
    const root = router();
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const result = await adapterFor(target).emit(plan, root, CONTEXT);
    expect(result.diagnostics).toBeUndefined();
    expect(result.files!.map((f) => f.path)).toEqual(['plan.json', descriptor]);
    expect(JSON.parse(result.files![0]!.contents)).toEqual(JSON.parse(JSON.stringify(plan)));
    expect(result.files![1]!.contents).toBe(`{\n  "entry": "${entry}",\n  "planDigest": "${plan.digest}",\n  "root": "write-router@1.4.0",\n  "target": "${target}"\n}\n`);
  });

  it('the Worker adapter emits worker-descriptor.json for a Worker-friendly tree', async () => {
    const root = tree(agent('a', '1.0.0', { cls: 'workers-only' }));
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const result = await adapterFor('cloudflare-dynamic-worker').emit(plan, root, CONTEXT);
    expect(result.files!.map((f) => f.path)).toEqual(['plan.json', 'worker-descriptor.json']);
    expect(JSON.parse(result.files![1]!.contents)).toEqual({ target: 'cloudflare-dynamic-worker', planDigest: plan.digest, root: 'a@1.0.0', entry: 'worker.js' });
  });

  it('fails closed on its own when handed a tree it cannot host', async () => {
    const root = router();
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const result = await adapterFor('cloudflare-dynamic-worker').emit(plan, root, CONTEXT);
    expect(result.files).toBeUndefined();
    expect(result.diagnostics!.map((d) => [d.code, d.path])).toEqual([['runtime_capability_mismatch', '/composition/nodes/0']]);
    expect(result.diagnostics![0]!.message).toContain('splice-resolver@0.4.2');
  });

  it('emits the same bytes for the same plan', async () => {
    const a = router();
    const b = router();
    const emit = async (root: typeof a) => (await adapterFor('hb3').emit(buildPlan(root, chooseRuntime(root).choice!), root, CONTEXT)).files;
    expect(await emit(a)).toEqual(await emit(b));
  });
});
