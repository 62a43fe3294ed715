#!/usr/bin/env node
// The main job's OASF step: `agentdef export oasf` for every example agent (each record is
// validated against the copied OASF definitions before it is printed), then one table of what
// each record says: the OASF skills and domains its skills map to, and its modules.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const examples = process.argv[2] ?? 'examples';

const definitions = [];
for (const entry of readdirSync(join(root, examples), { withFileTypes: true }).sort((a, b) =>
  a.name.localeCompare(b.name),
)) {
  if (!entry.isDirectory()) continue;
  for (const name of ['agent.json', 'agent.yaml', 'agent.yml'])
    if (existsSync(join(root, examples, entry.name, name))) definitions.push(join(examples, entry.name, name));
}

const rows = [['AGENT', 'OASF SKILLS', 'DOMAINS', 'MODULES']];
const schemaVersions = new Set();
let failed = 0;
for (const definition of definitions) {
  const run = spawnSync(process.execPath, [cli, 'export', 'oasf', definition], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) {
    failed++;
    process.stderr.write(`${definition}: agentdef export oasf exited ${run.status}\n${run.stderr}`);
    continue;
  }
  const record = JSON.parse(run.stdout);
  schemaVersions.add(record.schema_version);
  const ids = (list) => (list ?? []).map((e) => `${e.id} ${e.name.split('/').pop()}`).join(', ');
  rows.push([
    `${record.annotations['agentdef.slug']}@${record.version}`,
    ids(record.skills),
    ids(record.domains),
    (record.modules ?? []).map((m) => m.name).join(', ') || '-',
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
process.stdout.write(
  `${rows
    .map((r) =>
      r
        .map((cell, i) => String(cell).padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`,
);
process.stdout.write(
  `${rows.length - 1} OASF records exported, each validated against the OASF ${[...schemaVersions].join(', ')} definitions\n`,
);
process.exit(failed === 0 ? 0 : 1);
