/**
 * Source digests of manifests and packs: fixed vectors against node:crypto over hand-written
 * canonical text, the placeholder flow, exclusion of exactly `source.sha256`, component order by
 * exact id then revision, deep-frozen inputs left untouched, and properties (pack component order
 * and key order never matter; any other edit gives a new digest; nothing throws).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestApplicationManifestSource, digestComponentPackSource, SHA256_HEX } from './source-digest';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

const manifest = () => ({
  schemaVersion: 'agentdef.application-manifest/v1',
  id: 'research-brief',
  revision: '1.0.0',
  source: { uri: 'workspace:/examples/research-brief/application.json', sha256: '0'.repeat(64) },
  nodes: [{ id: 'topic', component: 'agentdef.input@1.0.0' }],
});
const MANIFEST_TEXT =
  '{"id":"research-brief","nodes":[{"component":"agentdef.input@1.0.0","id":"topic"}],"revision":"1.0.0","schemaVersion":"agentdef.application-manifest/v1","source":{"uri":"workspace:/examples/research-brief/application.json"}}';

describe('digestApplicationManifestSource', () => {
  it('is SHA-256 of the canonical manifest without source.sha256 (fixed vector)', () => {
    const result = digestApplicationManifestSource(deepFreeze(manifest()));
    expect(result).toEqual({ ok: true, sha256: sha256(MANIFEST_TEXT) });
    if (result.ok) expect(result.sha256).toMatch(SHA256_HEX);
  });

  it('supports the placeholder flow: any placeholder, or none, gives the digest to write in, which then verifies', () => {
    const expected = sha256(MANIFEST_TEXT);
    const withPlaceholder = manifest();
    const { sha256: _placeholder, ...sourceWithout } = withPlaceholder.source;
    let getterRuns = 0;
    const variants: unknown[] = [
      withPlaceholder,
      { ...withPlaceholder, source: sourceWithout },
      { ...withPlaceholder, source: { ...sourceWithout, sha256: 'PLACEHOLDER' } },
      { ...withPlaceholder, source: { ...sourceWithout, sha256: undefined } },
      { ...withPlaceholder, source: { ...sourceWithout, sha256: () => 'not even data' } },
      {
        ...withPlaceholder,
        source: Object.defineProperty({ ...sourceWithout }, 'sha256', { get: () => ++getterRuns, enumerable: true }),
      },
      {
        ...withPlaceholder,
        source: Object.defineProperty({ ...sourceWithout }, 'sha256', { value: 1, enumerable: false }),
      },
    ];
    for (const variant of variants)
      expect(digestApplicationManifestSource(variant)).toEqual({ ok: true, sha256: expected });
    expect(getterRuns).toBe(0);
    const written = { ...withPlaceholder, source: { ...sourceWithout, sha256: expected } };
    expect(digestApplicationManifestSource(written)).toEqual({ ok: true, sha256: expected });
  });

  it('removes only source.sha256: every other sha256 member, and every other source member, is bound', () => {
    const base = digestApplicationManifestSource(manifest());
    const edits: unknown[] = [
      { ...manifest(), sha256: 'x' },
      { ...manifest(), source: { ...manifest().source, uri: 'workspace:/examples/other.json' } },
      { ...manifest(), source: { ...manifest().source, sha: 'x' } },
      { ...manifest(), nodes: [{ id: 'topic', component: 'agentdef.input@1.0.0', source: { sha256: 'x' } }] },
      { ...manifest(), 'source/sha256': 'x' },
    ];
    for (const edit of edits) expect(digestApplicationManifestSource(edit)).not.toEqual(base);
  });

  it('refuses a manifest that is not a JSON object, or holds a non-JSON value anywhere else, with its pointer', () => {
    expect(digestApplicationManifestSource([manifest()])).toEqual({
      ok: false,
      pointer: '',
      reason: 'an application manifest must be a JSON object',
    });
    expect(digestApplicationManifestSource('x')).toMatchObject({ ok: false, pointer: '' });
    expect(digestApplicationManifestSource({ ...manifest(), nodes: [{ id: 'n', limit: Number.NaN }] })).toMatchObject({
      ok: false,
      pointer: '/nodes/0/limit',
    });
    expect(
      digestApplicationManifestSource({ ...manifest(), source: { ...manifest().source, uri: undefined } }),
    ).toMatchObject({ ok: false, pointer: '/source/uri' });
  });
});

const pack = () => ({
  schemaVersion: 'agentdef.component-pack/v1',
  id: 'text-tools',
  revision: '1.0.0',
  source: { uri: 'urn:agentdef:pack:text-tools', sha256: 'placeholder' },
  components: [
    { id: 'b', revision: '1.0.0' },
    { id: 'a', revision: '1.9.0' },
    { id: 'a', revision: '1.10.0' },
    { id: 'B', revision: '2.0.0' },
  ],
});

describe('digestComponentPackSource', () => {
  it('orders components by exact id then revision in code-unit order before hashing (fixed vector)', () => {
    const text =
      '{"components":[{"id":"B","revision":"2.0.0"},{"id":"a","revision":"1.10.0"},{"id":"a","revision":"1.9.0"},{"id":"b","revision":"1.0.0"}],"id":"text-tools","revision":"1.0.0","schemaVersion":"agentdef.component-pack/v1","source":{"uri":"urn:agentdef:pack:text-tools"}}';
    expect(digestComponentPackSource(deepFreeze(pack()))).toEqual({ ok: true, sha256: sha256(text) });
  });

  it('keeps every other array in its order and leaves a deep-frozen input exactly as it was', () => {
    const input = deepFreeze({ ...pack(), components: [{ id: 'x', revision: '1.0.0', config: { order: [2, 1] } }] });
    const before = JSON.stringify(input);
    const swapped = { ...pack(), components: [{ id: 'x', revision: '1.0.0', config: { order: [1, 2] } }] };
    expect(digestComponentPackSource(input)).not.toEqual(digestComponentPackSource(swapped));
    expect(JSON.stringify(input)).toBe(before);
    expect(input.components.map((c) => c.id)).toEqual(['x']);
    const unsorted = deepFreeze(pack());
    digestComponentPackSource(unsorted);
    expect(unsorted.components.map((c) => c.id)).toEqual(['b', 'a', 'a', 'B']);
  });

  it('orders components that share an id and revision by their canonical text, so even duplicates do not depend on order', () => {
    const one = { id: 'a', revision: '1.0.0', title: 'one' };
    const two = { id: 'a', revision: '1.0.0', title: 'two' };
    expect(digestComponentPackSource({ ...pack(), components: [one, two] })).toEqual(
      digestComponentPackSource({ ...pack(), components: [two, one] }),
    );
  });

  it('refuses components it cannot order, at their pointer', () => {
    expect(digestComponentPackSource({ ...pack(), components: { a: 1 } })).toEqual({
      ok: false,
      pointer: '/components',
      reason: 'the components of a pack must be an array',
    });
    expect(digestComponentPackSource({ ...pack(), components: [{ id: 'a', revision: '1' }, 'x'] })).toEqual({
      ok: false,
      pointer: '/components/1',
      reason: 'a component must be a JSON object',
    });
    expect(digestComponentPackSource({ ...pack(), components: [{ id: 1, revision: '1' }] })).toMatchObject({
      ok: false,
      pointer: '/components/0/id',
    });
    expect(digestComponentPackSource({ ...pack(), components: [{ id: 'a' }] })).toMatchObject({
      ok: false,
      pointer: '/components/0/revision',
    });
    expect(
      digestComponentPackSource({ ...pack(), components: [{ id: 'a', revision: '1', x: new Map() }] }),
    ).toMatchObject({ ok: false, pointer: '/components/0/x' });
    expect(digestComponentPackSource(null)).toEqual({
      ok: false,
      pointer: '',
      reason: 'a component pack must be a JSON object',
    });
  });

  const component = fc.record({
    id: fc.string({ maxLength: 3 }),
    revision: fc.constantFrom('1.0.0', '1.10.0', '1.9.0', '2.0.0'),
    config: fc.jsonValue({ maxDepth: 2 }),
  });
  const randomPack = fc.record({
    id: fc.string(),
    revision: fc.string(),
    source: fc.record({ uri: fc.string(), sha256: fc.jsonValue({ maxDepth: 1 }) }),
    components: fc.array(component, { maxLength: 6 }),
  });

  it('does not depend on component order, key order or the sha256 placeholder (property)', () => {
    fc.assert(
      fc.property(
        randomPack,
        fc.infiniteStream(fc.nat()),
        fc.jsonValue({ maxDepth: 1 }),
        (value, stream, placeholder) => {
          const randoms = stream[Symbol.iterator]();
          const shuffle = <T>(list: T[]): T[] => {
            const out = [...list];
            for (let i = out.length - 1; i > 0; i--) {
              const j = (randoms.next().value as number) % (i + 1);
              [out[i], out[j]] = [out[j] as T, out[i] as T];
            }
            return out;
          };
          const reordered = Object.fromEntries(
            shuffle(
              Object.entries({
                ...value,
                source: { sha256: placeholder, uri: value.source.uri },
                components: shuffle(value.components).map((c) => Object.fromEntries(shuffle(Object.entries(c)))),
              }),
            ),
          );
          const result = digestComponentPackSource(deepFreeze(value));
          expect(result.ok).toBe(true);
          expect(digestComponentPackSource(reordered)).toEqual(result);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('changes under any edit of a component, an id, a revision or the source URI (property)', () => {
    fc.assert(
      fc.property(
        randomPack,
        fc.nat(),
        fc.constantFrom('id', 'revision', 'config', 'uri', 'pack-id'),
        fc.string({ minLength: 1 }),
        (value, at, field, suffix) => {
          const edited = JSON.parse(JSON.stringify(value)) as typeof value;
          if (field === 'uri') edited.source.uri += suffix;
          else if (field === 'pack-id') edited.id += suffix;
          else {
            fc.pre(edited.components.length > 0);
            const target = edited.components[at % edited.components.length] as Record<string, unknown>;
            target[field] = field === 'config' ? [target[field], suffix] : `${String(target[field])}${suffix}`;
          }
          expect(digestComponentPackSource(edited)).not.toEqual(digestComponentPackSource(value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws, whatever the value', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      withDate: true,
    });
    fc.assert(
      fc.property(anything, fc.array(anything, { maxLength: 3 }), (value, components) => {
        for (const input of [
          value,
          { source: value, components },
          { source: { sha256: value }, components: [value, ...components] },
        ]) {
          expect(typeof digestComponentPackSource(input).ok).toBe('boolean');
          expect(typeof digestApplicationManifestSource(input).ok).toBe('boolean');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('SHA256_HEX', () => {
  it('is exactly 64 lowercase hexadecimal characters', () => {
    expect(SHA256_HEX.test('a'.repeat(64))).toBe(true);
    expect(SHA256_HEX.test(sha256(''))).toBe(true);
    for (const bad of [
      'A'.repeat(64),
      'a'.repeat(63),
      'a'.repeat(65),
      `${'a'.repeat(64)}\n`,
      `\n${'a'.repeat(64)}`,
      'g'.repeat(64),
      `sha256:${'a'.repeat(57)}`,
      '',
    ])
      expect(SHA256_HEX.test(bad)).toBe(false);
  });
});
