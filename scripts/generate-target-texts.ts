// Writes the executor schemas' target texts (plugin/targets/schema-texts.ts) into their files.
// Run by `npm run generate`; executors/executor-schema-texts.test.ts holds the files equal to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { executorSchemaTexts, withSchemaTexts } from '../plugin/targets/schema-texts';

const root = join(__dirname, '..');
const texts = executorSchemaTexts();
for (const file of [...new Set(texts.map((t) => t.file))]) {
  const path = join(root, file);
  const before = readFileSync(path, 'utf8');
  const after = withSchemaTexts(file, before, texts);
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`wrote ${file}`);
  }
}
