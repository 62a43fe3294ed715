import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuTimeOf } from '../../e2e/support/cpu-time';
import type { Diagnostic } from './diagnostic';
import { getAtPointer, joinPointer } from './json-pointer';
import { definitionFormat, parseDefinitionText } from './parse-document';
import { parseHelp } from './parse-help';
import { parseJson } from './parse-json';

const FILE = 'examples/demo/agent.json';

function parse(text: string) {
  return parseDefinitionText(text, FILE, 'json');
}

/** The only diagnostic, as `rule line:column message`. */
function only(text: string): string {
  const { diagnostics } = parseJson(text, FILE);
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0] as Diagnostic;
  return `${d.rule} ${d.line}:${d.column} ${d.message}`;
}

function documentOf(text: string) {
  const { document, diagnostics } = parse(text);
  expect(diagnostics).toEqual([]);
  if (document === undefined) throw new Error('no document');
  return document;
}

describe('positions', () => {
  const text = ['{', '  "name": "demo",', '  "tools": [', '    { "id": "x" },', '    7', '  ]', '}', ''].join('\n');

  it('locates nested values and keys at their exact line:column', () => {
    const doc = documentOf(text);
    expect(doc.locate('')).toEqual({ line: 1, column: 1 });
    expect(doc.locate('/name')).toEqual({ line: 2, column: 11 });
    expect(doc.locate('/name', 'key')).toEqual({ line: 2, column: 3 });
    expect(doc.locate('/tools')).toEqual({ line: 3, column: 12 });
    expect(doc.locate('/tools', 'key')).toEqual({ line: 3, column: 3 });
    expect(doc.locate('/tools/0')).toEqual({ line: 4, column: 5 });
    expect(doc.locate('/tools/0/id')).toEqual({ line: 4, column: 13 });
    expect(doc.locate('/tools/0/id', 'key')).toEqual({ line: 4, column: 7 });
    expect(doc.locate('/tools/1')).toEqual({ line: 5, column: 5 });
  });

  it('falls back to the nearest existing ancestor', () => {
    const doc = documentOf(text);
    expect(doc.locate('/tools/0/missing')).toEqual({ line: 4, column: 5 });
    expect(doc.locate('/tools/9/deeper/still')).toEqual({ line: 3, column: 12 });
    expect(doc.locate('/nope')).toEqual({ line: 1, column: 1 });
    // An array element has no key: `at: 'key'` gives the value.
    expect(doc.locate('/tools/1', 'key')).toEqual({ line: 5, column: 5 });
  });

  it('keeps the document: file, format, text and a null-prototype value', () => {
    const doc = documentOf(text);
    expect(doc).toMatchObject({ file: FILE, format: 'json', text });
    expect(Object.getPrototypeOf(doc.value)).toBeNull();
    expect(doc.value).toEqual({ name: 'demo', tools: [{ id: 'x' }, 7] });
  });

  it('counts CRLF as one line break', () => {
    const doc = documentOf('{\r\n  "a": 1,\r\n  "b": [\r\n    true\r\n  ]\r\n}\r\n');
    expect(doc.locate('/b', 'key')).toEqual({ line: 3, column: 3 });
    expect(doc.locate('/b/0')).toEqual({ line: 4, column: 5 });
    expect(only('{\r\n  "a": 1,\r\n  "b": 2\r\n  "c": 3\r\n}')).toBe(
      "syntax 4:3 expected ',' or '}' after property value",
    );
  });

  it('counts columns in UTF-16 code units, as editors do', () => {
    // '😀' is two code units: the stray x sits at code unit 12 (column 13), code point 11.
    expect(only('{"e": "😀", x}')).toBe('syntax 1:13 property names must be in double quotes: "x"');
    expect(documentOf('{"a": "😀😀", "b": 1}').locate('/b')).toEqual({ line: 1, column: 20 });
  });
});

describe('syntax errors', () => {
  const cases: [string, string, string][] = [
    [
      'missing comma between members',
      '{\n  "a": 1\n  "b": 2\n}',
      "syntax 3:3 expected ',' or '}' after property value",
    ],
    ['missing comma between elements', '{\n  "a": [1 2]\n}', "syntax 2:11 expected ',' or ']' after array element"],
    ['trailing comma in an object', '{\n  "a": 1,\n}', 'syntax 2:9 trailing comma is not allowed in JSON'],
    ['trailing comma in an array', '[1, 2, ]', 'syntax 1:6 trailing comma is not allowed in JSON'],
    ['line comment', '{\n  // note\n  "a": 1\n}', 'syntax 2:3 comments are not allowed in JSON'],
    ['block comment', '{"a": 1 /* note */}', 'syntax 1:9 comments are not allowed in JSON'],
    [
      'unterminated string at end of file',
      '{\n  "a": "abc',
      'syntax 2:8 unterminated string: no closing quote before the end of the file',
    ],
    [
      'line break in a string',
      '{"a": "ab\ncd"}',
      'syntax 1:10 unterminated string: a line break cannot appear inside a JSON string (write \\n)',
    ],
    [
      'invalid escape',
      '{"a": "x\\qy"}',
      "syntax 1:9 invalid escape '\\q' in string; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
    ],
    [
      'short unicode escape',
      '{"a": "\\u12G4"}',
      'syntax 1:8 invalid unicode escape: \\u must be followed by four hex digits',
    ],
    [
      'raw tab in a string',
      '{"a": "x\ty"}',
      'syntax 1:9 control character U+0009 must be escaped in a JSON string (write \\t)',
    ],
    ['raw NUL in a string', '{"a": "\u0000"}', 'syntax 1:8 control character U+0000 must be escaped in a JSON string'],
    ['leading zeros', '{"a": 007}', 'syntax 1:7 leading zeros are not allowed in numbers'],
    ['negative leading zero', '[-01]', 'syntax 1:3 leading zeros are not allowed in numbers'],
    ['minus without digits', '{"a": -x}', "syntax 1:8 expected a digit after '-'"],
    ['decimal point without digits', '{"a": 1.}', 'syntax 1:9 expected a digit after the decimal point'],
    ['exponent without digits', '{"a": 1e+}', 'syntax 1:10 expected a digit in the exponent'],
    ['plus sign', '{"a": +1}', "syntax 1:7 a number cannot start with '+'"],
    ['bare decimal point', '{"a": .5}', 'syntax 1:7 a number needs a digit before the decimal point'],
    ['NaN', '{"a": NaN}', 'syntax 1:7 NaN is not a JSON number'],
    ['Infinity', '[Infinity]', 'syntax 1:2 Infinity is not a JSON number'],
    ['capitalised literal', '{"a": True}', 'syntax 1:7 JSON literals are lower case: write true, not True'],
    ['undefined', '{"a": undefined}', 'syntax 1:7 undefined is not a JSON value; use null'],
    ['bare word', '{"a": hello}', 'syntax 1:7 unexpected "hello"; strings must be in double quotes'],
    ['single-quoted string', '{"a": \'x\'}', 'syntax 1:7 strings must use double quotes, not single quotes'],
    ['single-quoted key', "{'a': 1}", 'syntax 1:2 property names must use double quotes, not single quotes'],
    ['unquoted key', '{\n  name: 1\n}', 'syntax 2:3 property names must be in double quotes: "name"'],
    ['missing colon', '{"a" 1}', "syntax 1:6 expected ':' after property name"],
    ['missing value', '{"a":,}', "syntax 1:6 expected a value, found ','"],
    ['content after the value', '{"a": 1}}', 'syntax 1:9 unexpected content after the JSON value'],
    ['end of file after a colon', '{"a": ', 'syntax 1:7 unexpected end of file; expected a value'],
    ['end of file after a key', '{"a"', "syntax 1:5 unexpected end of file; expected ':' after property name"],
    ['end of file after a comma', '{"a": 1,', 'syntax 1:9 unexpected end of file; expected a property name'],
    [
      'unclosed object',
      '{\n  "a": {\n    "b": 1\n',
      "syntax 4:1 unexpected end of file: expected ',' or '}' after property value (the object opened on line 2 is not closed)",
    ],
    ['empty text', '', 'syntax 1:1 unexpected end of file; expected a value'],
    [
      'no-break space',
      '\u00a0{}',
      'syntax 1:1 expected a value, found the character U+00A0 (only spaces, tabs and line breaks may separate JSON tokens)',
    ],
    [
      'byte order mark left in the text',
      '\ufeff{}',
      'syntax 1:1 expected a value, found the character U+FEFF (only spaces, tabs and line breaks may separate JSON tokens)',
    ],
  ];

  it.each(cases)('%s', (_name, text, expected) => {
    expect(only(text)).toBe(expected);
  });

  it('reports the full diagnostic shape and no document', () => {
    const { document, diagnostics } = parse('{\n  "model": {\n    "id": "x",\n  }\n}');
    expect(document).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        code: 'agent_definition_invalid',
        rule: 'syntax',
        severity: 'error',
        path: '/model',
        file: FILE,
        line: 3,
        column: 14,
        message: 'trailing comma is not allowed in JSON',
        suggestion: parseHelp('syntax', 'json'),
      },
    ]);
  });

  it('stops at the first syntax error', () => {
    expect(parseJson('{"a": 01, "b": 02, "c": }', FILE).diagnostics).toHaveLength(1);
  });
});

describe('duplicate keys', () => {
  const text = ['{', '  "name": "a",', '  "nested": { "k": 1, "k": 2 },', '  "name": "b"', '}'].join('\n');

  it('reports the second key with the line of the first', () => {
    const { diagnostics } = parse(text);
    expect(diagnostics.map((d) => [d.rule, d.path, d.line, d.column, d.message])).toEqual([
      ['duplicate-key', '/nested/k', 3, 23, 'duplicate key "k" (first defined on line 3)'],
      ['duplicate-key', '/name', 4, 3, 'duplicate key "name" (first defined on line 2)'],
    ]);
    expect(diagnostics.every((d) => d.code === 'agent_definition_invalid' && d.severity === 'error')).toBe(true);
  });

  it('gives no document, though the parser still builds the value', () => {
    expect(parse(text).document).toBeUndefined();
    expect(parseJson(text, FILE).value).toEqual({ name: 'b', nested: { k: 2 } });
  });

  it('keeps duplicates found before a syntax error', () => {
    const { diagnostics } = parseJson('{"a": 1, "a": 2,}', FILE);
    expect(diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual(['duplicate-key 1:10', 'syntax 1:16']);
  });

  it('compares keys after unescaping', () => {
    expect(only('{"a": 1, "\\u0061": 2}')).toBe('duplicate-key 1:10 duplicate key "a" (first defined on line 1)');
  });
});

describe('prototype keys', () => {
  const text = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "prototype": 1}';

  it('keeps __proto__, constructor and prototype as own data without polluting anything', () => {
    const doc = documentOf(text);
    const value = doc.value as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(getAtPointer(value, '/constructor/prototype/polluted')).toBe(true);
    expect(doc.locate('/__proto__/polluted')).toEqual({ line: 1, column: 28 });
  });

  it('builds every nested object without a prototype', () => {
    const value = parseJson('{"a": {"b": [{"c": {}}]}}', FILE).value;
    for (const pointer of ['', '/a', '/a/b/0', '/a/b/0/c'])
      expect(Object.getPrototypeOf(getAtPointer(value, pointer))).toBeNull();
  });
});

describe('nesting depth', () => {
  it('turns 1,000,000 open brackets into one diagnostic, quickly', () => {
    const { value: parsed, cpuMs } = cpuTimeOf(() => parseJson('['.repeat(1_000_000), FILE));
    const { value, diagnostics } = parsed;
    expect(cpuMs).toBeLessThan(2000);
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      rule: 'nesting-depth',
      line: 1,
      column: 257,
      message: 'nesting deeper than 256 levels',
    });
  });

  it('allows 256 levels and refuses 257', () => {
    expect(parseJson('['.repeat(256) + ']'.repeat(256), FILE).diagnostics).toEqual([]);
    expect(parseJson('['.repeat(257) + ']'.repeat(257), FILE).diagnostics[0]?.rule).toBe('nesting-depth');
    expect(parseJson('{"a":'.repeat(300) + '1' + '}'.repeat(300), FILE).diagnostics[0]).toMatchObject({
      rule: 'nesting-depth',
      column: 5 * 256 + 1,
    });
  });

  it('takes a lower limit as an option', () => {
    expect(parseJson('[[[]]]', FILE, { maxDepth: 2 }).diagnostics[0]).toMatchObject({
      rule: 'nesting-depth',
      column: 3,
      path: '/0/0',
    });
  });
});

describe('the top level', () => {
  it.each([
    ['[]', 'an array'],
    ['"agent"', 'a string'],
    ['42', 'a number'],
    ['null', 'null'],
  ])('refuses %s at 1:1', (text, found) => {
    const { document, diagnostics } = parse(text);
    expect(document).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        rule: 'not-an-object',
        path: '',
        line: 1,
        column: 1,
        message: `an AgentDefinition must be an object, but this file holds ${found}`,
      }),
    ]);
  });
});

describe('definitionFormat', () => {
  it('maps extensions to formats', () => {
    expect(definitionFormat('a/agent.json')).toBe('json');
    expect(definitionFormat('a/agent.yaml')).toBe('yaml');
    expect(definitionFormat('a/agent.YML')).toBe('yaml');
    expect(definitionFormat('a/agent.toml')).toBeUndefined();
    expect(definitionFormat('json')).toBeUndefined();
  });
});

/** Every pointer in a JSON value, with the value there and the member's key, if any. */
function* entries(value: unknown, pointer = '', key?: string): Generator<[string, unknown, string | undefined]> {
  yield [pointer, value, key];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* entries(item, joinPointer(pointer, i));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, item] of Object.entries(value)) yield* entries(item, joinPointer(pointer, k), k);
  }
}

describe('against JSON.parse (property)', () => {
  it('parses JSON.stringify output to the same value, with every pointer at the start of its text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (generated) => {
        const text = JSON.stringify(generated, null, 2);
        const expected = JSON.parse(text) as unknown;
        const { value, valueAt, keyAt, diagnostics } = parseJson(text, FILE);
        expect(diagnostics).toEqual([]);
        expect(value).toEqual(expected);
        let count = 0;
        for (const [pointer, item, key] of entries(expected)) {
          count++;
          const at = valueAt.get(pointer);
          if (at === undefined) throw new Error(`no offset for ${pointer}`);
          if (Array.isArray(item)) expect(text[at]).toBe('[');
          else if (typeof item === 'object' && item !== null) expect(text[at]).toBe('{');
          else expect(text.startsWith(JSON.stringify(item), at)).toBe(true);
          if (key !== undefined) expect(text.startsWith(JSON.stringify(key), keyAt.get(pointer) ?? -1)).toBe(true);
        }
        expect(valueAt.size).toBe(count);
      }),
      { numRuns: 300 },
    );
  });

  it('locates every member of an object at the line and column of its text', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (generated) => {
        const text = JSON.stringify(generated, null, 2);
        const doc = documentOf(text);
        const { valueAt } = parseJson(text, FILE);
        for (const [pointer] of entries(JSON.parse(text))) {
          const offset = valueAt.get(pointer) ?? -1;
          const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
          expect(doc.locate(pointer)).toEqual({
            line: text.slice(0, offset).split('\n').length,
            column: offset - lineStart + 1,
          });
        }
      }),
      { numRuns: 100 },
    );
  });
});
