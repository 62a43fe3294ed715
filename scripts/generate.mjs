// Regenerates every file derived from the JSON Schemas (types, standalone validators, docs).
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { generateSchemaArtifacts, root } from './schema-artifacts.mjs';

const files = await generateSchemaArtifacts();
for (const [rel, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
  console.log(`wrote ${rel}`);
}

// The executor schemas' texts that name targets, from the target table (TypeScript, through swc).
const targets = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', join(root, 'scripts', 'generate-target-texts.ts')],
  { cwd: root, stdio: 'inherit' },
);
if (targets.status !== 0) process.exit(targets.status ?? 1);
