/**
 * The fast path (parse-json-fast.ts, validate-fast-path.ts) against the strict, position-keeping
 * pipeline: on random mutations of every example, on hostile text in string fields and on every
 * invalid fixture, validateDefinitionSource gives exactly what validateDefinitionTextStrictly
 * gives (validity, diagnostics, the value with its null prototypes, positions), and the fast
 * parse accepts only what the strict parser parses without a diagnostic, to the same value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  damage,
  hostileString,
  loadExamples,
  mutate,
  mutation,
  REPO_ROOT,
  replaceStringLeaf,
  serialize,
  textDamage,
} from './__test-support__/definition-mutations';
import { parseDefinitionTextStrictly } from './parse-document';
import { parseJsonWithoutPositions } from './parse-json-fast';
import { validateDefinitionSource, validateDefinitionTextStrictly } from './validate-definition';

const examples = loadExamples();

/** Scalars and property names that the fast and the strict parse could read differently. */
const TRICKY_VALUES = [
  '"a"',
  '"\\u0061"',
  '"__proto__"',
  '"constructor"',
  '"\\ud800"',
  '"\\udc00"',
  '"\\ud83d\\ude00"',
  '"\ud800"',
  '"\\""',
  '"\\\\"',
  '"\\\\\\""',
  '"\\u0022"',
  '"\\\\u0022"',
  '"\\u005c"',
  '"\\/"',
  '""',
  '"\u2028\u0085"',
  '-0',
  '0',
  '1e400',
  '-1e400',
  '1e-400',
  '1.5',
  '123456789012345678901234567890',
  'true',
  'null',
];
const TRICKY_KEYS = [
  '"a"',
  '"\\u0061"',
  '"b"',
  '"__proto__"',
  '"\\u005f_proto__"',
  '"constructor"',
  '"valueOf"',
  '"\\""',
  '"\\u0022"',
  '"\\\\u0022"',
  '"\\ud800"',
  '""',
  '"0"',
  '"00"',
];
/** JSON whitespace, and characters that only look like it. */
const SPACES = ['', ' ', '\t', '\r\n', '\n', '\u00a0', '\ufeff', '\u2028'];

const space = fc.constantFrom(...SPACES);
const hostileJson: fc.Arbitrary<string> = fc
  .letrec<{ value: string; object: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...TRICKY_VALUES),
      fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
      tie('object'),
    ),
    object: fc
      .array(fc.tuple(fc.constantFrom(...TRICKY_KEYS), space, tie('value')), { maxLength: 3 })
      .map((members) => `{${members.map(([key, gap, value]) => `${key}${gap}:${value}`).join(',')}}`),
  }))
  .object.chain((object) => fc.tuple(space, space).map(([before, after]) => `${before}${object}${after}`));

/** Every object in `value` has a null prototype, as the strict parser builds them. */
function nullPrototypesOnly(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(nullPrototypesOnly);
  return Object.getPrototypeOf(value) === null && Object.values(value).every(nullPrototypesOnly);
}

/** Pointers to every value of `value` (at most `limit`), for comparing positions. */
function pointers(value: unknown, base = '', out: string[] = [], limit = 200): string[] {
  if (out.length >= limit) return out;
  out.push(base);
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value))
      pointers(child, `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out, limit);
  }
  return out;
}

function agrees(text: string, format: 'json' | 'yaml'): void {
  const file = `agent.${format}`;
  const fast = validateDefinitionSource(text, file, format);
  const strict = validateDefinitionTextStrictly(text, file, format);
  expect(fast.valid).toBe(strict.valid);
  expect(fast.diagnostics).toEqual(strict.diagnostics);
  expect(fast.text).toBe(strict.text);
  expect(fast.definition).toEqual(strict.definition);
  expect(fast.document?.value).toEqual(strict.document?.value);
  expect(nullPrototypesOnly(fast.document?.value)).toBe(true);
  if (fast.document && strict.document) {
    for (const pointer of pointers(strict.document.value)) {
      expect(fast.document.locate(pointer)).toEqual(strict.document.locate(pointer));
      expect(fast.document.locate(pointer, 'key')).toEqual(strict.document.locate(pointer, 'key'));
    }
  }
  const parsed = parseJsonWithoutPositions(text);
  if (parsed !== undefined) {
    const reference = parseDefinitionTextStrictly(text, file, 'json');
    expect(reference.diagnostics).toEqual([]);
    expect(parsed.value).toEqual(reference.document?.value);
    expect(nullPrototypesOnly(parsed.value)).toBe(true);
  }
}

describe('the fast path agrees with the strict pipeline', () => {
  it('takes the fast path on the examples (the property below sees both paths)', () => {
    const json = examples.filter((e) => e.file.endsWith('.json'));
    expect(json.length).toBeGreaterThan(5);
    expect(
      json.every((e) => parseJsonWithoutPositions(readFileSync(join(REPO_ROOT, e.file), 'utf8')) !== undefined),
    ).toBe(true);
  });

  for (const format of ['json', 'yaml'] as const) {
    it(`on random mutations of every example (${format})`, () => {
      fc.assert(
        fc.property(
          fc.nat(),
          fc.array(mutation, { minLength: 0, maxLength: 3 }),
          textDamage,
          (pick, mutations, damaged) => {
            const example = examples[pick % examples.length]!;
            agrees(damage(serialize(mutate(example.value, mutations), format), format, damaged), format);
          },
        ),
        { numRuns: 200 },
      );
    });
  }

  it('on hostile text in string fields', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), hostileString, (pick, at, text) => {
        agrees(serialize(replaceStringLeaf(examples[pick % examples.length]!.value, at, text), 'json'), 'json');
      }),
      { numRuns: 200 },
    );
  });

  it('on every invalid fixture', () => {
    const folder = join(REPO_ROOT, 'e2e', 'fixtures', 'invalid');
    const files = readdirSync(folder).filter((f) => f.endsWith('.json') || f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files)
      agrees(readFileSync(join(folder, name), 'utf8'), name.endsWith('.json') ? 'json' : 'yaml');
  });

  const base = JSON.stringify(examples.find((e) => e.file === 'examples/text-stats/agent.json')!.value, null, 2);
  it.each([
    ['a duplicate key', base.replace('{', '{\n  "schemaVersion": "x",')],
    [
      'a duplicate key whose kept value writes its quotes as \\u0022',
      base.replace('{', '{\n  "schemaVersion": "x",').replace(/"description": "/, '"description": "\\u0022\\u0022'),
    ],
    [
      'a duplicate key next to an escaped backslash before u0022',
      base.replace('{', '{\n  "schemaVersion": "x",').replace(/"description": "/, '"description": "\\\\u0022'),
    ],
    ['an escaped quote in a string', base.replace(/"description": "/, '"description": "say \\"hi\\" ')],
    ['a __proto__ key', base.replace(/"tags": \[/, '"__proto__": { "x": 1 },\n "tags": [')],
    [
      'a string named like an Object.prototype member',
      base.replace(/"description": "[^"]*"/, '"description": "constructor"'),
    ],
    ['a number beyond a double', base.replace(/"cpuMs": \d+/, '"cpuMs": 1e400')],
    ['an unpaired surrogate', base.replace(/"description": "/, '"description": "\\ud800')],
    ['deep nesting', base.replace(/"tags": \[/, `"deep": ${'['.repeat(300)}${']'.repeat(300)},\n "tags": [`)],
    ['a comment', base.replace('{', '{ // note\n')],
    ['an array at the top', `[${base}]`],
  ])('%s', (_, text) => {
    agrees(text, 'json');
  });

  it.each([
    ['a duplicate key spelled with an escape', base.replace('{', '{\n  "\\u0073chemaVersion": "x",')],
    [
      'a __proto__ key spelled with an escape',
      base.replace(/"tags": \[/, '"\\u005f_proto__": { "x": 1 },\n "tags": ['),
    ],
    [
      'an Object.prototype name as a nested key',
      base.replace(/"tags": \[/, '"x-notes": [{ "toString": 1, "valueOf": [] }],\n "tags": ['),
    ],
    ['an unpaired surrogate in a property name', base.replace(/"tags": \[/, '"\\udc00": 1,\n "tags": [')],
    ['a literal unpaired surrogate in a string', base.replace(/"description": "/, '"description": "\ud800')],
    ['an escaped backslash before a closing quote', base.replace(/"description": "/, '"description": "C:\\\\')],
    [
      '-0 and an exponent that underflows',
      base
        .replace(/"cpuMs": \d+/, '"cpuMs": -0')
        .replace(/"tags": \[/, '"x": [-0, 1e-400, -1e-400, 0e999999],\n "tags": ['),
    ],
    ['a BOM before the object', `\ufeff${base}`],
    ['trailing content', `${base} x`],
    ['a NUL after the object', `${base}\u0000`],
    ['a NUL in a string', base.replace(/"description": "/, '"description": "\u0000')],
    ['CRLF line breaks', base.replace(/\n/g, '\r\n')],
    [
      'nesting at the fast path limit',
      base.replace(/"tags": \[/, `"deep": ${'['.repeat(63)}${']'.repeat(63)},\n "tags": [`),
    ],
    [
      'nesting one over the fast path limit',
      base.replace(/"tags": \[/, `"deep": ${'['.repeat(64)}${']'.repeat(64)},\n "tags": [`),
    ],
    [
      'nesting over the strict limit',
      base.replace(/"tags": \[/, `"deep": ${'['.repeat(256)}${']'.repeat(256)},\n "tags": [`),
    ],
  ])('%s', (_, text) => {
    agrees(text, 'json');
  });

  it('on JSON built from tokens that tell the parsers apart', () => {
    const seen = { fast: 0, strict: 0 };
    fc.assert(
      fc.property(hostileJson, (text) => {
        const parsed = parseJsonWithoutPositions(text);
        const reference = parseDefinitionTextStrictly(text, 'agent.json', 'json');
        if (parsed === undefined) {
          seen.strict++;
          return;
        }
        seen.fast++;
        expect(reference.diagnostics).toEqual([]);
        expect(parsed.value).toEqual(reference.document?.value);
        expect(nullPrototypesOnly(parsed.value)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // Both outcomes were explored.
    expect(seen.fast).toBeGreaterThan(100);
    expect(seen.strict).toBeGreaterThan(100);
  });

  it('refuses duplicates on the fast path even when the quote count is made to balance', () => {
    expect(parseJsonWithoutPositions('{"a":"x","a":"\\u0022\\u0022"}')).toBeUndefined();
    expect(parseJsonWithoutPositions('{"a":1,"a":1}')).toBeUndefined();
    expect(parseJsonWithoutPositions('{"a":{"b":"\\"","b":"\\u0022"}}')).toBeUndefined();
    expect(parseJsonWithoutPositions('{"a":"\\u0022","b":"\\""}')).toBeDefined();
  });
});
