// Scores one example's eval cases as a user would with the CLI, for the main job's eval table:
// `agentdef eval <example folder>` compiles the agent, serves it through its target's host, asks
// every case of <folder>/evals over A2A, grades the model-graded assertions, prints the table and
// writes eval.json, junit.xml and the signed eval receipt; then `agentdef verify` checks the
// receipt. Offline: the example's models and its grader are replayed from <folder>/recordings
// (the folder `agentdef eval` replays by default; `node scripts/record-eval-examples.mjs` makes
// it against scripted stand-ins, not the real models). The signing key lives in a keys folder of
// this run and the host's receipt key is a fresh one (never the keychain, never $HOME), HOME and
// caches in a scratch folder; everything goes under dist/main-job-eval/, which this script owns
// and recreates on every run.
// Usage: node scripts/run-eval-example.mjs examples/support-triage
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const [folder] = process.argv.slice(2);
if (folder === undefined || !existsSync(join(root, folder, 'agent.json'))) {
  console.error('usage: node scripts/run-eval-example.mjs <example folder with an agent.json>');
  process.exit(2);
}
const rel = join('dist', 'main-job-eval');
const out = join(root, rel);
const marker = join(out, '.agentdef-main-job');
// Only a folder this script made (it holds the marker) is ever removed.
if (existsSync(out)) {
  if (!existsSync(marker)) {
    console.error(`${out} exists and was not made by this script; move it away first`);
    process.exit(2);
  }
  rmSync(out, { recursive: true, force: true });
}
mkdirSync(out, { recursive: true });
writeFileSync(marker, 'made by scripts/run-eval-example.mjs\n');
const scratch = join(out, 'scratch');

// No agentdef, provider or Nx variable of the caller's: no key, no live model, no recording mode.
const base = {};
for (const [name, value] of Object.entries(process.env))
  if (!/^(AGENTDEF_|ANTHROPIC_|OPENAI_|OLLAMA_|NX_|WRANGLER_|CLOUDFLARE_)/.test(name)) base[name] = value;
const receiptSecret = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
const env = {
  ...base,
  HOME: join(scratch, 'home'),
  XDG_CONFIG_HOME: join(scratch, 'home', '.config'),
  XDG_CACHE_HOME: join(scratch, 'home', '.cache'),
  XDG_STATE_HOME: join(scratch, 'home', '.local', 'state'),
  WRANGLER_LOG_PATH: join(scratch, 'wrangler-logs'),
  AGENTDEF_STATE_DIR: join(scratch, 'state'),
  AGENTDEF_KEYS_DIR: join(out, 'keys'),
  AGENTDEF_KEYCHAIN: 'off',
  AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: JSON.stringify(receiptSecret),
};

/** Everything agentdef printed, searched for the host's receipt key at the end. */
const printed = [];

/** Runs `agentdef <args>`, printing the command and its output; returns its exit code and stdout. */
function agentdef(args, { show = true } = {}) {
  if (show) process.stdout.write(`$ agentdef ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, encoding: 'utf8' });
  printed.push(result.stdout, result.stderr);
  if (show) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return { status: result.status, stdout: result.stdout };
}

function check(result, what) {
  if (result.status === 0) return result.stdout;
  console.error(`${what} failed (exit ${result.status})`);
  process.exit(result.status ?? 1);
}

const { signingKeyRef } = JSON.parse(readFileSync(join(root, folder, 'agent.json'), 'utf8')).identity;
check(agentdef(['keys', 'generate', signingKeyRef], { show: false }), 'agentdef keys generate');
const publicKey = join(rel, 'signing-key.public.jwk');
writeFileSync(
  join(root, publicKey),
  check(agentdef(['keys', 'export-public', signingKeyRef], { show: false }), 'agentdef keys export-public'),
);
const report = join(rel, 'report');
check(agentdef(['eval', folder, '--out', report]), 'agentdef eval');
check(agentdef(['verify', join(report, 'eval.receipt.json'), '--key', publicKey]), 'agentdef verify');
// The evidence loop: the signed eval receipt scored into the agent's reputation, trusting only the
// key that signed it (a folder of public keys, as `agentdef reputation --trust` reads).
const trust = join(rel, 'trust');
mkdirSync(join(root, trust), { recursive: true });
writeFileSync(join(root, trust, 'signing-key.public.jwk'), readFileSync(join(root, publicKey)));
check(agentdef(['reputation', join(report, 'eval.receipt.json'), '--trust', trust]), 'agentdef reputation');
rmSync(scratch, { recursive: true, force: true });
if (printed.some((text) => text.includes(receiptSecret.d))) {
  console.error('run-eval-example: the receipt key appeared in the output of agentdef');
  process.exit(1);
}
