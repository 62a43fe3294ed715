import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ALL_HOSTS } from '../definition/runtime-hosts';
import { buildPlan } from '../compiler/plan';
import { chooseRuntime } from '../compiler/runtime-choice';
import { COMPILE_TARGETS, TARGETS, hostOf, targetFor } from './targets';
import { agent, pins, tools, tree } from '../compiler/test-support';
import { emitAgent } from '../compiler/compile';
import { EMPTY_WORKSPACE_CONFIG } from '../compiler/workspace-config';

const CONTEXT = { workspaceRoot: '/nonexistent-workspace', workspace: EMPTY_WORKSPACE_CONFIG };
/** The Node host adapters bundle with esbuild from the workspace root, so theirs must exist. */
const NODE_HOST_CONTEXT = { ...CONTEXT, workspaceRoot: tmpdir() };

const router = () =>
  tree(agent('write-router', '1.4.0', { quarantine: true }), [
    tree(
      agent('splice-resolver', '0.4.2', { cls: 'container-required', models: [pins.tuned()], tools: [tools.native()] }),
    ),
    tree(agent('fallback-writer', '1.1.0')),
  ]);

describe('adapters', () => {
  it('has one adapter per target, on that target host', async () => {
    expect(new Set(COMPILE_TARGETS).size).toBe(TARGETS.length);
    for (const target of COMPILE_TARGETS) {
      const adapter = await targetFor(target).adapter();
      expect(adapter.target).toBe(target);
      expect(adapter.hosts).toEqual([hostOf(target)]);
    }
    expect(new Set(COMPILE_TARGETS.map((t) => hostOf(t)))).toEqual(new Set(ALL_HOSTS));
  });

  it.each([
    ['hb3', 'hb3-job.json', 'image/entrypoint.mjs'],
    ['kubernetes', 'kubernetes/service.yaml', 'image/entrypoint.mjs'],
    ['local-mac', 'launcher.json', 'launch.mjs'],
  ] as const)('%s emits plan.json, %s and the bundled %s', async (target, descriptor, entry) => {
    const root = router();
    const plan = buildPlan(root, chooseRuntime(root).choice!, target);
    const result = await emitAgent({ plan, resolved: root }, NODE_HOST_CONTEXT);
    expect(result.diagnostics).toEqual([]);
    const paths = result.files!.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['plan.json', descriptor, entry]));
    expect(JSON.parse(result.files!.find((f) => f.path === 'plan.json')!.contents)).toEqual(
      JSON.parse(JSON.stringify(plan)),
    );
    expect(result.files!.find((f) => f.path === descriptor)!.contents).toContain(plan.digest);
  });

  it('the Worker adapter needs an implementation for every bundled tool (tools.json), and names the missing one', async () => {
    // The full Worker output is tested in cloudflare-dynamic-worker/emit.test.ts and e2e/worker/.
    const root = tree(agent('a', '1.0.0', { cls: 'workers-only' }));
    const plan = buildPlan(root, chooseRuntime(root).choice!);
    const result = await emitAgent({ plan, resolved: root }, CONTEXT);
    expect(result.files).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.rule, d.path])).toEqual([['tool-implementation', '/toolInventory/0']]);
    expect(result.diagnostics[0]!.message).toContain('"fmt"');
  });

  it('fails closed when handed a plan for a target the tree cannot run on', async () => {
    const root = router();
    const plan = buildPlan(root, chooseRuntime(root).choice!, 'cloudflare-dynamic-worker');
    const result = await emitAgent({ plan, resolved: root }, CONTEXT);
    expect(result.files).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['runtime_capability_mismatch', '/composition/nodes/0'],
    ]);
    expect(result.diagnostics[0]!.message).toContain('splice-resolver@0.4.2');
  });

  it('emits the same bytes for the same plan', async () => {
    const a = router();
    const b = router();
    const emit = async (root: typeof a) =>
      (await emitAgent({ plan: buildPlan(root, chooseRuntime(root).choice!), resolved: root }, NODE_HOST_CONTEXT))
        .files;
    const first = await emit(a);
    expect(first?.length).toBeGreaterThan(2);
    expect(await emit(b)).toEqual(first);
  });
});
