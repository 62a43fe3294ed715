import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from './canonical-json';
import { buildPlan, computePlanDigest, PLAN_VERSION, serializePlan, type CompilePlan } from './plan';
import type { ResolvedNode } from './resolve';
import { chooseRuntime } from './runtime-choice';
import { agent, pins, tools, tree } from './test-support';

const routerTree = (spliceDescription = 'Resolves splices.') =>
  tree(
    agent('write-router', '1.4.0', {
      quarantine: true,
      edges: [
        {
          from: 'splice-resolver',
          to: 'fallback-writer',
          gate: 'conditional',
          condition: { pointer: '/ok', equals: false },
        },
      ],
    }),
    [
      tree(
        agent('splice-resolver', '0.4.2', {
          cls: 'container-required',
          models: [pins.tuned()],
          tools: [tools.native()],
          description: spliceDescription,
        }),
      ),
      tree(agent('fallback-writer', '1.1.0')),
    ],
  );

function planOf(root: ResolvedNode): CompilePlan {
  const { choice } = chooseRuntime(root);
  expect(choice).toBeDefined();
  return buildPlan(root, choice!);
}

function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value === null || typeof value !== 'object') return true;
  const keys = Object.keys(value);
  return keys.every((k, i) => i === 0 || keys[i - 1]! < k) && Object.values(value).every(keysSorted);
}

describe('buildPlan', () => {
  it('flattens the tree in pre-order with ids, parents, depths, classes and quarantine', () => {
    const root = tree(agent('edit-assistant', '1.0.0'), [routerTree()]);
    const plan = planOf(root);
    expect(plan.planVersion).toBe(PLAN_VERSION);
    expect(plan.root).toEqual({ slug: 'edit-assistant', version: '1.0.0' });
    expect(
      plan.nodes.map((n) => ({
        id: n.id,
        parent: n.parent,
        depth: n.depth,
        cls: n.runtimeCapabilityClass,
        quarantine: n.quarantine,
        file: n.file,
        source: n.source,
      })),
    ).toEqual([
      {
        id: 'edit-assistant@1.0.0',
        parent: undefined,
        depth: 0,
        cls: 'workers-preferred',
        quarantine: false,
        file: 'agents/edit-assistant/agent.json',
        source: 'workspace',
      },
      {
        id: 'edit-assistant@1.0.0/write-router@1.4.0',
        parent: 'edit-assistant@1.0.0',
        depth: 1,
        cls: 'workers-preferred',
        quarantine: false,
        file: 'agents/write-router/agent.json',
        source: 'workspace',
      },
      {
        id: 'edit-assistant@1.0.0/write-router@1.4.0/splice-resolver@0.4.2',
        parent: 'edit-assistant@1.0.0/write-router@1.4.0',
        depth: 2,
        cls: 'container-required',
        quarantine: true,
        file: 'agents/splice-resolver/agent.json',
        source: 'workspace',
      },
      {
        id: 'edit-assistant@1.0.0/write-router@1.4.0/fallback-writer@1.1.0',
        parent: 'edit-assistant@1.0.0/write-router@1.4.0',
        depth: 2,
        cls: 'workers-preferred',
        quarantine: true,
        file: 'agents/fallback-writer/agent.json',
        source: 'workspace',
      },
    ]);
    expect('parent' in plan.nodes[0]!).toBe(false);
    expect(plan.nodes.map((n) => n.digest)).toEqual([
      root.digest,
      root.children[0]!.digest,
      root.children[0]!.children[0]!.digest,
      root.children[0]!.children[1]!.digest,
    ]);
    expect(plan.runtime.chosenClass).toBe('container-required');
    expect(plan.runtime.target).toBe('hb3');
    expect(plan.target).toBe('hb3');
  });

  it('records an explicit target, which changes the digest', () => {
    const root = routerTree();
    const choice = chooseRuntime(root).choice!;
    const auto = buildPlan(root, choice);
    const local = buildPlan(root, choice, 'local-mac');
    expect(local.target).toBe('local-mac');
    expect(local.runtime).toEqual(auto.runtime);
    expect(local.digest).not.toBe(auto.digest);
    expect(buildPlan(root, choice, 'hb3').digest).toBe(auto.digest);
  });

  it('lists pin edges and the typed flow edges between siblings', () => {
    const plan = planOf(routerTree());
    expect(plan.edges).toEqual([
      { kind: 'pin', from: 'write-router@1.4.0', to: 'write-router@1.4.0/splice-resolver@0.4.2' },
      { kind: 'pin', from: 'write-router@1.4.0', to: 'write-router@1.4.0/fallback-writer@1.1.0' },
      {
        kind: 'flow',
        within: 'write-router@1.4.0',
        from: 'write-router@1.4.0/splice-resolver@0.4.2',
        to: 'write-router@1.4.0/fallback-writer@1.1.0',
        gate: 'conditional',
        condition: { pointer: '/ok', equals: false },
      },
    ]);
  });

  it('digests the RFC 8785 canonical JSON of the plan without its digest', () => {
    const plan = planOf(routerTree());
    const { digest, ...rest } = plan;
    expect(digest).toBe(sha256Hex(canonicalJson(rest)));
    expect(computePlanDigest(plan)).toBe(digest);
    expect(computePlanDigest({ ...plan, digest: 'anything' })).toBe(digest);
  });

  it('gives the same bytes for the same inputs', () => {
    const a = serializePlan(planOf(routerTree()));
    const b = serializePlan(planOf(routerTree()));
    expect(a).toBe(b);
    expect(a.endsWith('}\n')).toBe(true);
    expect(keysSorted(JSON.parse(a))).toBe(true);
  });

  it('does not depend on the key order of the definitions', () => {
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reverseKeys(v)]),
            )
          : value;
    const reordered = (node: ResolvedNode): ResolvedNode => ({
      ...node,
      definition: reverseKeys(node.definition) as typeof node.definition,
      children: node.children.map(reordered),
    });
    const original = routerTree();
    const shuffled = reordered(original);
    expect(Object.keys(shuffled.definition)).not.toEqual(Object.keys(original.definition));
    expect(serializePlan(buildPlan(shuffled, chooseRuntime(shuffled).choice!))).toBe(serializePlan(planOf(original)));
  });

  it('changes when a child changes: its node digest and the plan digest, nothing else', () => {
    const before = planOf(routerTree('Resolves splices.'));
    const after = planOf(routerTree('Resolves splices, now faster.'));
    expect(after.nodes[1]!.digest).not.toBe(before.nodes[1]!.digest);
    expect(after.nodes[0]!.digest).toBe(before.nodes[0]!.digest);
    expect(after.nodes[2]!.digest).toBe(before.nodes[2]!.digest);
    expect(after.digest).not.toBe(before.digest);
  });

  it('changes when the runtime choice changes', () => {
    const base = tree(agent('a', '1.0.0'));
    const native = tree(agent('a', '1.0.0', { tools: [tools.native()] }));
    expect(planOf(base).runtime.target).toBe('cloudflare-dynamic-worker');
    expect(planOf(native).digest).not.toBe(planOf(base).digest);
  });

  it('holds no absolute path and no clock', () => {
    const plan = planOf(routerTree());
    const text = serializePlan(plan);
    for (const node of plan.nodes) expect(node.file).toMatch(/^[a-z]/);
    expect(text).not.toContain(process.cwd());
    expect(text).not.toContain(tmpdir());
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });
});
