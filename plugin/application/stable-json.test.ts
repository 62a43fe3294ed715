/**
 * Canonical application JSON: a fixed vector against node:crypto, the admission rules (each kind of
 * non-data value refused at its JSON Pointer, anywhere in a tree), hostile objects (Proxies, throwing
 * getters, other realms, expanding graphs) that must give a failure and never an exception, and
 * properties: agreement with the RFC 8785 reference, invariance under key order, and a new digest
 * for every other edit, including a Unicode-normalisation-equivalent string.
 */
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize as runtimeCanonicalize } from '../runtime/jcs';
import {
  digestApplicationJson,
  MAX_APPLICATION_JSON_VALUES,
  readApplicationJson,
  stableApplicationJson,
} from './stable-json';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A JSON Pointer from unescaped tokens. */
const pointer = (tokens: readonly (string | number)[]): string =>
  tokens.map((token) => `/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

describe('stableApplicationJson: the canonical text', () => {
  it('matches a hand-written RFC 8785 vector, and its digest is node:crypto over those bytes', () => {
    const value = {
      zeta: [3, 'é', true, null, { y: -0, x: 1e21 }],
      alpha: { b: 0.000001, a: 1e-7, c: -12.5 },
      '\ufb00': 'ligature key (U+FB00)',
      '\ud83d\ude00': 'astral key (U+1F600, code units D83D DE00)',
      '\u20ac': 'euro',
      quote: 'a "q" \\ \n \u0001 \u2028',
    };
    // Code-unit order puts U+1F600 (D83D…) before U+FB00, which code-point order would not.
    const expected =
      '{"alpha":{"a":1e-7,"b":0.000001,"c":-12.5},"quote":"a \\"q\\" \\\\ \\n \\u0001 \u2028","zeta":[3,"é",true,null,{"x":1e+21,"y":0}],"€":"euro","😀":"astral key (U+1F600, code units D83D DE00)","ﬀ":"ligature key (U+FB00)"}';
    expect(stableApplicationJson(value)).toEqual({ ok: true, text: expected });
    expect(digestApplicationJson(value)).toEqual({ ok: true, sha256: sha256(expected) });
    expect(digestApplicationJson({ a: 1 })).toEqual({
      ok: true,
      sha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
    });
  });

  it('keeps a __proto__ member as data, accepts null-prototype, frozen and sealed objects and shared sub-trees', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"b":[1]}') as unknown;
    expect(stableApplicationJson(parsed)).toEqual({ ok: true, text: '{"__proto__":{"polluted":true},"b":[1]}' });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 2, a: 1 });
    expect(stableApplicationJson(bare)).toEqual({ ok: true, text: '{"a":1,"b":2}' });
    const shared = Object.freeze({ k: Object.seal([1, 2]) });
    expect(stableApplicationJson(Object.freeze({ left: shared, right: shared, list: [shared, shared] }))).toEqual({
      ok: true,
      text: '{"left":{"k":[1,2]},"list":[{"k":[1,2]},{"k":[1,2]}],"right":{"k":[1,2]}}',
    });
  });

  it('does not depend on the nesting depth (no recursion), and copies data detached from the input', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { d: deep };
    const result = stableApplicationJson(deep);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.text.length).toBe(6 + 50_000 * 2 + 50_000 * 6);
    const input = { a: [{ b: 1 }] };
    const read = readApplicationJson(input);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toEqual(input);
    expect((read.value as { a: unknown }).a).not.toBe(input.a);
    expect(Object.getPrototypeOf(read.value)).toBeNull();
  });

  it('refuses a small graph that expands past the value bound, at the place the bound is crossed', () => {
    let bomb: unknown = [0];
    for (let i = 0; i < 40; i++) bomb = [bomb, bomb];
    const result = stableApplicationJson(bomb);
    expect(result).toMatchObject({ ok: false, reason: `more than ${MAX_APPLICATION_JSON_VALUES} values` });
    if (!result.ok) expect(result.pointer).toMatch(/^(\/[01])+$/);
  });

  it('leaves out exactly the members named by `omit`, without looking at them', () => {
    let reads = 0;
    const source = { uri: 'kgdoc:a', sha256: 'placeholder' };
    Object.defineProperty(source, 'sha256', {
      get() {
        reads++;
        return 'x';
      },
      enumerable: true,
    });
    const read = readApplicationJson(
      { source, other: { source: { sha256: 'kept' } }, 'source/sha256': 1 },
      { omit: ['/source/sha256'] },
    );
    expect(reads).toBe(0);
    expect(read).toEqual({
      ok: true,
      value: { other: { source: { sha256: 'kept' } }, source: { uri: 'kgdoc:a' }, 'source/sha256': 1 },
    });
  });
});

/** One kind of value that is not plain JSON data: how to place it as a member, and where the failure points (tokens after the member). */
interface Poison {
  readonly name: string;
  readonly descriptor: (root: unknown) => PropertyDescriptor;
  readonly below?: readonly string[];
  readonly reason: RegExp;
}

const data = (value: unknown): PropertyDescriptor => ({ value, enumerable: true, writable: true, configurable: true });

class Point {
  x = 1;
}
class List extends Array<number> {}
/** `list` with the element at `index` deleted (a hole). */
const withHole = (list: unknown[], index: number): unknown[] => {
  Reflect.deleteProperty(list, index);
  return list;
};
const realm = (source: string): unknown => runInNewContext(source);
const trapAll = new Proxy(
  {},
  Object.fromEntries(
    [
      'ownKeys',
      'get',
      'getOwnPropertyDescriptor',
      'getPrototypeOf',
      'has',
      'defineProperty',
      'deleteProperty',
      'isExtensible',
      'preventExtensions',
      'set',
      'setPrototypeOf',
      'apply',
      'construct',
    ].map((trap) => [
      trap,
      () => {
        throw new Error(`trap ${trap} ran`);
      },
    ]),
  ),
);
const revoked = Proxy.revocable({}, {});
revoked.revoke();

const POISONS: readonly Poison[] = [
  { name: 'undefined', descriptor: () => data(undefined), reason: /undefined is not a JSON value/ },
  { name: 'a function', descriptor: () => data(() => 1), reason: /function/ },
  { name: 'a toJSON method', descriptor: () => data({ toJSON: () => 'x' }), below: ['toJSON'], reason: /function/ },
  { name: 'a bigint', descriptor: () => data(10n), reason: /bigint/ },
  { name: 'a symbol', descriptor: () => data(Symbol('s')), reason: /symbol is not/ },
  { name: 'NaN', descriptor: () => data(Number.NaN), reason: /NaN is not a JSON number/ },
  { name: 'Infinity', descriptor: () => data(Number.POSITIVE_INFINITY), reason: /Infinity is not a JSON number/ },
  { name: '-Infinity', descriptor: () => data(Number.NEGATIVE_INFINITY), reason: /-Infinity is not a JSON number/ },
  { name: 'a lone high surrogate', descriptor: () => data('ok\ud800'), reason: /unpaired UTF-16 surrogate/ },
  { name: 'a lone low surrogate', descriptor: () => data('\udc00ok'), reason: /unpaired UTF-16 surrogate/ },
  {
    name: 'a lone surrogate in a key',
    descriptor: () => data({ fine: 1, 'k\udbff': 1 }),
    below: ['k\udbff'],
    reason: /surrogate in a property name/,
  },
  { name: 'a Date', descriptor: () => data(new Date(0)), reason: /a Date/ },
  { name: 'a Map', descriptor: () => data(new Map()), reason: /a Map/ },
  { name: 'a WeakMap', descriptor: () => data(new WeakMap()), reason: /a Map/ },
  { name: 'a Set', descriptor: () => data(new Set([1])), reason: /a Set/ },
  { name: 'a RegExp', descriptor: () => data(/x/), reason: /a RegExp/ },
  { name: 'a typed array', descriptor: () => data(new Uint8Array(2)), reason: /binary data/ },
  { name: 'a Buffer', descriptor: () => data(Buffer.from('x')), reason: /binary data/ },
  { name: 'an ArrayBuffer', descriptor: () => data(new ArrayBuffer(1)), reason: /binary data/ },
  { name: 'a DataView', descriptor: () => data(new DataView(new ArrayBuffer(1))), reason: /binary data/ },
  { name: 'a boxed string', descriptor: () => data(new String('x')), reason: /boxed primitive/ },
  { name: 'a boxed number', descriptor: () => data(Object(1)), reason: /boxed primitive/ },
  { name: 'a Promise', descriptor: () => data(Promise.resolve(1)), reason: /a Promise/ },
  { name: 'an Error', descriptor: () => data(new Error('boom')), reason: /an Error/ },
  { name: 'a class instance', descriptor: () => data(new Point()), reason: /custom prototype/ },
  {
    name: 'an object inheriting from an object',
    descriptor: () => data(Object.create({ inherited: 1 })),
    reason: /custom prototype/,
  },
  {
    name: 'an object with Array.prototype',
    descriptor: () => data(Object.create(Array.prototype)),
    reason: /custom prototype/,
  },
  { name: 'an Array subclass', descriptor: () => data(List.from([1])), reason: /array with a custom prototype/ },
  {
    name: 'an array with a null prototype',
    descriptor: () => data(Object.setPrototypeOf([1], null)),
    reason: /array with a custom prototype/,
  },
  { name: 'an object from another realm', descriptor: () => data(realm('({ a: 1 })')), reason: /another realm/ },
  {
    name: 'an array from another realm',
    descriptor: () => data(realm('[1, 2]')),
    reason: /array with a custom prototype or from another realm/,
  },
  {
    name: 'an arguments object',
    descriptor: () =>
      data(
        (function (this: unknown, ..._rest: unknown[]) {
          // biome-ignore lint/complexity/noArguments: an arguments object is the point of this case
          return arguments;
        })(1),
      ),
    reason: /symbol-keyed property/,
  },
  { name: 'a benign Proxy', descriptor: () => data(new Proxy({ a: 1 }, {})), reason: /Proxy/ },
  { name: 'a Proxy of an array', descriptor: () => data(new Proxy([1], {})), reason: /Proxy/ },
  { name: 'a Proxy whose every trap throws', descriptor: () => data(trapAll), reason: /Proxy/ },
  { name: 'a revoked Proxy', descriptor: () => data(revoked.proxy), reason: /Proxy/ },
  {
    name: 'a throwing getter',
    descriptor: () => ({
      get() {
        throw new Error('getter ran');
      },
      enumerable: true,
      configurable: true,
    }),
    reason: /accessor property/,
  },
  {
    name: 'a setter only',
    descriptor: () => ({ set() {}, enumerable: true, configurable: true }),
    reason: /accessor property/,
  },
  {
    name: 'a hidden property',
    descriptor: () => ({ value: 1, enumerable: false, writable: true, configurable: true }),
    reason: /hidden \(non-enumerable\)/,
  },
  {
    name: 'a hidden member of a nested object',
    descriptor: () => data(Object.defineProperty({ a: 1 }, 'secret', { value: 2, enumerable: false })),
    below: ['secret'],
    reason: /hidden/,
  },
  {
    name: 'a symbol-keyed member',
    descriptor: () => data({ a: 1, [Symbol('k')]: 2 }),
    reason: /symbol-keyed property/,
  },
  {
    name: 'a sparse array',
    descriptor: () => data(withHole([1, 2, 3], 1)),
    below: ['1'],
    reason: /hole in a sparse array/,
  },
  {
    name: 'an array with only a length',
    descriptor: () => data(Object.assign([], { length: 3 })),
    below: ['0'],
    reason: /hole in a sparse array/,
  },
  {
    name: 'a long sparse array',
    descriptor: () => data(Object.assign([1, 2], { length: 1000 })),
    below: ['2'],
    reason: /hole in a sparse array/,
  },
  {
    name: 'a decorated array',
    descriptor: () => data(Object.assign([1, 2], { extra: true })),
    below: ['extra'],
    reason: /property on an array beyond its elements/,
  },
  {
    name: 'an array with a non-canonical index key',
    descriptor: () => data(Object.assign([1], { '01': 2 })),
    below: ['01'],
    reason: /beyond its elements/,
  },
  {
    name: 'an array with a symbol key',
    descriptor: () => data(Object.assign([1], { [Symbol.iterator]: null })),
    reason: /symbol-keyed property on an array/,
  },
  {
    name: 'a hidden array element',
    descriptor: () => data(Object.defineProperty([0, 1], '1', { value: 1, enumerable: false })),
    below: ['1'],
    reason: /hidden/,
  },
  {
    name: 'an accessor array element',
    descriptor: () => data(Object.defineProperty([0], '0', { get: () => 1, enumerable: true })),
    below: ['0'],
    reason: /accessor/,
  },
  { name: 'a cycle to the root', descriptor: (root) => data(root), reason: /circular reference/ },
];

describe('stableApplicationJson: what is not plain JSON data', () => {
  for (const poison of POISONS) {
    it(`refuses ${poison.name} at its pointer, in an object and in an array, and never runs its code`, () => {
      const inObject: Record<string, unknown> = { ok: [1, 'two'], 'a/b~c': {} };
      Object.defineProperty(inObject['a/b~c'], 'bad', poison.descriptor(inObject));
      expect(stableApplicationJson(inObject)).toEqual({
        ok: false,
        pointer: pointer(['a/b~c', 'bad', ...(poison.below ?? [])]),
        reason: expect.stringMatching(poison.reason),
      });
      const inArray: unknown[] = [{ fine: true }, [null]];
      Object.defineProperty(inArray[1], '0', poison.descriptor(inArray));
      expect(digestApplicationJson(inArray)).toEqual({
        ok: false,
        pointer: pointer([1, 0, ...(poison.below ?? [])]),
        reason: expect.stringMatching(poison.reason),
      });
    });
  }

  it('refuses the longest possible sparse array at its first hole without walking its length', () => {
    const huge = Object.assign([1, 2], { length: 2 ** 32 - 1 });
    const result = stableApplicationJson({ list: huge });
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.pointer, result.reason]).toEqual(['/list/2', 'a hole in a sparse array']);
  });

  it('refuses non-data values at the top level with the empty pointer', () => {
    for (const value of [
      undefined,
      () => 1,
      1n,
      Symbol('s'),
      Number.NaN,
      '\ud800',
      new Date(),
      trapAll,
      revoked.proxy,
      realm('({})'),
      new Point(),
    ]) {
      const result = stableApplicationJson(value);
      expect(result).toMatchObject({ ok: false, pointer: '' });
    }
  });

  it('reports the same place whatever the insertion order of keys (members are visited in code-unit order)', () => {
    const forward = { b: { x: undefined }, a: { y: Number.NaN } };
    const backward = { a: { y: Number.NaN }, b: { x: undefined } };
    expect(stableApplicationJson(forward)).toEqual(stableApplicationJson(backward));
    expect(stableApplicationJson(forward)).toMatchObject({ pointer: '/a/y' });
  });

  it('never echoes the refused value in the reason', () => {
    const secret = 'sk-live-DO-NOT-PRINT';
    for (const value of [
      { [`${secret}\ud800`]: 1 },
      { k: `${secret}\ud800` },
      { k: new Date(secret) },
      { k: Object.assign([secret], { [secret]: 1 }) },
    ]) {
      const result = stableApplicationJson(value);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).not.toContain(secret);
    }
  });
});

/** Every container in a JSON tree, with its path. */
function containers(
  value: unknown,
  path: (string | number)[] = [],
  into: { path: (string | number)[]; node: object }[] = [],
): { path: (string | number)[]; node: object }[] {
  if (value === null || typeof value !== 'object') return into;
  into.push({ path, node: value });
  if (Array.isArray(value)) value.forEach((item, index) => containers(item, [...path, index], into));
  else for (const key of Object.keys(value)) containers((value as Record<string, unknown>)[key], [...path, key], into);
  return into;
}

const jsonContainer = fc.oneof(
  fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }),
);

describe('stableApplicationJson: properties', () => {
  it('agrees with two independent RFC 8785 implementations on random JSON, and the digest is SHA-256 of its UTF-8', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        const result = stableApplicationJson(value);
        expect(result).toEqual({ ok: true, text: canonicalizeReference(value) });
        expect(result).toEqual({ ok: true, text: runtimeCanonicalize(value) });
        if (result.ok) expect(digestApplicationJson(value)).toEqual({ ok: true, sha256: sha256(result.text) });
      }),
      { numRuns: 300 },
    );
  });

  it('accepts a string exactly when it is well-formed UTF-16', () => {
    const codeUnits = fc
      .array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0xd7f0, max: 0xe010 })), { maxLength: 8 })
      .map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(codeUnits, codeUnits, (text, key) => {
        const wellFormed = !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
          text + '\u0000' + key,
        );
        expect(stableApplicationJson({ [key]: [text] }).ok).toBe(wellFormed);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same digest under any reordering of object keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.infiniteStream(fc.nat()), (value, stream) => {
        const randoms = stream[Symbol.iterator]();
        const reorder = (node: unknown): unknown => {
          if (Array.isArray(node)) return node.map(reorder);
          if (node === null || typeof node !== 'object') return node;
          const entries = Object.entries(node);
          for (let i = entries.length - 1; i > 0; i--) {
            const j = (randoms.next().value as number) % (i + 1);
            [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
          }
          return Object.fromEntries(entries.map(([key, child]) => [key, reorder(child)]));
        };
        expect(digestApplicationJson(reorder(value))).toEqual(digestApplicationJson(value));
      }),
      { numRuns: 300 },
    );
  });

  it('gives a new digest for any edit of a value, a key, an array order or a string', () => {
    type Edit =
      | { kind: 'replace'; site: number; by: unknown }
      | { kind: 'rename'; site: number; to: string }
      | { kind: 'swap'; site: number; i: number; j: number }
      | { kind: 'delete'; site: number }
      | { kind: 'append'; site: number; text: string };
    const edit: fc.Arbitrary<Edit> = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), site: fc.nat(), by: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant('rename' as const), site: fc.nat(), to: fc.string() }),
      fc.record({ kind: fc.constant('swap' as const), site: fc.nat(), i: fc.nat(), j: fc.nat() }),
      fc.record({ kind: fc.constant('delete' as const), site: fc.nat() }),
      fc.record({
        kind: fc.constant('append' as const),
        site: fc.nat(),
        text: fc.string({ minLength: 1, unit: 'grapheme' }),
      }),
    );
    fc.assert(
      fc.property(jsonContainer, edit, (original, change) => {
        const copy = JSON.parse(JSON.stringify(original)) as unknown;
        const sites = containers(copy);
        const { node } = sites[change.site % sites.length] as { node: Record<string, unknown> | unknown[] };
        const keys = Object.keys(node);
        fc.pre(keys.length > 0);
        const key = keys[(change.kind === 'swap' ? change.i : change.site) % keys.length] as string;
        const put = (at: string, value: unknown) => Object.defineProperty(node, at, data(value));
        if (change.kind === 'replace') put(key, change.by);
        else if (change.kind === 'delete')
          Array.isArray(node) ? node.splice(Number(key), 1) : delete (node as Record<string, unknown>)[key];
        else if (change.kind === 'append') {
          const current = (node as Record<string, unknown>)[key];
          fc.pre(typeof current === 'string');
          put(key, current + change.text);
        } else if (change.kind === 'rename') {
          fc.pre(!Array.isArray(node) && !keys.includes(change.to));
          const value = (node as Record<string, unknown>)[key];
          delete (node as Record<string, unknown>)[key];
          put(change.to, value);
        } else {
          fc.pre(Array.isArray(node) && node.length > 1);
          const list = node as unknown[];
          const j = change.j % list.length;
          [list[Number(key)], list[j]] = [list[j], list[Number(key)]];
        }
        // Only edits that change the JSON data count (per an independent canonicaliser).
        fc.pre(canonicalizeReference(copy) !== canonicalizeReference(original));
        const before = digestApplicationJson(original);
        const after = digestApplicationJson(copy);
        expect(before.ok && after.ok).toBe(true);
        expect(after).not.toEqual(before);
      }),
      { numRuns: 500 },
    );
  });

  it('treats Unicode-normalisation-equivalent strings and keys as different (byte equality is identity)', () => {
    expect(digestApplicationJson({ name: '\u00e9' })).not.toEqual(digestApplicationJson({ name: 'e\u0301' }));
    expect(digestApplicationJson({ '\u212b': 1 })).not.toEqual(digestApplicationJson({ '\u00c5': 1 }));
    const composed = fc.constantFrom(
      '\u00e9',
      '\u00c5',
      '\u212b',
      '\u1e9b\u0323',
      '\u00f1',
      '\u01fa',
      '\uac00',
      '\u2126',
    );
    fc.assert(
      fc.property(fc.string(), composed, fc.string(), fc.boolean(), (before, char, after, asKey) => {
        const text = before + char + after;
        for (const form of ['NFD', 'NFC', 'NFKD'] as const) {
          const variant = text.normalize(form);
          if (variant === text) continue;
          const wrap = (s: string) => (asKey ? { [s]: 0 } : { value: [s] });
          const left = stableApplicationJson(wrap(text));
          const right = stableApplicationJson(wrap(variant));
          expect(left.ok && right.ok).toBe(true);
          if (left.ok && right.ok) expect(left.text).not.toBe(right.text);
          expect(digestApplicationJson(wrap(variant))).not.toEqual(digestApplicationJson(wrap(text)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses every kind of non-data value at its exact pointer, anywhere in a random JSON tree', () => {
    fc.assert(
      fc.property(
        jsonContainer,
        fc.nat(),
        fc.nat(),
        fc.string(),
        fc.constantFrom(...POISONS),
        (generated, at, index, newKey, poison) => {
          // Poison a copy: fast-check keeps (and prints, and shrinks) the generated value.
          const tree = JSON.parse(JSON.stringify(generated)) as object;
          const sites = containers(tree);
          const { path, node } = sites[at % sites.length] as { path: (string | number)[]; node: object };
          const key = Array.isArray(node)
            ? String(index % (node.length + 1))
            : (Object.keys(node)[index % (Object.keys(node).length + 1)] ?? newKey);
          Object.defineProperty(node, key, poison.descriptor(tree));
          expect(stableApplicationJson(tree)).toEqual({
            ok: false,
            pointer: pointer([...path, key, ...(poison.below ?? [])]),
            reason: expect.stringMatching(poison.reason),
          });
        },
      ),
      { numRuns: 600 },
    );
  });

  it('never throws on arbitrary values, and what it accepts is what the reference canonicalises', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const result = stableApplicationJson(value);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) expect(result.text).toBe(canonicalizeReference(value));
        else expect(typeof result.pointer).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});
