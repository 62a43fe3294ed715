import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { generateSchemaArtifacts, root } from '../../scripts/schema-artifacts.mjs';

describe('files generated from the JSON Schema', () => {
  it('are up to date (run `npm run generate` after changing the schema)', async () => {
    const files = (await generateSchemaArtifacts()) as Record<string, string>;
    expect(Object.keys(files).sort()).toEqual([
      'docs/reference/agent-definition.md',
      'plugin/schema/generated/agent-definition.types.ts',
      'plugin/schema/generated/agent-definition.validator.ts',
      'plugin/schema/generated/application-manifest.types.ts',
    ]);
    for (const [file, expected] of Object.entries(files)) {
      const committed = readFileSync(join(root as string, file), 'utf8');
      expect(committed, `${file} is stale`).toBe(expected);
    }
  });

  it('document every field of the schema', async () => {
    const schema = JSON.parse(readFileSync(join(root as string, 'plugin/schema/agent-definition.v1.schema.json'), 'utf8'));
    const doc = readFileSync(join(root as string, 'docs/reference/agent-definition.md'), 'utf8');
    const missing: string[] = [];
    const visit = (node: Record<string, any>, where: string) => {
      for (const [name, prop] of Object.entries<Record<string, any>>(node.properties ?? {})) {
        const target = prop.$ref ? schema.$defs[prop.$ref.split('/').pop()] : undefined;
        if (!prop.description && !target?.description) missing.push(`${where}.${name}: no description`);
        if (!doc.includes(`| \`${name}\` |`)) missing.push(`${where}.${name}: not in the reference`);
      }
      for (const branch of node.oneOf ?? []) visit(branch, `${where}/${branch.title}`);
    };
    visit(schema, 'AgentDefinition');
    for (const [name, def] of Object.entries<Record<string, any>>(schema.$defs)) visit(def, name);
    expect(missing).toEqual([]);
  });
});
