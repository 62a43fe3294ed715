// For the README's main job: two replicas of one agent sharing their A2A tasks in PostgreSQL.
// A PostgreSQL server is started in a scratch folder (initdb and pg_ctl, as the tests start it:
// e2e/support/postgres-server.ts), then two real `agentdef run <hb3 output> --serve --task-store
// secret:TASK_STORE_URL` processes (the connection string in AGENTDEF_SECRET_TASK_STORE_URL, never
// on a command line), the model replayed from examples/recordings/fallback-writer. A task is sent
// to the first replica with `agentdef ask`, then read (GetTask) and listed (ListTasks) through the
// second, which never ran it. Everything they printed is searched for the connection string.
//
//   node scripts/run-replicas-example.mjs dist/hb3/fallback-writer
//
// Needs PostgreSQL's server programs (initdb, pg_ctl) on this machine; without them it says so and
// exits 1.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const output = process.argv[2] ?? 'dist/hb3/fallback-writer';
const QUESTION = JSON.stringify({
  path: 'config.ts',
  source: 'parseConfig(raw);\n',
  instruction: 'add a null check before the call to parseConfig',
});

const require = createRequire(import.meta.url);
process.env.SWC_NODE_PROJECT ||= join(root, 'tsconfig.json');
require('@swc-node/register');
const { startPostgres } = require('../e2e/support/postgres-server.ts');

const scratch = mkdtempSync(join(tmpdir(), 'agentdef-replicas-'));
const home = join(scratch, 'home');
mkdirSync(home, { recursive: true });
const printed = [];
const children = [];

function baseEnv(extra) {
  return {
    PATH: process.env.PATH ?? '',
    ...(process.env.SWC_NODE_PROJECT ? { SWC_NODE_PROJECT: process.env.SWC_NODE_PROJECT } : {}),
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENTDEF_KEYCHAIN: 'off',
    ...extra,
  };
}

/** Starts `agentdef run … --serve` and resolves with the URL it serves at. */
function startReplica(name, env) {
  const child = spawn(
    process.execPath,
    [
      cli,
      'run',
      output,
      '--serve',
      '--port',
      '0',
      '--task-store',
      'secret:TASK_STORE_URL',
      '--receipts',
      join(scratch, `${name}-receipts.jsonl`),
      '--replay',
      'examples/recordings/fallback-writer',
    ],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    const look = (chunk) => {
      text += chunk.toString();
      printed.push(chunk.toString());
      const found = / serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
      if (found) resolve(found[1]);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('close', (code) => reject(new Error(`replica ${name} exited (${code}) before serving:\n${text}`)));
  });
}

function runCli(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.once('close', (code) => {
      printed.push(out);
      resolve({ code, out });
    });
  });
}

async function rpc(url, method, params) {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return response.json();
}

let server;
let failed = false;
try {
  server = await startPostgres(join(scratch, 'pg'));
  const url = await server.database('replicas');
  const { privateKey } = generateKeyPairSync('ed25519');
  const receiptKey = JSON.stringify(privateKey.export({ format: 'jwk' }));
  const env = baseEnv({ AGENTDEF_SECRET_TASK_STORE_URL: url, AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: receiptKey });
  const [first, second] = await Promise.all([startReplica('a', env), startReplica('b', env)]);
  process.stdout.write(`PostgreSQL 127.0.0.1:${server.port} (started in a scratch folder)\n`);
  process.stdout.write(`replica A ${first}/  replica B ${second}/  (both: --task-store secret:TASK_STORE_URL)\n`);

  const asked = await runCli(['ask', first, QUESTION], env);
  const taskId = /task:?\s+(\S+)/i.exec(asked.out)?.[1] ?? /"id":"([^"]+)"/.exec(asked.out)?.[1];
  const listed = await rpc(second, 'ListTasks', { pageSize: 10 });
  const ids = (listed.result?.tasks ?? []).map((task) => task.id);
  const id = taskId && ids.includes(taskId) ? taskId : ids[0];
  const read = id ? await rpc(second, 'GetTask', { id }) : undefined;
  const rows = [
    ['STEP', 'REPLICA', 'RESULT'],
    [
      'agentdef ask (SendMessage)',
      'A',
      asked.code === 0 ? `task ${id ?? '?'} answered` : `failed (exit ${asked.code})`,
    ],
    ['ListTasks', 'B', `${ids.length} task(s): ${ids.join(', ') || 'none'}`],
    ['GetTask', 'B', read?.result ? `${read.result.status?.state}` : `error ${JSON.stringify(read?.error)}`],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const row of rows)
    process.stdout.write(
      `${row
        .map((c, i) => String(c).padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
  const leaked = printed.some((text) => text.includes(url) || text.includes(server.password));
  process.stdout.write(`connection string in any output: ${leaked ? 'YES (a defect)' : 'no'}\n`);
  failed = asked.code !== 0 || read?.result?.status?.state !== 'TASK_STATE_COMPLETED' || leaked;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  failed = true;
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) => (child.exitCode === null ? new Promise((r) => child.once('close', r)) : 0)),
  );
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
