// Runs one HB3 job (splice-resolver) and one local launcher (local-notes) on this machine, asks
// each an A2A question with the @a2a-js/sdk client and prints the answers. No network and no model
// server: the models are replayed from examples/recordings (see e2e/cross-host/run-host-examples.ts).
//
//   node scripts/run-host-examples.mjs
//   node scripts/run-host-examples.mjs --hb3-out dist/agents/splice-resolver --local-out dist/agents/local-notes
//   node scripts/run-host-examples.mjs --record      records examples/recordings again, against scripted stand-ins
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', join(root, 'e2e', 'cross-host', 'run-host-examples.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
