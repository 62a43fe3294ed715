/**
 * A property may declare its type through composition (issue 23: `{ oneOf: [{ type: "string" },
 * { type: "integer" }] }` was refused with "must declare `type`, `const` or `enum`", a false
 * refusal in a dialect that permits `oneOf`): a value's schema with no `type`, `const` or `enum`
 * of its own is admitted when every branch of its `oneOf`, `anyOf` or `allOf` declares one, and
 * Ajv (strict) compiles it and validates by it. Every real refusal stays: a branch without a type,
 * a `false` branch, a `not`/`if` in place of a list, composition under `items`, and the rules each
 * branch is held to (closed objects, bounded arrays, keywords of its type).
 */
import { describe, expect, it } from 'vitest';
import { checkPackConfigSchema, compilePackConfigSchema } from './pack-schema-dialect';

type Schema = Record<string, unknown>;

function object(properties: Record<string, unknown>): Schema {
  return { type: 'object', additionalProperties: false, properties };
}

const findingsOf = (schema: unknown) => checkPackConfigSchema(schema).map((f) => [f.path, f.message]);

describe('a value typed by its composition', () => {
  it.each([
    [
      'oneOf of types',
      {
        oneOf: [
          { type: 'string', maxLength: 8 },
          { type: 'integer', minimum: 0 },
        ],
      },
    ],
    ['anyOf of types', { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    ['allOf of types', { allOf: [{ type: ['string', 'integer'] }, { type: 'string', minLength: 1 }] }],
    [
      'oneOf of consts',
      {
        oneOf: [
          { const: 'fast', title: 'Fast' },
          { const: 'safe', title: 'Safe' },
        ],
      },
    ],
    ['anyOf of an enum and a type', { anyOf: [{ enum: ['auto'] }, { type: 'integer', minimum: 1 }] }],
    [
      'oneOf of a closed object and a bounded array',
      {
        oneOf: [object({ size: { type: 'integer' } }), { type: 'array', items: { type: 'string' }, maxItems: 4 }],
      },
    ],
    ['one typed list beside an untyped one', { anyOf: [{ type: 'string' }], allOf: [{ not: { const: 'x' } }] }],
  ])('admits %s, and Ajv validates by it', (_name, mode) => {
    const schema = object({ mode });
    expect(findingsOf(schema)).toEqual([]);
    const compiled = compilePackConfigSchema(schema);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.findings));
    expect(compiled.validate({ mode: { unexpected: true, deep: [1] } }).length).toBeGreaterThan(0);
  });

  it('validates a oneOf of string and integer as it says', () => {
    const compiled = compilePackConfigSchema(object({ mode: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.findings));
    expect(compiled.validate({ mode: 'a' })).toEqual([]);
    expect(compiled.validate({ mode: 3 })).toEqual([]);
    expect(compiled.validate({ mode: 1.5 }).length).toBeGreaterThan(0);
    expect(compiled.validate({ mode: null }).length).toBeGreaterThan(0);
  });

  it('admits it under items and prefixItems too', () => {
    const items = { type: 'array', maxItems: 3, items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } };
    expect(findingsOf(object({ list: items }))).toEqual([]);
  });
});

describe('the refusals that stay', () => {
  const UNDECLARED = 'a schema describing a value must declare `type`, `const` or `enum`';
  it.each([
    ['a branch without a type', { oneOf: [{ type: 'string' }, { minimum: 1 }] }, '/properties/mode'],
    [
      'a branch with only a description',
      { anyOf: [{ type: 'string' }, { description: 'anything' }] },
      '/properties/mode',
    ],
    ['a false branch', { anyOf: [{ type: 'string' }, false] }, '/properties/mode'],
    ['an allOf branch without a type', { allOf: [{ type: 'string' }, { not: { const: 'x' } }] }, '/properties/mode'],
    ['only not', { not: { type: 'string' } }, '/properties/mode'],
    // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's conditional keyword
    ['only if/then', { if: { type: 'string' }, then: { type: 'string' } }, '/properties/mode'],
    [
      'nested composition that types nothing at the top',
      { oneOf: [{ anyOf: [{ type: 'string' }] }] },
      '/properties/mode',
    ],
  ])('refuses %s', (_name, mode, path) => {
    const findings = checkPackConfigSchema(object({ mode }));
    expect(findings.filter((f) => f.message === UNDECLARED).map((f) => f.path)).toEqual([path]);
    expect(findings.find((f) => f.message === UNDECLARED)?.suggestion).toMatch(/every branch/);
    expect(compilePackConfigSchema(object({ mode })).ok).toBe(false);
  });

  it('holds every branch to its own rules: closed objects, bounded arrays, keywords of its type', () => {
    expect(findingsOf(object({ mode: { oneOf: [{ type: 'object' }, { type: 'string' }] } })).map(([p]) => p)).toEqual([
      '/properties/mode/oneOf/0/additionalProperties',
    ]);
    expect(
      findingsOf(object({ mode: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] } })).map(
        ([p]) => p,
      ),
    ).toEqual(['/properties/mode/oneOf/0/maxItems']);
    expect(
      findingsOf(object({ mode: { anyOf: [{ type: 'string', minimum: 1 }, { type: 'null' }] } })).map(([p]) => p),
    ).toEqual(['/properties/mode/anyOf/0/minimum']);
    // A keyword of the value itself still needs the value's own type.
    expect(
      findingsOf(object({ mode: { maxLength: 3, oneOf: [{ type: 'string' }, { type: 'integer' }] } })).map(([p]) => p),
    ).toEqual(['/properties/mode/maxLength']);
  });

  it('keeps the root exactly "object" and the refusals of control-field names inside branches', () => {
    expect(findingsOf({ oneOf: [object({})] }).map(([p]) => p)).toContain('/type');
    expect(
      findingsOf(object({ mode: { oneOf: [object({ command: { type: 'string' } }), { type: 'string' }] } })).map(
        ([p]) => p,
      ),
    ).toEqual(['/properties/mode/oneOf/0/properties/command']);
  });
});
