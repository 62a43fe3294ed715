import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './jcs';

const fixtures = join(__dirname, '..', 'compiler', '__fixtures__', 'jcs');

describe('canonicalize (RFC 8785)', () => {
  for (const name of readdirSync(join(fixtures, 'input'))) {
    it(`matches the RFC test vector ${name}`, () => {
      const input: unknown = JSON.parse(readFileSync(join(fixtures, 'input', name), 'utf8'));
      const expected = readFileSync(join(fixtures, 'output', name), 'utf8').replace(/\n$/, '');
      expect(canonicalize(input)).toBe(expected);
    });
  }

  it('agrees with an independent implementation on random JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalize(value)).toBe(canonicalizeReference(value));
      }),
      { numRuns: 500 },
    );
  });

  it('sorts keys by UTF-16 code units and drops undefined members', () => {
    expect(canonicalize({ b: 1, a: [true, null, 'x'], '\u20ac': 1, '\ud83d\ude00': 2, c: undefined })).toBe(
      '{"a":[true,null,"x"],"b":1,"€":1,"😀":2}',
    );
  });

  it('writes nesting deeper than the call stack (no recursion): the compiler digests with it too', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { d: deep };
    const text = canonicalize(deep);
    expect(text.length).toBe(1 + 50_000 * 2 + 50_000 * 6);
    expect(text.startsWith('{"d":[{"d":[')).toBe(true);
  });

  it('refuses values with no canonical form', () => {
    expect(() => canonicalize(Number.NaN)).toThrow();
    expect(() => canonicalize({ x: Infinity })).toThrow();
    expect(() => canonicalize('\ud800')).toThrow();
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => canonicalize(cycle)).toThrow(/cycle/);
  });
});
