/**
 * Where the schemas live (docs/decisions/0005-schema-location.md): each format's JSON Schema is one
 * file in this folder, `<format>.v<major>.schema.json`, whose `$id` is
 * `https://agentdef.dev/schema/<that file name>`; the package exports it as
 * `agentdef/schema/<that file name>` (scripts/build.mjs; e2e/package-exports.test.ts installs the
 * tarball and resolves each). The generated reference names the same `$id`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCHEMA_ID_BASE = 'https://agentdef.dev/schema/';
const FILE_NAME = /^[a-z][a-z0-9-]*\.v[1-9][0-9]*\.schema\.json$/;
const schemaFiles = readdirSync(__dirname).filter((name) => name.endsWith('.json'));
const read = (name: string) => JSON.parse(readFileSync(join(__dirname, name), 'utf8')) as Record<string, unknown>;

describe('the schemas', () => {
  it('include the AgentDefinition schema, at the path the scaffold points editors to', () => {
    expect(schemaFiles).toContain('agent-definition.v1.schema.json');
    const scaffold = readFileSync(join(__dirname, '..', 'definition', 'scaffold.ts'), 'utf8');
    expect(scaffold).toContain("'node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json'");
  });

  it.each(schemaFiles)(
    '%s is named <format>.v<major>.schema.json and its $id is the canonical URL of that name',
    (name) => {
      expect(name).toMatch(FILE_NAME);
      const schema = read(name);
      expect(schema['$id']).toBe(`${SCHEMA_ID_BASE}${name}`);
      expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    },
  );

  it('the AgentDefinition $id is the one the definition format version names', () => {
    const schema = read('agent-definition.v1.schema.json');
    const version = (schema['properties'] as { schemaVersion: { const: string } }).schemaVersion.const;
    expect(version).toBe('agent-definition/v1');
    expect(schema['$id']).toBe(`${SCHEMA_ID_BASE}${version.replace('/', '.')}.schema.json`);
  });

  it('the generated reference pages state the $id of the schema they come from', () => {
    const docs = join(__dirname, '..', '..', 'docs', 'reference');
    const generated = readdirSync(docs).filter(
      (page) => page.endsWith('.md') && readFileSync(join(docs, page), 'utf8').includes('by `npm run generate`'),
    );
    expect(generated).toContain('agent-definition.md');
    for (const page of generated) {
      const name = page.replace(/\.md$/, '.v1.schema.json');
      expect(schemaFiles, page).toContain(name);
      const text = readFileSync(join(docs, page), 'utf8');
      expect(text, page).toContain(`Generated from \`plugin/schema/${name}\``);
      expect(text, page).toContain(`Schema \`$id\`: \`${SCHEMA_ID_BASE}${name}\``);
    }
  });
});
