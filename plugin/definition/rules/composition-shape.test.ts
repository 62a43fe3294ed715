import { describe, expect, it } from 'vitest';
import { compositionShapeRule as rule } from './composition-shape';
import { baseDefinition, loadExample, runRule, summarize } from './test-support';

const error = (path: string, at?: 'key') => ({
  path,
  code: 'agent_definition_invalid',
  severity: 'error',
  ...(at ? { at } : {}),
});
const warning = (path: string, at?: 'key') => ({
  path,
  code: 'agent_definition_invalid',
  severity: 'warning',
  ...(at ? { at } : {}),
});

/** write-router with a condition on its conditional edge, so it has no finding at all. */
function cleanDag() {
  const def = baseDefinition();
  def.composition.edges = [
    {
      from: 'splice-resolver',
      to: 'fallback-writer',
      gate: 'conditional',
      condition: { pointer: '/status', equals: 'declined' },
    },
  ];
  return def;
}

describe('composition-shape', () => {
  it('passes leaves and well-formed DAGs', () => {
    expect(runRule(rule, cleanDag())).toEqual([]);
    expect(runRule(rule, loadExample('code-search'))).toEqual([]);
    expect(runRule(rule, loadExample('edit-assistant'))).toEqual([]);
  });

  it('accepts the write-router reference, and warns (only) about a conditional edge without a condition', () => {
    expect(runRule(rule, baseDefinition())).toEqual([]);
    const def = baseDefinition();
    delete def.composition.edges![0]!.condition;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([warning('/composition/edges/0/gate')]);
    expect(findings[0]?.suggestion).toMatch(/condition/);
  });

  it('reports nodes and edges on a leaf, and warns about quarantine there', () => {
    const def = cleanDag();
    def.composition.kind = 'leaf';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      error('/composition/nodes'),
      error('/composition/edges'),
      warning('/composition/quarantine', 'key'),
    ]);
  });

  it('accepts empty nodes/edges arrays on a leaf', () => {
    const def = loadExample('code-search');
    def.composition = { kind: 'leaf', nodes: [], edges: [] };
    expect(runRule(rule, def)).toEqual([]);
  });

  it('reports a DAG without nodes', () => {
    const def = cleanDag();
    def.composition = { kind: 'dag' };
    expect(summarize(runRule(rule, def))).toEqual([error('/composition/nodes')]);
    def.composition = { kind: 'dag', nodes: [] };
    expect(summarize(runRule(rule, def))).toEqual([error('/composition/nodes')]);
  });

  it('reports duplicate node slugs and a self-reference', () => {
    const def = cleanDag();
    def.composition.nodes = [
      { slug: 'splice-resolver', version: '0.4.2' },
      { slug: 'fallback-writer', version: '1.1.0' },
      { slug: 'splice-resolver', version: '0.5.0' },
      { slug: 'write-router', version: '1.3.0' },
    ];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/composition/nodes/2/slug'), error('/composition/nodes/3/slug')]);
    expect(findings[0]?.message).toContain('composition.nodes[0]');
    expect(findings[1]?.message).toMatch(/the definition itself/);
  });

  it('reports edges to and from unknown nodes, suggesting the known ones', () => {
    const def = cleanDag();
    def.composition.edges = [
      { from: 'splice-resolver', to: 'morph-writer', gate: 'deterministic' },
      { from: 'planner', to: 'fallback-writer' },
    ];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/composition/edges/0/to'), error('/composition/edges/1/from')]);
    expect(findings[0]?.message).toContain('"morph-writer"');
    expect(findings[0]?.suggestion).toContain('"splice-resolver", "fallback-writer"');
  });

  it('reports duplicate edges', () => {
    const def = cleanDag();
    def.composition.edges = [
      { from: 'splice-resolver', to: 'fallback-writer', gate: 'llm-decides' },
      { from: 'splice-resolver', to: 'fallback-writer', gate: 'deterministic' },
    ];
    expect(summarize(runRule(rule, def))).toEqual([error('/composition/edges/1')]);
  });

  it('reports one cycle, as a -> b -> a, at the edge that closes it', () => {
    const def = cleanDag();
    def.composition.edges = [
      { from: 'splice-resolver', to: 'fallback-writer', gate: 'llm-decides' },
      { from: 'fallback-writer', to: 'splice-resolver', gate: 'llm-decides' },
    ];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/composition/edges/1')]);
    expect(findings[0]?.message).toContain('splice-resolver -> fallback-writer -> splice-resolver');
  });

  it('finds longer cycles and self-loops', () => {
    const def = cleanDag();
    def.composition.nodes = [
      { slug: 'a', version: '1.0.0' },
      { slug: 'b', version: '1.0.0' },
      { slug: 'c', version: '1.0.0' },
    ];
    def.composition.edges = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
    ];
    const findings = runRule(rule, def);
    expect(findings.map((f) => [f.path, f.message])).toEqual([
      ['/composition/edges/2', expect.stringContaining('a -> b -> c -> a')],
    ]);

    def.composition.edges = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'b' },
    ];
    const selfLoop = runRule(rule, def);
    expect(selfLoop.map((f) => f.path)).toEqual(['/composition/edges/1']);
    expect(selfLoop[0]?.message).toContain('b -> b');
  });

  it('accepts diamonds (shared descendants are not cycles)', () => {
    const def = cleanDag();
    def.composition.nodes = ['a', 'b', 'c', 'd'].map((slug) => ({ slug, version: '1.0.0' }));
    def.composition.edges = [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'd' },
      { from: 'c', to: 'd' },
    ];
    expect(runRule(rule, def)).toEqual([]);
  });

  it('reports a condition on a non-conditional edge at the condition key', () => {
    const def = cleanDag();
    def.composition.edges = [
      {
        from: 'splice-resolver',
        to: 'fallback-writer',
        gate: 'llm-decides',
        condition: { pointer: '/ok', equals: true },
      },
    ];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/composition/edges/0/condition', 'key')]);
    expect(findings[0]?.message).toContain('"llm-decides"');
  });

  it('reports every violation at once', () => {
    const def = cleanDag();
    def.composition.nodes = [
      { slug: 'splice-resolver', version: '0.4.2' },
      { slug: 'splice-resolver', version: '0.4.3' },
    ];
    def.composition.edges = [
      { from: 'splice-resolver', to: 'ghost', condition: { pointer: '', equals: null } },
      { from: 'splice-resolver', to: 'splice-resolver', gate: 'conditional' },
    ];
    expect(summarize(runRule(rule, def))).toEqual([
      error('/composition/nodes/1/slug'),
      error('/composition/edges/0/to'),
      error('/composition/edges/0/condition', 'key'),
      warning('/composition/edges/1/gate'),
      error('/composition/edges/1'),
    ]);
  });
});

describe('composition-shape on large graphs', () => {
  it('handles a long chain without overflowing the stack, and finds the cycle that closes it', () => {
    const def = baseDefinition();
    const n = 20_000;
    def.composition.nodes = Array.from({ length: n }, (_, i) => ({ slug: `n${i}`, version: '1.0.0' }));
    def.composition.edges = Array.from({ length: n - 1 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` }));
    expect(runRule(rule, def)).toEqual([]);
    def.composition.edges.push({ from: `n${n - 1}`, to: 'n0' });
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual([`/composition/edges/${n - 1}`]);
    expect(findings[0]?.message).toBe(
      'composition.edges form a cycle: n0 -> n1 -> n2 -> n3 -> n4 -> n5 -> ... (19989 more) -> n19995 -> n19996 -> n19997 -> n19998 -> n19999 -> n0. A composition must be acyclic.',
    );
  });
});
