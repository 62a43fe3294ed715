/**
 * Property tests over application manifests:
 * - reordering the unordered identity collections (nodes, edges, entrypoints, outputs) never
 *   changes `digestApplicationManifestSource`, so a sealed manifest stays valid when reordered;
 * - random mutations of a valid manifest, in JSON and YAML (values deleted, replaced, inserted,
 *   nested deep; text cut, spliced, keys repeated), and arbitrary values never crash the validator,
 *   and what it accepts a plain Ajv compile of the published schema accepts too;
 * - random graphs over the test catalog: the validator never crashes, and whatever it accepts is
 *   checked again by an independent oracle (acyclic by Kahn's algorithm, exactly one producer per
 *   required input, assignable kinds, every node between an entrypoint and an output).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  damage,
  mutate,
  mutation,
  replaceStringLeaf,
  serialize,
  textDamage,
} from '../definition/__test-support__/definition-mutations';
import type { ApplicationManifest, PortRef } from '../schema/generated/application-manifest.types';
import { asText, sealed, TEST_CATALOG, TEST_COMPONENTS, validManifest } from './__test-support__/application-manifests';
import {
  validateApplicationManifestText,
  validateApplicationManifestValue,
  type ApplicationManifestResult,
} from './manifest-validate';
import { isAssignableKind } from './port-kinds';
import { digestApplicationManifestSource } from './source-digest';

function schemaOracle(): (value: unknown) => boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: true, unicodeRegExp: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  const validate = ajv.compile(
    JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'application-manifest.v1.schema.json'), 'utf8')) as object,
  );
  return (value) => validate(value) as boolean;
}
const oracle = schemaOracle();

function wellFormed(result: ApplicationManifestResult): void {
  expect(Array.isArray(result.diagnostics)).toBe(true);
  for (const d of result.diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(typeof d.message).toBe('string');
    expect(d.code).toBe('application_manifest_invalid');
  }
  expect(result.valid).toBe(!result.diagnostics.some((d) => d.severity === 'error'));
}

function safely(run: () => ApplicationManifestResult, input: unknown): ApplicationManifestResult {
  try {
    return run();
  } catch (error) {
    throw new Error(`validator threw on ${String(JSON.stringify(input))?.slice(0, 400)}: ${(error as Error).stack}`);
  }
}

/** A permutation of `items` chosen by `keys` (one random number per item). */
function permute<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)] ?? 0, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map((entry) => entry.item);
}

/** A larger valid manifest: two branches joined at the planner, two outputs. */
function richManifest(): ApplicationManifest {
  const m = structuredClone(validManifest());
  m.nodes.push({
    id: 'fetch',
    component: { id: 'agentdef.approved-artifact', revision: '1.0.0' },
    config: { artifact: 'policy' },
  });
  m.nodes.push({ id: 'evidence', component: { id: 'agentdef.output', revision: '1.0.0' }, config: {} });
  m.edges.push({ from: { node: 'question', port: 'value' }, to: { node: 'fetch', port: 'request' } });
  m.edges.push({ from: { node: 'fetch', port: 'artifact' }, to: { node: 'planner', port: 'context' } });
  m.edges.push({ from: { node: 'fetch', port: 'artifact' }, to: { node: 'evidence', port: 'value' } });
  m.outputs.push({ name: 'evidence', node: 'evidence', port: 'value' });
  return sealed(m);
}

const permutation = fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: 12 });

describe('reordering unordered identity collections', () => {
  it('never changes digestApplicationManifestSource, so the sealed manifest stays valid', () => {
    const base = richManifest();
    const digest = digestApplicationManifestSource(base);
    expect(digest.ok).toBe(true);
    fc.assert(
      fc.property(
        permutation,
        permutation,
        permutation,
        permutation,
        fc.constantFrom('json' as const, 'yaml' as const),
        (n, e, i, o, format) => {
          const reordered: ApplicationManifest = {
            ...base,
            nodes: permute(base.nodes, n) as any,
            edges: permute(base.edges, e),
            entrypoints: permute(base.entrypoints, i) as any,
            outputs: permute(base.outputs, o) as any,
          };
          expect(digestApplicationManifestSource(reordered)).toEqual(digest);
          const result = validateApplicationManifestText(asText(reordered, format), `application.${format}`, format, {
            catalog: TEST_CATALOG,
          });
          expect(result.diagnostics).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('while a reordering inside a node config, or any edit of a value, does change it', () => {
    const base = richManifest();
    const digest = digestApplicationManifestSource(base);
    const listConfig = sealed({
      ...base,
      nodes: base.nodes.map((node, i) => (i === 0 ? { ...node, config: { choices: ['a', 'b'] } } : node)),
    });
    const swapped = structuredClone(listConfig);
    (swapped.nodes[0]!.config as { choices: string[] }).choices.reverse();
    expect(digestApplicationManifestSource(swapped)).not.toEqual(digestApplicationManifestSource(listConfig));
    const edited = structuredClone(base);
    edited.edges[0]!.to.port = 'value';
    expect(digestApplicationManifestSource(edited)).not.toEqual(digest);
    // Any string anywhere but source.sha256, changed to any other string (a Unicode-equivalent form included).
    fc.assert(
      fc.property(
        fc.nat(),
        fc.oneof(fc.string(), fc.constantFrom('Caf\u00e9', 'Cafe\u0301', ' ', 'value ')),
        (at, text) => {
          const changed = replaceStringLeaf(base, at, text) as ApplicationManifest;
          if (changed.source.sha256 !== base.source.sha256 || JSON.stringify(changed) === JSON.stringify(base)) return;
          expect(digestApplicationManifestSource(changed)).not.toEqual(digest);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('random manifests', () => {
  const base = richManifest();

  for (const format of ['json', 'yaml'] as const) {
    it(`never crash the validator, and it accepts nothing the schema forbids (${format})`, () => {
      fc.assert(
        fc.property(
          fc.array(mutation, { minLength: 1, maxLength: 3 }),
          textDamage,
          fc.boolean(),
          (mutations, damaged, reseal) => {
            let value = mutate(base, mutations);
            if (reseal) {
              try {
                value = sealed(value);
              } catch {
                // not a sealable shape: validate as it is
              }
            }
            const text = damage(serialize(value, format), format, damaged);
            const result = safely(
              () => validateApplicationManifestText(text, `application.${format}`, format, { catalog: TEST_CATALOG }),
              text,
            );
            wellFormed(result);
            if (result.valid) expect(oracle(result.document!.value)).toBe(true);
            if (result.document && !oracle(result.document.value)) expect(result.valid).toBe(false);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('never crash the value entry point, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withSparseArray: true,
          withNullPrototype: true,
          withObjectString: true,
          withBoxedValues: true,
        }),
        (value) => {
          const result = safely(
            () => validateApplicationManifestValue(value, 'manifest.json', { catalog: TEST_CATALOG }),
            value,
          );
          wellFormed(result);
          expect(result.valid).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Random graphs, and an independent oracle for what the validator accepts

const COMPONENT_KEYS = Object.keys(TEST_COMPONENTS).sort();
const NODE_IDS = ['a', 'b', 'c', 'd', 'e', 'constructor'];
const PORTS = ['value', 'vars', 'prompt', 'plan', 'context', 'request', 'artifact', 'toString'];

const portRef = fc.record({ node: fc.constantFrom(...NODE_IDS), port: fc.constantFrom(...PORTS) });

const randomGraph = fc
  .record({
    nodes: fc.uniqueArray(
      fc.record({ id: fc.constantFrom(...NODE_IDS), component: fc.constantFrom(...COMPONENT_KEYS) }),
      { minLength: 1, maxLength: 6, selector: (n) => n.id },
    ),
    edges: fc.array(fc.record({ from: portRef, to: portRef }), { maxLength: 10 }),
    entrypoints: fc.array(portRef, { minLength: 1, maxLength: 3 }),
    outputs: fc.array(portRef, { minLength: 1, maxLength: 3 }),
  })
  .map(({ nodes, edges, entrypoints, outputs }) =>
    sealed({
      ...validManifest(),
      nodes: nodes.map((n) => {
        const [id, revision] = n.component.split('@') as [string, string];
        return { id: n.id, component: { id, revision }, config: {} };
      }),
      edges,
      entrypoints,
      outputs: outputs.map((o, i) => ({ name: `out${i}`, ...o })),
    } as ApplicationManifest),
  );

function hasRepeats(m: ApplicationManifest): boolean {
  const repeats = (keys: string[]) => new Set(keys).size !== keys.length;
  return (
    repeats(m.edges.map((e) => JSON.stringify(e))) ||
    repeats(m.entrypoints.map((p) => JSON.stringify([p.node, p.port]))) ||
    repeats(m.outputs.map((o) => o.name)) ||
    repeats(m.outputs.map((o) => JSON.stringify([o.node, o.port])))
  );
}

/** Independently of graph-rules.ts: does the accepted manifest really satisfy every graph rule? */
function satisfiesGraphRules(m: ApplicationManifest): string | undefined {
  const ports = new Map(m.nodes.map((n) => [n.id, TEST_COMPONENTS[`${n.component.id}@${n.component.revision}`]!]));
  const inputOf = (node: string, port: string) =>
    Object.entries(ports.get(node)?.inputs ?? {}).find(([name]) => name === port)?.[1];
  const outputOf = (node: string, port: string) =>
    Object.entries(ports.get(node)?.outputs ?? {}).find(([name]) => name === port)?.[1];
  for (const e of m.edges) {
    const out = outputOf(e.from.node, e.from.port);
    const input = inputOf(e.to.node, e.to.port);
    if (!out || !input) return `edge to or from a missing port: ${JSON.stringify(e)}`;
    if (!isAssignableKind(out.kind, input.kind)) return `kind mismatch ${JSON.stringify(e)}`;
  }
  for (const entry of m.entrypoints)
    if (!inputOf(entry.node, entry.port)) return `entrypoint is no input ${JSON.stringify(entry)}`;
  for (const o of m.outputs) if (!outputOf(o.node, o.port)) return `output is no output port ${JSON.stringify(o)}`;
  for (const [node, declared] of ports) {
    for (const [port, spec] of Object.entries(declared.inputs)) {
      const count =
        m.edges.filter((e) => e.to.node === node && e.to.port === port).length +
        m.entrypoints.filter((p) => p.node === node && p.port === port).length;
      if (count > 1 || (spec.required && count !== 1)) return `${node}.${port} has ${count} producers`;
    }
  }
  // Kahn's algorithm: every node gets a topological position.
  const indegree = new Map(m.nodes.map((n) => [n.id, 0]));
  for (const e of m.edges) indegree.set(e.to.node, (indegree.get(e.to.node) ?? 0) + 1);
  const ready = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  let placed = 0;
  while (ready.length > 0) {
    const id = ready.pop()!;
    placed++;
    for (const e of m.edges.filter((x) => x.from.node === id)) {
      indegree.set(e.to.node, indegree.get(e.to.node)! - 1);
      if (indegree.get(e.to.node) === 0) ready.push(e.to.node);
    }
  }
  if (placed !== m.nodes.length) return 'cycle';
  const closure = (start: string[], step: (id: string) => string[]) => {
    const seen = new Set(start);
    for (const queue = [...start]; queue.length > 0; )
      for (const next of step(queue.pop()!)) if (!seen.has(next) && seen.add(next)) queue.push(next);
    return seen;
  };
  const forward = closure(
    m.entrypoints.map((p) => p.node),
    (id) => m.edges.filter((e) => e.from.node === id).map((e) => e.to.node),
  );
  const backward = closure(
    m.outputs.map((p) => p.node),
    (id) => m.edges.filter((e) => e.to.node === id).map((e) => e.from.node),
  );
  for (const n of m.nodes)
    if (!forward.has(n.id) || !backward.has(n.id)) return `${n.id} is off every entrypoint-to-output path`;
  return undefined;
}

/** The rich manifest with edges removed, added or retargeted and entrypoints/outputs moved: valid and nearly valid graphs. */
const perturbedGraph = fc
  .record({
    drop: fc.oneof(fc.constant<number[]>([]), fc.subarray([0, 1, 2, 3, 4, 5], { maxLength: 2 })),
    add: fc.oneof(
      fc.constant<{ from: PortRef; to: PortRef }[]>([]),
      fc.array(fc.record({ from: portRef, to: portRef }), { maxLength: 2 }),
    ),
    entrypoint: fc.option(portRef, { nil: undefined, freq: 2 }),
    output: fc.option(portRef, { nil: undefined, freq: 2 }),
  })
  .map(({ drop, add, entrypoint, output }) => {
    const rich = richManifest();
    const ids = ['question', 'template', 'planner', 'result', 'fetch', 'evidence'];
    const real = (ref: { node: string; port: string }) => ({
      node: ids[NODE_IDS.indexOf(ref.node) % ids.length]!,
      port: ref.port,
    });
    return sealed({
      ...rich,
      edges: [
        ...rich.edges.filter((_, i) => !drop.includes(i)),
        ...add.map((e) => ({ from: real(e.from), to: real(e.to) })),
      ],
      entrypoints: entrypoint ? [...rich.entrypoints, real(entrypoint)] : rich.entrypoints,
      outputs: output ? [...rich.outputs, { name: 'extra', ...real(output) }] : rich.outputs,
    } as ApplicationManifest);
  });

describe('random graphs over the catalog', () => {
  it('never crash the validator, and every accepted graph satisfies the graph rules by an independent check', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.oneof(randomGraph, perturbedGraph),
        fc.constantFrom('json' as const, 'yaml' as const),
        (manifest, format) => {
          const text = asText(manifest, format);
          const result = safely(
            () => validateApplicationManifestText(text, `application.${format}`, format, { catalog: TEST_CATALOG }),
            manifest,
          );
          wellFormed(result);
          if (result.valid) {
            accepted++;
            expect(satisfiesGraphRules(manifest)).toBeUndefined();
          } else {
            refused++;
            // And the converse: a graph that satisfies every rule, without repeated members, is accepted.
            if (satisfiesGraphRules(manifest) === undefined && !hasRepeats(manifest))
              expect(result.diagnostics).toEqual([]);
          }
        },
      ),
      { numRuns: 500, seed: 20261130 },
    );
    // Both outcomes occur (with this fixed seed), so the oracle really checked accepted graphs.
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it('the oracle itself rejects what it should (a cycle, a dangling input)', () => {
    const cyclic = structuredClone(richManifest());
    cyclic.edges.push({ from: { node: 'result', port: 'value' }, to: { node: 'template', port: 'vars' } });
    expect(satisfiesGraphRules(cyclic)).toBeDefined();
    const dangling = structuredClone(richManifest());
    dangling.edges.splice(1, 1);
    expect(satisfiesGraphRules(dangling)).toBeDefined();
  });
});
