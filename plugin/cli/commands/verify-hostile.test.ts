/**
 * `agentdef verify` on hostile files and documents: a FIFO or a link to /dev/zero as the document,
 * as `--key` or inside `--keys` is refused at once (never blocking, never growing memory); hostile
 * JSON (deep nesting, huge numbers, proof arrays, `__proto__` members) is answered with exit 1 or
 * 2 and a message, never a crash, and a private key never appears in any output.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../runtime/agent-card';
import { signAgentCard } from '../../runtime/card-signature';
import { jwkThumbprint } from '../../runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import { captureRun } from './test-support';
import { runVerifyCommand, runVerifyCommandWith } from './verify';

const verify = (argv: string[]) => captureRun(runVerifyCommand, argv, dir);
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

let dir: string;
let keys: Awaited<ReturnType<typeof generateReceiptKeyPair>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdef-verify-hostile-'));
  keys = await generateReceiptKeyPair();
  writeFileSync(join(dir, 'public.jwk.json'), JSON.stringify(keys.publicJwk));
  const card = {
    name: 'x',
    description: 'x',
    version: '1.0.0',
    supportedInterfaces: [],
    capabilities: {},
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
  } as unknown as AgentCard;
  writeFileSync(
    join(dir, 'card.json'),
    JSON.stringify(await signAgentCard(card, keys.privateJwk, await jwkThumbprint(keys.publicJwk))),
  );
  symlinkSync('/dev/zero', join(dir, 'zero.json'));
  mkfifo(join(dir, 'fifo.json'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile files', () => {
  it('the document: a FIFO, a link to /dev/zero or a folder is refused with exit 2', async () => {
    mkdirSync(join(dir, 'folder.json'));
    for (const name of ['fifo.json', 'zero.json', 'folder.json']) {
      const run = await verify([name]);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(
        new RegExp(`cannot read ${name.replace('.', '\\.')}: (not a regular file|it is a directory)`),
      );
    }
  });

  it('--key: a FIFO or a link to /dev/zero is refused with exit 2', async () => {
    for (const name of ['fifo.json', 'zero.json']) {
      const run = await verify(['card.json', '--key', name]);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toContain(`cannot read ${name}: not a regular file`);
    }
  });

  it('--keys: a FIFO or a link to /dev/zero in the folder is skipped with a note; the real key still verifies', async () => {
    mkdirSync(join(dir, 'keys'));
    writeFileSync(join(dir, 'keys/good.json'), JSON.stringify(keys.publicJwk));
    symlinkSync('/dev/zero', join(dir, 'keys/a-zero.json'));
    mkfifo(join(dir, 'keys/b-fifo.json'));
    const run = await verify(['card.json', '--keys', 'keys']);
    expect(run.stderr).toContain('note: skipped cannot read keys/a-zero.json: not a regular file');
    expect(run.stderr).toContain('note: skipped cannot read keys/b-fifo.json: not a regular file');
    expect(run.code).toBe(0);
  });
});

describe('hostile documents', () => {
  const deep = (n: number, inner: string) => `${'{"a":'.repeat(n)}${inner}${'}'.repeat(n)}`;
  const cases: Record<string, string> = {
    'deep-proof.json': `{"proof":${deep(100_000, '1')}}`,
    'deep-card.json': `{"skills":[],"signatures":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    'deep-receipt.json': `{"receiptVersion":"receipt/v1","x":${deep(100_000, '1')}}`,
    'huge-number.json':
      '{"proof":{"type":"DataIntegrityProof","cryptosuite":"eddsa-jcs-2022","created":1e999999,"proofValue":"z1"}}',
    'proof-array.json': `{"type":["VerifiableCredential"],"proof":[${'{"type":"DataIntegrityProof"},'.repeat(1000)}{}]}`,
    'proto.json':
      '{"__proto__":{"proof":1},"proof":{"__proto__":{"type":"DataIntegrityProof"},"constructor":{}},"type":["VerifiableCredential"],"issuer":{"__proto__":null}}',
    'proto-card.json':
      '{"__proto__":{"signatures":[]},"skills":[],"signatures":[{"__proto__":{"protected":"e30"},"protected":"e30","signature":"AA"}]}',
    'lifecycle.json':
      '{"receiptVersion":"lifecycle-receipt/v1","__proto__":{"signature":{}},"signature":{"__proto__":{"kid":"x"}}}',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`${name}: exit 1 or 2 with a message, never a crash`, async () => {
      writeFileSync(join(dir, name), text);
      for (const format of ['text', 'json']) {
        const run = await verify([name, '--key', 'public.jwk.json', '--format', format]);
        expect([1, 2], `${name} ${format}: ${run.stderr}`).toContain(run.code);
        expect(run.stdout + run.stderr).not.toContain('internal error');
        expect(run.stdout + run.stderr).not.toContain(keys.privateJwk.d);
        if (format === 'json' && run.code === 1) expect(() => JSON.parse(run.stdout)).not.toThrow();
      }
    });
  }
});

describe('a hostile local key store (verify without --key or --keys reads its public files)', () => {
  it('a link (even to the right key), a FIFO or a link to /dev/zero as a public key file is never used: nothing hangs, nothing verifies by it', async () => {
    const store = join(dir, 'hostile-store');
    mkdirSync(store);
    symlinkSync(join(dir, 'public.jwk.json'), join(store, 'linked.public.jwk.json'));
    mkfifo(join(store, 'fifo.public.jwk.json'));
    symlinkSync('/dev/zero', join(store, 'zero.public.jwk.json'));
    writeFileSync(join(store, 'huge.public.jwk.json'), ' '.repeat(70 * 1024));
    const options = { env: { AGENTDEF_KEYS_DIR: store, AGENTDEF_KEYCHAIN: 'off' }, keychain: 'off' as const };
    const run = await captureRun((argv, io) => runVerifyCommandWith(argv, io, options), ['card.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NOT verified agent-card');
    expect(run.stderr).toContain('note: with neither --key nor --keys, each kid was looked up in the local key store');
    // The same key as a regular public file verifies, and says where it came from.
    writeFileSync(join(store, 'real.public.jwk.json'), JSON.stringify(keys.publicJwk));
    const real = await captureRun((argv, io) => runVerifyCommandWith(argv, io, options), ['card.json'], dir);
    expect(real.code).toBe(0);
    expect(real.stdout).toContain('keyref:real, public key from the local key store');
  });
});
