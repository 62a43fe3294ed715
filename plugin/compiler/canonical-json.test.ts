import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, sha256Hex, stableJson } from './canonical-json';

const JCS = join(__dirname, '__fixtures__', 'jcs');

describe('canonicalJson: the RFC 8785 test vectors (cyberphone/json-canonicalization testdata)', () => {
  const names = readdirSync(join(JCS, 'input'))
    .filter((n) => n.endsWith('.json'))
    .sort();

  it('has every input paired with an output', () => {
    expect(names).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
    expect(readdirSync(join(JCS, 'output')).sort()).toEqual(names);
  });

  for (const name of names) {
    it(`canonicalises ${name} byte for byte`, () => {
      const input = JSON.parse(readFileSync(join(JCS, 'input', name), 'utf8')) as unknown;
      const expected = readFileSync(join(JCS, 'output', name));
      expect(Buffer.from(canonicalJson(input), 'utf8').equals(expected)).toBe(true);
    });
  }

  // README.md: the ES6 number test file is generated deterministically; its first N lines
  // (`hex-ieee,expected\n`) hash to the published SHA-256 values.
  function numberLines(count: number): string {
    const readme = readFileSync(join(JCS, 'README.md'), 'utf8');
    const table = /staticU64s = new BigUint64Array\(\[([\s\S]*?)\]\)/.exec(readme)?.[1] ?? '';
    const statics = new Float64Array(
      new BigUint64Array([...table.matchAll(/0x([0-9a-f]+)n/g)].map((m) => BigInt(`0x${m[1]!}`))).buffer,
    );
    const serialU64 = new BigUint64Array(2000);
    for (let i = 0; i < 2000; i++) serialU64[i] = 0x0010000000000000n + BigInt(i);
    const serials = new Float64Array(serialU64.buffer);
    let block = new ArrayBuffer(32);
    let data = new Float64Array(0);
    const bits = new BigUint64Array(1);
    const asFloat = new Float64Array(bits.buffer);
    const lines: string[] = [];
    for (let idx = 0; idx < count; idx++) {
      let f = 0;
      if (idx < statics.length) f = statics[idx]!;
      else if (idx < statics.length + serials.length) f = serials[idx - statics.length]!;
      else {
        while (f === 0 || !Number.isFinite(f)) {
          if (data.length === 0) {
            const digest = createHash('sha256').update(new Uint8Array(block)).digest();
            block = Uint8Array.from(digest).buffer;
            data = new Float64Array(block);
          }
          f = data[0]!;
          data = data.slice(1);
        }
      }
      asFloat[0] = f;
      lines.push(`${bits[0]!.toString(16)},${canonicalJson(f)}\n`);
    }
    return lines.join('');
  }

  it('serialises the first 1,000 ES6 number vectors to the published hash', () => {
    const lines = numberLines(1000);
    expect(lines.split('\n')).toHaveLength(1001);
    expect(sha256Hex(lines)).toBe('be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687');
  });

  it('serialises the first 100,000 ES6 number vectors (random doubles included) to the published hash', () => {
    expect(sha256Hex(numberLines(100_000))).toBe('22776e6d4b49fa294a0d0f349268e5c28808fe7e0cb2bcbe28f63894e494d4c7');
  });

  it('spells edge-case numbers as ES6 does', () => {
    expect(canonicalJson([-0, 1e21, 1e-7, 0.000001, 9007199254740994, 5e-324])).toBe(
      '[0,1e+21,1e-7,0.000001,9007199254740994,5e-324]',
    );
  });

  it('rejects values with no canonical form', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow();
    expect(() => canonicalJson('\ud800')).toThrow();
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});

describe('digests', () => {
  it('sha256Hex matches the FIPS 180-2 "abc" vector', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });

  it('digestOf ignores key order and whitespace but not values', () => {
    const a = JSON.parse('{"b": [1, 2, {"y": 1, "x": 2}], "a": "é"}') as unknown;
    const b = JSON.parse('{"a":"\\u00e9","b":[1,2,{"x":2,"y":1}]}') as unknown;
    expect(digestOf(a)).toBe(digestOf(b));
    expect(digestOf(a)).toBe(sha256Hex('{"a":"é","b":[1,2,{"x":2,"y":1}]}'));
    expect(digestOf({ a: 'é', b: [2, 1, { x: 2, y: 1 }] })).not.toBe(digestOf(a));
    expect(digestOf(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps a __proto__ key of a null-prototype object as data', () => {
    const value = Object.create(null) as Record<string, unknown>;
    value['__proto__'] = { polluted: true };
    value['a'] = 1;
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(stableJson(value)).toContain('"__proto__"');
  });
});

describe('stableJson', () => {
  it('sorts keys at every depth, drops undefined and ends with a newline', () => {
    const text = stableJson({ z: 1, a: { d: [{ c: 1, b: 2 }], a: undefined } });
    expect(text).toBe(
      '{\n  "a": {\n    "d": [\n      {\n        "b": 2,\n        "c": 1\n      }\n    ]\n  },\n  "z": 1\n}\n',
    );
  });

  it('round-trips to the same canonical form', () => {
    const value = { β: [1.5, 'x', null, true], a: { '10': 1, '9': 2 } };
    expect(canonicalJson(JSON.parse(stableJson(value)))).toBe(canonicalJson(value));
  });
});
