/**
 * `registry verify` verifies what it names (issue 23): a registry folder that is a symbolic link
 * (to /dev, to another registry) or no folder is refused; a folder with nothing published is
 * "nothing to verify" (exit 1), an index that records nothing is said to be an empty registry; a
 * version signed by another key than the version before it fails unless the old key signed a
 * rotation record, which is then reported; the index and every export are read strictly
 * (`__proto__`, `constructor`, `prototype`, duplicates), located; a card export with a forged
 * second signature fails.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRegistryCommand } from '../cli/commands/registry';
import { captureRun, gitAt } from '../cli/commands/test-support';
import { generateKey } from '../hosts/node/key-store';
import { didKeyOf } from '../trust/did-key';
import { signKeyRotation } from '../trust/key-rotation';
import { publishDefinition } from './publish';

const COMMIT_TIME = '2026-03-04T05:06:07Z';
const WORKER_URL = 'https://text-stats.example.workers.dev';
const FILE = 'agents/text-stats/agent.json';
const REGISTRY = 'registry/agents';

let root: string;
let keyStore: { env: NodeJS.ProcessEnv; keychain: 'off' };
const git = (...args: string[]) => gitAt(root, COMMIT_TIME, ...args);
const publish = (keyRef?: string) =>
  publishDefinition({
    file: join(root, FILE),
    workspaceRoot: root,
    workerUrl: WORKER_URL,
    keyStore,
    ...(keyRef ? { keyRef } : {}),
  });
const registryVerify = (...args: string[]) => captureRun(runRegistryCommand, ['verify', ...args], root);
const privateJwkOf = (name: string) =>
  JSON.parse(readFileSync(join(root, '.keys', `${name}.private.jwk.json`), 'utf8')) as JsonWebKey;
const didOf = (jwk: JsonWebKey) => didKeyOf({ kty: 'OKP', crv: 'Ed25519', x: jwk.x } as JsonWebKey)!;

/** Publishes text-stats 2.0.0 (a major bump, a new versionId) signed with `keyref:other`. */
async function publishSecondVersionWithOtherKey(): Promise<void> {
  const definition = JSON.parse(readFileSync(join(root, FILE), 'utf8')) as Record<string, any>;
  definition['identity'].versionSemver = '2.0.0';
  definition['identity'].versionId = '01KQXTGGAHPQXPXEVVWRWT04ZN';
  writeFileSync(join(root, FILE), `${JSON.stringify(definition, null, 2)}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'second');
  const second = await publish('keyref:other');
  expect(second.stderr).toBe('');
  expect(second.code).toBe(0);
}

beforeEach(async () => {
  root = mkdtempSync(join(__dirname, '.registry-verify-pins-'));
  writeFileSync(join(root, 'nx.json'), '{}\n');
  mkdirSync(join(root, 'agents/text-stats'), { recursive: true });
  writeFileSync(join(root, FILE), readFileSync(join(__dirname, '../../examples/text-stats/agent.json')));
  keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, '.keys'), AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  expect((await generateKey('keyref:acme-receipts', keyStore)).ok).toBe(true);
  expect((await generateKey('keyref:other', keyStore)).ok).toBe(true);
  writeFileSync(join(root, '.gitignore'), '.keys/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the registry folder', () => {
  it('a link to /dev, a link to a real registry, a file: refused (exit 2), never "0 of 0 verified"', async () => {
    expect((await publish()).code).toBe(0);
    symlinkSync('/dev', join(root, 'dev-link'));
    symlinkSync(join(root, REGISTRY), join(root, 'registry-link'));
    writeFileSync(join(root, 'a-file'), '{}');
    for (const [path, message] of [
      ['dev-link', 'dev-link is a symbolic link: registry verify reads only a real folder'],
      ['registry-link', 'registry-link is a symbolic link: registry verify reads only a real folder'],
      ['a-file', 'a-file is not a folder'],
    ] as const) {
      const run = await registryVerify('--registry', path);
      expect(run.code, path).toBe(2);
      expect(run.stderr, path).toBe(
        `error: ${message}; name the folder itself\n`.replace('not a folder; name the folder itself', 'not a folder'),
      );
      expect(run.stdout, path).toBe('');
    }
    expect((await registryVerify('--registry', REGISTRY)).code).toBe(0);
  });

  it('a folder with nothing published is "nothing to verify" (exit 1); an index recording nothing is an empty registry (exit 0)', async () => {
    mkdirSync(join(root, 'nothing'));
    const nothing = await registryVerify('--registry', 'nothing');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe(
      'error: nothing to verify: nothing has no index.json and no published version (is it the registry folder?)\n',
    );
    expect(nothing.stdout).toBe('');
    const json = JSON.parse((await registryVerify('--registry', 'nothing', '--format', 'json')).stdout) as {
      verified: boolean;
    };
    expect(json.verified).toBe(false);
    mkdirSync(join(root, 'empty'));
    writeFileSync(
      join(root, 'empty', 'index.json'),
      '{"registryIndexVersion": "agentdef-registry-index/v1", "snapshots": []}\n',
    );
    const empty = await registryVerify('--registry', 'empty');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('empty is an empty registry: its index.json records no published version\n');
  });
});

describe('a signer change between versions of a slug', () => {
  it('without a rotation record: NOT verified, naming both keys and what would record it', async () => {
    expect((await publish()).code).toBe(0);
    await publishSecondVersionWithOtherKey();
    // publish records the rotation (publish-rotation.test.ts); a registry written by an older
    // agentdef, or edited by hand, lacks it.
    const record = join(root, REGISTRY, 'text-stats', '2.0.0.rotation.json');
    expect(existsSync(record)).toBe(true);
    rmSync(record);
    const run = await registryVerify();
    expect(run.code).toBe(1);
    const from = didOf(privateJwkOf('acme-receipts'));
    const to = didOf(privateJwkOf('other'));
    expect(run.stderr).toBe(
      `${REGISTRY}/text-stats/2.0.0.agentfacts.vc.json: the signing key changed and no rotation is recorded: text-stats@2.0.0 is signed by ${to}, text-stats@1.0.0 by ${from}; a rotation is text-stats/2.0.0.rotation.json, signed by the old key\n`,
    );
    expect(run.stdout).toContain('1 of 2 published versions verified');
  });

  it('with a rotation the old key signed: verified, the rotation reported; one the new key signed, or naming other versions, fails', async () => {
    expect((await publish()).code).toBe(0);
    await publishSecondVersionWithOtherKey();
    const oldKey = privateJwkOf('acme-receipts');
    const newKey = privateJwkOf('other');
    const rotation = {
      slug: 'text-stats',
      previousVersion: '1.0.0',
      version: '2.0.0',
      from: didOf(oldKey),
      to: didOf(newKey),
    };
    const file = join(root, REGISTRY, 'text-stats', '2.0.0.rotation.json');

    // Signed by the new key (all an attacker holding only the new key can make), then relabelled.
    const byNew = await signKeyRotation({ ...rotation, from: rotation.to }, newKey, COMMIT_TIME);
    if (!byNew.ok) throw new Error(byNew.message);
    writeFileSync(file, JSON.stringify({ ...byNew.document, from: rotation.from }));
    const forged = await registryVerify();
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain(`${REGISTRY}/text-stats/2.0.0.rotation.json: does not record the rotation`);
    expect(await signKeyRotation(rotation, newKey, COMMIT_TIME)).toMatchObject({ ok: false });

    const wrongVersions = await signKeyRotation({ ...rotation, previousVersion: '0.9.0' }, oldKey, COMMIT_TIME);
    if (!wrongVersions.ok) throw new Error(wrongVersions.message);
    writeFileSync(file, JSON.stringify(wrongVersions.document));
    const wrong = await registryVerify();
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('previousVersion is "0.9.0", not "1.0.0"');

    const signed = await signKeyRotation(rotation, oldKey, COMMIT_TIME);
    if (!signed.ok) throw new Error(signed.message);
    writeFileSync(file, JSON.stringify(signed.document, null, 2));
    const run = await registryVerify();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `key rotation text-stats@1.0.0 → 2.0.0: ${rotation.from} → ${rotation.to} (recorded, signed by the old key)`,
    );
    expect(run.stdout).toContain('2 of 2 published versions verified');
    const json = JSON.parse((await registryVerify('--format', 'json')).stdout) as { rotations: unknown[] };
    expect(json.rotations).toEqual([rotation]);
  });

  it('the same key for every version needs no record and reports no rotation', async () => {
    expect((await publish()).code).toBe(0);
    const definition = JSON.parse(readFileSync(join(root, FILE), 'utf8')) as Record<string, any>;
    definition['identity'].versionSemver = '2.0.0';
    definition['identity'].versionId = '01KQXTGGAHPQXPXEVVWRWT04ZN';
    writeFileSync(join(root, FILE), `${JSON.stringify(definition, null, 2)}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', 'second');
    expect((await publish()).code).toBe(0);
    const run = await registryVerify();
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('key rotation');
  });
});

describe('strict reading of the index and the exports', () => {
  it('an index with "__proto__", "constructor" or a duplicated member is unreadable (exit 2), located', async () => {
    expect((await publish()).code).toBe(0);
    const index = join(root, REGISTRY, 'index.json');
    const text = readFileSync(index, 'utf8');
    for (const [changed, expected] of [
      [
        text.replace('"snapshots": [', '"__proto__": {"snapshots": []},\n  "snapshots": ['),
        /index\.json: it is not strict JSON: line 3, column 3 at \/__proto__: reserved member name "__proto__"/,
      ],
      [
        text.replace('"slug": "text-stats",', '"slug": "text-stats",\n      "constructor": 1,'),
        /line \d+, column 7 at \/snapshots\/0\/constructor: reserved member name "constructor"/,
      ],
      [
        text.replace('"slug": "text-stats",', '"slug": "text-stats",\n      "slug": "text-stats",'),
        /line \d+, column 7 at \/snapshots\/0\/slug: duplicate key "slug"/,
      ],
    ] as const) {
      writeFileSync(index, changed);
      const run = await registryVerify();
      expect(run.code, changed).toBe(2);
      expect(run.stderr).toMatch(expected);
    }
  });

  it('a card, credential or KYM export with a "__proto__" member fails, located; a card with a forged second signature fails', async () => {
    expect((await publish()).code).toBe(0);
    for (const name of ['1.0.0.card.json', '1.0.0.agentfacts.vc.json', '1.0.0.kym.json']) {
      const path = join(root, REGISTRY, 'text-stats', name);
      const original = readFileSync(path, 'utf8');
      writeFileSync(
        path,
        original.replace(/\}\s*$/, ',\n  "__proto__": {"iconUrl": "https://evil.example/i.png"}\n}\n'),
      );
      const run = await registryVerify();
      expect(run.code, name).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `${REGISTRY}/text-stats/${name.replace(/\./g, '\\.')}: not strict JSON: line \\d+, column 3 at /__proto__: reserved member name "__proto__"`,
        ),
      );
      writeFileSync(path, original);
    }
    const cardPath = join(root, REGISTRY, 'text-stats', '1.0.0.card.json');
    const card = JSON.parse(readFileSync(cardPath, 'utf8')) as { signatures: { signature: string }[] };
    const valid = card.signatures[0]!;
    const forged = { ...valid, signature: `${valid.signature.startsWith('A') ? 'B' : 'A'}${valid.signature.slice(1)}` };
    writeFileSync(cardPath, JSON.stringify({ ...card, signatures: [valid, forged] }, null, 2));
    const run = await registryVerify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${REGISTRY}/text-stats/1.0.0.card.json: signature: signatures[1]: the signature does not match the card`,
    );
  });
});
