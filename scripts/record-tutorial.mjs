// Regenerates recordings/your-first-agent, the model recording docs/your-first-agent.md replays,
// by running every step of the page with `--record` against a scripted stand-in for Anthropic's
// Messages API (see e2e/support/record-tutorial.ts). Like scripts/update-goldens.mjs:
//
//   node scripts/record-tutorial.mjs            re-record (after a change to the page, a generator or the runtime)
//   node scripts/record-tutorial.mjs --check    exit 1 and list what drifted, write nothing
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  ['-r', '@swc-node/register', join(root, 'e2e', 'support', 'record-tutorial.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SWC_NODE_PROJECT: process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.json') },
  },
);
process.exit(run.status ?? 1);
