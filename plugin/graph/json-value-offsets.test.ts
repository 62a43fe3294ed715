/**
 * The scan that locates a summary's values agrees with the position-keeping parser: on every
 * example and fixture definition, on random documents written with random whitespace and escaped
 * property names, and on texts it cannot follow (then it says so instead of guessing).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../definition/parse-json';
import { parseDefinitionTextStrictly } from '../definition/parse-document';
import { jsonValueOffsets, type ValuePath } from './json-value-offsets';
import { summarizeDefinition } from './read-agent-summary';

const PATHS: readonly ValuePath[] = [
  ['identity', 'slug'],
  ['identity', 'id'],
  ['composition', 'nodes', '*'],
];

/** What the parser records for the pointers on PATHS (`*`: the elements of an array, not the members of an object). */
function parserOffsets(text: string): Map<string, number> {
  const parsed = parseJson(text, 'agent.json');
  const nodesIsArray = Array.isArray(
    (parsed.value as { composition?: { nodes?: unknown } } | undefined)?.composition?.nodes,
  );
  const wanted = nodesIsArray
    ? /^(\/identity\/slug|\/identity\/id|\/composition\/nodes\/\d+)$/
    : /^(\/identity\/slug|\/identity\/id)$/;
  return new Map([...parsed.valueAt].filter(([pointer]) => wanted.test(pointer)));
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const root = join(__dirname, '..', '..');
const definitionTexts = [
  ...jsonFilesUnder(join(root, 'examples')),
  ...jsonFilesUnder(join(root, 'e2e', 'fixtures')),
  ...jsonFilesUnder(join(root, 'plugin', 'compiler', '__fixtures__')),
]
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
  .filter(({ text }) => parseJson(text, 'agent.json').diagnostics.length === 0);

/** A definition-shaped document with random values around the located paths. */
const definitionValue = fc.record({
  schemaVersion: fc.constant('agent-definition/v1'),
  identity: fc.record(
    { slug: fc.oneof(fc.string(), fc.jsonValue()), id: fc.string(), versionSemver: fc.string() },
    { requiredKeys: [] },
  ),
  composition: fc.record(
    {
      kind: fc.constantFrom('dag', 'leaf'),
      nodes: fc.oneof(
        fc.array(fc.oneof(fc.record({ slug: fc.string(), version: fc.string() }), fc.jsonValue()), { maxLength: 5 }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
  metadata: fc.jsonValue(),
});

/** JSON text of `value` with random whitespace between tokens and random `\u` escapes in property names. */
function writeWithNoise(value: unknown, random: () => number): string {
  const space = () => [' ', '\n', '\r\n', '\t', '', '\r'][Math.floor(random() * 6)]!.repeat(Math.floor(random() * 3));
  const name = (key: string) =>
    random() < 0.3
      ? `"${[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(key);
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${space()}${v.map((e) => `${space()}${write(e)}${space()}`).join(',')}]`;
    if (v !== null && typeof v === 'object')
      return `{${space()}${Object.entries(v)
        .map(([k, e]) => `${space()}${name(k)}${space()}:${space()}${write(e)}${space()}`)
        .join(',')}}`;
    return JSON.stringify(v);
  };
  return `${space()}${write(value)}${space()}`;
}

describe('jsonValueOffsets', () => {
  it('gives the parser’s offsets on every example and fixture definition', () => {
    expect(definitionTexts.length).toBeGreaterThan(10);
    for (const { file, text } of definitionTexts) {
      expect(jsonValueOffsets(text, PATHS), file).toEqual(parserOffsets(text));
    }
  });

  it('gives the parser’s offsets on random documents, whitespace and escaped names', () => {
    fc.assert(
      fc.property(definitionValue, fc.integer(), (value, seed) => {
        let state = seed >>> 0;
        const random = () => {
          state = (state * 1664525 + 1013904223) >>> 0;
          return state / 4294967296;
        };
        const text = writeWithNoise(value, random);
        expect(jsonValueOffsets(text, PATHS)).toEqual(parserOffsets(text));
      }),
      { numRuns: 400 },
    );
  });

  it('says it cannot follow a text that is not whole JSON, and never throws', () => {
    const text = definitionTexts[0]!.text;
    for (const cut of [1, 10, Math.floor(text.length / 2), text.length - 2])
      expect(jsonValueOffsets(text.slice(0, cut), PATHS)).toBeUndefined();
    expect(jsonValueOffsets('{"identity": {"slug": "a"}} trailing', PATHS)).toBeUndefined();
    expect(jsonValueOffsets('{"identity": {"slug": "a\\"}', PATHS)).toBeUndefined();
    expect(jsonValueOffsets('{"identity": {"slug": "a"}}', PATHS)).toEqual(new Map([['/identity/slug', 22]]));
    expect(jsonValueOffsets('[1, 2]', PATHS)).toEqual(new Map());
  });
});

describe('summarizeDefinition positions', () => {
  it('are those the position-keeping parse gives, on every example and fixture definition', () => {
    for (const { file, text } of definitionTexts) {
      const strict = parseDefinitionTextStrictly(text, file, 'json').document;
      if (strict === undefined) continue;
      const summary = summarizeDefinition(text, file);
      if (summary.slugAt) expect(summary.slugAt, file).toEqual(strict.locate('/identity/slug'));
      if (summary.idAt) expect(summary.idAt, file).toEqual(strict.locate('/identity/id'));
      const nodes = (strict.value as { composition?: { nodes?: unknown[] } }).composition?.nodes;
      for (const pin of summary.pins) {
        const index = (nodes ?? []).findIndex(
          (node) =>
            (node as { slug?: unknown }).slug === pin.slug && (node as { version?: unknown }).version === pin.version,
        );
        expect(pin.line, file).toBe(strict.locate(`/composition/nodes/${index}`).line);
      }
    }
  });
});
