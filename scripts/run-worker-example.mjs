// Starts one compiled example agent in workerd (through its loader and a Worker Loader binding),
// sends it an A2A message with the @a2a-js/sdk client and prints the answer. No network: an
// agentic example gets a stub model provider on 127.0.0.1.
//
//   node scripts/run-worker-example.mjs text-digest
//   node scripts/run-worker-example.mjs text-stats "How long is this?" --out dist/agents/text-stats
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', join(root, 'e2e', 'worker', 'run-compiled-worker.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
