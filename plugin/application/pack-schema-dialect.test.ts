/**
 * Attacks on the closed pack-schema dialect: every rejected and unknown keyword (at the root and
 * three levels down), every format, every limit just under and just over, open objects, bad and
 * high-risk property names, object-valued literals, types the context forbids, strict-mode traps,
 * and inputs that are not plain JSON (getters, proxies, symbols, prototypes, cycles). Each gets a
 * located finding and never reaches Ajv; what passes compiles in Ajv strict mode and refuses
 * unknown configuration.
 */
import Ajv2020 from 'ajv/dist/2020';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cpuTimeOf } from '../../e2e/support/cpu-time';
import {
  checkPackConfigSchema,
  compilePackConfigSchema,
  PACK_SCHEMA_DRAFT,
  PACK_SCHEMA_KEYWORDS,
  PACK_SCHEMA_LIMITS,
  REJECTED_PACK_SCHEMA_KEYWORDS,
} from './pack-schema-dialect';

type Schema = Record<string, unknown>;

/** A closed object schema. */
function object(properties: Record<string, unknown> = {}, extra: Schema = {}): Schema {
  return { type: 'object', additionalProperties: false, properties, ...extra };
}

/** `inner` as the schema of property `a.b.c`, three levels below the root. */
function threeDown(inner: unknown): Schema {
  return object({ a: object({ b: object({ c: inner }) }) });
}

const THREE_DOWN = '/properties/a/properties/b/properties/c';

function paths(schema: unknown, base?: string): string[] {
  return checkPackConfigSchema(schema, base).map((finding) => finding.path);
}

const GOOD: Schema = {
  $schema: PACK_SCHEMA_DRAFT,
  title: 'Greeter configuration',
  type: 'object',
  additionalProperties: false,
  required: ['greeting'],
  dependentRequired: { suffix: ['greeting'] },
  properties: {
    greeting: {
      type: 'string',
      description: 'What to say first',
      minLength: 1,
      maxLength: 200,
      default: 'hello',
      examples: ['hi', 'hey'],
    },
    suffix: { type: ['string', 'null'] },
    tone: { enum: ['plain', 'warm', null] },
    version: { const: 1 },
    ratio: { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: 2, exclusiveMinimum: -1, multipleOf: 0.25 },
    tags: {
      type: 'array',
      maxItems: 8,
      minItems: 0,
      uniqueItems: true,
      items: { type: 'string', maxLength: 32 },
      contains: { type: 'string', const: 'main' },
      minContains: 1,
      maxContains: 2,
    },
    pair: {
      type: 'array',
      prefixItems: [{ type: 'integer' }, { type: 'string' }],
      minItems: 2,
      maxItems: 2,
      items: false,
    },
    level: {
      type: ['integer', 'null'],
      anyOf: [{ type: 'integer', maximum: 3 }, { type: 'null' }],
      deprecated: false,
      readOnly: false,
      writeOnly: false,
      $comment: 'legacy',
    },
    style: {
      type: 'object',
      additionalProperties: false,
      properties: { bold: { type: 'boolean' }, size: { type: 'integer' } },
      if: {
        type: 'object',
        additionalProperties: false,
        properties: { bold: { const: true }, size: { type: 'integer' } },
        required: ['bold'],
      },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's conditional keyword
      then: {
        type: 'object',
        additionalProperties: false,
        properties: { bold: { type: 'boolean' }, size: { type: 'integer' } },
        required: ['size'],
      },
      else: {
        not: { type: 'object', additionalProperties: false, properties: { size: { const: 0 } }, required: ['size'] },
      },
      allOf: [{ minProperties: 0 }, { maxProperties: 2 }],
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          properties: { bold: { type: 'boolean' }, size: { type: 'integer' } },
        },
      ],
    },
  },
};

describe('a schema in the dialect', () => {
  it('has no findings, compiles, accepts good configuration and refuses unknown properties at every level', () => {
    expect(checkPackConfigSchema(GOOD)).toEqual([]);
    const compiled = compilePackConfigSchema(GOOD);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.findings));
    expect(
      compiled.validate({ greeting: 'hi', tags: ['main'], pair: [1, 'x'], style: { bold: true, size: 2 } }),
    ).toEqual([]);
    expect(compiled.validate({ greeting: 'hi', command: 'rm -rf /' })).toEqual([
      expect.objectContaining({
        path: '/command',
        at: 'key',
        message: expect.stringContaining('unknown configuration property'),
      }),
    ]);
    expect(
      compiled.validate({ greeting: 'hi', style: { bold: false, endpoint: 'http://x' } }).map((f) => f.path),
    ).toContain('/style/endpoint');
    expect(compiled.validate({ greeting: '' }).map((f) => f.path)).toContain('/greeting');
    expect(compiled.validate({}).length).toBeGreaterThan(0);
  });

  it('uses every allowed keyword somewhere in the example above', () => {
    const used = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object')
        for (const [key, member] of Object.entries(value)) used.add(key), walk(member);
    };
    walk(GOOD);
    for (const keyword of Object.values(PACK_SCHEMA_KEYWORDS).flat()) expect(used, keyword).toContain(keyword);
  });

  it('locates findings below the pointer base', () => {
    expect(paths(threeDown({ type: 'string', pattern: 'x' }), '/components/2/configSchema')).toEqual([
      `/components/2/configSchema${THREE_DOWN}/pattern`,
    ]);
  });

  it('is deterministic: the same schema, the same findings', () => {
    const hostile = threeDown({ type: 'string', $ref: '#', format: 'uri', pattern: '.*', foo: 1 });
    expect(checkPackConfigSchema(hostile)).toEqual(checkPackConfigSchema(structuredClone(hostile)));
  });
});

describe('keywords outside the closed set', () => {
  const future = [
    '$dynamicAnchor',
    'propertyDependencies',
    'x-extension',
    'examplesX',
    'Type',
    'TYPE',
    'minimumLength',
    'maxlength',
    'enumValues',
    'const ',
    ' type',
    '__proto__',
    'constructor',
    'ref',
    '$comment2',
    'if2',
  ];
  const table = [...Object.keys(REJECTED_PACK_SCHEMA_KEYWORDS), ...future];

  it.each(table)('rejects %s at the root and three levels down', (keyword) => {
    const value = keyword === 'format' ? 'uri' : {};
    const root = JSON.parse(JSON.stringify(object({}, { [keyword]: value })));
    expect(paths(root)).toContain(`/${keyword.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    const nested = JSON.parse(JSON.stringify(threeDown({ type: 'string', [keyword]: value })));
    expect(paths(nested)).toContain(`${THREE_DOWN}/${keyword}`);
    expect(compilePackConfigSchema(nested).ok).toBe(false);
  });

  const formats = [
    'date-time',
    'date',
    'time',
    'duration',
    'email',
    'idn-email',
    'hostname',
    'idn-hostname',
    'ipv4',
    'ipv6',
    'uri',
    'uri-reference',
    'iri',
    'iri-reference',
    'uuid',
    'uri-template',
    'json-pointer',
    'relative-json-pointer',
    'regex',
    'byte',
    'binary',
    'password',
    'int32',
    'int64',
    'float',
    'double',
    'custom-future-format',
  ];
  it.each(formats)('rejects format %s', (format) => {
    expect(paths(threeDown({ type: 'string', format }))).toEqual([`${THREE_DOWN}/format`]);
  });

  it('rejects $ref even when it points at nothing Ajv could resolve (the schema never reaches Ajv)', () => {
    const result = compilePackConfigSchema(object({ a: { $ref: 'https://example.invalid/schema.json' } }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.findings.some((f) => f.path === '/properties/a/$ref')).toBe(true);
  });
});

describe('limits', () => {
  const { maxDepth, maxNodes, maxProperties, maxArrayItems } = PACK_SCHEMA_LIMITS;

  /** Objects nested so that the innermost string schema sits at level `levels`. */
  function nested(levels: number): Schema {
    let schema: Schema = { type: 'string' };
    for (let level = levels - 1; level >= 1; level--) schema = object({ a: schema });
    return schema;
  }

  it(`allows ${maxDepth} levels and rejects ${maxDepth + 1}`, () => {
    expect(checkPackConfigSchema(nested(maxDepth))).toEqual([]);
    expect(compilePackConfigSchema(nested(maxDepth)).ok).toBe(true);
    const over = checkPackConfigSchema(nested(maxDepth + 1));
    expect(over).toEqual([
      expect.objectContaining({
        path: '/properties/a'.repeat(maxDepth),
        message: expect.stringContaining(`deeper than ${maxDepth}`),
      }),
    ]);
  });

  it('stops at the depth limit on a pathologically deep schema without overflowing the stack', () => {
    let schema: Schema = { type: 'string' };
    for (let i = 0; i < 100_000; i++) schema = { not: schema };
    expect(
      checkPackConfigSchema(object({ a: { type: 'string', allOf: [schema] } })).some((f) =>
        f.message.includes('deeper than'),
      ),
    ).toBe(true);
  });

  it(`allows ${maxNodes} schema nodes and rejects ${maxNodes + 1}`, () => {
    // The root, its `additionalProperties: false`, two holder schemas and their `false` members.
    const holders = 2;
    const falses = maxNodes - 2 - holders;
    const under = {
      ...object(),
      allOf: [{ allOf: new Array(falses / 2).fill(false) }, { anyOf: new Array(falses / 2).fill(false) }],
    };
    expect(checkPackConfigSchema(under)).toEqual([]);
    expect(compilePackConfigSchema(under).ok).toBe(true);
    const over = {
      ...object(),
      allOf: [{ allOf: new Array(falses / 2 + 1).fill(false) }, { anyOf: new Array(falses / 2).fill(false) }],
    };
    expect(checkPackConfigSchema(over)).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`more than ${maxNodes} schema nodes`) }),
    ]);
  });

  const props = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'integer' }]));

  it(`allows ${maxProperties} declared properties in one object and rejects ${maxProperties + 1}, at the root and nested`, () => {
    expect(checkPackConfigSchema(object(props(maxProperties)))).toEqual([]);
    expect(paths(object(props(maxProperties + 1)))).toEqual(['/properties']);
    expect(checkPackConfigSchema(threeDown(object(props(maxProperties))))).toEqual([]);
    expect(paths(threeDown(object(props(maxProperties + 1))))).toEqual([`${THREE_DOWN}/properties`]);
  });

  const scalars = (count: number) => Array.from({ length: count }, (_, i) => i);
  const cases: ReadonlyArray<readonly [string, (n: number) => Schema, string]> = [
    ['enum', (n) => ({ type: 'integer', enum: scalars(n) }), '/enum'],
    ['examples', (n) => ({ type: 'integer', examples: scalars(n) }), '/examples'],
    [
      'const array',
      (n) => ({ type: 'array', maxItems: maxArrayItems, items: { type: 'integer' }, const: scalars(n) }),
      '/const',
    ],
    [
      'default array',
      (n) => ({ type: 'array', maxItems: maxArrayItems, items: { type: 'integer' }, default: scalars(n) }),
      '/default',
    ],
    [
      'enum entry array',
      (n) => ({ type: 'array', maxItems: maxArrayItems, items: { type: 'integer' }, enum: [scalars(n)] }),
      '/enum/0',
    ],
    ['maxItems', (n) => ({ type: 'array', maxItems: n, items: { type: 'integer' } }), '/maxItems'],
    [
      'minItems',
      (n) => ({ type: 'array', minItems: n, maxItems: maxArrayItems, items: { type: 'integer' } }),
      '/minItems',
    ],
    [
      'prefixItems',
      (n) => ({ type: 'array', prefixItems: new Array(n).fill(false), minItems: n, maxItems: n, items: false }),
      '/prefixItems',
    ],
    ['anyOf', (n) => ({ type: 'integer', anyOf: new Array(n).fill(false) }), '/anyOf'],
    ['oneOf', (n) => ({ type: 'integer', oneOf: new Array(n).fill(false) }), '/oneOf'],
    ['allOf', (n) => ({ type: 'integer', allOf: new Array(n).fill(false) }), '/allOf'],
  ];

  it.each(cases)(`allows ${maxArrayItems} entries in %s and rejects ${maxArrayItems + 1}`, (_, build, at) => {
    expect(checkPackConfigSchema(object({ a: build(maxArrayItems) }))).toEqual([]);
    expect(compilePackConfigSchema(object({ a: build(maxArrayItems) })).ok).toBe(true);
    expect(paths(object({ a: build(maxArrayItems + 1) }))).toContain(`/properties/a${at}`);
  });

  it('requires every array schema to bound its length and describe its items', () => {
    expect(paths(object({ a: { type: 'array', items: { type: 'string' } } }))).toEqual(['/properties/a/maxItems']);
    expect(paths(object({ a: { type: 'array', maxItems: 3 } }))).toEqual(['/properties/a/items']);
    expect(paths(object({ a: { type: ['array', 'null'], maxItems: 3 } }))).toEqual(['/properties/a/items']);
  });

  it('accepts a closed tuple without `items`, and holds configuration to its exact length', () => {
    const tuple = object({
      a: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2, maxItems: 2 },
    });
    const compiled = compilePackConfigSchema(tuple);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.findings));
    expect(compiled.validate({ a: [1, 'x'] })).toEqual([]);
    expect(compiled.validate({ a: [1, 'x', { command: 'rm' }] }).map((f) => f.path)).toEqual(['/a']);
    expect(compiled.validate({ a: [1] }).map((f) => f.path)).toEqual(['/a']);
  });

  it('requires a `required` list inside the limit too', () => {
    const schema = object(props(maxProperties), {
      required: [...Object.keys(props(maxProperties)), ...new Array(maxArrayItems + 1 - maxProperties).fill('p0')],
    });
    expect(paths(schema)).toEqual(['/required']);
  });

  it('caps the number of findings and says so', () => {
    const bad = object(
      Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`p${i}`, { type: 'string', pattern: 'x' }])),
    );
    const findings = checkPackConfigSchema(bad);
    expect(findings).toHaveLength(PACK_SCHEMA_LIMITS.maxFindings + 1);
    expect(findings.at(-1)?.message).toContain('check stopped');
  });
});

describe('closed objects', () => {
  it.each([
    ['missing', object({ x: { type: 'string' } }, { additionalProperties: undefined })],
    ['true', object({ x: { type: 'string' } }, { additionalProperties: true })],
    ['a schema', object({ x: { type: 'string' } }, { additionalProperties: { type: 'string' } })],
    ['an empty schema', object({ x: { type: 'string' } }, { additionalProperties: {} })],
  ])('rejects additionalProperties %s, at the root and three levels down', (_, schema) => {
    const clean = JSON.parse(JSON.stringify(schema));
    expect(paths(clean)).toContain('/additionalProperties');
    expect(paths(threeDown(clean))).toContain(`${THREE_DOWN}/additionalProperties`);
  });

  it('treats a schema with `properties` but no `type` as an object schema', () => {
    const schema = object({
      a: { type: 'object', additionalProperties: false, allOf: [{ properties: { b: { type: 'string' } } }] },
    });
    expect(paths(schema)).toEqual(['/properties/a/allOf/0/additionalProperties']);
  });

  it('refuses the schema `true` and type-less value schemas, which would admit open objects', () => {
    expect(paths(object({ a: true }))).toEqual(['/properties/a']);
    expect(paths(object({ a: {} }))).toEqual(['/properties/a']);
    expect(paths(object({ a: { description: 'anything' } }))).toEqual(['/properties/a']);
    expect(paths(object({ a: { not: { type: 'string' } } }))).toEqual(['/properties/a']);
    expect(paths(object({ a: { type: 'array', maxItems: 2, items: {} } }))).toEqual(['/properties/a/items']);
    expect(paths(object({ a: { type: 'array', maxItems: 2, items: true } }))).toEqual(['/properties/a/items']);
  });

  it('requires the root to be exactly an object schema', () => {
    for (const root of [
      { type: 'string' },
      { type: ['object', 'null'], additionalProperties: false },
      { enum: [1] },
      false,
      true,
      {},
    ]) {
      expect(checkPackConfigSchema(root).length, JSON.stringify(root)).toBeGreaterThan(0);
    }
  });

  it('requires `required` and `dependentRequired` to name declared properties of the same schema', () => {
    expect(paths(object({ a: { type: 'string' } }, { required: ['b'] }))).toEqual(['/required/0']);
    expect(paths(object({ a: { type: 'string' } }, { required: ['a', 'a'] }))).toEqual(['/required/1']);
    expect(paths(object({ a: { type: 'string' } }, { dependentRequired: { a: ['z'] } }))).toEqual([
      '/dependentRequired/a/0',
    ]);
    expect(paths(object({ a: { type: 'string' } }, { dependentRequired: { z: ['a'] } }))).toEqual([
      '/dependentRequired/z',
    ]);
    expect(paths(object({ a: { type: 'string' } }, { allOf: [{ required: ['a'] }] }))).toEqual(['/allOf/0/required/0']);
  });
});

describe('property names', () => {
  const invalid = [
    'Foo',
    'foo_bar',
    'foo-bar',
    'foo.bar',
    'foo bar',
    '1abc',
    '_a',
    '',
    'caf\u00e9',
    'cafe\u0301',
    '\uff46\uff4f\uff4f',
    'fo\u200bo',
    'a'.repeat(65),
    '__proto__',
    'f\u043eo',
    'a/b',
    'a~b',
    'foo\n',
  ];
  it.each(invalid.map((name) => [JSON.stringify(name), name]))('rejects %s, three levels down', (_, name) => {
    const schema = threeDown(JSON.parse(JSON.stringify(object({ [name]: { type: 'string' } }))));
    expect(paths(schema)).toEqual([`${THREE_DOWN}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  });

  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'])(
    'rejects the Object.prototype member %s',
    (name) => {
      expect(paths(object({ [name]: { type: 'string' } }))).toEqual([`/properties/${name}`]);
    },
  );

  it.each(['a', 'maxAttempts', 'x1', 'greetingText', 'a'.repeat(64), 'tone', 'label2'])('accepts %s', (name) => {
    expect(checkPackConfigSchema(object({ [name]: { type: 'string' } }))).toEqual([]);
  });

  const highRisk = [
    'command',
    'commands',
    'cmd',
    'exec',
    'shell',
    'script',
    'code',
    'argv',
    'endpoint',
    'url',
    'uri',
    'baseUrl',
    'webhook',
    'host',
    'hostname',
    'credential',
    'credentials',
    'apiKey',
    'authToken',
    'accessToken',
    'bearer',
    'password',
    'passwd',
    'privateKey',
    'clientSecret',
    'env',
    'environment',
    'envVars',
    'transport',
    'proxy',
    'socket',
    'package',
    'packages',
    'module',
    'require',
    'import',
    'dependencies',
    'path',
    'filePath',
    'workDir',
    'directory',
    'secret',
    'secrets',
    'token',
    'tokens',
    'headers',
    'approval',
    'approvals',
    'mcp',
    'mcpServers',
    'jsonrpc',
    'adapter',
    'callback',
    'hook',
    'handler',
    'fn',
    'provider',
    'passw0rd',
    's3cret',
  ];
  it.each(highRisk)('rejects the high-risk name %s with its kind, three levels down', (name) => {
    const findings = checkPackConfigSchema(threeDown(object({ [name]: { type: 'string' } })));
    expect(findings).toEqual([
      expect.objectContaining({
        path: `${THREE_DOWN}/properties/${name}`,
        message: expect.stringMatching(/names an? /),
      }),
    ]);
  });
});

describe('literals', () => {
  it.each([
    ['enum', { type: 'object', additionalProperties: false, enum: [{}] }, '/enum/0'],
    ['enum', { type: 'string', enum: ['a', { command: 'x' }] }, '/enum/1'],
    ['const', { type: 'object', additionalProperties: false, const: { url: 'x' } }, '/const'],
    ['default', { type: 'string', default: { a: 1 } }, '/default'],
    ['examples', { type: 'string', examples: ['a', { a: 1 }] }, '/examples/1'],
    ['enum', { type: 'array', maxItems: 2, items: { type: 'string' }, enum: [[{ a: 1 }]] }, '/enum/0/0'],
    [
      'const',
      {
        type: 'array',
        maxItems: 2,
        items: { type: 'array', maxItems: 1, items: { type: 'string' } },
        const: [['nested']],
      },
      '/const/0',
    ],
  ])('rejects object-valued and nested entries of %s', (_, schema, at) => {
    expect(paths(object({ a: schema }))).toContain(`/properties/a${at}`);
  });

  it('accepts scalar and flat-array literals', () => {
    expect(
      checkPackConfigSchema(
        object({
          a: { enum: [null, true, 1.5, 'x'] },
          b: { type: 'array', maxItems: 2, items: { type: 'integer' }, const: [1, 2] },
        }),
      ),
    ).toEqual([]);
  });

  it('rejects non-JSON numbers and values anywhere', () => {
    for (const value of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      10n,
      () => 1,
      Symbol('x'),
      undefined,
    ]) {
      expect(
        checkPackConfigSchema(object({ a: { type: 'number', const: value } })).length,
        String(value),
      ).toBeGreaterThan(0);
      expect(
        checkPackConfigSchema(object({ a: { type: 'number', maximum: value } })).length,
        String(value),
      ).toBeGreaterThan(0);
    }
    expect(paths(object({ a: { type: 'integer', multipleOf: 0 } }))).toEqual(['/properties/a/multipleOf']);
    expect(paths(object({ a: { type: 'string', minLength: -1 } }))).toEqual(['/properties/a/minLength']);
    expect(paths(object({ a: { type: 'string', maxLength: 1.5 } }))).toEqual(['/properties/a/maxLength']);
  });
});

describe('types and Ajv strict-mode traps, refused before Ajv sees them', () => {
  it.each([
    ['a string keyword on a number', { type: 'number', minLength: 1 }, '/minLength'],
    ['a number keyword on a string', { type: 'string', maximum: 1 }, '/maximum'],
    ['an array keyword on a string', { type: 'string', uniqueItems: true }, '/uniqueItems'],
    ['an object keyword on a string', { type: 'string', minProperties: 1 }, '/minProperties'],
    ['a type keyword without a type', { enum: ['a'], maxLength: 3 }, '/maxLength'],
    ['a type the context forbids', { type: 'string', anyOf: [{ type: 'number' }] }, '/anyOf/0/type'],
    ['number under integer', { type: 'integer', allOf: [{ type: 'number' }] }, '/allOf/0/type'],
    ['an unknown type', { type: 'text' }, '/type'],
    ['an empty type list', { type: [] }, '/type'],
    ['a repeated type', { type: ['string', 'string'] }, '/type'],
    ['if without then or else', { type: 'string', if: { type: 'string', maxLength: 1 } }, '/if'],
    // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's conditional keyword
    ['then without if', { type: 'string', then: { type: 'string' } }, '/then'],
    ['else without if', { type: 'string', else: { type: 'string' } }, '/else'],
    [
      'minContains without contains',
      { type: 'array', maxItems: 2, items: { type: 'string' }, minContains: 1 },
      '/minContains',
    ],
    [
      'minContains 0 alone',
      { type: 'array', maxItems: 2, items: { type: 'string' }, contains: { type: 'string' }, minContains: 0 },
      '/minContains',
    ],
    [
      'minContains above maxContains',
      {
        type: 'array',
        maxItems: 2,
        items: { type: 'string' },
        contains: { type: 'string' },
        minContains: 2,
        maxContains: 1,
      },
      '/minContains',
    ],
    // Found by the dialect's property test: the default minContains (1) above maxContains 0.
    [
      'maxContains 0 under the default minContains',
      { type: 'array', maxItems: 8, items: { type: 'string' }, contains: { type: 'string' }, maxContains: 0 },
      '/maxContains',
    ],
    [
      'an open tuple',
      { type: 'array', maxItems: 3, prefixItems: [{ type: 'string' }], items: { type: 'string' } },
      '/prefixItems',
    ],
    ['items false without a tuple', { type: 'array', maxItems: 0, items: false }, '/items'],
    ['an empty anyOf', { type: 'string', anyOf: [] }, '/anyOf'],
    ['an empty enum', { type: 'string', enum: [] }, '/enum'],
    ['$schema below the root', { type: 'string', $schema: PACK_SCHEMA_DRAFT }, '/$schema'],
    ['a non-string title', { type: 'string', title: 1 }, '/title'],
    ['a non-boolean deprecated', { type: 'string', deprecated: 'yes' }, '/deprecated'],
  ])('%s', (_, schema, at) => {
    expect(paths(object({ a: schema }))).toContain(`/properties/a${at}`);
  });

  it('rejects a root $schema other than 2020-12', () => {
    for (const draft of [
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      `${PACK_SCHEMA_DRAFT}#`,
      'https://example.invalid/meta',
    ]) {
      expect(paths(object({}, { $schema: draft }))).toEqual(['/$schema']);
    }
  });

  it('accepts a type narrowed as Ajv narrows it (integer under number)', () => {
    expect(
      checkPackConfigSchema(object({ a: { type: 'number', allOf: [{ type: 'integer' }, { maximum: 3 }] } })),
    ).toEqual([]);
    expect(
      compilePackConfigSchema(object({ a: { type: 'number', allOf: [{ type: 'integer' }, { maximum: 3 }] } })).ok,
    ).toBe(true);
  });
});

describe('inputs that are not plain JSON', () => {
  it('never calls a getter, and refuses it', () => {
    let reads = 0;
    const schema = object({ a: { type: 'string' } });
    Object.defineProperty(schema.properties as object, 'b', {
      enumerable: true,
      get: () => (reads++, { type: 'string' }),
    });
    expect(paths(schema)).toEqual(['/properties']);
    expect(compilePackConfigSchema(schema).ok).toBe(false);
    expect(reads).toBe(0);
  });

  it('refuses symbols, hidden properties, custom prototypes, sparse and decorated arrays', () => {
    const symbol = { ...object(), [Symbol('x')]: 1 };
    const hidden = object();
    Object.defineProperty(hidden, 'secretKeyword', { enumerable: false, value: 1 });
    class Schema {
      type = 'object';
      additionalProperties = false;
    }
    const holes: string[] = new Array(3);
    holes[0] = 'a';
    holes[2] = 'c';
    const sparse = object({ a: { type: 'string', enum: holes } });
    const decorated = ['a'] as string[] & { extra?: number };
    decorated.extra = 1;
    const withDecorated = object({ a: { type: 'string', enum: decorated } });
    const nullProto = Object.assign(Object.create(null), object());
    for (const bad of [
      symbol,
      hidden,
      new Schema(),
      new Date(),
      new Map(),
      sparse,
      withDecorated,
      Object.create(object()),
    ]) {
      expect(checkPackConfigSchema(bad).length).toBeGreaterThan(0);
    }
    expect(checkPackConfigSchema(nullProto)).toEqual([]);
  });

  it('refuses cycles and shared objects', () => {
    const cyclic = object();
    (cyclic as { allOf?: unknown[] }).allOf = [cyclic];
    expect(paths(cyclic)).toContain('/allOf/0');
    const shared = { type: 'string' };
    expect(paths(object({ a: shared, b: shared }))).toEqual(['/properties/b']);
    const list = [{ type: 'string' }];
    expect(paths(object({ a: { type: 'string', anyOf: list, oneOf: list } }))).toEqual(['/properties/a/oneOf']);
    const values = ['x', 'y'];
    expect(paths(object({ a: { type: 'string', enum: values }, b: { type: 'string', enum: values } }))).toEqual([
      '/properties/b/enum',
    ]);
  });

  it('does work in proportion to the input: a huge literal shared across many schemas is read once', () => {
    const wide = Array.from({ length: PACK_SCHEMA_LIMITS.maxArrayItems }, () =>
      Array.from({ length: PACK_SCHEMA_LIMITS.maxArrayItems }, (_, i) => i),
    );
    const members = Object.fromEntries(
      Array.from({ length: PACK_SCHEMA_LIMITS.maxProperties }, (_, i) => [
        `p${i}`,
        { type: 'array', maxItems: 4, items: { type: 'integer' }, enum: wide },
      ]),
    );
    const { value: findings, cpuMs } = cpuTimeOf(() => checkPackConfigSchema(object(members)));
    expect(cpuMs).toBeLessThan(5_000);
    expect(findings.map((f) => f.path)).toContain('/properties/p1/enum');
    expect(findings.map((f) => f.path)).not.toContain('/properties/p0/enum');
  });

  it('survives proxies whose traps throw, and revoked proxies', () => {
    const throwing = new Proxy(object(), {
      ownKeys() {
        throw new Error('boom');
      },
    });
    const { proxy, revoke } = Proxy.revocable(object(), {});
    revoke();
    for (const bad of [throwing, proxy, object({ a: throwing }), object({ a: proxy })]) {
      expect(() => checkPackConfigSchema(bad)).not.toThrow();
      expect(checkPackConfigSchema(bad).length).toBeGreaterThan(0);
      expect(compilePackConfigSchema(bad).ok).toBe(false);
    }
  });

  it('compiles what it checked, not what a shape-shifting proxy shows later', () => {
    let reads = 0;
    const honest = object({ greeting: { type: 'string' } });
    const later = { type: 'object' }; // open: would accept anything
    const shifty = new Proxy(honest, {
      ownKeys: (target) => Reflect.ownKeys(reads++ === 0 ? target : later),
      getOwnPropertyDescriptor: (target, key) =>
        Reflect.getOwnPropertyDescriptor(reads <= 1 ? target : later, key) ??
        Reflect.getOwnPropertyDescriptor(target, key),
      get: (_target, key) => Reflect.get(later, key),
    });
    const compiled = compilePackConfigSchema(shifty);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.findings));
    expect(compiled.validate({ greeting: 'hi', command: 'x' }).map((f) => f.path)).toEqual(['/command']);
  });

  it('never throws on a non-object input and refuses it', () => {
    for (const value of [undefined, null, 0, 'schema', [], [object()], 1n, Symbol('s'), () => ({})]) {
      expect(checkPackConfigSchema(value).length).toBeGreaterThan(0);
      expect(compilePackConfigSchema(value).ok).toBe(false);
    }
    expect(checkPackConfigSchema(object(), 42 as unknown as string)).toEqual([]);
  });

  it('validates configuration without throwing, whatever it is', () => {
    const compiled = compilePackConfigSchema(GOOD);
    if (!compiled.ok) throw new Error('GOOD must compile');
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    for (const config of [undefined, null, 1, 'x', [], trap])
      expect(compiled.validate(config).length).toBeGreaterThan(0);
  });
});

describe('Ajv never sees a rejected schema', () => {
  afterEach(() => vi.restoreAllMocks());

  /** GOOD with a comment no other test uses: a schema this process has not compiled yet. */
  let fresh = 0;
  const unseen = (): Schema => ({ ...GOOD, $comment: `unseen ${process.pid} ${++fresh} ${Math.random()}` });

  it('does not construct or compile with Ajv when the dialect rejects, and does when it accepts', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    for (const bad of [
      object({ a: { $ref: '#' } }),
      object({ a: { type: 'string', pattern: '(a+)+$' } }),
      threeDown({ type: 'string', format: 'email' }),
      object({ token: { type: 'string' } }),
      object({}, { additionalProperties: true }),
    ]) {
      expect(compilePackConfigSchema(bad).ok).toBe(false);
    }
    expect(compile).not.toHaveBeenCalled();
    expect(compilePackConfigSchema(unseen()).ok).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('compiles the same schema once, another one again, and forgets the oldest of more than it keeps', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const remove = vi.spyOn(Ajv2020.prototype, 'removeSchema');
    const first = unseen();
    const a = compilePackConfigSchema(first);
    const again = compilePackConfigSchema(structuredClone(first));
    expect(compile).toHaveBeenCalledTimes(1);
    // The reused validator judges like a new one.
    if (!a.ok || !again.ok) throw new Error('GOOD must compile');
    expect(again.validate({ greeting: 'hi', extra: 1 })).toEqual(a.validate({ greeting: 'hi', extra: 1 }));
    expect(again.validate({ greeting: 'hi', extra: 1 }).map((f) => f.message)).toEqual([
      'unknown configuration property "extra"',
    ]);
    compilePackConfigSchema(unseen());
    expect(compile).toHaveBeenCalledTimes(2);
    // 300 more distinct schemas: the first is no longer kept (and was removed from Ajv), so it compiles again.
    for (let i = 0; i < 300; i++) compilePackConfigSchema(unseen());
    expect(remove).toHaveBeenCalled();
    compile.mockClear();
    expect(compilePackConfigSchema(first).ok).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('reports, instead of throwing, if Ajv ever refuses a schema the dialect accepted', () => {
    vi.spyOn(Ajv2020.prototype, 'compile').mockImplementation(() => {
      throw new Error('strict mode: simulated');
    });
    const result = compilePackConfigSchema(unseen(), '/components/0/configSchema');
    expect(result).toEqual({
      ok: false,
      findings: [
        expect.objectContaining({
          path: '/components/0/configSchema',
          message: expect.stringContaining('Ajv refused'),
        }),
      ],
    });
  });
});
