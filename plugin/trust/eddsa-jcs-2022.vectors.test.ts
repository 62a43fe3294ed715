/**
 * The W3C eddsa-jcs-2022 test vectors (vc-di-eddsa TestVectors/eddsa-jcs-2022, copied unedited to
 * e2e/fixtures/conformance/vc/): every intermediate and the proof reproduced byte for byte from
 * the vector's key pair and unsigned document, the signed vector verified as it is, and any
 * one-character change to it refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import oracleCanonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { multibaseBase58btcDecode } from './base58btc';
import { createEddsaJcs2022Proof, type ProofOptions, verifyEddsaJcs2022 } from './data-integrity';
import { resolveDidKey } from './did-key';
import { decodeEd25519PublicMultikey, decodeEd25519SecretMultikey, privateJwkOfBytes } from './multikey';

const VECTORS = join(__dirname, '..', '..', 'e2e', 'fixtures', 'conformance', 'vc', 'vc-di-eddsa-TestVectors');
const text = (name: string) => readFileSync(join(VECTORS, name), 'utf8');
const json = (name: string) => JSON.parse(text(name)) as Record<string, unknown>;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const keyPair = json('keyPair.json') as { publicKeyMultibase: string; privateKeyMultibase: string };
const unsigned = json('unsigned.json');
const proofConfigVector = json('eddsa-jcs-2022/proofConfigJCS.json');
const signed = json('eddsa-jcs-2022/signedJCS.json');
const signedText = text('eddsa-jcs-2022/signedJCS.json');

function vectorPrivateJwk(): JsonWebKey {
  const seed = decodeEd25519SecretMultikey(keyPair.privateKeyMultibase);
  const pub = decodeEd25519PublicMultikey(keyPair.publicKeyMultibase);
  if (!seed.ok || !pub.ok) throw new Error('vector key pair does not decode');
  return privateJwkOfBytes(seed.bytes, pub.bytes);
}

/** The proof options of the vector: its proof configuration without the @context that Create Proof adds itself. */
function vectorProofOptions(): ProofOptions {
  const { '@context': _context, ...options } = proofConfigVector;
  return options as ProofOptions;
}

describe('eddsa-jcs-2022 vector (Alumni Credential, keyPair.json)', () => {
  it('decodes the Multikey pair to an Ed25519 seed whose public key is the vector public key', async () => {
    const seed = decodeEd25519SecretMultikey(keyPair.privateKeyMultibase);
    const pub = decodeEd25519PublicMultikey(keyPair.publicKeyMultibase);
    expect(seed.ok && pub.ok).toBe(true);
    if (!seed.ok || !pub.ok) return;
    expect(hex(await ed.getPublicKeyAsync(seed.bytes))).toBe(hex(pub.bytes));
    const resolved = resolveDidKey(proofConfigVector['verificationMethod']);
    expect(resolved.ok && hex(resolved.publicKey)).toBe(hex(pub.bytes));
  });

  it('reproduces every intermediate and the proof byte for byte', async () => {
    const created = await createEddsaJcs2022Proof(unsigned, vectorProofOptions(), vectorPrivateJwk());
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const { trace, proof, signature } = created;
    // proofConfigJCS.json: the proof configuration, with the document's @context (§3.3.1 step 2).
    expect(trace.proofConfig).toEqual(proofConfigVector);
    expect(trace.canonicalProofConfig).toBe(text('eddsa-jcs-2022/proofCanonJCS.txt').trim());
    expect(trace.canonicalDocument).toBe(text('eddsa-jcs-2022/canonDocJCS.txt').trim());
    // The project's canonicalizer agrees with the independent npm one on both inputs.
    expect(trace.canonicalDocument).toBe(oracleCanonicalize(unsigned));
    expect(trace.canonicalProofConfig).toBe(oracleCanonicalize(proofConfigVector));
    expect(hex(trace.proofConfigHash)).toBe(text('eddsa-jcs-2022/proofHashJCS.txt').trim());
    expect(hex(trace.documentHash)).toBe(text('eddsa-jcs-2022/docHashJCS.txt').trim());
    expect(hex(trace.hashData)).toBe(text('eddsa-jcs-2022/combinedHashJCS.txt').trim());
    expect(hex(signature)).toBe(text('eddsa-jcs-2022/sigHexJCS.txt').trim());
    expect(proof.proofValue).toBe(text('eddsa-jcs-2022/sigBTC58JCS.txt').trim());
    expect({ ...unsigned, proof }).toEqual(signed);
  });

  it('the base58btc proofValue is the hex signature', () => {
    const decoded = multibaseBase58btcDecode(text('eddsa-jcs-2022/sigBTC58JCS.txt').trim());
    expect(decoded && hex(decoded)).toBe(text('eddsa-jcs-2022/sigHexJCS.txt').trim());
  });

  it('verifies the signed vector as it is, resolving its did:key', async () => {
    const result = await verifyEddsaJcs2022(signed);
    expect(result.failures).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.controller).toBe('did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2');
    expect(result.trace && hex(result.trace.hashData)).toBe(text('eddsa-jcs-2022/combinedHashJCS.txt').trim());
  });

  it('refuses the signed vector after any one-character change inside any string value', async () => {
    // Every position of every string in the file (keys and values): each change is a new
    // character at that position that keeps the text JSON.
    const positions: number[] = [];
    let inString = false;
    for (let i = 0; i < signedText.length; i++) {
      const ch = signedText[i];
      if (ch === '"') inString = !inString;
      else if (inString && ch !== '\\') positions.push(i);
    }
    expect(positions.length).toBeGreaterThan(500);
    let refused = 0;
    for (const at of positions) {
      const original = signedText[at]!;
      const replacement = original === 'a' ? 'b' : 'a';
      const changedText = signedText.slice(0, at) + replacement + signedText.slice(at + 1);
      const changed = JSON.parse(changedText) as unknown;
      const result = await verifyEddsaJcs2022(changed);
      expect(result.verified, `change at offset ${at} (${JSON.stringify(original)} -> ${replacement}) verified`).toBe(
        false,
      );
      expect(result.failures.length).toBeGreaterThan(0);
      refused++;
    }
    expect(refused).toBe(positions.length);
  });
});
