/**
 * A recorded signing-key rotation in a folder registry: `<slug>/<version>.rotation.json`, written
 * where a version's exports are signed by another key than the previous version's. The old key
 * hands over to the new one: an eddsa-jcs-2022 Data Integrity proof (did:key, offline) by the
 * **old** key over
 *
 * ```json
 * { "@context": ["https://www.w3.org/ns/credentials/v2"], "type": "AgentdefKeyRotation",
 *   "slug": "<slug>", "previousVersion": "<x.y.z>", "version": "<first version the new key signs>",
 *   "from": "did:key:<old>", "to": "did:key:<new>", "proof": { … } }
 * ```
 *
 * `registry verify` accepts a signer change between two versions of a slug only with such a
 * record, naming exactly those versions and keys, whose proof verifies with the `from` key; it
 * reports the rotation. Whoever holds only the new key cannot make one. Never throws.
 */
import { DATA_INTEGRITY_PROOF, EDDSA_JCS_2022, signEddsaJcs2022, verifyEddsaJcs2022 } from './data-integrity';
import { didKeyOf, didKeyVerificationMethod, resolveDidKey } from './did-key';

export const KEY_ROTATION_TYPE = 'AgentdefKeyRotation';
const CONTEXT = 'https://www.w3.org/ns/credentials/v2';

export interface KeyRotation {
  slug: string;
  previousVersion: string;
  version: string;
  /** did:key of the key that signed `previousVersion`. */
  from: string;
  /** did:key of the key that signs `version`. */
  to: string;
}

/** The rotation record, signed by the old key (`oldPrivateJwk`, whose did:key must be `from`) at `created`. */
export async function signKeyRotation(
  rotation: KeyRotation,
  oldPrivateJwk: JsonWebKey,
  created: string,
): Promise<{ ok: true; document: Record<string, unknown> } | { ok: false; message: string }> {
  const signer = didKeyOf({ kty: 'OKP', crv: 'Ed25519', x: oldPrivateJwk.x } as JsonWebKey);
  if (signer === undefined || signer !== rotation.from)
    return { ok: false, message: 'a rotation is signed by the old key: the key given is not the one `from` names' };
  const signed = await signEddsaJcs2022(
    {
      '@context': [CONTEXT],
      type: KEY_ROTATION_TYPE,
      slug: rotation.slug,
      previousVersion: rotation.previousVersion,
      version: rotation.version,
      from: rotation.from,
      to: rotation.to,
    },
    {
      type: DATA_INTEGRITY_PROOF,
      cryptosuite: EDDSA_JCS_2022,
      verificationMethod: didKeyVerificationMethod(signer),
      proofPurpose: 'assertionMethod',
      created,
    },
    oldPrivateJwk,
  );
  return signed.ok
    ? { ok: true, document: signed.document }
    : { ok: false, message: signed.failures.map((f) => f.message).join('; ') };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Why `document` does not record the rotation `expected`, or undefined when it does: the fields
 * name exactly `expected`, and the proof verifies with the `from` key (the old one).
 */
export async function keyRotationProblem(document: unknown, expected: KeyRotation): Promise<string | undefined> {
  if (!isRecord(document)) return 'not a JSON object';
  if (document['type'] !== KEY_ROTATION_TYPE) return `type must be "${KEY_ROTATION_TYPE}"`;
  for (const member of ['slug', 'previousVersion', 'version', 'from', 'to'] as const)
    if (document[member] !== expected[member])
      return `${member} is ${JSON.stringify(document[member] ?? null)}, not ${JSON.stringify(expected[member])}`;
  const proof = await verifyEddsaJcs2022(document);
  if (!proof.verified)
    return `its proof does not verify (${proof.failures.map((f) => `${f.pointer || '(document)'}: ${f.message}`).join('; ')})`;
  const signer = resolveDidKey(proof.verificationMethod);
  if (!signer.ok || signer.did !== expected.from) return 'it is not signed by the old key (`from`)';
  return undefined;
}
