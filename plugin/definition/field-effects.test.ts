/**
 * No field that changes nothing: every field of the AgentDefinition schema is either acted on by
 * the compiler, a target, the runtime or a validation rule (plugin/definition/field-effects.json
 * names the file and a token that must occur in it, so removing the code fails this test), or is
 * metadata with no runtime effect, listed with the reason in docs/reference/agent-definition.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import schema from '../schema/agent-definition.v1.schema.json';
import { codeWithoutComments } from './__test-support__/code-without-comments';
import effectsTable from './field-effects.json';
import { schemaFieldPaths } from './schema-field-paths';

const ROOT = join(__dirname, '..', '..');
const TABLE = 'plugin/definition/field-effects.json';
const REFERENCE = 'docs/reference/agent-definition.md';

interface Read {
  file: string;
  token: string;
}
type Effect = { reads: Read[]; metadata?: undefined } | { metadata: string; reads?: undefined };

const fields = effectsTable.fields as Record<string, Effect>;
const paths = schemaFieldPaths(schema as Record<string, unknown>);

describe('field effects', () => {
  it('walks every field of the schema, nested $defs, arrays and binding kinds included', () => {
    for (const path of [
      '/identity/slug',
      '/identity/owner/kind',
      '/modelSet/*/tier',
      '/modelSet/*/samplingParams/topK',
      '/runtimeRequirements/limits/cpuMs',
      '/memoryContract/refs/*/retention',
      '/runtimeRequirements/bindings/*/namespaceId',
      '/runtimeRequirements/bindings/*/ref',
      '/composition/edges/*/condition/equals',
      '/metadata/notes',
    ])
      expect(paths, path).toContain(path);
    expect(paths.length).toBeGreaterThan(100);
  });

  it('gives every schema field an entry', () => {
    const missing = paths
      .filter((path) => fields[path] === undefined)
      .map(
        (path) =>
          `${path}: no entry in ${TABLE}. Make the compiler or runtime act on it and add { "reads": [{ "file", "token" }] }, ` +
          `or add { "metadata": "<why it has no runtime effect>" } and run \`npm run generate\`, or refuse it with a rule in plugin/definition/rules/`,
      );
    expect(missing).toEqual([]);
  });

  it('names only fields the schema has', () => {
    const known = new Set(paths);
    expect(Object.keys(fields).filter((path) => !known.has(path))).toEqual([]);
  });

  it('says of each field either where it is read or why it is metadata, never both', () => {
    const bad = Object.entries(fields).filter(([, effect]) => {
      if (effect.reads !== undefined) return effect.metadata !== undefined || effect.reads.length === 0;
      return typeof effect.metadata !== 'string' || effect.metadata.length < 40;
    });
    expect(bad.map(([path]) => path)).toEqual([]);
  });

  it('finds each token where its field is said to be read, in the code (not a comment) of source that ships', () => {
    const problems: string[] = [];
    const codes = new Map<string, string>();
    const codeOf = (file: string, absolute: string) => {
      if (!codes.has(file)) codes.set(file, codeWithoutComments(file, readFileSync(absolute, 'utf8')));
      return codes.get(file)!;
    };
    for (const [path, effect] of Object.entries(fields)) {
      for (const { file, token } of effect.reads ?? []) {
        if (!/^(plugin|executors|generators)\/.+\.ts$/.test(file) || /\.test\.ts$|__test|test-support/.test(file)) {
          problems.push(`${path}: ${file} is not shipped source (plugin/, executors/ or generators/, no tests)`);
          continue;
        }
        const absolute = join(ROOT, file);
        if (!existsSync(absolute)) {
          problems.push(`${path}: ${file} does not exist`);
          continue;
        }
        if (token.trim().length < 4)
          problems.push(`${path}: token ${JSON.stringify(token)} is too short to mean anything`);
        else if (!codeOf(file, absolute).includes(token))
          problems.push(
            `${path}: ${file} has no ${JSON.stringify(token)} outside comments; point the entry at the code that reads the field, or make it metadata`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists every metadata field, with its reason, in the reference', () => {
    const reference = readFileSync(join(ROOT, REFERENCE), 'utf8');
    const section = reference.split('## Fields with no runtime effect')[1]?.split('\n## ')[0] ?? '';
    const missing = Object.entries(fields)
      .filter(([, effect]) => effect.metadata !== undefined)
      .filter(([path, effect]) => !section.includes(`| \`${path}\` | ${effect.metadata!.replace(/\|/g, '\\|')} |`))
      .map(([path]) => `${path}: no row in ${REFERENCE} "Fields with no runtime effect" (run \`npm run generate\`)`);
    expect(missing).toEqual([]);
    expect(section).not.toBe('');
  });
});
