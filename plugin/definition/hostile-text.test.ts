/**
 * Hostile text in definitions, at the definition layer: YAML alias amplification by bytes,
 * unpaired surrogates in any string or property name (JSON and YAML, tools.json and registry
 * snapshots share the parser), control characters in identifiers, and printing diagnostics that
 * quote hostile text (nothing raw reaches a terminal; the caret still points at the character).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuTimeOf } from '../../e2e/support/cpu-time';
import { stringify } from 'yaml';
import { CanonicalJsonError, canonicalJson, digestOf } from '../compiler/canonical-json';
import type { Diagnostic } from './diagnostic';
import { formatDiagnostics, formatOne } from './format-diagnostics';
import { parseDefinitionText } from './parse-document';
import { MAX_ALIAS_EXPANSION_BYTES, parseYaml } from './parse-yaml';
import { terminalSafe, terminalSafeLine } from './terminal-text';
import { validateDefinitionSource } from './validate-definition';

const REPO = join(__dirname, '..', '..');
const example = (slug: string) =>
  JSON.parse(readFileSync(join(REPO, 'examples', slug, 'agent.json'), 'utf8')) as Record<string, any>;

/** Every character a terminal may act on: C0 but tab and newline, DEL, C1, line separators, bidi controls. */
const BEYOND_C0 = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const RAW_CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`);

describe('YAML aliases are bounded in bytes', () => {
  it('refuses one large scalar aliased thousands of times, at the alias, quickly', () => {
    const big = 'x'.repeat(1024 * 1024);
    const text = `big: &b "${big}"\nuses: [${Array(5000).fill('*b').join(', ')}]\n`;
    const { value: parsed, cpuMs } = cpuTimeOf(() => parseYaml(text, 'a.yaml'));
    const { value, diagnostics } = parsed;
    expect(cpuMs).toBeLessThan(3000);
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    // The fifth alias passes 4 MiB: line 2, the column of `*b` number 5.
    const column = 'uses: ['.length + 4 * '*b, '.length + 1;
    expect(diagnostics[0]).toMatchObject({ rule: 'yaml-alias', line: 2, column, path: '/uses/4' });
    expect(diagnostics[0]?.message).toContain('more than 4 MiB');
    expect(MAX_ALIAS_EXPANSION_BYTES).toBe(4 * 1024 * 1024);
  });

  it('counts aliases used as property names too', () => {
    const big = 'k'.repeat(1024 * 1024);
    const text = `k: &k "${big}"\n${Array.from({ length: 8 }, (_, i) => `m${i}: {*k : 1}`).join('\n')}\n`;
    const { diagnostics } = parseYaml(text, 'a.yaml');
    expect(diagnostics.map((d) => `${d.rule} ${d.line}`)).toEqual(['yaml-alias 6']);
  });

  it('counts property names inside aliased collections', () => {
    const key = 'q'.repeat(512 * 1024);
    const text = `a: &a {"${key}": 1}\n${Array.from({ length: 10 }, (_, i) => `b${i}: *a`).join('\n')}\n`;
    expect(parseYaml(text, 'a.yaml').diagnostics.map((d) => d.rule)).toEqual(['yaml-alias']);
  });

  it('still accepts sharing below the bound (a prompt used in a few places)', () => {
    const prompt = 'p'.repeat(200 * 1024);
    const text = `prompt: &p "${prompt}"\nuses: [*p, *p, *p, *p]\n`;
    const { value, diagnostics } = parseYaml(text, 'a.yaml');
    expect(diagnostics).toEqual([]);
    expect((value as { uses: string[] }).uses).toEqual([prompt, prompt, prompt, prompt]);
  });
});

describe('unpaired surrogates are refused, located, wherever they are', () => {
  const cases: [string, string, 'json' | 'yaml', string, number][] = [
    ['a high surrogate in a JSON value', '{\n  "a": {"b": "x\\ud800y"}\n}\n', 'json', '/a/b', 2],
    ['a low surrogate in a JSON value', '{"a": ["ok", "\\udc00"]}', 'json', '/a/1', 1],
    ['a surrogate in a JSON property name', '{\n  "a": {\n    "k\\udbff": 1}}', 'json', '/a/k\udbff', 3],
    ['a reversed pair', '{"a": "\\ude00\\ud83d"}', 'json', '/a', 1],
    ['a YAML double-quoted escape', 'a:\n  b: "x\\ud800"\n', 'yaml', '/a/b', 2],
    ['a YAML key', 'a:\n  "\\udc00": 1\n', 'yaml', '/a/\udc00', 2],
  ];
  it.each(cases)('%s', (_, text, format, path, line) => {
    const parsed = parseDefinitionText(text, `f.${format}`, format);
    expect(parsed.document).toBeUndefined();
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({ rule: 'unpaired-surrogate', severity: 'error', path, line }),
    ]);
    expect(parsed.diagnostics[0]?.message).toMatch(/unpaired UTF-16 surrogate \(\\u[0-9A-F]{4} at character \d+\)/);
  });

  it('accepts a proper pair and astral characters', () => {
    expect(parseDefinitionText('{"a": "\\ud83d\\ude00 😀"}', 'f.json', 'json').diagnostics).toEqual([]);
  });

  it('fails validation of a whole definition (so nothing reaches plan or compile)', () => {
    const definition = example('text-stats');
    definition['metadata'].description = 'ok \ud800 not ok';
    const result = validateDefinitionSource(JSON.stringify(definition, null, 2), 'agent.json', 'json');
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => `${d.rule} ${d.path}`)).toEqual(['unpaired-surrogate /metadata/description']);
  });

  it('reports at most 20 in one file', () => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, '\ud800'])));
    expect(parseDefinitionText(text, 'f.json', 'json').diagnostics).toHaveLength(20);
  });
});

describe('the canonicaliser fails with a typed, located error', () => {
  it.each([
    [{ a: { b: ['x', 'y\ud800'] } }, '/a/b/1', 'unpaired'],
    [{ ['k\udc00']: 1 }, '/k\udc00', 'property name'],
    [{ a: Number.NaN }, '/a', 'NaN'],
    [{ a: [Number.POSITIVE_INFINITY] }, '/a/0', 'Infinity'],
  ])('%j', (value, pointer, reason) => {
    let caught: unknown;
    try {
      digestOf(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CanonicalJsonError);
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as CanonicalJsonError).pointer).toBe(pointer);
    expect((caught as CanonicalJsonError).message).toContain(reason);
  });

  it('reports a cycle', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(CanonicalJsonError);
  });
});

describe('control characters in identifiers, versions and model ids', () => {
  const hostile = [
    '\u001b]0;owned\u0007',
    '\u001b[2K',
    '\u009b31m',
    '\u202eevil',
    '\u2066x\u2069',
    'a\nb',
    'a\rb',
    'a\u0000b',
    'a\u007fb',
    'a\u2028b',
  ];

  it.each(hostile)('rejects %j in a model id, a model version, a skill id, a tag and the display name', (bad) => {
    const definition = example('splice-resolver');
    definition['modelSet'][0].modelId = `gpt${bad}`;
    definition['modelSet'][0].modelVersion = `2026${bad}`;
    definition['capabilityContract'].skills[0].id = `skill${bad}`;
    definition['metadata'].tags = [`tag${bad}`];
    definition['identity'].name = `Name ${bad}`;
    const result = validateDefinitionSource(JSON.stringify(definition, null, 2), 'agent.json', 'json');
    expect(result.valid).toBe(false);
    const flagged = result.diagnostics.filter((d) => d.rule === 'control-characters').map((d) => d.path);
    expect(flagged.sort()).toEqual([
      '/capabilityContract/skills/0/id',
      '/identity/name',
      '/metadata/tags/0',
      '/modelSet/0/modelId',
      '/modelSet/0/modelVersion',
    ]);
    // The printed report shows the character escaped, never raw.
    const printed = formatDiagnostics(result.diagnostics, {
      format: 'text',
      sources: new Map([['agent.json', result.document!.text]]),
    });
    expect(printed).not.toMatch(RAW_CONTROL);
  });

  it('leaves prose alone: line breaks and tabs in descriptions are fine', () => {
    const definition = example('splice-resolver');
    definition['metadata'].description = 'Resolves splices.\n\tSecond line.';
    const result = validateDefinitionSource(JSON.stringify(definition, null, 2), 'agent.json', 'json');
    expect(result.diagnostics.filter((d) => d.rule === 'control-characters')).toEqual([]);
  });
});

describe('printing hostile text', () => {
  const diagnostic = (over: Partial<Diagnostic>): Diagnostic => ({
    code: 'agent_definition_invalid',
    rule: 'schema',
    severity: 'error',
    path: '/a',
    file: 'agent.json',
    line: 1,
    column: 1,
    message: 'm',
    ...over,
  });

  it('escapes controls in the message, the suggestion, the file, the path and the source line', () => {
    const evil = '\u001b]0;pwned\u0007\u001b[2K\r\u009b1A\u202e';
    const source = `{"a": "${evil}", "b": 1}`;
    const column = source.indexOf('"b"') + 1;
    const printed = formatOne(
      diagnostic({
        message: `bad ${evil}`,
        suggestion: `fix ${evil}`,
        file: `dir${evil}/agent.json`,
        path: `/a${evil}`,
        column,
      }),
      source,
    );
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(printed).toContain('\\u001b]0;pwned\\u0007');
    expect(printed).toContain('\\u202e');
    // The caret sits under `"b"`, after the widened escapes.
    const lines = printed.split('\n');
    const excerpt = lines.find((l) => l.startsWith('1 | '))!;
    const caret = lines[lines.indexOf(excerpt) + 1]!;
    expect(excerpt.slice(caret.indexOf('^'))).toMatch(/^"b": 1/);
  });

  it('keeps the caret right in a long, truncated line', () => {
    const source = `${'\u001b'.repeat(300)}"target"${'y'.repeat(300)}`;
    const printed = formatOne(diagnostic({ column: 301 }), source);
    const lines = printed.split('\n');
    const excerpt = lines.find((l) => l.startsWith('1 | '))!;
    const caret = lines[lines.indexOf(excerpt) + 1]!;
    expect(excerpt.slice(caret.indexOf('^'))).toMatch(/^"target"/);
    expect(printed).not.toMatch(RAW_CONTROL);
  });

  it('keeps JSON output valid JSON with the same values', () => {
    const evil = 'x\u001b[31m\u009b\u202e\u2028y';
    const diagnostics = [diagnostic({ message: evil, path: `/${evil}` })];
    const printed = formatDiagnostics(diagnostics, { format: 'json', sources: new Map() });
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(printed).diagnostics[0].message).toBe(evil);
  });

  it('terminalSafe keeps newlines and tabs, terminalSafeLine escapes them, both leave ordinary text alone', () => {
    expect(terminalSafe('a\tb\nc\rd\u0085')).toBe('a\tb\nc\\u000dd\\u0085');
    expect(terminalSafeLine('a\tb\nc')).toBe('a\\u0009b\\u000ac');
    const ordinary = 'Grüße, 日本語, emoji 😀, arabic مرحبا';
    expect(terminalSafe(ordinary)).toBe(ordinary);
    expect(terminalSafe('lone \ud800')).toBe('lone \\ud800');
  });

  it('prints a YAML definition with a control character in a key without raw output', () => {
    const text = stringify({ identity: { ['sl\u001bug']: 'x' } });
    const result = validateDefinitionSource(text, 'agent.yaml', 'yaml');
    const printed = formatDiagnostics(result.diagnostics, { format: 'text', sources: new Map([['agent.yaml', text]]) });
    expect(result.valid).toBe(false);
    expect(printed).not.toMatch(RAW_CONTROL);
  });
});
