/**
 * The run receipts' signing key for a host an operation starts itself (`agentdef eval`): the
 * `AGENTDEF_RECEIPT_KEY` secret as the host would read it (keychain, `AGENTDEF_SECRET_…`), else the
 * private key of the definition's receipt signer `keyref:<name>` from this machine's key store, as
 * the local launcher resolves it. So one `agentdef keys generate keyref:<name>` serves every target:
 * a Worker or HB3 host, which only reads the secret, gets the same key the key store holds.
 */
import { RECEIPT_KEY_BINDING } from '../compiler/runtime-config';
import { type KeyStoreOptions, loadPrivateKey } from '../hosts/node/key-store';
import type { SecretSource } from '../hosts/node/secret-source';

export function withReceiptKeyFromStore(
  source: SecretSource,
  receiptSigner: string | null | undefined,
  keyStore: KeyStoreOptions,
): SecretSource {
  if (typeof receiptSigner !== 'string' || !receiptSigner.startsWith('keyref:')) return source;
  return {
    async get(name) {
      const value = await source.get(name);
      if (value !== undefined || name !== RECEIPT_KEY_BINDING) return value;
      const key = await loadPrivateKey(receiptSigner, keyStore);
      return key.ok ? JSON.stringify(key.privateJwk) : undefined;
    },
  };
}
