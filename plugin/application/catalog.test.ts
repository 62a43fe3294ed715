import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinComponents } from './builtin-components';
import {
  builtinCatalog,
  type CatalogPack,
  catalogFromDefinitions,
  catalogToolResult,
  catalogView,
  componentConfigFindings,
} from './catalog';
import { controlFieldFindings } from './manifest-validate';
import { checkPackConfigSchema, PACK_SCHEMA_DRAFT } from './pack-schema-dialect';
import { readApplicationJson, stableApplicationJson } from './stable-json';

const HEX64 = /^[0-9a-f]{64}$/;

function catalogOf(definitions: readonly unknown[], packs: readonly CatalogPack[] = []) {
  const result = catalogFromDefinitions(definitions, packs);
  if (!result.ok) throw new Error(JSON.stringify(result.findings));
  return result.catalog;
}

/** Deep copy with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    );
  return value;
}

const digestsById = (catalog: ReturnType<typeof builtinCatalog>) =>
  new Map(catalog.components.map((c) => [c.definition.id, c.definitionDigest]));

describe('builtinCatalog', () => {
  it('lists the five components sorted by id and revision, each with a definition digest', () => {
    const catalog = builtinCatalog();
    expect(catalog.components.map((c) => c.definition.id)).toEqual([
      'agentdef.approved-artifact',
      'agentdef.input',
      'agentdef.output',
      'agentdef.prompt-template',
      'agentdef.registered-agent',
    ]);
    for (const c of catalog.components) expect(c.definitionDigest).toMatch(HEX64);
    expect(new Set(catalog.components.map((c) => c.definitionDigest)).size).toBe(5);
    expect(catalog.catalogDigest).toMatch(HEX64);
    expect(catalog.adapterPolicyDigest).toMatch(HEX64);
    expect(catalog.catalogDigest).not.toBe(catalog.adapterPolicyDigest);
    expect(catalog.packs).toEqual([]);
  });

  it('is stable across calls, and across the order of definitions and of keys', () => {
    const a = builtinCatalog();
    const b = builtinCatalog();
    expect(b).toEqual(a);
    const shuffled = catalogOf([...builtinComponents()].reverse().map(reversedKeys));
    expect(shuffled.catalogDigest).toBe(a.catalogDigest);
    expect(shuffled.adapterPolicyDigest).toBe(a.adapterPolicyDigest);
    expect(digestsById(shuffled)).toEqual(digestsById(a));
  });

  it('keeps digests invariant under any permutation of the definitions (property)', () => {
    const base = builtinCatalog();
    fc.assert(
      fc.property(fc.shuffledSubarray([...builtinComponents()], { minLength: 5, maxLength: 5 }), (order) => {
        const catalog = catalogOf(order);
        return catalog.catalogDigest === base.catalogDigest && catalog.adapterPolicyDigest === base.adapterPolicyDigest;
      }),
    );
  });

  it('moves the catalog digest and that component digest only when one definition changes', () => {
    const base = builtinCatalog();
    const edits: ((d: any) => void)[] = [
      (d) => (d.description += ' '),
      (d) => (d.configSchema.properties.description.maxLength = 511),
      (d) => (d.ports.outputs.value.kind = 'text'),
      (d) => (d.title = 'Local input (changed)'),
    ];
    for (const edit of edits) {
      const definitions = structuredClone(builtinComponents()) as any[];
      edit(definitions.find((d) => d.id === 'agentdef.input'));
      const changed = catalogOf(definitions);
      expect(changed.catalogDigest).not.toBe(base.catalogDigest);
      expect(changed.adapterPolicyDigest).not.toBe(base.adapterPolicyDigest);
      for (const [id, digest] of digestsById(base)) {
        if (id === 'agentdef.input') expect(digestsById(changed).get(id)).not.toBe(digest);
        else expect(digestsById(changed).get(id)).toBe(digest);
      }
    }
  });

  it('moves the adapter-policy digest for each adapter descriptor or owner selection change', () => {
    const base = builtinCatalog();
    const edits: ((d: any) => void)[] = [
      (d) => (d.modes = ['dry-run']),
      (d) => (d.sideEffect = 'none'),
      (d) => (d.replay = 'deterministic'),
      (d) => (d.owner.name = 'other'),
      (d) => (d.owner.selection = 'builtin'),
    ];
    const seen = new Set<string>([base.adapterPolicyDigest]);
    for (const edit of edits) {
      const definitions = structuredClone(builtinComponents()) as any[];
      edit(definitions.find((d) => d.id === 'agentdef.approved-artifact'));
      const changed = catalogOf(definitions);
      expect(seen.has(changed.adapterPolicyDigest)).toBe(false);
      seen.add(changed.adapterPolicyDigest);
    }
  });

  it('binds pack membership and pack source digests into the catalog digest', () => {
    const base = builtinCatalog();
    const pack = { id: 'acme.tools', revision: '1.0.0', sourceDigest: 'b'.repeat(64) };
    const withPack = catalogOf(builtinComponents(), [pack]);
    const otherSource = catalogOf(builtinComponents(), [{ ...pack, sourceDigest: 'c'.repeat(64) }]);
    expect(new Set([base.catalogDigest, withPack.catalogDigest, otherSource.catalogDigest]).size).toBe(3);
    expect(digestsById(withPack)).toEqual(digestsById(base));
  });

  it('refuses a repeated component, a schema outside the pack dialect and non-plain data, with located findings', () => {
    const definitions = structuredClone(builtinComponents()) as any[];
    const repeated = catalogFromDefinitions([...definitions, definitions[1]]);
    expect(repeated.ok).toBe(false);
    if (!repeated.ok) expect(repeated.findings.map((f) => f.path)).toEqual(['/5']);

    const bad = structuredClone(builtinComponents()) as any[];
    bad[0].configSchema.properties.command = { type: 'string', maxLength: 10 };
    bad[2].configSchema.additionalProperties = true;
    const badSchemas = catalogFromDefinitions(bad);
    expect(badSchemas.ok).toBe(false);
    if (!badSchemas.ok) {
      expect(badSchemas.findings.some((f) => f.path.startsWith('/0/configSchema/properties/command'))).toBe(true);
      expect(badSchemas.findings.some((f) => f.path.startsWith('/2/configSchema'))).toBe(true);
    }

    const getter = structuredClone(builtinComponents()) as any[];
    let ran = false;
    Object.defineProperty(getter[3], 'title', {
      enumerable: true,
      get() {
        ran = true;
        return 'x';
      },
    });
    const result = catalogFromDefinitions(getter);
    expect(result.ok).toBe(false);
    expect(ran).toBe(false);
    expect(() => catalogFromDefinitions([null, 1, 'x', [], { id: 1 }])).not.toThrow();
    expect(catalogFromDefinitions([null]).ok).toBe(false);
  });
});

describe('catalogView', () => {
  const view = catalogView(builtinCatalog());
  it('looks components up exactly by id and revision', () => {
    expect(view.lookup('agentdef.registered-agent', '1.0.0')).toEqual({
      inputs: { prompt: { kind: 'text', required: true }, context: { kind: 'json', required: false } },
      outputs: { plan: { kind: 'agent-plan' } },
    });
    for (const [id, revision] of [
      ['agentdef.registered-agent', '1.0'],
      ['agentdef.registered-agent', 'latest'],
      ['agentdef.registered-agent', '^1.0.0'],
      ['agentdef.registered-agent', '1.0.1'],
      ['agentdef.Registered-agent', '1.0.0'],
      ['constructor', '1.0.0'],
      ['__proto__', '1.0.0'],
    ]) {
      expect(view.lookup(id!, revision!)).toBeUndefined();
    }
  });
  it('exposes ports as own data only: no prototype member is a port', () => {
    const ports = view.lookup('agentdef.output', '1.0.0')!;
    expect(Object.getPrototypeOf(ports.inputs)).toBeNull();
    expect((ports.inputs as Record<string, unknown>)['toString']).toBeUndefined();
  });
});

describe('catalogToolResult', () => {
  const result = catalogToolResult(builtinCatalog());
  it('is canonical plain JSON and identical across calls', () => {
    const text = stableApplicationJson(result);
    expect(text.ok).toBe(true);
    expect(readApplicationJson(result).ok).toBe(true);
    const again = stableApplicationJson(catalogToolResult(builtinCatalog()));
    expect(again.ok && text.ok && again.text === text.text).toBe(true);
  });

  it('carries the digests, the authoring schemas and the execution evidence', () => {
    const catalog = builtinCatalog();
    const r = result as any;
    expect(r.schemaVersion).toBe('agentdef.application-catalog/v1');
    expect(r.catalogDigest).toBe(catalog.catalogDigest);
    expect(r.adapterPolicyDigest).toBe(catalog.adapterPolicyDigest);
    expect(r.components).toHaveLength(5);
    for (const c of r.components) {
      expect(checkPackConfigSchema(c.configSchema)).toEqual([]);
      expect(c.definitionDigest).toMatch(HEX64);
      expect(Object.keys(c.evidence).sort()).toEqual([
        'capability',
        'interface',
        'modes',
        'owner',
        'replay',
        'sideEffect',
      ]);
    }
    const artifact = r.components.find((c: any) => c.id === 'agentdef.approved-artifact');
    expect(artifact.evidence).toMatchObject({
      sideEffect: 'external',
      replay: 'fenced-once',
      owner: 'agentdef.gateway',
    });
    expect(artifact.ownerSelection).toBe('host-injected');
  });

  it('contains no control field except its declared `adapterPolicyDigest` member, and nothing private', () => {
    expect(controlFieldFindings(result, '', 'the catalog projection').map((f) => f.path)).toEqual([
      '/adapterPolicyDigest',
    ]);
    // The dialect's draft URI is the one URL allowed (an identifier, never fetched).
    const text = JSON.stringify(result).replaceAll(JSON.stringify(PACK_SCHEMA_DRAFT), '""');
    for (const needle of ['/work', 'file:', 'node_modules', '=>', 'function', 'process.env', '.ts"', 'http'])
      expect(text).not.toContain(needle);
  });

  it('is a copy: changing it changes nothing in the catalog', () => {
    const r = catalogToolResult(builtinCatalog()) as any;
    r.components[0].configSchema.properties.extra = { type: 'string' };
    expect(JSON.stringify(catalogToolResult(builtinCatalog()))).toBe(JSON.stringify(result));
  });
});

describe('componentConfigFindings', () => {
  const catalog = builtinCatalog();
  it('accepts a documented configuration and locates every problem under the given pointer', () => {
    expect(
      componentConfigFindings(
        catalog,
        'agentdef.registered-agent',
        '1.0.0',
        { slug: 'support-agent', version: '1.2.0' },
        '/nodes/2/config',
      ),
    ).toEqual([]);
    const missing = componentConfigFindings(
      catalog,
      'agentdef.registered-agent',
      '1.0.0',
      { slug: 'support-agent' },
      '/nodes/2/config',
    );
    expect(missing.map((f) => f.path)).toEqual(['/nodes/2/config']);
    const unknown = componentConfigFindings(catalog, 'agentdef.output', '1.0.0', { colour: 'red' }, '/nodes/3/config');
    expect(unknown.map((f) => f.path)).toEqual(['/nodes/3/config/colour']);
  });

  it('reports a control field once, as a control field, at any depth', () => {
    const top = componentConfigFindings(
      catalog,
      'agentdef.approved-artifact',
      '1.0.0',
      { artifactDigest: 'a'.repeat(64), capability: 'x', apiKey: 'k' },
      '/nodes/1/config',
    );
    expect(top.map((f) => f.path)).toEqual(['/nodes/1/config/apiKey']);
    expect(top[0]!.message).toContain('control field');
    const deep = componentConfigFindings(
      catalog,
      'agentdef.input',
      '1.0.0',
      { description: 'x', a: { b: { command: 'ls' } } },
      '/nodes/0/config',
    );
    expect(deep.map((f) => f.path)).toContain('/nodes/0/config/a/b/command');
  });

  it('never runs a getter of the configuration, and refuses an unknown or inexact component', () => {
    let ran = false;
    const config = {};
    Object.defineProperty(config, 'description', {
      enumerable: true,
      get() {
        ran = true;
        return 'x';
      },
    });
    expect(componentConfigFindings(catalog, 'agentdef.input', '1.0.0', config).length).toBeGreaterThan(0);
    expect(ran).toBe(false);
    expect(componentConfigFindings(catalog, 'agentdef.input', '1.0', {}).length).toBe(1);
    expect(componentConfigFindings(catalog, 'agentdef.input', 'latest', {}).length).toBe(1);
  });
});
