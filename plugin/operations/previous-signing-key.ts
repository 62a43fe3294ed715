/**
 * The previous version's private signing key, for the rotation record `agentdef publish` writes
 * when a version is signed by another key than the version before it (trust/key-rotation.ts: the
 * old key hands over to the new one). Looked for, in this order, and taken only if it really is
 * the key that signed the previous version (its did:key is that version's credential issuer):
 * 1. `--previous-key`: a `keyref:<name>` of the key store, or a private JWK file (mode 0600);
 * 2. the previous snapshot's `identity.signingKeyRef`;
 * 3. the key-store key whose public file has the previous signer's kid (keys folder, then that
 *    ref's private key from the keychain or the folder).
 * When none is, says what to pass. Never throws; never a private member in a message.
 */
import { isAbsolute, resolve } from 'node:path';
import {
  findLocalPublicKey,
  KEY_REF_PREFIX,
  type KeyStoreOptions,
  loadPrivateKey,
  loadPrivateKeyFile,
  parseKeyRef,
} from '../hosts/node/key-store';
import { didKeyOf } from '../trust/did-key';

export interface PreviousSigner {
  slug: string;
  version: string;
  /** The did:key that signed the previous version. */
  did: string;
  /** Its RFC 7638 thumbprint (the kid its card names). */
  kid: string;
}

export type PreviousKey = { ok: true; privateJwk: JsonWebKey; shown: string } | { ok: false; message: string };

function didOf(privateJwk: JsonWebKey): string | undefined {
  return didKeyOf({ kty: 'OKP', crv: 'Ed25519', x: privateJwk.x } as JsonWebKey);
}

/** The signing-key reference a snapshot names (`identity.signingKeyRef`), if it is one. */
export function snapshotKeyRef(snapshot: unknown): string | undefined {
  const identity =
    snapshot !== null && typeof snapshot === 'object' ? (snapshot as Record<string, unknown>)['identity'] : undefined;
  const ref =
    identity !== null && typeof identity === 'object'
      ? (identity as Record<string, unknown>)['signingKeyRef']
      : undefined;
  return typeof ref === 'string' && parseKeyRef(ref).ok ? ref : undefined;
}

/**
 * The private key that signed `previous` (see the header). `explicit` is `--previous-key` as given
 * (a ref, or a file path relative to `cwd`); `snapshotRef` the previous snapshot's signingKeyRef.
 */
export async function findPreviousSigningKey(
  previous: PreviousSigner,
  explicit: string | undefined,
  snapshotRef: string | undefined,
  cwd: string,
  keyStore: KeyStoreOptions,
): Promise<PreviousKey> {
  const names = `${previous.slug}@${previous.version} (kid ${previous.kid}, ${previous.did})`;
  if (explicit !== undefined) {
    const isRef = explicit.startsWith(KEY_REF_PREFIX);
    const loaded = isRef
      ? await loadPrivateKey(explicit, keyStore)
      : await loadPrivateKeyFile(isAbsolute(explicit) ? explicit : resolve(cwd, explicit), explicit, keyStore);
    if (!loaded.ok) return { ok: false, message: `--previous-key ${isRef ? explicit : 'file'}: ${loaded.message}` };
    if (didOf(loaded.privateJwk) !== previous.did)
      return {
        ok: false,
        message: `--previous-key ${explicit} is the key with kid ${loaded.kid}, not the key that signed ${names}: name the key that signed the previous version`,
      };
    return { ok: true, privateJwk: loaded.privateJwk, shown: isRef ? explicit : 'the --previous-key file' };
  }
  const tried: string[] = [];
  const tryRef = async (ref: string): Promise<PreviousKey | undefined> => {
    if (tried.includes(ref)) return undefined;
    tried.push(ref);
    const loaded = await loadPrivateKey(ref, keyStore);
    return loaded.ok && didOf(loaded.privateJwk) === previous.did
      ? { ok: true, privateJwk: loaded.privateJwk, shown: ref }
      : undefined;
  };
  const fromSnapshot = snapshotRef !== undefined ? await tryRef(snapshotRef) : undefined;
  if (fromSnapshot !== undefined) return fromSnapshot;
  const byKid = await findLocalPublicKey(previous.kid, keyStore);
  const fromStore = byKid !== undefined ? await tryRef(byKid.ref) : undefined;
  if (fromStore !== undefined) return fromStore;
  const looked = tried.length > 0 ? `; tried ${tried.join(', ')}` : '';
  return {
    ok: false,
    message: `the signing key changed since ${names}, so publish records the hand-over (<version>.rotation.json) signed by the previous key, and the key store holds no private key for kid ${previous.kid}${looked}: pass --previous-key ${KEY_REF_PREFIX}<name> (the previous key's ref) or --previous-key <file> (its private JWK, mode 0600)`,
  };
}
