/**
 * The executor schemas name targets only through texts derived from the target table
 * (plugin/targets/schema-texts.ts, written by `npm run generate`): the committed files hold exactly
 * those texts, and the writer replaces a description in place, keeping everything else.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executorSchemaTexts, withSchemaTexts } from '../plugin/targets/schema-texts';
import { COMPILE_TARGETS } from '../plugin/targets/targets';

const root = join(__dirname, '..');

describe('executor schema texts', () => {
  it('the committed schemas hold the texts the target table gives (run npm run generate after changing it)', () => {
    const texts = executorSchemaTexts();
    for (const file of new Set(texts.map((t) => t.file))) {
      const committed = readFileSync(join(root, file), 'utf8');
      expect(withSchemaTexts(file, committed, texts), file).toBe(committed);
    }
  });

  it('names every target in the compile target option, and only the options of a schema change', () => {
    const compile = executorSchemaTexts().find((t) => t.option === 'target')!;
    for (const id of COMPILE_TARGETS) expect(compile.description).toContain(id);
    const text =
      '{\n  "description": "top",\n  "properties": {\n    "target": { "default": "auto", "description": "old \\"quoted\\"" },\n    "other": { "description": "kept" }\n  }\n}\n';
    const out = withSchemaTexts('executors/compile/schema.json', text, [
      compile,
      { file: 'elsewhere.json', option: 'other', description: 'not this file' },
    ]);
    expect(JSON.parse(out)).toEqual({
      description: 'top',
      properties: { target: { default: 'auto', description: compile.description }, other: { description: 'kept' } },
    });
    expect(() => withSchemaTexts('x.json', '{}', [{ file: 'x.json', option: 'gone', description: 'd' }])).toThrow(
      'x.json has no option "gone"',
    );
  });
});
