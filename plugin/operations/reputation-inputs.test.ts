/** The trust folder and the receipt streams `agentdef reputation` reads (reputation-inputs.ts). */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSigner } from '../reputation/__test-support__/signed-receipts';
import { readReceiptLines, readTrustFolder } from './reputation-inputs';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-reputation-inputs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeKey(path: string, jwk: JsonWebKey): void {
  writeFileSync(join(root, path), JSON.stringify(jwk), { mode: 0o600 });
}

describe('readTrustFolder', () => {
  it('trusts a top-level key for every agent and a slug subfolder key for that slug only; refuses private keys', async () => {
    const [everyone, scoped, secret] = await Promise.all([newSigner(), newSigner(), newSigner()]);
    mkdirSync(join(root, 'trust/text-stats'), { recursive: true, mode: 0o700 });
    chmodSync(join(root, 'trust'), 0o700);
    writeKey('trust/everyone.json', everyone.publicJwk);
    writeKey('trust/text-stats/scoped.json', scoped.publicJwk);
    writeKey('trust/private.json', secret.privateJwk);
    const read = await readTrustFolder('trust', root);
    if (!read.ok) throw new Error(read.message);
    expect(await read.value(everyone.kid)).toEqual({ publicJwk: expect.objectContaining({ x: everyone.publicJwk.x }) });
    expect(await read.value(scoped.kid)).toEqual({
      publicJwk: expect.objectContaining({ x: scoped.publicJwk.x }),
      slugs: ['text-stats'],
    });
    expect(await read.value(secret.kid)).toBeUndefined();
    expect(read.notes.join('\n')).toMatch(/trust\/private\.json holds a private key/);
    expect(read.notes.join('\n')).not.toContain(String(secret.privateJwk.d));
  });

  it('reads a key saved as .jwk (as the docs save `keys export-public`) and ignores other files', async () => {
    const [jwk, other] = await Promise.all([newSigner(), newSigner()]);
    mkdirSync(join(root, 'trust'), { mode: 0o700 });
    chmodSync(join(root, 'trust'), 0o700);
    writeKey('trust/signing-key.public.jwk', jwk.publicJwk);
    writeKey('trust/notes.txt', other.publicJwk);
    const read = await readTrustFolder('trust', root);
    if (!read.ok) throw new Error(read.message);
    expect(await read.value(jwk.kid)).toEqual({ publicJwk: expect.objectContaining({ x: jwk.publicJwk.x }) });
    expect(await read.value(other.kid)).toBeUndefined();
  });

  it('refuses a folder others can write', async () => {
    mkdirSync(join(root, 'trust'));
    chmodSync(join(root, 'trust'), 0o777);
    const read = await readTrustFolder('trust', root);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.message).toMatch(/can be written by group or others/);
  });
});

describe('readReceiptLines', () => {
  it('reads JSON Lines and whole eval receipts from files and folders, in a stable order, naming each line', () => {
    mkdirSync(join(root, 'receipts/nested'), { recursive: true });
    writeFileSync(join(root, 'receipts/b.jsonl'), '{"a":1}\n\n{"a":2}\n');
    writeFileSync(join(root, 'receipts/nested/eval.receipt.json'), '{\n  "a": 3\n}\n');
    writeFileSync(join(root, 'receipts/notes.json'), '{"not": "a receipt file name"}\n');
    const read = readReceiptLines(['receipts'], root);
    if (!read.ok) throw new Error(read.message);
    expect(read.value.map((l) => `${l.source}:${l.line}`)).toEqual([
      'receipts/b.jsonl:1',
      'receipts/b.jsonl:3',
      'receipts/nested/eval.receipt.json:1',
    ]);
    expect(readReceiptLines(['missing'], root)).toEqual({
      ok: false,
      message: 'cannot read missing: no such file or folder',
    });
  });
});
