// Publishes one example agent into a scratch registry and verifies what was published, as a
// user would with the CLI: a signing key in a keys folder of this run (never the keychain, never
// $HOME), `agentdef publish` (snapshot, signed card, AgentFacts credential, KYM registration),
// `agentdef verify` on the card and the credential, and `agentdef registry verify`; then prints
// the verified card and credential. Everything goes under dist/main-job-trust/, which this script
// owns and recreates on every run.
// Usage: node scripts/run-trust-example.mjs <definition> --worker-url <url>
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const [definition, ...flags] = process.argv.slice(2);
const flag = (name) => {
  const at = flags.indexOf(name);
  return at === -1 ? undefined : flags[at + 1];
};
const rel = join('dist', 'main-job-trust');
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
writeFileSync(marker, 'made by scripts/run-trust-example.mjs\n');
const keys = join(out, 'keys');
// Paths given to the CLI are relative to the workspace root, so nothing printed names this machine.
const registry = join(rel, 'registry');
const env = { ...process.env, AGENTDEF_KEYS_DIR: keys, AGENTDEF_KEYCHAIN: 'off' };

function agentdef(args, { show = true } = {}) {
  if (show) process.stdout.write(`$ agentdef ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, encoding: 'utf8' });
  if (show) process.stdout.write(result.stdout);
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    console.error(`agentdef ${args[0]} failed (exit ${result.status})`);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

const source = JSON.parse(readFileSync(join(root, definition), 'utf8'));
const { slug, versionSemver: version, signingKeyRef } = source.identity;
agentdef(['keys', 'generate', signingKeyRef]);
// What a verifier receives: the public JWK alone (`keys export-public`), in a folder of public keys.
const publicKeys = join(rel, 'public-keys');
mkdirSync(join(root, publicKeys), { recursive: true });
const exported = JSON.parse(agentdef(['keys', 'export-public', signingKeyRef, '--format', 'json'], { show: false }));
writeFileSync(join(root, publicKeys, `${exported.kid}.jwk.json`), `${JSON.stringify(exported.publicJwk)}\n`);
// Issued now (publish's own default is the commit time, for byte-identical republishing): the
// credential's validity window (24 h) then holds whenever this job runs.
const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
agentdef(['publish', definition, '--registry', registry, '--worker-url', flag('--worker-url'), '--at', now]);
const card = join(registry, slug, `${version}.card.json`);
const credential = join(registry, slug, `${version}.agentfacts.vc.json`);
agentdef(['verify', card, '--keys', publicKeys]);
agentdef(['verify', credential]);
agentdef(['registry', 'verify', '--registry', registry]);
process.stdout.write(`\nverified A2A card (${slug}@${version}):\n${readFileSync(join(root, card), 'utf8')}\n`);
process.stdout.write(
  `verified AgentFacts credential (${slug}@${version}):\n${readFileSync(join(root, credential), 'utf8')}\n`,
);
