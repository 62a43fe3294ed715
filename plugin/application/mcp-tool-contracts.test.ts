/**
 * The MCP tool contracts: exactly three tools; input schemas closed at every object level with no
 * open value and bounded sizes; output schemas that compile (draft 2020-12 strict, and the SDK
 * client's default Ajv) and accept what the tools return; and argument readers that turn good
 * arguments into requests and refuse every hostile form with located diagnostics.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { asText } from './__test-support__/application-manifests';
import { openPlaces, type SchemaNode as Node, subschemas } from './__test-support__/schema-walk';
import { greeterManifest } from './__test-support__/mcp-workspace';
import { builtinCatalog, catalogToolResult } from './catalog';
import { controlFieldKind } from './control-fields';
import {
  APPLICATION_TOOL_NAMES,
  APPLICATION_TOOLS,
  ARGUMENT_LIMITS,
  ARGUMENTS_RULE,
  CATALOG_TOOL,
  EXECUTE_TOOL,
  INVALID_ARGUMENTS,
  isApplicationToolName,
  PLAN_TOOL,
  readCatalogArguments,
  readExecuteArguments,
  readPlanArguments,
  toolContract,
} from './mcp-tool-contracts';

const propertyNames = (schema: unknown): string[] =>
  subschemas(schema).flatMap(([, node]) =>
    node && typeof node.properties === 'object' ? Object.keys(node.properties as Node) : [],
  );

/** A minimal good manifest text and the arguments around it. */
const manifestText = asText(greeterManifest(), 'json');
const planArgs = (): Record<string, unknown> => ({
  manifestPath: 'applications/greeter/application.json',
  mode: 'dry-run',
});
const executeArgs = (): Record<string, unknown> => ({
  manifestPath: 'applications/greeter/application.json',
  mode: 'live',
  expectedPlanDigest: 'a'.repeat(64),
  idempotencyKey: 'run-1',
  inputs: [{ node: 'who', port: 'value', json: '{"name":"Ada"}' }],
});

describe('the tool list', () => {
  it('is exactly the three application tools, each with an input and an output schema of type object', () => {
    expect(APPLICATION_TOOL_NAMES).toEqual([
      'agentdef.application.catalog',
      'agentdef.application.plan',
      'agentdef.application.execute',
    ]);
    expect(APPLICATION_TOOLS.map((t) => t.name)).toEqual([...APPLICATION_TOOL_NAMES]);
    for (const tool of APPLICATION_TOOLS) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
      expect(tool.description.length).toBeGreaterThan(40);
      expect(toolContract(tool.name)).toBe(tool);
    }
    expect(isApplicationToolName('agentdef.application.packs')).toBe(false);
    expect(isApplicationToolName('constructor')).toBe(false);
    expect(isApplicationToolName(PLAN_TOOL)).toBe(true);
  });

  it('is deep-frozen, so no caller can open a schema in place', () => {
    const schema = toolContract(EXECUTE_TOOL).inputSchema as Node;
    expect(Object.isFrozen(schema)).toBe(true);
    expect(() => {
      (schema as { additionalProperties: unknown }).additionalProperties = true;
    }).toThrow();
    expect(schema.additionalProperties).toBe(false);
  });
});

describe.each(APPLICATION_TOOLS.map((t) => [t.name, t] as const))('the input schema of %s', (_name, tool) => {
  const nodes = subschemas(tool.inputSchema);

  it('has additionalProperties: false at every object level', () => {
    const objects = nodes.filter(([, node]) => node.type === 'object' || node.properties !== undefined);
    expect(objects.length).toBeGreaterThan(0);
    for (const [pointer, node] of objects)
      expect({ pointer, additionalProperties: node.additionalProperties }).toEqual({
        pointer,
        additionalProperties: false,
      });
  });

  it('holds no open value: every subschema is a typed, non-empty schema, and there is no $ref, pattern property or unevaluated escape', () => {
    for (const [pointer, node] of nodes) {
      expect({ pointer, isObject: node !== null && typeof node === 'object' && !Array.isArray(node) }).toEqual({
        pointer,
        isObject: true,
      });
      expect({
        pointer,
        typed: typeof node.type === 'string' || node.enum !== undefined || node.const !== undefined,
      }).toEqual({ pointer, typed: true });
      for (const open of [
        '$ref',
        '$dynamicRef',
        'patternProperties',
        'unevaluatedProperties',
        'propertyNames',
        'dependentSchemas',
        'if',
      ])
        expect({ pointer, open, value: node[open] }).toEqual({ pointer, open, value: undefined });
    }
  });

  it('has no open place at all', () => {
    expect(openPlaces(tool.inputSchema)).toEqual([]);
  });

  it('bounds every string and array', () => {
    for (const [pointer, node] of nodes) {
      if (node.type === 'string' && node.enum === undefined)
        expect({ pointer, maxLength: typeof node.maxLength }).toEqual({ pointer, maxLength: 'number' });
      if (node.type === 'array')
        expect({ pointer, maxItems: typeof node.maxItems }).toEqual({ pointer, maxItems: 'number' });
    }
  });

  it('names nothing that could carry a pack, adapter, callback, URL, command, credential or operator authority', () => {
    const names = propertyNames(tool.inputSchema);
    for (const name of names) {
      // `manifestPath` is a workspace-relative file, contained by the reader (tested below).
      if (name !== 'manifestPath') expect({ name, kind: controlFieldKind(name) }).toEqual({ name, kind: undefined });
      expect(name).not.toMatch(
        /pack|adapter|operator|url|uri|command|credential|token|secret|callback|env|header|approval/i,
      );
    }
  });

  it('compiles under Ajv 2020-12 in strict mode', () => {
    expect(() => new Ajv2020({ strict: true, strictTypes: true }).compile(tool.inputSchema)).not.toThrow();
  });
});

describe('the closed-schema check itself', () => {
  it('finds an open object level, an untyped value, a nested open object and a reference', () => {
    expect(openPlaces({ type: 'object', properties: { a: { type: 'string' } } })).toEqual([
      ': an object level without additionalProperties: false',
    ]);
    expect(openPlaces({ type: 'object', additionalProperties: false, properties: { a: {} } })).toEqual([
      '/properties/a: an untyped (open) value',
    ]);
    expect(
      openPlaces({
        type: 'object',
        additionalProperties: false,
        properties: { a: { type: 'array', items: { type: 'object', properties: {} } } },
      }),
    ).toEqual(['/properties/a/items: an object level without additionalProperties: false']);
    expect(openPlaces({ type: 'object', additionalProperties: false, properties: { a: { $ref: '#/x' } } })).toEqual([
      '/properties/a: an untyped (open) value',
      '/properties/a: uses $ref',
    ]);
  });
});

describe('the output schemas', () => {
  const strict = new Ajv2020({ strict: true, strictTypes: true, allErrors: true });
  // What the MCP SDK client compiles output schemas with (its default Ajv: draft-07 class, not strict).
  const sdkLike = new Ajv({ strict: false, validateSchema: false, allErrors: true });

  it.each(APPLICATION_TOOLS.map((t) => [t.name, t] as const))(
    'of %s compile strictly and under the SDK client default',
    (_name, tool) => {
      expect(() => strict.compile(tool.outputSchema)).not.toThrow();
      expect(() => sdkLike.compile(tool.outputSchema)).not.toThrow();
      expect(tool.outputSchema.$schema).toBeUndefined();
      expect(JSON.stringify(tool.outputSchema)).not.toContain('"$id"');
    },
  );

  it('accept the real catalog projection, and refuse it with an extra member', () => {
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(toolContract(CATALOG_TOOL).outputSchema);
    const catalog = catalogToolResult(builtinCatalog()) as Record<string, unknown>;
    expect(validate(catalog), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...catalog, operator: true })).toBe(false);
  });

  it('accept the refusal of invalid arguments of every tool', () => {
    for (const [tool, read] of [
      [CATALOG_TOOL, readCatalogArguments({ extra: 1 })],
      [PLAN_TOOL, readPlanArguments({ mode: 'dry-run' })],
      [EXECUTE_TOOL, readExecuteArguments({})],
    ] as const) {
      expect(read.ok).toBe(false);
      if (read.ok) continue;
      const validate = new Ajv2020({ strict: true, allErrors: true }).compile(toolContract(tool).outputSchema);
      const structured = {
        ok: false,
        refusal: INVALID_ARGUMENTS,
        message: read.message,
        diagnostics: read.diagnostics,
      };
      expect(validate(structured), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('hoist the published plan schema without colliding definitions', () => {
    const defs = toolContract(PLAN_TOOL).outputSchema.$defs as Node;
    expect(Object.keys(defs)).toEqual(
      expect.arrayContaining(['ApplicationPlan', 'PlannedStep', 'Sha256', 'McpDiagnostic', 'McpArgumentRefusal']),
    );
    expect((defs.ApplicationPlan as Node).additionalProperties).toBe(false);
  });
});

describe('good arguments', () => {
  it('catalog takes none: absent or {}', () => {
    expect(readCatalogArguments(undefined)).toEqual({ ok: true, request: {} });
    expect(readCatalogArguments({})).toEqual({ ok: true, request: {} });
  });

  it('plan by workspace path', () => {
    expect(readPlanArguments(planArgs())).toEqual({
      ok: true,
      request: { manifest: { path: 'applications/greeter/application.json' }, mode: 'dry-run' },
    });
    expect(readPlanArguments({ manifestPath: 'application.yml', mode: 'live' })).toEqual({
      ok: true,
      request: { manifest: { path: 'application.yml' }, mode: 'live' },
    });
  });

  it('plan by text, JSON by default or YAML when told', () => {
    expect(readPlanArguments({ manifestText, mode: 'dry-run' })).toEqual({
      ok: true,
      request: { manifest: { text: manifestText, format: 'json' }, mode: 'dry-run' },
    });
    expect(readPlanArguments({ manifestText: 'a: 1\n', manifestFormat: 'yaml', mode: 'live' })).toEqual({
      ok: true,
      request: { manifest: { text: 'a: 1\n', format: 'yaml' }, mode: 'live' },
    });
  });

  it('execute: the entry point values are parsed from their JSON text', () => {
    const read = readExecuteArguments({
      ...executeArgs(),
      inputs: [
        { node: 'who', port: 'value', json: ' {"name": "Ada", "tags": ["a", 1, true, null]} ' },
        { node: 'other', port: 'text', json: '"plain text"' },
      ],
    });
    expect(read).toEqual({
      ok: true,
      request: {
        manifest: { path: 'applications/greeter/application.json' },
        mode: 'live',
        expectedPlanDigest: 'a'.repeat(64),
        idempotencyKey: 'run-1',
        inputs: [
          { node: 'who', port: 'value', value: { name: 'Ada', tags: ['a', 1, true, null] } },
          { node: 'other', port: 'text', value: 'plain text' },
        ],
      },
    });
  });

  it('execute: `__proto__` inside a value is an ordinary key, never a prototype', () => {
    const read = readExecuteArguments({
      ...executeArgs(),
      inputs: [{ node: 'who', port: 'value', json: '{"__proto__": {"polluted": true}, "name": "Ada"}' }],
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const value = read.request.inputs[0]?.value as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(['__proto__', 'name']);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('execute: an idempotency key of exactly 256 visible ASCII characters', () => {
    expect(readExecuteArguments({ ...executeArgs(), idempotencyKey: '~'.repeat(256) }).ok).toBe(true);
  });
});

/** The refusal's diagnostics, checked for shape: each located in the arguments of `tool`. */
function refused(
  tool: string,
  read: {
    ok: boolean;
    diagnostics?: readonly {
      path: string;
      message: string;
      file: string;
      rule: string;
      line: number;
      column: number;
      severity: string;
    }[];
  },
) {
  expect(read.ok).toBe(false);
  const diagnostics = read.diagnostics ?? [];
  expect(diagnostics.length).toBeGreaterThan(0);
  for (const d of diagnostics) {
    expect(d).toMatchObject({ file: tool, rule: ARGUMENTS_RULE, severity: 'error', line: 1, column: 1 });
    expect(d.path === '' || d.path.startsWith('/')).toBe(true);
  }
  return diagnostics.map((d) => ({ path: d.path, message: d.message }));
}

describe('hostile arguments, each refused with a located diagnostic', () => {
  it.each([
    ['an extra top-level argument', { ...executeArgs(), extra: 1 }, '/extra', /unknown argument `extra`/],
    [
      'an `operator` field',
      { ...executeArgs(), operator: { approve: true } },
      '/operator',
      /unknown argument `operator`/,
    ],
    ['a `packs` field', { ...executeArgs(), packs: [{ id: 'evil' }] }, '/packs', /unknown argument `packs`/],
    ['an adapter', { ...executeArgs(), adapter: 'module:evil' }, '/adapter', /unknown argument/],
    ['a URL', { ...executeArgs(), url: 'https://example.invalid/' }, '/url', /unknown argument/],
    ['a command', { ...executeArgs(), command: 'rm -rf /' }, '/command', /unknown argument/],
    ['a credential', { ...executeArgs(), apiKey: 'sk-not-a-real-key-000' }, '/apiKey', /unknown argument/],
    ['a `constructor` key', { ...executeArgs(), constructor: 'x' }, '/constructor', /unknown argument `constructor`/],
    [
      'an own `__proto__` key',
      { ...JSON.parse('{"__proto__": {"admin": true}}'), ...executeArgs() },
      '/__proto__',
      /unknown argument `__proto__`/,
    ],
    [
      'a nested extra key in an input',
      { ...executeArgs(), inputs: [{ node: 'who', port: 'value', json: '1', callback: 'x' }] },
      '/inputs/0/callback',
      /unknown argument `callback`/,
    ],
    [
      'a nested `__proto__` in an input',
      {
        ...executeArgs(),
        inputs: [{ node: 'who', port: 'value', ...JSON.parse('{"__proto__": {"x": 1}}'), json: '1' }],
      },
      '/inputs/0/__proto__',
      /unknown argument/,
    ],
  ])('%s', (_what, args, path, message) => {
    const problems = refused(EXECUTE_TOOL, readExecuteArguments(args));
    expect(problems).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('an extra argument to the catalog, and a plan argument with a `packs` or `operator` field', () => {
    expect(refused(CATALOG_TOOL, readCatalogArguments({ packs: [] }))).toContainEqual({
      path: '/packs',
      message: expect.stringMatching(/takes no arguments/),
    });
    expect(refused(PLAN_TOOL, readPlanArguments({ ...planArgs(), packs: [] }))).toContainEqual({
      path: '/packs',
      message: expect.stringMatching(/unknown argument/),
    });
    expect(refused(PLAN_TOOL, readPlanArguments({ ...planArgs(), operator: 'yes' }))).toContainEqual({
      path: '/operator',
      message:
        'unknown argument `operator`: the allowed ones are `manifestPath`, `manifestText`, `manifestFormat`, `mode`',
    });
    expect(
      refused(
        EXECUTE_TOOL,
        readExecuteArguments({ ...executeArgs(), inputs: [{ node: 'who', port: 'value', json: '1', url: 'x' }] }),
      ),
    ).toContainEqual({
      path: '/inputs/0/url',
      message: 'unknown argument `url`: the allowed ones are `node`, `port`, `json`',
    });
  });

  it('a very long unknown name is summarised, never echoed', () => {
    const name = `x${'y'.repeat(5000)}`;
    const problems = refused(PLAN_TOOL, readPlanArguments({ ...planArgs(), [name]: 1 }));
    expect(problems).toEqual([
      { path: '', message: expect.stringMatching(/an unknown argument with a 5001-character name/) },
    ]);
  });

  it.each([
    ['arguments that are an array', ['dry-run'], ''],
    ['arguments that are a string', 'dry-run', ''],
    ['arguments that are null', null, ''],
    ['a numeric mode', { ...planArgs(), mode: 1 }, '/mode'],
    ['an unknown mode', { ...planArgs(), mode: 'yolo' }, '/mode'],
    ['a missing mode', { manifestPath: 'a.json' }, '/mode'],
    ['a path that is an object', { ...planArgs(), manifestPath: { file: 'a.json' } }, '/manifestPath'],
    [
      'a manifest text over the limit',
      { manifestText: 'x'.repeat(ARGUMENT_LIMITS.manifestText + 1), mode: 'dry-run' },
      '/manifestText',
    ],
    ['a manifest path over the limit', { manifestPath: `${'a/'.repeat(600)}x.json`, mode: 'dry-run' }, '/manifestPath'],
    ['both a path and a text', { ...planArgs(), manifestText }, '/manifestText'],
    ['neither a path nor a text', { mode: 'dry-run' }, ''],
    ['a format with a path', { ...planArgs(), manifestFormat: 'yaml' }, '/manifestFormat'],
    ['an unknown format', { manifestText, manifestFormat: 'toml', mode: 'dry-run' }, '/manifestFormat'],
    ['an empty text', { manifestText: '', mode: 'dry-run' }, '/manifestText'],
  ])('plan: %s', (_what, args, path) => {
    expect(refused(PLAN_TOOL, readPlanArguments(args)).map((p) => p.path)).toContain(path);
  });

  it.each([
    ['an absolute path', '/etc/agentdef/application.json', /not absolute/],
    ['a `..` path', '../outside/application.json', /inside the workspace/],
    ['a `..` in the middle', 'applications/../../outside/application.json', /inside the workspace/],
    ['a Windows drive path', 'C:/Users/x/application.json', /not absolute/],
    ['a backslash path', 'applications\\greeter\\application.json', /`\/` separators/],
    ['a URL', 'https://example.invalid/application.json', /not a URL/],
    ['a file URL', 'file:application.json', /not a URL/],
    ['a home path', '~/application.json', /no `~`/],
    ['an empty segment', 'applications//application.json', /empty or `.` segments/],
    ['a `.` segment', './application.json', /empty or `.` segments/],
    ['a control character', 'applications/\u0000/application.json', /control characters/],
    ['another extension', 'applications/greeter/run.sh', /\.json/],
  ])('a manifest path: %s', (_what, manifestPath, message) => {
    expect(refused(PLAN_TOOL, readPlanArguments({ manifestPath, mode: 'dry-run' }))).toContainEqual({
      path: '/manifestPath',
      message: expect.stringMatching(message),
    });
    expect(refused(EXECUTE_TOOL, readExecuteArguments({ ...executeArgs(), manifestPath }))).toContainEqual({
      path: '/manifestPath',
      message: expect.stringMatching(message),
    });
  });

  it.each([
    ['a short digest', { expectedPlanDigest: 'abc' }, '/expectedPlanDigest'],
    ['an uppercase digest', { expectedPlanDigest: 'A'.repeat(64) }, '/expectedPlanDigest'],
    ['an empty key', { idempotencyKey: '' }, '/idempotencyKey'],
    ['a key with a space', { idempotencyKey: 'run 1' }, '/idempotencyKey'],
    ['a key with a non-ASCII character', { idempotencyKey: 'rün' }, '/idempotencyKey'],
    ['a key over 256 characters', { idempotencyKey: 'k'.repeat(257) }, '/idempotencyKey'],
    ['inputs that are an object', { inputs: { who: 1 } }, '/inputs'],
    ['no inputs', { inputs: [] }, '/inputs'],
    [
      'too many inputs',
      {
        inputs: Array.from({ length: ARGUMENT_LIMITS.inputs + 1 }, (_, i) => ({
          node: `n${i}`,
          port: 'value',
          json: '1',
        })),
      },
      '/inputs',
    ],
    [
      'an input value that is not text',
      { inputs: [{ node: 'who', port: 'value', json: { name: 'Ada' } }] },
      '/inputs/0/json',
    ],
    ['an input without json', { inputs: [{ node: 'who', port: 'value' }] }, '/inputs/0/json'],
    ['a bad node id', { inputs: [{ node: 'Who!', port: 'value', json: '1' }] }, '/inputs/0/node'],
    ['a bad port name', { inputs: [{ node: 'who', port: '../x', json: '1' }] }, '/inputs/0/port'],
    [
      'an input value over the limit',
      { inputs: [{ node: 'who', port: 'value', json: `"${'x'.repeat(ARGUMENT_LIMITS.inputJson)}"` }] },
      '/inputs/0/json',
    ],
    [
      'input values over the total limit',
      {
        inputs: Array.from({ length: 5 }, (_, i) => ({
          node: `n${i}`,
          port: 'value',
          json: `"${'x'.repeat(ARGUMENT_LIMITS.inputJson - 10)}"`,
        })),
      },
      '/inputs',
    ],
    ['a value that is not JSON', { inputs: [{ node: 'who', port: 'value', json: "{name: 'Ada'}" }] }, '/inputs/0/json'],
    ['a value with trailing text', { inputs: [{ node: 'who', port: 'value', json: '1 2' }] }, '/inputs/0/json'],
    [
      'a value with a duplicate key',
      { inputs: [{ node: 'who', port: 'value', json: '{"name":"a","name":"b"}' }] },
      '/inputs/0/json',
    ],
    [
      'a value with a lone surrogate',
      { inputs: [{ node: 'who', port: 'value', json: '"\\ud800"' }] },
      '/inputs/0/json',
    ],
    [
      'a value nested deeper than 64',
      { inputs: [{ node: 'who', port: 'value', json: `${'['.repeat(65)}${']'.repeat(65)}` }] },
      '/inputs/0/json',
    ],
    ['a value with a non-finite number', { inputs: [{ node: 'who', port: 'value', json: '1e999' }] }, '/inputs/0/json'],
    [
      'two values for one entry point',
      {
        inputs: [
          { node: 'who', port: 'value', json: '1' },
          { node: 'who', port: 'value', json: '2' },
        ],
      },
      '/inputs/1',
    ],
  ])('execute: %s', (_what, change, path) => {
    expect(refused(EXECUTE_TOOL, readExecuteArguments({ ...executeArgs(), ...change })).map((p) => p.path)).toContain(
      path,
    );
  });

  it('a nesting of exactly 64 is accepted, 65 is not', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(
      readExecuteArguments({ ...executeArgs(), inputs: [{ node: 'who', port: 'value', json: nested(64) }] }).ok,
    ).toBe(true);
    expect(
      readExecuteArguments({ ...executeArgs(), inputs: [{ node: 'who', port: 'value', json: nested(65) }] }).ok,
    ).toBe(false);
  });

  it('arguments that are not plain data: a getter, a hidden property, a class instance, a custom prototype', () => {
    const withGetter = { ...planArgs() };
    let ran = false;
    Object.defineProperty(withGetter, 'mode', {
      enumerable: true,
      get() {
        ran = true;
        return 'dry-run';
      },
    });
    const hidden = { ...planArgs() };
    Object.defineProperty(hidden, 'operator', { value: true, enumerable: false });
    class Args {
      mode = 'dry-run';
      manifestPath = 'a.json';
    }
    const inherited = Object.assign(Object.create({ operator: true }), planArgs());
    for (const args of [withGetter, hidden, new Args(), inherited, new Map([['mode', 'dry-run']])]) {
      expect(refused(PLAN_TOOL, readPlanArguments(args)).map((p) => p.message)).toEqual([
        expect.stringMatching(/not plain JSON data/),
      ]);
    }
    expect(ran).toBe(false);
  });

  it('never quotes a value in a message', () => {
    const secret = 'sk-live-ZZZ-do-not-echo-0123456789';
    const reads = [
      readPlanArguments({ manifestPath: `${secret}/../x.json`, mode: 'dry-run' }),
      readPlanArguments({ manifestPath: 'a.json', mode: secret }),
      readExecuteArguments({ ...executeArgs(), idempotencyKey: `${secret} with space` }),
      readExecuteArguments({ ...executeArgs(), expectedPlanDigest: secret }),
      readExecuteArguments({ ...executeArgs(), token: secret }),
      readExecuteArguments({
        ...executeArgs(),
        inputs: [{ node: 'who', port: 'value', json: `{"k": "${secret}", "k": 1}` }],
      }),
      readExecuteArguments({ ...executeArgs(), inputs: [{ node: 'who', port: 'value', json: `${secret}` }] }),
    ];
    for (const read of reads) {
      expect(read.ok).toBe(false);
      expect(JSON.stringify(read)).not.toContain(secret);
    }
  });

  it('reports every problem at once', () => {
    const problems = refused(
      EXECUTE_TOOL,
      readExecuteArguments({ mode: 'x', idempotencyKey: '', expectedPlanDigest: 1, inputs: 'no', packs: [] }),
    );
    expect(problems.map((p) => p.path).sort()).toEqual([
      '/expectedPlanDigest',
      '/idempotencyKey',
      '/inputs',
      '/mode',
      '/packs',
    ]);
  });
});
