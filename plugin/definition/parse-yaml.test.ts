import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cpuTimeOf } from '../../e2e/support/cpu-time';
import { parse as parseWithLibrary, stringify } from 'yaml';
import type { Diagnostic } from './diagnostic';
import { getAtPointer } from './json-pointer';
import { parseDefinitionText } from './parse-document';
import { parseHelp } from './parse-help';
import { MAX_ALIAS_EXPANSION, parseYaml } from './parse-yaml';

const FILE = 'examples/demo/agent.yaml';

function parse(text: string) {
  return parseDefinitionText(text, FILE, 'yaml');
}

function documentOf(text: string) {
  const { document, diagnostics } = parse(text);
  expect(diagnostics).toEqual([]);
  if (document === undefined) throw new Error('no document');
  return document;
}

/** Each diagnostic as `rule line:column path message`. */
function problems(text: string): string[] {
  return parse(text).diagnostics.map((d: Diagnostic) => `${d.rule} ${d.line}:${d.column} ${d.path} ${d.message}`);
}

describe('values and positions', () => {
  const text = [
    'name: demo',
    'model:',
    '  provider: openai',
    '  id: "gpt"',
    'tools:',
    '  - id: search',
    '    mode: fast',
    '  - plain',
    'limits: {turns: [1, 2], off: ~}',
    '',
  ].join('\n');

  it('converts to plain null-prototype values', () => {
    const doc = documentOf(text);
    expect(doc.format).toBe('yaml');
    expect(doc.value).toEqual({
      name: 'demo',
      model: { provider: 'openai', id: 'gpt' },
      tools: [{ id: 'search', mode: 'fast' }, 'plain'],
      limits: { turns: [1, 2], off: null },
    });
    for (const pointer of ['', '/model', '/tools/0', '/limits'])
      expect(Object.getPrototypeOf(getAtPointer(doc.value, pointer))).toBeNull();
  });

  it('locates values and keys at their exact line:column', () => {
    const doc = documentOf(text);
    expect(doc.locate('/name')).toEqual({ line: 1, column: 7 });
    expect(doc.locate('/model', 'key')).toEqual({ line: 2, column: 1 });
    expect(doc.locate('/model')).toEqual({ line: 3, column: 3 });
    expect(doc.locate('/model/id')).toEqual({ line: 4, column: 7 });
    expect(doc.locate('/model/id', 'key')).toEqual({ line: 4, column: 3 });
    expect(doc.locate('/tools/0')).toEqual({ line: 6, column: 5 });
    expect(doc.locate('/tools/0/mode')).toEqual({ line: 7, column: 11 });
    expect(doc.locate('/tools/0/mode', 'key')).toEqual({ line: 7, column: 5 });
    expect(doc.locate('/tools/1')).toEqual({ line: 8, column: 5 });
    expect(doc.locate('/limits/turns/1')).toEqual({ line: 9, column: 21 });
    expect(doc.locate('/limits/off', 'key')).toEqual({ line: 9, column: 25 });
    expect(doc.locate('/tools/0/missing')).toEqual({ line: 6, column: 5 });
  });

  it('follows YAML 1.2 core-schema typing', () => {
    expect(documentOf('on: yes\noctal: 0o17\nhex: 0x1F\nfloat: 1.5e3\nempty:\nquoted: "1"\n').value).toEqual({
      on: 'yes',
      octal: 15,
      hex: 31,
      float: 1500,
      empty: null,
      quoted: '1',
    });
  });

  it('counts CRLF as one line break', () => {
    const doc = documentOf('a: 1\r\nb:\r\n  c: [1, 2]\r\n');
    expect(doc.locate('/b/c/1')).toEqual({ line: 3, column: 10 });
    expect(problems('a: 1\r\nb: 2\r\na: 3\r\n')).toEqual([
      'duplicate-key 3:1 /a duplicate key "a" (first defined on line 1)',
    ]);
  });

  it('counts columns in UTF-16 code units', () => {
    const doc = documentOf('a: 😀😀\nb: [😀, x]\n');
    expect(doc.locate('/b/1')).toEqual({ line: 2, column: 9 });
    // '😀' is two code units: the stray x sits at code unit 8 of its line (column 9).
    expect(problems('a: 😀😀\nb: "😀" x\n')).toEqual(['syntax 2:9  Unexpected scalar at node end']);
    expect(problems('a: {😀: 1, 😀: 2}\n')).toEqual([
      'duplicate-key 1:12 /a/😀 duplicate key "😀" (first defined on line 1)',
    ]);
  });
});

describe('syntax errors', () => {
  it('reports the first library error at its line:column', () => {
    expect(problems('a: b: c\n')).toEqual(['syntax 1:4  Nested mappings are not allowed in compact mappings']);
    expect(problems('a: [1, 2\nb: 3\n')).toEqual([
      'syntax 2:1  Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
    expect(problems('a:\n\tb: 1\n')).toEqual(['syntax 2:1  Tabs are not allowed as indentation']);
  });

  it('gives the full diagnostic shape', () => {
    expect(parse('a: b: c\n').diagnostics).toEqual([
      {
        code: 'agent_definition_invalid',
        rule: 'syntax',
        severity: 'error',
        path: '',
        file: FILE,
        line: 1,
        column: 4,
        message: 'Nested mappings are not allowed in compact mappings',
        suggestion: parseHelp('syntax', 'yaml'),
      },
    ]);
  });

  it('refuses a second document', () => {
    expect(problems('a: 1\n---\nb: 2\n')).toEqual([
      'multiple-documents 2:1  a definition file must hold a single YAML document; this starts a second one',
    ]);
    expect(problems('a: 1\n...\nb: 2\n')[0]).toMatch(/^multiple-documents 3:1 /);
    expect(documentOf('---\na: 1\n').value).toEqual({ a: 1 });
  });
});

describe('duplicate keys', () => {
  it('reports the second key with the line of the first, like JSON', () => {
    expect(problems('name: a\nnested:\n  k: 1\n  k: 2\nname: b\n')).toEqual([
      'duplicate-key 4:3 /nested/k duplicate key "k" (first defined on line 3)',
      'duplicate-key 5:1 /name duplicate key "name" (first defined on line 1)',
    ]);
    expect(problems('flow: {a: 1, a: 2}\n')).toEqual([
      'duplicate-key 1:14 /flow/a duplicate key "a" (first defined on line 1)',
    ]);
  });

  it('treats differently quoted spellings of one key as duplicates', () => {
    expect(problems('a: 1\n"a": 2\n')).toEqual(['duplicate-key 2:1 /a duplicate key "a" (first defined on line 1)']);
  });

  it('keeps duplicates found before a syntax error', () => {
    expect(problems('a: 1\na: 2\nb: [\n').map((p) => p.split(' ').slice(0, 2).join(' '))).toEqual([
      'duplicate-key 2:1',
      'syntax 4:1',
    ]);
  });
});

describe('keys, tags and values JSON cannot hold', () => {
  it('refuses keys that are not strings', () => {
    expect(problems('1: a\ntrue: b\n? [x]\n: c\nnull: d\n"2": ok\n')).toEqual([
      'yaml-key 1:1  property names must be strings, found the number "1"; quote the key',
      'yaml-key 2:1  property names must be strings, found the boolean "true"; quote the key',
      'yaml-key 3:3  property names must be strings, found a collection; quote the key',
      'yaml-key 5:1  property names must be strings, found null "null"; quote the key',
    ]);
  });

  it('refuses tags outside the core schema, at the tagged value', () => {
    const found = problems('a: !foo x\nb: !!binary aGk=\nc: !!set {x}\nd: !!str 1\ne: !!int "7"\n');
    expect(found).toEqual([
      "yaml-tag 1:9 /a the YAML tag !foo is not allowed; only the core schema's !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are",
      "yaml-tag 2:13 /b the YAML tag !!binary is not allowed; only the core schema's !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are",
      "yaml-tag 3:10 /c the YAML tag !!set is not allowed; only the core schema's !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are",
    ]);
    expect(parseYaml('d: !!str 1\ne: !!int "7"\n', FILE).value).toEqual({ d: '1', e: 7 });
  });

  it('refuses numbers JSON has no spelling for', () => {
    expect(problems('a: .inf\nb: -.Inf\nc: .nan\nd: 1e999\n').map((p) => p.split(' ').slice(0, 3).join(' '))).toEqual([
      'yaml-value 1:4 /a',
      'yaml-value 2:4 /b',
      'yaml-value 3:4 /c',
      'yaml-value 4:4 /d',
    ]);
  });

  it('refuses a top level that is not a mapping, at 1:1', () => {
    expect(problems('- a\n- b\n')).toEqual([
      'not-an-object 1:1  an AgentDefinition must be an object, but this file holds an array',
    ]);
    expect(problems('just text\n')).toEqual([
      'not-an-object 1:1  an AgentDefinition must be an object, but this file holds a string',
    ]);
    expect(problems('# only a comment\n')).toEqual([
      'not-an-object 1:1  an AgentDefinition must be an object, but this file holds null',
    ]);
  });
});

describe('prototype keys', () => {
  it('keeps __proto__ and constructor as own data without polluting anything', () => {
    const doc = documentOf('__proto__:\n  polluted: true\nconstructor:\n  prototype:\n    polluted: true\n');
    const value = doc.value as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(getAtPointer(value, '/constructor/prototype/polluted')).toBe(true);
    expect(doc.locate('/__proto__/polluted', 'key')).toEqual({ line: 2, column: 3 });
  });
});

describe('anchors and aliases', () => {
  it('expands aliases into independent copies', () => {
    const doc = documentOf('base: &b\n  model: x\n  tags: [a]\nfirst: *b\nsecond: *b\nname: &n agent\nlabel: *n\n');
    const value = doc.value as Record<string, Record<string, unknown>>;
    expect(value).toEqual({
      base: { model: 'x', tags: ['a'] },
      first: { model: 'x', tags: ['a'] },
      second: { model: 'x', tags: ['a'] },
      name: 'agent',
      label: 'agent',
    });
    expect(value['first']).not.toBe(value['second']);
    expect(value['first']?.['tags']).not.toBe(value['base']?.['tags']);
    expect(Object.getPrototypeOf(value['first'])).toBeNull();
  });

  it('locates what an alias expanded to at the alias', () => {
    const doc = documentOf('base: &b\n  model: x\nfirst: *b\n');
    expect(doc.locate('/first/model')).toEqual({ line: 3, column: 8 });
    expect(doc.locate('/base/model')).toEqual({ line: 2, column: 10 });
  });

  it('refuses a billion laughs quickly', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const name of 'bcdefghi') {
      const previous = String.fromCharCode(name.charCodeAt(0) - 1);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    const { value: parsed, cpuMs } = cpuTimeOf(() => parseYaml(lines.join('\n'), FILE));
    const { value, diagnostics } = parsed;
    expect(cpuMs).toBeLessThan(2000);
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ rule: 'yaml-alias', line: 5 });
    expect(diagnostics[0]?.message).toContain('more than 10,000 values');
  });

  it('refuses one big anchor aliased many times', () => {
    const big = `big: &x [${Array(2000).fill('1').join(',')}]`;
    const uses = Array.from({ length: 6 }, (_, i) => `use${i}: *x`);
    const { diagnostics } = parseYaml([big, ...uses].join('\n'), FILE);
    expect(diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual(['yaml-alias 6:7']);
    expect(MAX_ALIAS_EXPANSION).toBe(10_000);
  });

  it('refuses an alias inside the collection it names', () => {
    expect(problems('a: &a [1, *a]\n')).toEqual([
      'yaml-alias 1:11 /a/1 alias *a refers to a collection that contains it',
    ]);
  });

  it('refuses an alias with no anchor before it', () => {
    expect(problems('a: *later\nb: &later 1\n')).toEqual([
      'yaml-alias 1:4 /a unknown alias *later: no anchor &later comes before it',
    ]);
  });
});

/** The `yaml` package as parse-yaml.ts loads it (`require`), so that its work can be counted. */
const yamlLibrary = createRequire(__filename)('yaml') as typeof import('yaml');

/**
 * Runs `parse` counting the `yaml` package's work: the tokens its lexer produced (the prescan's and
 * the parser's own) and the documents it built.
 */
function countingYamlWork<T>(parse: () => T): { value: T; tokens: number; documents: number } {
  const lexer = yamlLibrary.Lexer.prototype;
  const lex = lexer.lex;
  let tokens = 0;
  lexer.lex = function* (this: unknown, ...args: Parameters<typeof lex>) {
    for (const token of lex.apply(this, args)) {
      tokens++;
      yield token;
    }
  };
  const built = vi.spyOn(yamlLibrary, 'parseDocument');
  try {
    const value = parse();
    return { value, tokens, documents: built.mock.calls.length };
  } finally {
    lexer.lex = lex;
    built.mockRestore();
  }
}

describe('the number of aliases, before any document is built', () => {
  afterEach(() => vi.restoreAllMocks());
  /** `count` aliases of one short scalar, one a line: a 3.95 MiB file at 690,000 (issue 23's). */
  const aliased = (count: number) => `a: &ab x\nb:\n${'- *ab\n'.repeat(count)}`;

  it('refuses 690,000 aliases at the one past the budget, having lexed a bounded part of the file and built no document', () => {
    const text = aliased(690_000);
    expect(text.length).toBeGreaterThan(3.9 * 1024 * 1024);
    const { value: parsed, tokens, documents } = countingYamlWork(() => parseYaml(text, FILE));
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        rule: 'yaml-alias',
        file: FILE,
        line: 2 + MAX_ALIAS_EXPANSION + 1,
        column: 3,
        message: expect.stringContaining('more than 10,000 YAML aliases'),
      }),
    ]);
    expect(documents).toBe(0);
    // A line is a handful of tokens: the lexer stopped near alias 10,001 of 690,000.
    expect(tokens).toBeLessThan(10 * MAX_ALIAS_EXPANSION);
  });

  it('takes exactly the budget (and builds the document), and refuses one more', () => {
    const within = countingYamlWork(() => parseYaml(aliased(MAX_ALIAS_EXPANSION), FILE));
    expect(within.value.diagnostics).toEqual([]);
    expect((within.value.value as { b: unknown[] }).b).toHaveLength(MAX_ALIAS_EXPANSION);
    expect(within.documents).toBe(1);
    const over = countingYamlWork(() => parseYaml(aliased(MAX_ALIAS_EXPANSION + 1), FILE));
    expect(over.value.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual([
      `yaml-alias ${MAX_ALIAS_EXPANSION + 3}:3`,
    ]);
    expect(over.documents).toBe(0);
  });

  it('counts aliases in flow collections and as keys too', () => {
    const flow = `a: &ab x\nb: [${Array(MAX_ALIAS_EXPANSION + 1)
      .fill('*ab')
      .join(', ')}]\n`;
    expect(problems(flow)).toEqual([expect.stringMatching(/^yaml-alias 2:\d+ {2}more than 10,000 YAML aliases/)]);
    const keys = `a: &ab x\nb:\n${Array.from({ length: MAX_ALIAS_EXPANSION + 1 }, (_, i) => `  c${i}: {*ab : 1}`).join('\n')}\n`;
    expect(countingYamlWork(() => parseYaml(keys, FILE)).documents).toBe(0);
    expect(problems(keys)).toEqual([expect.stringMatching(/^yaml-alias \d+:\d+ {2}more than 10,000 YAML aliases/)]);
  });

  it('does not count a star inside a scalar', () => {
    const text = `a: "${'*ab '.repeat(MAX_ALIAS_EXPANSION + 1)}"\nb: '*ab'\nc: |\n  ${'*ab\n  '.repeat(MAX_ALIAS_EXPANSION + 1)}\n`;
    expect(parseYaml(text, FILE).diagnostics).toEqual([]);
  });
});

describe('nesting depth', () => {
  it.each([
    ['1,000,000 flow sequences', '['.repeat(1_000_000), 1, 257],
    ['1,000,000 flow mappings', '{a: '.repeat(1_000_000), 1, 4 * 256 + 1],
    ['1,000,000 block sequences', '- '.repeat(1_000_000) + 'x', 1, 2 * 256 + 1],
    ['1,000,000 explicit keys', '? '.repeat(1_000_000), 1, 2 * 256 + 1],
  ])('turns %s into one diagnostic, quickly', (_name, text, line, column) => {
    const { value: parsed, cpuMs } = cpuTimeOf(() => parseYaml(text, FILE));
    const { value, diagnostics } = parsed;
    expect(cpuMs).toBeLessThan(2000);
    expect(value).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({ rule: 'nesting-depth', line, column, message: 'nesting deeper than 256 levels' }),
    ]);
  });

  it('refuses deep indentation', () => {
    const text = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(parseYaml(text, FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'nesting-depth', line: 257, column: 257 }),
    ]);
  });

  it('allows 256 levels and refuses 257', () => {
    const indented = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1';
    expect(parseYaml(indented(256), FILE).diagnostics).toEqual([]);
    expect(parseYaml(indented(257), FILE).diagnostics[0]?.rule).toBe('nesting-depth');
    expect(parseYaml('- '.repeat(256) + 'x', FILE).diagnostics).toEqual([]);
    expect(parseYaml('- '.repeat(257) + 'x', FILE).diagnostics[0]?.rule).toBe('nesting-depth');
    // Block and flow nesting add up: a mapping, a sequence, then flow sequences.
    expect(parseYaml(`a:\n  - ${'['.repeat(254)}${']'.repeat(254)}`, FILE).diagnostics).toEqual([]);
    expect(parseYaml(`a:\n  - ${'['.repeat(255)}${']'.repeat(255)}`, FILE).diagnostics[0]).toMatchObject({
      rule: 'nesting-depth',
      line: 2,
      column: 259,
    });
  });

  it('does not count brackets and dashes inside scalars', () => {
    const text = `a: "${'['.repeat(400)}"\nb: ${'-'.repeat(400)}\nc: |\n  ${'- '.repeat(400)}\nd: ---\n`;
    expect(parseYaml(text, FILE).diagnostics).toEqual([]);
  });

  it('counts nesting that aliases add', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const text = `a: &a ${deep}\nb: ${'['.repeat(100)}*a${']'.repeat(100)}\n`;
    expect(parseYaml(text, FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'nesting-depth', line: 2, column: 104 }),
    ]);
  });
});

describe('against the yaml package (property)', () => {
  it.each(['block', 'flow'] as const)(
    'converts YAML.stringify output (%s style) to what the library itself gives',
    (collectionStyle) => {
      fc.assert(
        fc.property(fc.jsonValue(), (generated) => {
          const text = stringify(generated, { collectionStyle });
          const { value, valueAt, diagnostics } = parseYaml(text, FILE);
          expect(diagnostics).toEqual([]);
          expect(value).toEqual(parseWithLibrary(text));
          for (const offset of valueAt.values()) expect(offset).toBeLessThanOrEqual(text.length);
        }),
        { numRuns: 200 },
      );
    },
  );
});
