/**
 * Tests for `agentdef keys`: every action, its exit codes and formats, in a temp keys folder; and
 * the leak check: every stdout/stderr of every keys command is searched for each private `d`
 * (as base64url, base64 and hex of its raw bytes).
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import type { KeyExec } from '../../hosts/node/key-store';
// runCli loads the command tables with Node's require (see require-typescript.ts).
import '../../../executors/__test-support__/require-typescript';
import { runCli } from '../main';
import { runKeysCommandWith } from './keys';

const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'agentdef-keys-cli-'));
  made.push(root);
  const dir = join(root, 'keys');
  const outputs: string[] = [];
  const keychain = new Map<string, string>();
  // A fake secret-tool: the keychain store path runs too, without touching the real keychain.
  const exec: KeyExec = async (command, args, stdin) => {
    if (command !== 'secret-tool') return undefined;
    const account = args[args.indexOf('name') + 1]!;
    if (args[0] === 'store') {
      keychain.set(account, stdin ?? '');
      return '';
    }
    return keychain.get(account);
  };
  const run = async (argv: string[], opts: { keychain?: boolean } = {}) => {
    let stdout = '';
    let stderr = '';
    const env = { AGENTDEF_KEYS_DIR: dir, AGENTDEF_KEYCHAIN: opts.keychain ? 'on' : 'off' };
    const code = await runKeysCommandWith(
      argv,
      { cwd: root, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
      { env, platform: 'linux', exec },
    );
    outputs.push(stdout, stderr);
    return { code, stdout, stderr };
  };
  return { root, dir, run, outputs, keychain };
}

describe('agentdef keys', () => {
  it('generate prints the public JWK and kid, and refuses to overwrite', async () => {
    const ws = workspace();
    const generated = await ws.run(['generate', 'keyref:calc', '--format', 'json']);
    expect(generated.code).toBe(0);
    expect(generated.stderr).toBe('');
    const out = JSON.parse(generated.stdout) as {
      ref: string;
      kid: string;
      store: string;
      publicJwk: { kty: string; crv: string; x: string };
    };
    expect(out.ref).toBe('keyref:calc');
    expect(out.store).toBe('folder');
    expect(Object.keys(out.publicJwk).sort()).toEqual(['crv', 'kty', 'x']);
    expect(out.kid).toBe(await jwkThumbprint(out.publicJwk));

    const text = await ws.run(['generate', 'keyref:calc2']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^generated keyref:calc2 \(private key in the keys folder, mode 0600\)\nkid: [A-Za-z0-9_-]{43}\npublic JWK: \{"kty":"OKP","crv":"Ed25519","x":"[A-Za-z0-9_-]{43}"\}\n$/,
    );

    const again = await ws.run(['generate', 'keyref:calc']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^error: keyref:calc already has a key: a key is never overwritten/);
  });

  it('list and export-public show refs, kids and public JWKs only', async () => {
    const ws = workspace();
    expect((await ws.run(['list'])).stdout).toBe('no keys: create one with `agentdef keys generate keyref:<name>`\n');
    const b = JSON.parse((await ws.run(['generate', 'keyref:b', '--format', 'json'])).stdout) as {
      kid: string;
      publicJwk: object;
    };
    const a = JSON.parse((await ws.run(['generate', 'keyref:a', '--format', 'json'])).stdout) as {
      kid: string;
      publicJwk: object;
    };
    const listed = await ws.run(['list', '--format', 'json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      keys: [
        { ref: 'keyref:a', kid: a.kid, privateKey: 'folder' },
        { ref: 'keyref:b', kid: b.kid, privateKey: 'folder' },
      ],
    });
    expect((await ws.run(['list'])).stdout).toBe(
      `keyref:a  kid ${a.kid}  private key: folder\nkeyref:b  kid ${b.kid}  private key: folder\n`,
    );
    const exported = await ws.run(['export-public', 'keyref:b']);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({ ...b.publicJwk, kid: b.kid });
    expect(JSON.parse((await ws.run(['export-public', 'keyref:b', '--format', 'json'])).stdout)).toEqual({
      ref: 'keyref:b',
      kid: b.kid,
      publicJwk: b.publicJwk,
    });
  });

  it('a missing key is refused (exit 1, as docs/keys.md says) and says how to create it', async () => {
    const ws = workspace();
    const missing = await ws.run(['export-public', 'keyref:nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('create it with `agentdef keys generate keyref:nope`');
  });

  it('usage errors exit 2', async () => {
    const ws = workspace();
    for (const argv of [
      [],
      ['rotate'],
      ['generate'],
      ['generate', 'a', 'b'],
      ['generate', 'keyref:x', '--store', 'vault'],
      ['list', 'keyref:x'],
      ['list', '--format', 'yaml'],
      ['export-public'],
      ['generate', '--bogus'],
    ]) {
      const result = await ws.run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: .*\nusage: agentdef keys/);
    }
    // A bad key ref is a usage error (it exited 1): with the usage line, for every action that takes one, and nothing stored.
    for (const argv of [
      ['generate', 'keyref:Bad/Name'],
      ['generate', 'keyref:Bad_Name'],
      ['export-public', 'keyref:Bad_Name'],
      ['generate', 'keyref:'],
    ]) {
      const badRef = await ws.run(argv);
      expect(badRef.code, argv.join(' ')).toBe(2);
      expect(badRef.stderr).toMatch(
        /^error: "keyref:[^"]*" is not a key ref: .*\nusage: agentdef keys (generate|export-public) <keyref:name>/,
      );
    }
    expect((await ws.run(['list', '--format', 'json'])).stdout).toBe('{\n  "keys": []\n}\n');
  });

  it('is registered in the CLI and its help', async () => {
    let stdout = '';
    const code = await runCli(['--help'], { cwd: tmpdir(), stdout: (s) => (stdout += s), stderr: () => undefined });
    expect(code).toBe(0);
    expect(stdout).toContain('agentdef keys generate <keyref:name> [--store folder|keychain]');
  });

  it('no keys command ever prints a private key (base64url, base64 or hex of d)', async () => {
    const ws = workspace();
    await ws.run(['generate', 'keyref:one']);
    await ws.run(['generate', 'keyref:two', '--format', 'json']);
    await ws.run(['generate', 'keyref:kc', '--store', 'keychain'], { keychain: true });
    await ws.run(['generate', 'keyref:kc2', '--store', 'keychain', '--format', 'json'], { keychain: true });
    await ws.run(['generate', 'keyref:one']);
    await ws.run(['generate', 'keyref:kc', '--store', 'keychain'], { keychain: true });
    await ws.run(['generate', 'keyref:off', '--store', 'keychain']);
    for (const format of ['text', 'json']) {
      await ws.run(['list', '--format', format]);
      await ws.run(['list', '--format', format], { keychain: true });
      for (const ref of ['keyref:one', 'keyref:two', 'keyref:kc', 'keyref:kc2', 'keyref:missing']) {
        await ws.run(['export-public', ref, '--format', format]);
        await ws.run(['export-public', ref, '--format', format], { keychain: true });
      }
    }
    // An unsafe file's refusal and a stray argument that looks like a key must not echo it either.
    if (process.platform !== 'win32') chmodSync(join(ws.dir, 'one.private.jwk.json'), 0o644);
    await ws.run(['list']);
    rmSync(join(ws.dir, 'one.public.jwk.json'));
    await ws.run(['export-public', 'keyref:one']);

    const secrets: string[] = [];
    for (const file of readdirSync(ws.dir).filter((f) => f.endsWith('.private.jwk.json')))
      secrets.push((JSON.parse(readFileSync(join(ws.dir, file), 'utf8')) as { d: string }).d);
    for (const value of ws.keychain.values())
      secrets.push((JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { d: string }).d);
    expect(secrets).toHaveLength(4);
    const needles = secrets.flatMap((d) => {
      const raw = Buffer.from(d, 'base64url');
      return [d, raw.toString('base64'), raw.toString('hex'), raw.toString('hex').toUpperCase()];
    });
    const all = ws.outputs.join('\n');
    expect(all).toContain('kid');
    for (const needle of needles) expect(all).not.toContain(needle);
    for (const stored of ws.keychain.values()) expect(all).not.toContain(stored);
  });
});
