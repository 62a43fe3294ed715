/** Tests for the local key store: generation, the folder's permission checks, the keychain provider (faked), listing and export. */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { signReceipt, verifyReceipt, type UnsignedReceipt } from '../../runtime/receipts';
import {
  exportPublicKey,
  generateKey,
  type KeyExec,
  keysDir,
  listKeys,
  loadPrivateKey,
  parseKeyRef,
} from './key-store';

const made: string[] = [];
function tempEnv(): { dir: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-keys-'));
  made.push(root);
  const dir = join(root, 'keys');
  return { dir, env: { AGENTDEF_KEYS_DIR: dir, AGENTDEF_KEYCHAIN: 'off' } };
}
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fake keychain: `secret-tool store` (stdin) and `secret-tool lookup`, keyed by the `name` attribute. */
function fakeKeychain(): { exec: KeyExec; entries: Map<string, string>; calls: { command: string; args: string[] }[] } {
  const entries = new Map<string, string>();
  const calls: { command: string; args: string[] }[] = [];
  const exec: KeyExec = async (command, args, stdin) => {
    calls.push({ command, args });
    if (command !== 'secret-tool') return undefined;
    const account = args[args.indexOf('name') + 1]!;
    if (args[0] === 'store') {
      entries.set(account, stdin ?? '');
      return '';
    }
    if (args[0] === 'lookup') return entries.get(account);
    return undefined;
  };
  return { exec, entries, calls };
}

describe('key refs and the keys folder', () => {
  it('parses keyref:<name> and bare names, refusing anything else', () => {
    expect(parseKeyRef('keyref:calc-agent')).toEqual({ ok: true, name: 'calc-agent' });
    expect(parseKeyRef('calc.v2_b')).toEqual({ ok: true, name: 'calc.v2_b' });
    for (const bad of ['keyref:', 'keyref:../x', 'keyref:A', 'keyref:-x', `keyref:${'a'.repeat(65)}`, 'keyref:a/b']) {
      const parsed = parseKeyRef(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/keyref:<name>/);
    }
  });

  it('finds the folder from AGENTDEF_KEYS_DIR, then XDG_CONFIG_HOME, then HOME', () => {
    expect(keysDir({ AGENTDEF_KEYS_DIR: '/k' })).toBe('/k');
    expect(keysDir({ XDG_CONFIG_HOME: '/c' })).toBe(join('/c', 'agentdef', 'keys'));
    expect(keysDir({ HOME: '/h' })).toBe(join('/h', '.config', 'agentdef', 'keys'));
  });
});

describe('generateKey and loadPrivateKey (folder)', () => {
  it('generates a key whose files are owner-only, loads it back and signs with it', async () => {
    const { dir, env } = tempEnv();
    const generated = await generateKey('keyref:calc-agent', { env });
    expect(generated.ok).toBe(true);
    if (!generated.ok) return;
    expect(generated.store).toBe('folder');
    expect(generated.kid).toBe(await jwkThumbprint(generated.publicJwk));
    expect(Object.keys(generated.publicJwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(JSON.stringify(generated)).not.toMatch(/"d"/);
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, 'calc-agent.private.jwk.json')).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o077).toBe(0);
    }
    const loaded = await loadPrivateKey('keyref:calc-agent', { env });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.source).toBe('folder');
    expect(loaded.kid).toBe(generated.kid);
    expect(loaded.publicJwk).toEqual(generated.publicJwk);
    const unsigned = { receiptVersion: 'receipt/v1', runId: 'r' } as unknown as UnsignedReceipt;
    const receipt = await signReceipt(unsigned, loaded.privateJwk, loaded.kid);
    expect(await verifyReceipt(receipt, generated.publicJwk)).toBe(true);
  });

  it('refuses to overwrite an existing key and leaves it unchanged', async () => {
    const { dir, env } = tempEnv();
    const first = await generateKey('keyref:a', { env });
    const before = readFileSync(join(dir, 'a.private.jwk.json'), 'utf8');
    const second = await generateKey('keyref:a', { env });
    expect(first.ok).toBe(true);
    expect(second).toEqual({
      ok: false,
      message: expect.stringMatching(
        /keyref:a already has a key: a key is never overwritten; to rotate, generate a new ref/,
      ),
    });
    expect(readFileSync(join(dir, 'a.private.jwk.json'), 'utf8')).toBe(before);
  });

  it('says how to create a missing key', async () => {
    const { env } = tempEnv();
    const loaded = await loadPrivateKey('keyref:missing', { env });
    expect(loaded).toEqual({
      ok: false,
      message: expect.stringContaining('create it with `agentdef keys generate keyref:missing`'),
    });
  });

  it.skipIf(process.platform === 'win32')('refuses a private key file that group or others can read', async () => {
    const { dir, env } = tempEnv();
    await generateKey('keyref:wide', { env });
    const file = join(dir, 'wide.private.jwk.json');
    const d = (JSON.parse(readFileSync(file, 'utf8')) as { d: string }).d;
    chmodSync(file, 0o640);
    const loaded = await loadPrivateKey('keyref:wide', { env });
    expect(loaded).toEqual({
      ok: false,
      message: expect.stringMatching(/can be read by group or others \(mode 640\).*chmod 600/),
    });
    expect(JSON.stringify(loaded)).not.toContain(d);
  });

  it.skipIf(process.platform === 'win32')('refuses a symlink and a file that is not regular', async () => {
    const { dir, env } = tempEnv();
    await generateKey('keyref:real', { env });
    symlinkSync(join(dir, 'real.private.jwk.json'), join(dir, 'link.private.jwk.json'));
    expect(await loadPrivateKey('keyref:link', { env })).toEqual({
      ok: false,
      message: expect.stringContaining('is a symlink'),
    });
    mkdirSync(join(dir, 'folder.private.jwk.json'));
    expect(await loadPrivateKey('keyref:folder', { env })).toEqual({
      ok: false,
      message: expect.stringContaining('is not a regular file'),
    });
  });

  it('refuses a private JWK whose d does not belong to its x, without showing it', async () => {
    const { dir, env } = tempEnv();
    await generateKey('keyref:one', { env });
    await generateKey('keyref:two', { env });
    const one = JSON.parse(readFileSync(join(dir, 'one.private.jwk.json'), 'utf8')) as { x: string; d: string };
    const two = JSON.parse(readFileSync(join(dir, 'two.private.jwk.json'), 'utf8')) as { x: string; d: string };
    rmSync(join(dir, 'one.private.jwk.json'));
    writeFileSync(
      join(dir, 'one.private.jwk.json'),
      JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: one.x, d: two.d }),
      { mode: 0o600 },
    );
    const loaded = await loadPrivateKey('keyref:one', { env });
    expect(loaded).toEqual({
      ok: false,
      message: expect.stringContaining('is not an Ed25519 private JWK whose d matches its x'),
    });
    expect(JSON.stringify(loaded)).not.toContain(two.d);
  });
});

describe('the keychain provider (faked secret-tool)', () => {
  it('stores the private key in the keychain over stdin, loads it from there first, and lists it', async () => {
    const { dir, env } = tempEnv();
    const keychain = fakeKeychain();
    const options = { env: { ...env, AGENTDEF_KEYCHAIN: 'on' }, platform: 'linux' as const, exec: keychain.exec };
    const generated = await generateKey('keyref:kc', { ...options, store: 'keychain' });
    expect(generated.ok).toBe(true);
    if (!generated.ok) return;
    expect(keychain.entries.has('key:kc')).toBe(true);
    // The private key went over stdin only, never into arguments or the folder.
    const d = (JSON.parse(Buffer.from(keychain.entries.get('key:kc')!, 'base64url').toString('utf8')) as { d: string })
      .d;
    expect(JSON.stringify(keychain.calls)).not.toContain(d);
    expect(() => statSync(join(dir, 'kc.private.jwk.json'))).toThrow();
    const loaded = await loadPrivateKey('keyref:kc', options);
    expect(loaded.ok && loaded.source).toBe('keychain');
    expect(loaded.ok && loaded.kid).toBe(generated.kid);
    expect(keychain.calls.at(-1)).toEqual({
      command: 'secret-tool',
      args: ['lookup', 'service', 'agentdef', 'name', 'key:kc'],
    });
    expect(await listKeys(options)).toEqual({
      ok: true,
      dir,
      keys: [{ ref: 'keyref:kc', kid: generated.kid, privateKey: 'keychain' }],
    });
    expect(await generateKey('keyref:kc', { ...options, store: 'keychain' })).toEqual({
      ok: false,
      message: expect.stringContaining('already has a key'),
    });
  });

  it('fails, leaving no public file, when the keychain does not keep the key', async () => {
    const { dir, env } = tempEnv();
    // A keychain tool that reports success but stores nothing (as `security -i` can).
    const exec: KeyExec = async (_command, args) => (args[0] === 'store' ? '' : undefined);
    const result = await generateKey('keyref:lost', {
      env: { ...env, AGENTDEF_KEYCHAIN: 'on' },
      platform: 'linux',
      exec,
      store: 'keychain',
    });
    expect(result).toEqual({ ok: false, message: expect.stringContaining('reading it back failed') });
    expect(() => statSync(join(dir, 'lost.public.jwk.json'))).toThrow();
  });

  it('refuses --store keychain when the keychain is off', async () => {
    const { env } = tempEnv();
    expect(await generateKey('keyref:x', { env, store: 'keychain' })).toEqual({
      ok: false,
      message: expect.stringContaining('use --store folder'),
    });
  });
});

describe('listKeys and exportPublicKey', () => {
  it('lists refs and kids sorted, and keeps exporting a public key after its private key is gone', async () => {
    const { dir, env } = tempEnv();
    const b = await generateKey('keyref:b', { env });
    const a = await generateKey('keyref:a', { env });
    if (!a.ok || !b.ok) throw new Error('generation failed');
    rmSync(join(dir, 'b.private.jwk.json'));
    const listed = await listKeys({ env });
    expect(listed).toEqual({
      ok: true,
      dir,
      keys: [
        { ref: 'keyref:a', kid: a.kid, privateKey: 'folder' },
        { ref: 'keyref:b', kid: b.kid, privateKey: 'none' },
      ],
    });
    expect(await exportPublicKey('keyref:b', { env })).toEqual({
      ok: true,
      ref: 'keyref:b',
      name: 'b',
      publicJwk: b.publicJwk,
      kid: b.kid,
    });
    expect(await exportPublicKey('keyref:none', { env })).toEqual({
      ok: false,
      message: expect.stringContaining('agentdef keys generate keyref:none'),
    });
  });

  it('lists nothing when the folder does not exist', async () => {
    const { dir, env } = tempEnv();
    expect(await listKeys({ env })).toEqual({ ok: true, dir, keys: [] });
  });
});
