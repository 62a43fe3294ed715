// Regenerates every file derived from the JSON Schemas (types, standalone validators, docs).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { generateSchemaArtifacts, root } from './schema-artifacts.mjs';

const files = await generateSchemaArtifacts();
for (const [rel, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
  console.log(`wrote ${rel}`);
}
