import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretSource, envSecretSource, howToProvideSecret, keychainCommand } from './secret-source';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the local secret source', () => {
  it('asks the macOS keychain with security find-generic-password and trims its newline', async () => {
    const calls: string[][] = [];
    const source = createSecretSource({
      platform: 'darwin',
      env: {},
      exec: async (command, args) => (calls.push([command, ...args]), 'sk-from-keychain\n'),
    });
    expect(await source.get('OPENAI_API_KEY')).toBe('sk-from-keychain');
    expect(calls).toEqual([['security', 'find-generic-password', '-s', 'agentdef', '-a', 'OPENAI_API_KEY', '-w']]);
  });

  it('asks libsecret with secret-tool lookup on Linux', async () => {
    expect(keychainCommand('linux', 'X')).toEqual({
      command: 'secret-tool',
      args: ['lookup', 'service', 'agentdef', 'name', 'X'],
    });
    expect(keychainCommand('win32', 'X')).toBeUndefined();
  });

  it('falls back to AGENTDEF_SECRET_<NAME> when the keychain has no entry, and says undefined when neither has it', async () => {
    const source = createSecretSource({
      platform: 'linux',
      env: { AGENTDEF_SECRET_A: 'from-env', B: 'plain-env-is-not-read' },
      exec: async () => undefined,
    });
    expect(await source.get('A')).toBe('from-env');
    expect(await source.get('B')).toBeUndefined();
  });

  it('prefers the keychain over the environment, and skips it when AGENTDEF_KEYCHAIN=off', async () => {
    let asked = 0;
    const exec = async () => (asked++, 'kc');
    expect(await createSecretSource({ platform: 'linux', env: { AGENTDEF_SECRET_A: 'env' }, exec }).get('A')).toBe(
      'kc',
    );
    expect(
      await createSecretSource({
        platform: 'linux',
        env: { AGENTDEF_SECRET_A: 'env', AGENTDEF_KEYCHAIN: 'off' },
        exec,
      }).get('A'),
    ).toBe('env');
    expect(asked).toBe(1);
  });

  it('runs the real keychain command found on PATH (a stand-in secret-tool), and survives its absence', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'agentdef-keychain-'));
    dirs.push(bin);
    const script = join(bin, 'secret-tool');
    writeFileSync(
      script,
      '#!/bin/sh\n[ "$1 $2 $3 $4" = "lookup service agentdef name" ] || exit 2\n[ "$5" = "RECEIPT_KEY" ] && { printf \'{"kty":"OKP"}\\n\'; exit 0; }\nexit 1\n',
    );
    chmodSync(script, 0o755);
    const previous = process.env['PATH'];
    process.env['PATH'] = `${bin}:${previous ?? ''}`;
    try {
      const source = createSecretSource({ platform: 'linux', env: { AGENTDEF_SECRET_OTHER: 'env-value' } });
      expect(await source.get('RECEIPT_KEY')).toBe('{"kty":"OKP"}');
      expect(await source.get('OTHER')).toBe('env-value');
      expect(await source.get('MISSING')).toBeUndefined();
    } finally {
      process.env['PATH'] = previous;
    }
    process.env['PATH'] = join(bin, 'nothing-here');
    try {
      expect(await createSecretSource({ platform: 'linux', env: { AGENTDEF_SECRET_X: 'v' } }).get('X')).toBe('v');
    } finally {
      process.env['PATH'] = previous;
    }
  });

  it('says how to store a secret on each platform', () => {
    expect(howToProvideSecret('K', 'darwin')).toBe(
      'add it with `security add-generic-password -s agentdef -a K -w` or set AGENTDEF_SECRET_K',
    );
    expect(howToProvideSecret('K', 'linux')).toBe(
      'add it with `secret-tool store --label=agentdef service agentdef name K` or set AGENTDEF_SECRET_K',
    );
    expect(howToProvideSecret('K', 'win32')).toBe('set AGENTDEF_SECRET_K');
  });

  it('reads container secrets from variables named like the bindings', async () => {
    const source = envSecretSource({ OPENAI_API_KEY: 'sk', EMPTY: '' });
    expect(await source.get('OPENAI_API_KEY')).toBe('sk');
    expect(await source.get('EMPTY')).toBeUndefined();
  });
});
