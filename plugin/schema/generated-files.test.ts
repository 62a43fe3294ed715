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
      'docs/reference/application-manifest.md',
      'docs/reference/application-plan.md',
      'docs/reference/component-pack.md',
      'docs/reference/eval-cases.md',
      'plugin/schema/generated/agent-definition.types.ts',
      'plugin/schema/generated/agent-definition.validator.ts',
      'plugin/schema/generated/agent-definition.words.ts',
      'plugin/schema/generated/application-manifest.types.ts',
      'plugin/schema/generated/application-plan.types.ts',
      'plugin/schema/generated/component-pack.types.ts',
      'plugin/schema/generated/eval-cases.types.ts',
      'plugin/schema/generated/eval-cases.validator.ts',
      'plugin/schema/generated/eval-receipt.types.ts',
      'plugin/schema/generated/tool-benchmark-events.types.ts',
    ]);
    for (const [file, expected] of Object.entries(files)) {
      const committed = readFileSync(join(root as string, file), 'utf8');
      expect(committed, `${file} is stale`).toBe(expected);
    }
  });

  const documented = [
    ['agent-definition', 'AgentDefinition'],
    ['application-manifest', 'ApplicationManifest'],
    ['application-plan', 'ApplicationPlan'],
    ['component-pack', 'ComponentPack'],
    ['eval-cases', 'EvalCases'],
  ];
  it.each(documented)('document every field of the %s schema', async (name, title) => {
    const schema = JSON.parse(readFileSync(join(root as string, `plugin/schema/${name}.v1.schema.json`), 'utf8'));
    const doc = readFileSync(join(root as string, `docs/reference/${name}.md`), 'utf8');
    const missing: string[] = [];
    const visit = (node: Record<string, any>, where: string) => {
      for (const [name, prop] of Object.entries<Record<string, any>>(node.properties ?? {})) {
        const target = prop.$ref ? schema.$defs[prop.$ref.split('/').pop()] : undefined;
        if (!prop.description && !target?.description) missing.push(`${where}.${name}: no description`);
        if (!doc.includes(`| \`${name}\` |`)) missing.push(`${where}.${name}: not in the reference`);
      }
      for (const branch of node.oneOf ?? []) visit(branch, `${where}/${branch.title}`);
    };
    visit(schema, title);
    for (const [defName, def] of Object.entries<Record<string, any>>(schema.$defs ?? {})) visit(def, defName);
    expect(missing).toEqual([]);
  });
});
