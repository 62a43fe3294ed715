/**
 * The key store and `agentdef verify --key/--keys` use only keys their user controls (issue 23): a
 * keys folder group or others can write (0777, 0775, 0772) and a key file of another user, or one
 * group or others can write, are refused with the `chmod` to run. Modes are set for real in this
 * test's own folder; the owner check runs for real too (as root a file is given to another uid with
 * chown, otherwise a root-owned file of this machine is the key file), and through the injected uid.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerifyCommandWith } from '../../cli/commands/verify';
import { captureRun } from '../../cli/commands/test-support';
import { signAgentCard } from '../../runtime/card-signature';
import type { AgentCard } from '../../runtime/agent-card';
import {
  exportPublicKey,
  findLocalPublicKey,
  generateKey,
  type KeyStoreOptions,
  listKeys,
  loadPrivateKey,
} from './key-store';
import { ECHO_CARD } from '../../runtime/__test-support__/echo-card';

let dir: string;
let store: KeyStoreOptions;
let keysFolder: string;
let kid: string;
const me = process.getuid!();

const card: AgentCard = ECHO_CARD;

beforeAll(async () => {
  dir = mkdtempSync(join(__dirname, '.key-store-trust-'));
  keysFolder = join(dir, 'keys');
  store = { env: { AGENTDEF_KEYS_DIR: keysFolder, AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' };
  const generated = await generateKey('keyref:acme', store);
  if (!generated.ok) throw new Error(generated.message);
  kid = generated.kid;
  const loaded = await loadPrivateKey('keyref:acme', store);
  if (!loaded.ok) throw new Error(loaded.message);
  writeFileSync(join(dir, 'card.json'), JSON.stringify(await signAgentCard(card, loaded.privateJwk)));
  writeFileSync(join(dir, 'public.jwk.json'), JSON.stringify(loaded.publicJwk), { mode: 0o644 });
  mkdirSync(join(dir, 'pinned'), { mode: 0o755 });
  writeFileSync(join(dir, 'pinned', 'acme.json'), JSON.stringify(loaded.publicJwk), { mode: 0o644 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verify = (argv: string[], options: KeyStoreOptions = store) =>
  captureRun((a, io) => runVerifyCommandWith(a, io, options), argv, dir);

/** Every key-store operation that reads or writes the folder, and what each answered. */
async function everyOperation(options: KeyStoreOptions) {
  return {
    load: await loadPrivateKey('keyref:acme', options),
    exportPublic: await exportPublicKey('keyref:acme', options),
    list: await listKeys(options),
    generate: await generateKey('keyref:another', options),
    find: await findLocalPublicKey(kid, options),
  };
}

describe('the key store with a trustworthy folder (the checks below start from it)', () => {
  it('loads, exports, lists and finds the key; verify uses it', async () => {
    const ops = await everyOperation(store);
    expect(ops.load.ok && ops.exportPublic.ok && ops.list.ok).toBe(true);
    expect(ops.find?.kid).toBe(kid);
    rmSync(join(keysFolder, 'another.private.jwk.json'));
    rmSync(join(keysFolder, 'another.public.jwk.json'));
    expect((await verify(['card.json'])).code).toBe(0);
    expect((await verify(['card.json', '--key', 'public.jwk.json'])).code).toBe(0);
    expect((await verify(['card.json', '--keys', 'pinned'])).code).toBe(0);
  });
});

describe('a keys folder group or others can write', () => {
  for (const mode of [0o777, 0o775, 0o772, 0o720]) {
    it(`mode ${mode.toString(8)}: every operation refuses it, saying what to chmod; verify exits 2`, async () => {
      chmodSync(keysFolder, mode);
      try {
        const ops = await everyOperation(store);
        const expected = `the keys folder ${keysFolder} can be written by group or others (mode ${mode.toString(8)}): anyone could add or replace a key there; refusing to use it; run \`chmod go-w ${keysFolder}\``;
        for (const name of ['load', 'exportPublic', 'list', 'generate'] as const)
          expect(ops[name], name).toEqual({ ok: false, message: expected });
        expect(ops.find).toBeUndefined();
        const run = await verify(['card.json']);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(`error: ${expected}\n`);
      } finally {
        chmodSync(keysFolder, 0o700);
      }
    });
  }

  it('a --keys folder of mode 777 is refused (exit 2); 755 is used', async () => {
    chmodSync(join(dir, 'pinned'), 0o777);
    try {
      const run = await verify(['card.json', '--keys', 'pinned']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'error: the keys folder pinned can be written by group or others (mode 777): anyone could add or replace a key there; refusing to use it; run `chmod go-w pinned`\n',
      );
    } finally {
      chmodSync(join(dir, 'pinned'), 0o755);
    }
    expect((await verify(['card.json', '--keys', 'pinned'])).code).toBe(0);
  });
});

describe('a key file group or others can write', () => {
  it('the public file (0666, 0646) is refused by the store and verify; --key and a --keys file too', async () => {
    const publicFile = join(keysFolder, 'acme.public.jwk.json');
    for (const mode of [0o666, 0o646]) {
      chmodSync(publicFile, mode);
      try {
        const exported = await exportPublicKey('keyref:acme', store);
        expect(exported).toEqual({
          ok: false,
          message: `the public key file of keyref:acme: the key file ${publicFile} can be written by group or others (mode ${mode.toString(8)}): refusing to use it; run \`chmod go-w ${publicFile}\``,
        });
        expect(await findLocalPublicKey(kid, store)).toBeUndefined();
        expect((await verify(['card.json'])).code).toBe(1);
      } finally {
        chmodSync(publicFile, 0o644);
      }
    }
    chmodSync(join(dir, 'public.jwk.json'), 0o666);
    chmodSync(join(dir, 'pinned', 'acme.json'), 0o664);
    try {
      const single = await verify(['card.json', '--key', 'public.jwk.json']);
      expect(single.code).toBe(2);
      expect(single.stderr).toBe(
        'error: the key file public.jwk.json can be written by group or others (mode 666): refusing to use it; run `chmod go-w public.jwk.json`\n',
      );
      const folder = await verify(['card.json', '--keys', 'pinned']);
      expect(folder.code).toBe(1);
      expect(folder.stderr).toContain(
        'note: skipped the key file pinned/acme.json can be written by group or others (mode 664): refusing to use it; run `chmod go-w pinned/acme.json`',
      );
    } finally {
      chmodSync(join(dir, 'public.jwk.json'), 0o644);
      chmodSync(join(dir, 'pinned', 'acme.json'), 0o644);
    }
  });
});

describe('a key file of another user', () => {
  it('is refused for real: a file given to another uid (as root), or a root-owned file of this machine', async () => {
    const foreign = join(dir, 'foreign.jwk.json');
    let shown = 'foreign.jwk.json';
    let owner: number;
    if (me === 0) {
      writeFileSync(foreign, readPublic(), { mode: 0o644 });
      chownSync(foreign, 4242, 4242);
      owner = 4242;
    } else {
      // Not root: a file root owns is another user's; /etc/passwd holds no JWK, but ownership is checked first.
      shown = '/etc/passwd';
      owner = statSync(shown).uid;
      expect(owner).not.toBe(me);
    }
    const run = await verify(['card.json', '--key', shown]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: the key file ${shown} belongs to another user (uid ${owner}, not ${me}): refusing to use it; copy the key into a file of your own (or \`chown\` it)\n`,
    );
    if (me === 0) {
      // In the key store too: the public file of a ref given to another uid.
      const publicFile = join(keysFolder, 'acme.public.jwk.json');
      chownSync(publicFile, 4242, 4242);
      try {
        expect(await exportPublicKey('keyref:acme', store)).toMatchObject({
          ok: false,
          message: expect.stringContaining(`the key file ${publicFile} belongs to another user (uid 4242, not 0)`),
        });
      } finally {
        chownSync(publicFile, 0, 0);
      }
    }
  });

  it('through the injected uid: every file of the store, and --key and --keys files, belong to "another user"', async () => {
    const other = { ...store, uid: me + 1 };
    const loaded = await loadPrivateKey('keyref:acme', other);
    // The folder belongs to this process's user, not to uid me+1 (nor to root unless me is root).
    if (me === 0) {
      expect(loaded).toMatchObject({
        ok: false,
        message: `the private key file of keyref:acme: the key file ${join(keysFolder, 'acme.private.jwk.json')} belongs to another user (uid 0, not 1): refusing to use it; copy the key into a file of your own (or \`chown\` it)`,
      });
    } else {
      expect(loaded).toEqual({
        ok: false,
        message: `the keys folder ${keysFolder} belongs to another user (uid ${me}, not ${me + 1}): refusing to use it; use a keys folder of your own`,
      });
    }
    expect(await findLocalPublicKey(kid, other)).toBeUndefined();
    const single = await verify(['card.json', '--key', 'public.jwk.json'], other);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain(`the key file public.jwk.json belongs to another user (uid ${me}, not ${me + 1})`);
    const folder = await verify(['card.json', '--keys', 'pinned'], other);
    expect(folder.code).toBe(me === 0 ? 1 : 2);
  });
});

function readPublic(): string {
  return JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) });
}
