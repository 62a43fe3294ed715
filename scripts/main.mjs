// The main job: everything agentdef does, end to end, on the example agents.
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');

function step(title, command, args) {
  process.stdout.write(`\n== ${title}\n$ ${[command === process.execPath ? 'agentdef' : command, ...args.slice(command === process.execPath ? 1 : 0)].join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (result.status !== 0) {
    process.stderr.write(`\nmain job failed at: ${title}\n`);
    process.exit(result.status ?? 1);
  }
}

step('Validate every example definition', process.execPath, [cli, 'validate', 'examples']);
