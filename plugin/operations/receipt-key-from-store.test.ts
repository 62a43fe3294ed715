/** The run receipts' key for a host eval starts: the secret first, else the receipt signer's key from the key store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey, loadPrivateKey } from '../hosts/node/key-store';
import type { SecretSource } from '../hosts/node/secret-source';
import { withReceiptKeyFromStore } from './receipt-key-from-store';

const root = mkdtempSync(join(__dirname, '.tmp-receipt-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const keyStore = { env: { AGENTDEF_KEYS_DIR: join(root, 'keys') }, keychain: 'off' as const };
const source = (values: Record<string, string>): SecretSource => ({ get: async (name) => values[name] });

describe('withReceiptKeyFromStore', () => {
  it("gives the receipt signer's private key from the key store when the secret is not set", async () => {
    const generated = await generateKey('keyref:acme-agents', keyStore);
    expect(generated.ok).toBe(true);
    const stored = await loadPrivateKey('keyref:acme-agents', keyStore);
    if (!stored.ok) throw new Error(stored.message);
    const secrets = withReceiptKeyFromStore(source({ OPENAI_API_KEY: 'sk-x' }), 'keyref:acme-agents', keyStore);
    expect(JSON.parse((await secrets.get('AGENTDEF_RECEIPT_KEY')) ?? 'null')).toEqual(stored.privateJwk);
    expect(await secrets.get('OPENAI_API_KEY')).toBe('sk-x');
    expect(await secrets.get('ANTHROPIC_API_KEY')).toBeUndefined();
  });

  it('keeps a secret that is set, and adds nothing for a signer with no key or no keyref', async () => {
    const set = withReceiptKeyFromStore(
      source({ AGENTDEF_RECEIPT_KEY: '{"kty":"OKP"}' }),
      'keyref:acme-agents',
      keyStore,
    );
    expect(await set.get('AGENTDEF_RECEIPT_KEY')).toBe('{"kty":"OKP"}');
    expect(
      await withReceiptKeyFromStore(source({}), 'keyref:nobody', keyStore).get('AGENTDEF_RECEIPT_KEY'),
    ).toBeUndefined();
    expect(await withReceiptKeyFromStore(source({}), null, keyStore).get('AGENTDEF_RECEIPT_KEY')).toBeUndefined();
  });
});
