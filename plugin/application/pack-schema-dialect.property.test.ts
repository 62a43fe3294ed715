/**
 * Property tests over the pack-schema dialect. Random values of every JavaScript kind never make
 * the checker throw. Random schemas grown from the dialect's own grammar (with mismatched types,
 * missing closures, bad names and foreign keywords mixed in) either get findings or compile in
 * Ajv 2020 strict mode, and a compiled validator refuses an undeclared property and never throws
 * on random configuration. Enough random schemas pass for the second property to mean something.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPackConfigSchema, compilePackConfigSchema } from './pack-schema-dialect';

type Schema = Record<string, unknown>;

const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;
const NAMES = ['alpha', 'beta', 'gamma', 'count', 'label', 'mode', 'size', 'tone'];
const BAD_NAMES = ['token', 'baseUrl', 'Bad_name', 'constructor', 'x-y', ''];
const FOREIGN = [
  '$ref',
  'pattern',
  'format',
  'patternProperties',
  '$defs',
  'unevaluatedProperties',
  'propertyNames',
  'x-future',
];

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('a', 'b', 'c'),
);
const count = fc.integer({ min: 0, max: 6 });
type Entry = [string, unknown];

const annotation: fc.Arbitrary<Entry> = fc.oneof(
  fc.tuple(fc.constantFrom('title', 'description', '$comment'), fc.constantFrom('x', 'y')),
  fc.tuple(fc.constantFrom('deprecated', 'readOnly', 'writeOnly'), fc.boolean()),
  fc.tuple(fc.constant('default'), scalar),
  fc.tuple(fc.constant('examples'), fc.array(scalar, { maxLength: 3 })),
);
const numeric: fc.Arbitrary<Entry> = fc.oneof(
  fc.tuple(
    fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'),
    fc.integer({ min: -10, max: 10 }),
  ),
  fc.tuple(fc.constant('multipleOf'), fc.constantFrom(0.5, 1, 2)),
);

/** Keywords that fit each type, annotations included. */
const FITTING: Readonly<Record<(typeof TYPES)[number], fc.Arbitrary<Entry>>> = {
  null: annotation,
  boolean: annotation,
  string: fc.oneof(annotation, fc.tuple(fc.constantFrom('minLength', 'maxLength'), count)),
  number: fc.oneof(annotation, numeric),
  integer: fc.oneof(annotation, numeric),
  array: fc.oneof(
    annotation,
    fc.tuple(fc.constant('minItems'), count),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(
      fc.constant('contains'),
      fc.constantFrom<unknown>({ type: 'string' }, { const: 1 }, { minLength: 1 }, false),
    ),
    fc.tuple(fc.constantFrom('minContains', 'maxContains'), fc.integer({ min: 0, max: 3 })),
  ),
  object: fc.oneof(annotation, fc.tuple(fc.constantFrom('minProperties', 'maxProperties'), count)),
};
/** Any keyword at all, fitting or not. */
const anyNarrowing: fc.Arbitrary<Entry> = fc.oneof(...Object.values(FITTING));

/** Mostly keywords that fit `type`, now and then one that does not. */
function keywordsFor(type: (typeof TYPES)[number]): fc.Arbitrary<Entry[]> {
  return fc.array(fc.oneof({ weight: 12, arbitrary: FITTING[type] }, { weight: 1, arbitrary: anyNarrowing }), {
    maxLength: 2,
  });
}

function assemble(schema: Schema, entries: Entry[]): Schema {
  return { ...schema, ...Object.fromEntries(entries) };
}

const rarely = <T>(arbitrary: fc.Arbitrary<T>, otherwise: T) =>
  fc.oneof({ weight: 14, arbitrary: fc.constant(otherwise) }, { weight: 1, arbitrary });

const scalarType = fc.constantFrom('string', 'boolean', 'null', 'number', 'integer' as const);

const { schema: schemaArbitrary } = fc.letrec<{ schema: Schema; value: Schema; inPlace: Schema }>((tie) => ({
  // A schema in a place where it describes a value of its own.
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarType.chain((type) => keywordsFor(type).map((entries) => assemble({ type }, entries))),
    fc
      .uniqueArray(scalarType, { minLength: 1, maxLength: 3 })
      .chain((types) => keywordsFor(types[0] ?? 'null').map((entries) => assemble({ type: types }, entries))),
    fc.record({ enum: fc.uniqueArray(scalar, { minLength: 1, maxLength: 4 }) }),
    fc.record({ const: scalar }),
    tie('schema'),
    fc
      .record({
        prefix: fc.array(tie('value'), { minLength: 1, maxLength: 3 }),
        minItems: fc.option(count, { freq: 4 }),
        rest: fc.constantFrom<unknown>(false, { type: 'string' }, undefined),
      })
      .map(({ prefix, minItems, rest }) => ({
        type: 'array',
        prefixItems: prefix,
        minItems: minItems ?? prefix.length,
        maxItems: prefix.length + 2,
        ...(rest === undefined ? {} : { items: rest }),
      })),
    fc
      .record({ maxItems: rarely(fc.constant(undefined), 8), items: tie('value'), entries: keywordsFor('array') })
      .map(({ maxItems, items, entries }) =>
        assemble({ type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }) }, entries),
      ),
  ),
  // An object schema, closed most of the time.
  schema: fc
    .record({
      properties: fc.dictionary(
        fc.oneof(
          { weight: 15, arbitrary: fc.constantFrom(...NAMES) },
          { weight: 1, arbitrary: fc.constantFrom(...BAD_NAMES) },
        ),
        tie('value'),
        { maxKeys: 4 },
      ),
      closure: rarely(fc.constantFrom(true, undefined, {}), false as unknown),
      required: fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }),
      inPlace: fc.array(
        fc.tuple(
          fc.oneof(
            { weight: 10, arbitrary: fc.constantFrom('allOf', 'anyOf', 'oneOf', 'not', 'if', 'ifElse') },
            { weight: 1, arbitrary: fc.constantFrom('ifAlone', 'thenAlone') },
          ),
          tie('inPlace'),
        ),
        { maxLength: 2 },
      ),
      dependent: fc.option(fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...NAMES), { maxLength: 2 })), {
        freq: 3,
      }),
      entries: keywordsFor('object'),
      foreign: rarely(fc.tuple(fc.constantFrom(...FOREIGN), fc.constantFrom('x', {}, 1)), null),
    })
    .map(({ properties, closure, required, inPlace, entries, foreign, dependent }) => {
      const schema: Schema = {
        type: 'object',
        properties,
        ...(closure === undefined ? {} : { additionalProperties: closure }),
      };
      const declared = required.filter((name) => Object.hasOwn(properties, name));
      if (declared.length > 0) schema.required = [...new Set(declared)];
      for (const [keyword, sub] of inPlace) {
        if (keyword === 'not') schema.not = sub;
        // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's conditional keyword
        else if (keyword === 'if') Object.assign(schema, { if: sub, then: { minProperties: 0 } });
        else if (keyword === 'ifElse') Object.assign(schema, { if: sub, else: { maxProperties: 3 } });
        else if (keyword === 'ifAlone') schema.if = sub;
        // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's conditional keyword
        else if (keyword === 'thenAlone') schema.then = sub;
        else schema[keyword] = [sub];
      }
      const declares = (name: string) => Object.hasOwn(properties, name);
      if (dependent !== null && declares(dependent[0]))
        schema.dependentRequired = { [dependent[0]]: [...new Set(dependent[1].filter(declares))] };
      if (foreign !== null) schema[foreign[0]] = foreign[1];
      return assemble(schema, entries);
    }),
  // A schema narrowing an object schema in place: mostly fitting, now and then a type or keyword that is not.
  inPlace: fc.oneof(
    { weight: 6, arbitrary: keywordsFor('object').map((entries) => assemble({}, entries)) },
    {
      weight: 3,
      arbitrary: keywordsFor('object').map((entries) =>
        assemble({ type: 'object', additionalProperties: false }, entries),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...TYPES), fc.array(anyNarrowing, { maxLength: 2 }))
        .map(([type, entries]) => assemble({ type }, entries)),
    },
  ),
}));

describe('pack-schema dialect properties', () => {
  it('never throws on any JavaScript value, and answers located findings', () => {
    fc.assert(
      fc.property(
        fc.anything({
          maxDepth: 4,
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
        }),
        fc.constantFrom('', '/components/0/configSchema'),
        (value, base) => {
          const findings = checkPackConfigSchema(value, base);
          expect(Array.isArray(findings)).toBe(true);
          for (const finding of findings) {
            expect(finding.path.startsWith(base)).toBe(true);
            expect(typeof finding.message).toBe('string');
          }
          const compiled = compilePackConfigSchema(value, base);
          if (compiled.ok) expect(findings).toEqual([]);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('never throws on random schemas of the dialect, and whatever passes compiles strictly and stays closed', () => {
    let passed = 0;
    let runs = 0;
    fc.assert(
      fc.property(schemaArbitrary, fc.jsonValue({ maxDepth: 3 }), (schema, config) => {
        runs += 1;
        const findings = checkPackConfigSchema(schema);
        const compiled = compilePackConfigSchema(schema);
        if (findings.length > 0) {
          expect(compiled.ok).toBe(false);
          return;
        }
        passed += 1;
        if (!compiled.ok)
          throw new Error(
            `dialect accepted but Ajv refused ${JSON.stringify(schema)}: ${JSON.stringify(compiled.findings)}`,
          );
        expect(compiled.validate({ 'undeclared-property': 1 }).length).toBeGreaterThan(0);
        expect(
          compiled.validate({
            ...(config !== null && typeof config === 'object' && !Array.isArray(config) ? config : {}),
            zzUndeclared: true,
          }).length,
        ).toBeGreaterThan(0);
        expect(Array.isArray(compiled.validate(config))).toBe(true);
      }),
      { numRuns: 1500 },
    );
    expect(passed / runs).toBeGreaterThan(0.15);
  });
});
