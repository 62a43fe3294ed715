/**
 * Property tests over the validator: random mutations of every example definition, in JSON and
 * in YAML (values deleted, replaced by other types and hostile text, members inserted, deep
 * nesting, duplicate keys, huge numbers, cut or spliced text). The validator never throws, and
 * never accepts a document that the published schema (a plain Ajv compile, the oracle) forbids;
 * what it accepts, it can digest (nothing reaches the canonicaliser that it cannot encode).
 * Inputs that once crashed are kept below as regression cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestOf } from '../compiler/canonical-json';
import {
  damage,
  hostileString,
  loadExamples,
  mutate,
  mutation,
  replaceStringLeaf,
  schemaOracle,
  serialize,
  textDamage,
} from './__test-support__/definition-mutations';
import { validateDefinitionSource } from './validate-definition';

const examples = loadExamples();
const oracle = schemaOracle();

function check(text: string, format: 'json' | 'yaml'): void {
  let result: ReturnType<typeof validateDefinitionSource>;
  try {
    result = validateDefinitionSource(text, `agent.${format}`, format);
  } catch (error) {
    throw new Error(`validator threw on ${JSON.stringify(text.slice(0, 400))}: ${(error as Error).stack}`);
  }
  expect(Array.isArray(result.diagnostics)).toBe(true);
  for (const d of result.diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(typeof d.message).toBe('string');
  }
  if (result.valid) {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(oracle(result.document!.value), `accepted what the schema forbids: ${text.slice(0, 400)}`).toBe(true);
    expect(() => digestOf(result.definition)).not.toThrow();
  } else {
    expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  }
  // A parsed document the schema forbids is never valid.
  if (result.document && !oracle(result.document.value)) expect(result.valid).toBe(false);
}

describe('the validator under random mutations of every example', () => {
  it('has examples in both formats to mutate', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(examples.some((e) => e.file.endsWith('.yaml'))).toBe(true);
    for (const e of examples) expect(oracle(e.value), e.file).toBe(true);
  });

  for (const format of ['json', 'yaml'] as const) {
    it(`never throws and never accepts what the schema forbids (${format})`, () => {
      fc.assert(
        fc.property(
          fc.nat(),
          fc.array(mutation, { minLength: 1, maxLength: 3 }),
          textDamage,
          (pick, mutations, damaged) => {
            const example = examples[pick % examples.length]!;
            check(damage(serialize(mutate(example.value, mutations), format), format, damaged), format);
          },
        ),
        { numRuns: 250 },
      );
    });
  }
});

describe('hostile text in string fields (mostly still schema-valid documents)', () => {
  for (const format of ['json', 'yaml'] as const) {
    it(`accepts only what it can digest, and only what the schema allows (${format})`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(fc.nat(), fc.nat(), hostileString, (pick, at, text) => {
          const example = examples[pick % examples.length]!;
          const source = serialize(replaceStringLeaf(example.value, at, text), format);
          check(source, format);
          if (validateDefinitionSource(source, `agent.${format}`, format).valid) accepted++;
        }),
        { numRuns: 200 },
      );
      expect(accepted).toBeGreaterThan(10); // the property saw accepted documents, not only refusals
    });
  }
});

describe('regression inputs', () => {
  const base = examples.find((e) => e.file === 'examples/text-stats/agent.json')!.value as Record<string, any>;
  const withValue = (change: (d: Record<string, any>) => void) => {
    const copy = structuredClone(base);
    change(copy);
    return copy;
  };
  it.each([
    ['a lone surrogate in a description', withValue((d) => (d['metadata'].description = 'a\ud800b'))],
    ['a lone surrogate in a sampling parameter key', withValue((d) => (d['metadata'].tags = ['\udc00']))],
    [
      'a lone surrogate in an embedded schema key',
      withValue(
        (d) =>
          (d['capabilityContract'].skills = [{ id: 's', name: 's', description: 'd', inputSchema: { ['\ud800']: 1 } }]),
      ),
    ],
    ['a control character in the display name', withValue((d) => (d['identity'].name = 'x\u001b[2Jy'))],
    ['bidi overrides in a tag', withValue((d) => (d['metadata'].tags = ['\u202eevil']))],
  ])('%s: refused or accepted without a crash, in both formats', (_, value) => {
    for (const format of ['json', 'yaml'] as const) check(serialize(value, format), format);
  });

  it('a number beyond a double (1e99999) in a typed field is refused, not digested as Infinity', () => {
    const text = JSON.stringify(base).replace(/("cpuMs":\s*)\d+/, '$11e99999');
    expect(text).toContain('1e99999');
    check(text, 'json');
    expect(validateDefinitionSource(text, 'agent.json', 'json').valid).toBe(false);
  });

  it('a number beyond a double inside an embedded JSON Schema (found by this property: it passed the schema as Infinity and crashed the digest)', () => {
    const value = structuredClone(
      examples.find((e) => e.file === 'examples/code-search/agent.json')?.value ?? base,
    ) as Record<string, any>;
    value['capabilityContract'].skills[0].outputSchema = { type: 'object', properties: { share: 1 } };
    const text = JSON.stringify(value).replace('"share":1', '"share":1e99999');
    expect(text).toContain('1e99999');
    check(text, 'json');
    const result = validateDefinitionSource(text, 'agent.json', 'json');
    expect(result.diagnostics.map((d) => `${d.rule} ${d.path}`)).toEqual([
      'number-range /capabilityContract/skills/0/outputSchema/properties/share',
    ]);
    const yaml = validateDefinitionSource(
      serialize(value, 'yaml').replace('share: 1', 'share: 1e99999'),
      'agent.yaml',
      'yaml',
    );
    expect(yaml.valid).toBe(false);
    expect(yaml.diagnostics.map((d) => d.rule)).toEqual(['yaml-value']);
  });

  it('refuses the lone-surrogate definition that used to crash plan', () => {
    const text = JSON.stringify(withValue((d) => (d['metadata'].description = 'a\ud800b')));
    const result = validateDefinitionSource(text, 'agent.json', 'json');
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['unpaired-surrogate']);
  });
});
