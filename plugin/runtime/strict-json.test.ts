import { describe, expect, it } from 'vitest';
import { parseSignedJson, parseStrictJson, RESERVED_MEMBER_NAMES } from './strict-json';

describe('parseStrictJson', () => {
  it('locates a duplicate member: line, column, JSON Pointer of the repeated member', () => {
    const text = '{\n  "a": {"x": 1},\n  "b": [0, {"k~/": 1, "k~/": 2}]\n}';
    const result = parseStrictJson(text);
    expect(result).toMatchObject({ ok: false, line: 3, column: 23, pointer: '/b/1/k~0~1' });
    if (!result.ok) expect(result.reason).toMatch(/^duplicate property name "k~\/" at offset \d+$/);
  });

  it('keeps __proto__, constructor and prototype as own members unless asked to refuse them', () => {
    const result = parseStrictJson('{"__proto__": {"polluted": true}, "constructor": 1, "prototype": 2}');
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('locates a syntax error', () => {
    expect(parseStrictJson('{"a": [1,\n 2,, 3]}')).toMatchObject({ ok: false, line: 2, column: 4, pointer: '/a/2' });
  });
});

describe('parseSignedJson', () => {
  for (const name of RESERVED_MEMBER_NAMES) {
    it(`refuses "${name}" at the top, nested in an object, in an array item, and written with escapes`, () => {
      const escaped = JSON.stringify(name).replace(
        /[a-z_]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      const cases: [string, string, number, number][] = [
        [`{"${name}": {}}`, `/${name}`, 1, 2],
        [`{"a": {"b": 1,\n "${name}": null}}`, `/a/${name}`, 2, 2],
        [`{"signatures": [{"protected": "x"}, {"${name}": 1}]}`, `/signatures/1/${name}`, 1, 38],
        [`{"a": ${'['.repeat(3)}{${escaped}: 1}${']'.repeat(3)}}`, `/a/0/0/0/${name}`, 1, 11],
      ];
      for (const [text, pointer, line, column] of cases) {
        const result = parseSignedJson(text);
        expect(result, text).toMatchObject({ ok: false, pointer, line, column });
        if (!result.ok) expect(result.reason).toContain(`reserved member name "${name}"`);
        // The same text without the option parses: the refusal is the option's, not a syntax error.
        expect(parseStrictJson(text).ok, text).toBe(true);
      }
    });
  }

  it('still refuses duplicates and accepts a plain document', () => {
    expect(parseSignedJson('{"a": 1, "a": 1}')).toMatchObject({ ok: false, pointer: '/a' });
    expect(parseSignedJson('{"name": "x", "protos": {"__proto": 1, "Constructor": 2}}')).toMatchObject({ ok: true });
  });
});
