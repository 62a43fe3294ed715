/**
 * `agentdef publish` records a signing-key rotation (issue 23): a version signed by another key
 * than the previous version gets `<version>.rotation.json`, signed by the previous key, which
 * publish finds in the key store (the previous snapshot's signingKeyRef, else the key with the
 * previous signer's kid) or takes from `--previous-key` (a ref or a private JWK file). Without the
 * previous key it refuses and nothing on disk changes; with the same key it writes no record; a
 * version below one signed by another key is refused. Real publishes (git, two keys, the key
 * folder) and `agentdef registry verify`, the real CLI in a child process among them.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRegistryCommand } from '../cli/commands/registry';
import { captureRun, gitAt } from '../cli/commands/test-support';
import { generateKey } from '../hosts/node/key-store';
import { didKeyOf } from '../trust/did-key';
import { keyRotationProblem } from '../trust/key-rotation';
import { publishDefinition } from './publish';

const COMMIT_TIME = '2026-03-04T05:06:07Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';
const FILE = 'agents/text-stats/agent.json';
const REGISTRY = 'registry/agents';
const BIN = join(__dirname, '..', '..', 'bin', 'agentdef.cjs');

let root: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };
const git = (...args: string[]) => gitAt(root, COMMIT_TIME, ...args);
const publish = (extra: { keyRef?: string; previousKey?: string } = {}) =>
  publishDefinition({ file: join(root, FILE), workspaceRoot: root, workerUrl: WORKER_URL, keyStore, ...extra });
const registryVerify = (...args: string[]) => captureRun(runRegistryCommand, ['verify', ...args], root);
const keyFile = (name: string) => join(root, '.keys', `${name}.private.jwk.json`);
const privateJwkOf = (name: string) => JSON.parse(readFileSync(keyFile(name), 'utf8')) as JsonWebKey;
const didOf = (name: string) => didKeyOf({ kty: 'OKP', crv: 'Ed25519', x: privateJwkOf(name).x } as JsonWebKey)!;
const slugFolder = () => join(root, REGISTRY, 'text-stats');

/** The real `agentdef` command in a child process, in `root`, with the test's key folder and no $HOME of the user's. */
function agentdef(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: root,
      XDG_CACHE_HOME: join(root, '.cache'),
      XDG_CONFIG_HOME: join(root, '.config'),
      AGENTDEF_KEYS_DIR: join(root, '.keys'),
      AGENTDEF_KEYCHAIN: 'off',
      NO_COLOR: '1',
    },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Edits the definition (the next version, a new versionId; optionally another signingKeyRef) and commits it. */
function nextVersion(version: string, versionId: string, signingKeyRef?: string): void {
  const definition = JSON.parse(readFileSync(join(root, FILE), 'utf8')) as Record<string, any>;
  definition['identity'].versionSemver = version;
  definition['identity'].versionId = versionId;
  if (signingKeyRef !== undefined) definition['identity'].signingKeyRef = signingKeyRef;
  writeFileSync(join(root, FILE), `${JSON.stringify(definition, null, 2)}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', `version ${version}`);
}

/** Every file under the registry with its bytes and mode: what "nothing on disk changed" compares. */
function registryTree(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(root, path)] = `${statSync(path).mode.toString(8)} ${readFileSync(path, 'base64')}`;
    }
  };
  walk(join(root, REGISTRY));
  return out;
}

beforeEach(async () => {
  root = mkdtempSync(join(__dirname, '.publish-rotation-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  writeFileSync(join(root, FILE), readFileSync(join(__dirname, '../../examples/text-stats/agent.json')));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  expect((await generateKey('keyref:acme-receipts', keyStore)).ok).toBe(true);
  writeFileSync(join(root, '.gitignore'), '.keys/\n.cache/\n.config/\nbackup/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  const first = await publish();
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('publishing with a rotated key (docs/keys.md)', () => {
  it('writes the rotation signed by the previous key; `agentdef registry verify` (the CLI) passes and reports it', async () => {
    // 1. a new ref; 2. switch the definition's signingKeyRef to it, and publish.
    expect((await generateKey('keyref:acme-receipts-2026', keyStore)).ok).toBe(true);
    nextVersion('2.0.0', '01KQXTGGAHPQXPXEVVWRWT04ZN', 'keyref:acme-receipts-2026');
    const published = agentdef('publish', FILE, '--worker-url', WORKER_URL);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toContain(`  wrote ${REGISTRY}/text-stats/2.0.0.rotation.json\n`);

    const rotation = {
      slug: 'text-stats',
      previousVersion: '1.0.0',
      version: '2.0.0',
      from: didOf('acme-receipts'),
      to: didOf('acme-receipts-2026'),
    };
    const record = JSON.parse(readFileSync(join(slugFolder(), '2.0.0.rotation.json'), 'utf8')) as Record<string, any>;
    expect(await keyRotationProblem(record, rotation)).toBeUndefined();
    expect(record['proof'].verificationMethod).toBe(`${rotation.from}#${rotation.from.slice('did:key:'.length)}`);
    expect(record['proof'].created).toBe(COMMIT_TIME);

    const verified = agentdef('registry', 'verify');
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      `key rotation text-stats@1.0.0 → 2.0.0: ${rotation.from} → ${rotation.to} (recorded, signed by the old key)`,
    );
    expect(verified.stdout).toContain('2 of 2 published versions verified');
    const json = JSON.parse(agentdef('registry', 'verify', '--format', 'json').stdout) as { rotations: unknown[] };
    expect(json.rotations).toEqual([rotation]);

    // Publishing the same commit again is a no-op, also once the old private key is retired.
    const before = registryTree();
    rmSync(keyFile('acme-receipts'));
    const again = await publish();
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already published with identical content');
    expect(registryTree()).toEqual(before);
  });

  it('finds the previous key by the kid that signed it when the previous snapshot names another ref', async () => {
    expect((await generateKey('keyref:other', keyStore)).ok).toBe(true);
    // 1.1.0 is signed with --key keyref:other, though its snapshot still names keyref:acme-receipts.
    nextVersion('1.1.0', '01KQXTGGAHPQXPXEVVWRWT04ZN');
    const middle = await publish({ keyRef: 'keyref:other' });
    expect(middle.stderr).toBe('');
    expect(middle.code).toBe(0);
    const first = JSON.parse(readFileSync(join(slugFolder(), '1.1.0.rotation.json'), 'utf8')) as unknown;
    expect(
      await keyRotationProblem(first, {
        slug: 'text-stats',
        previousVersion: '1.0.0',
        version: '1.1.0',
        from: didOf('acme-receipts'),
        to: didOf('other'),
      }),
    ).toBeUndefined();
    // 1.2.0 with acme-receipts again: the snapshot's ref is not 1.1.0's signer; its kid finds keyref:other.
    nextVersion('1.2.0', '01KQXTGGAHPQXPXEVVWRWT04ZP');
    const back = await publish();
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    const second = JSON.parse(readFileSync(join(slugFolder(), '1.2.0.rotation.json'), 'utf8')) as unknown;
    expect(
      await keyRotationProblem(second, {
        slug: 'text-stats',
        previousVersion: '1.1.0',
        version: '1.2.0',
        from: didOf('other'),
        to: didOf('acme-receipts'),
      }),
    ).toBeUndefined();
    const verified = await registryVerify();
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('3 of 3 published versions verified');
    expect(verified.stdout.match(/key rotation/g)).toHaveLength(2);
  });

  it('the previous key missing from the key store: refused, saying to pass --previous-key, nothing written; the key as a file or ref then works', async () => {
    expect((await generateKey('keyref:acme-receipts-2026', keyStore)).ok).toBe(true);
    // A backup of the old private key outside the store, then the private key retired (its public file stays).
    mkdirSync(join(root, 'backup'));
    copyFileSync(keyFile('acme-receipts'), join(root, 'backup', 'old.private.jwk.json'));
    chmodSync(join(root, 'backup', 'old.private.jwk.json'), 0o600);
    rmSync(keyFile('acme-receipts'));
    nextVersion('2.0.0', '01KQXTGGAHPQXPXEVVWRWT04ZN', 'keyref:acme-receipts-2026');
    const before = registryTree();

    const refused = await publish();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^error: the signing key changed since text-stats@1\.0\.0 \(kid [\w-]{43}, did:key:z\w+\), so publish records the hand-over \(<version>\.rotation\.json\) signed by the previous key, and the key store holds no private key for kid [\w-]{43}; tried keyref:acme-receipts: pass --previous-key keyref:<name> \(the previous key's ref\) or --previous-key <file> \(its private JWK, mode 0600\); nothing was published\n$/,
    );
    expect(registryTree()).toEqual(before);

    // Through the CLI too, and a --previous-key that is not the previous signer is refused the same way.
    expect((await generateKey('keyref:unrelated', keyStore)).ok).toBe(true);
    const wrong = agentdef('publish', FILE, '--worker-url', WORKER_URL, '--previous-key', 'keyref:unrelated');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--previous-key keyref:unrelated is the key with kid ');
    expect(wrong.stderr).toContain('not the key that signed text-stats@1.0.0');
    expect(wrong.stderr).toContain('nothing was published');
    const readable = join(root, 'backup', 'readable.private.jwk.json');
    copyFileSync(join(root, 'backup', 'old.private.jwk.json'), readable);
    chmodSync(readable, 0o644);
    const tooOpen = agentdef(
      'publish',
      FILE,
      '--worker-url',
      WORKER_URL,
      '--previous-key',
      'backup/readable.private.jwk.json',
    );
    expect(tooOpen.code).toBe(1);
    expect(tooOpen.stderr).toContain('can be read by group or others');
    expect(registryTree()).toEqual(before);
    expect(existsSync(join(slugFolder(), '2.0.0.json'))).toBe(false);

    const withFile = agentdef(
      'publish',
      FILE,
      '--worker-url',
      WORKER_URL,
      '--previous-key',
      'backup/old.private.jwk.json',
    );
    expect(withFile.stderr).toBe('');
    expect(withFile.code).toBe(0);
    expect(withFile.stdout).toContain(`  wrote ${REGISTRY}/text-stats/2.0.0.rotation.json\n`);
    expect(withFile.stdout).not.toContain('"d"');
    const verified = await registryVerify();
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('key rotation text-stats@1.0.0 → 2.0.0');
  });

  it('the same key for the next version writes no rotation record', async () => {
    nextVersion('2.0.0', '01KQXTGGAHPQXPXEVVWRWT04ZN');
    const second = await publish();
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('rotation');
    expect(readdirSync(slugFolder()).filter((name) => name.endsWith('.rotation.json'))).toEqual([]);
    const verified = await registryVerify();
    expect(verified.code).toBe(0);
    expect(verified.stdout).not.toContain('key rotation');
  });

  it('a version below one signed by another key is refused, nothing written; signed by that key it is accepted', async () => {
    expect((await generateKey('keyref:acme-receipts-2026', keyStore)).ok).toBe(true);
    nextVersion('2.0.0', '01KQXTGGAHPQXPXEVVWRWT04ZN', 'keyref:acme-receipts-2026');
    expect((await publish()).code).toBe(0);
    nextVersion('1.1.0', '01KQXTGGAHPQXPXEVVWRWT04ZP', 'keyref:acme-receipts');
    const before = registryTree();
    const below = await publish();
    expect(below.code).toBe(1);
    expect(below.stderr).toContain('text-stats@2.0.0 is published already, signed by kid ');
    expect(below.stderr).toContain('registry verify checks each version');
    expect(registryTree()).toEqual(before);

    const withNewKey = await publish({ keyRef: 'keyref:acme-receipts-2026' });
    expect(withNewKey.stderr).toBe('');
    expect(withNewKey.code).toBe(0);
    expect(withNewKey.stdout).toContain('1.1.0.rotation.json');
    const verified = await registryVerify();
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('3 of 3 published versions verified');
  });
});
