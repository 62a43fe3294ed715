/**
 * Unknown-field diagnostics: a field unknown to a nested object lists that object's own fields
 * (not the top level's) and suggests the nearest name; `samplingParams` is closed, so a misspelled
 * parameter is an error with a suggestion; every shipped example still validates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExamples } from './__test-support__/definition-mutations';
import { validateDefinitionSource } from './validate-definition';
import { allowedFieldsAt } from './schema-location';
import schema from '../schema/agent-definition.v1.schema.json';

const repoRoot = join(__dirname, '..', '..');
const fallbackWriter = readFileSync(join(repoRoot, 'examples', 'fallback-writer', 'agent.json'), 'utf8');

function errorsOf(text: string) {
  return validateDefinitionSource(text, 'w/agent.json', 'json').diagnostics.filter((d) => d.severity === 'error');
}

describe('unknown fields', () => {
  it('lists the nested object’s own fields and suggests the nearest one', () => {
    const text = fallbackWriter.replace('"versionSemver"', '"versionSmever"');
    const errors = errorsOf(text);
    // One mistake, one diagnostic: the unknown field stands for the now missing `versionSemver` of the same object.
    expect(errors.map((d) => d.path)).toEqual(['/identity/versionSmever']);
    const error = errors.find((d) => d.path === '/identity/versionSmever');
    expect(error).toMatchObject({
      rule: 'schema',
      path: '/identity/versionSmever',
      message:
        'unknown field `versionSmever` in `/identity`: did you mean `versionSemver`? (`versionSemver` is required and missing)',
    });
    expect(error!.suggestion).toBe(
      'rename `versionSmever` to `versionSemver`; `/identity` allows: id, slug, name, versionSemver, versionId, owner, signingKeyRef, kymRef, nandaFactsRef',
    );
    expect(error!.suggestion).not.toContain('capabilityContract');
  });

  it('makes a misspelled sampling parameter an error that suggests the real one', () => {
    const text = fallbackWriter.replace('"temperature"', '"temprature"');
    const errors = errorsOf(text);
    expect(errors.map((d) => [d.path, d.message])).toEqual([
      ['/modelSet/0/samplingParams/temprature', 'unknown field `temprature` in `/modelSet/0/samplingParams`'],
    ]);
    expect(errors[0]!.suggestion).toMatch(
      /^did you mean `temperature`\? `\/modelSet\/0\/samplingParams` allows: temperature, topP, topK, maxTokens, seed, stop, /,
    );
    const line = text.split('\n').findIndex((l) => l.includes('"temprature"')) + 1;
    expect([errors[0]!.line, errors[0]!.column]).toEqual([
      line,
      text.split('\n')[line - 1]!.indexOf('"temprature"') + 1,
    ]);
  });

  it('lists a branch’s fields inside a oneOf (a binding picked by its kind)', () => {
    const example = loadExamples().find((e) => JSON.stringify(e.value).includes('"bindings":[{'));
    expect(example).toBeDefined();
    const bindings = (example!.value as { runtimeRequirements: { bindings: { kind: string }[] } }).runtimeRequirements
      .bindings;
    const fields = allowedFieldsAt(schema, example!.value, '/runtimeRequirements/bindings/0');
    expect(fields).toContain('kind');
    expect(fields.length).toBeGreaterThan(1);
    expect(allowedFieldsAt(schema, example!.value, '')).toContain('identity');
    expect(bindings[0]!.kind).toBeTypeOf('string');
  });

  it('still accepts every shipped example (provider extras such as num_ctx are named in the schema)', () => {
    for (const example of loadExamples()) {
      const text = readFileSync(join(repoRoot, example.file), 'utf8');
      const result = validateDefinitionSource(text, example.file, example.file.endsWith('.json') ? 'json' : 'yaml');
      expect(
        result.diagnostics.filter((d) => d.rule === 'schema'),
        example.file,
      ).toEqual([]);
    }
  });
});
