/** eddsa-jcs-2022 create/verify with generated keys: round trip, and located failures. */
import { describe, expect, it } from 'vitest';
import { generateReceiptKeyPair } from '../runtime/receipts';
import { createEddsaJcs2022Proof, type ProofOptions, signEddsaJcs2022, verifyEddsaJcs2022 } from './data-integrity';
import { didKeyOf, didKeyVerificationMethod } from './did-key';

async function signer() {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  const did = didKeyOf(publicJwk)!;
  const options: ProofOptions = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created: '2026-01-02T03:04:05Z',
    verificationMethod: didKeyVerificationMethod(did),
    proofPurpose: 'assertionMethod',
  };
  return { privateJwk, publicJwk, did, options };
}

const DOC = {
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential'],
  issuer: 'did:example:1',
  credentialSubject: { name: 'é 😀 "q"', n: 1.5 },
};

describe('eddsa-jcs-2022 create and verify', () => {
  it('signs and verifies; the proof carries the document @context; signing is deterministic', async () => {
    const { privateJwk, did, options } = await signer();
    const first = await signEddsaJcs2022(DOC, options, privateJwk);
    const second = await signEddsaJcs2022(DOC, options, privateJwk);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(first.document).toEqual(second.document);
    expect((first.document['proof'] as Record<string, unknown>)['@context']).toEqual(DOC['@context']);
    const result = await verifyEddsaJcs2022(first.document);
    expect(result).toMatchObject({ verified: true, failures: [], controller: did });
    expect(JSON.stringify(first.document)).not.toContain(String(privateJwk.d));
  });

  it('locates what failed', async () => {
    const { privateJwk, options } = await signer();
    const signed = await signEddsaJcs2022(DOC, options, privateJwk);
    if (!signed.ok) throw new Error('sign failed');
    const proof = signed.document['proof'] as Record<string, unknown>;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...signed.document, credentialSubject: { ...DOC.credentialSubject, n: 2 } }, '/proof/proofValue'],
      [{ ...signed.document, proof: { ...proof, cryptosuite: 'eddsa-rdfc-2022' } }, '/proof/cryptosuite'],
      [{ ...signed.document, proof: { ...proof, type: 'Ed25519Signature2020' } }, '/proof/type'],
      [{ ...signed.document, proof: { ...proof, created: 'yesterday' } }, '/proof/created'],
      [{ ...signed.document, proof: { ...proof, proofPurpose: 'authentication' } }, '/proof/proofPurpose'],
      [{ ...signed.document, proof: { ...proof, proofValue: 'u123' } }, '/proof/proofValue'],
      [{ ...signed.document, proof: { ...proof, proofValue: 'z11' } }, '/proof/proofValue'],
      [
        { ...signed.document, proof: { ...proof, verificationMethod: 'https://example.com/key' } },
        '/proof/verificationMethod',
      ],
      [{ ...signed.document, '@context': ['https://example.com/other'] }, '/proof/@context'],
      [{ ...DOC }, '/proof'],
      [{ ...signed.document, proof: [proof] }, '/proof'],
    ];
    for (const [document, pointer] of cases) {
      const result = await verifyEddsaJcs2022(document);
      expect(result.verified).toBe(false);
      expect(
        result.failures.map((f) => f.pointer),
        pointer,
      ).toContain(pointer);
    }
    expect((await verifyEddsaJcs2022('text')).failures[0]?.pointer).toBe('');
  });

  it('verifies another key through the resolver, and fails with the wrong one', async () => {
    const { privateJwk, publicJwk } = await signer();
    const other = await signer();
    const options: ProofOptions = {
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-jcs-2022',
      verificationMethod: 'https://issuer.example/keys/1',
      proofPurpose: 'assertionMethod',
    };
    const signed = await signEddsaJcs2022(DOC, options, privateJwk);
    if (!signed.ok) throw new Error('sign failed');
    expect((await verifyEddsaJcs2022(signed.document, { resolveVerificationMethod: () => publicJwk })).verified).toBe(
      true,
    );
    const wrong = await verifyEddsaJcs2022(signed.document, { resolveVerificationMethod: () => other.publicJwk });
    expect(wrong.failures.map((f) => f.pointer)).toEqual(['/proof/proofValue']);
  });

  it('refuses to sign with a key that is not the did:key, or is no private key, without echoing it', async () => {
    const { privateJwk, options } = await signer();
    const other = await signer();
    const mismatch = await createEddsaJcs2022Proof(DOC, other.options, privateJwk);
    expect(mismatch.ok).toBe(false);
    const noD = await createEddsaJcs2022Proof(DOC, options, { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x! });
    expect(noD.ok).toBe(false);
    const badD = await createEddsaJcs2022Proof(DOC, options, { ...privateJwk, d: 'AAAA' });
    expect(badD.ok).toBe(false);
    expect(JSON.stringify([mismatch, noD, badD])).not.toContain(String(privateJwk.d));
    const lone = await createEddsaJcs2022Proof({ s: '\uD800' }, options, privateJwk);
    expect(!lone.ok && lone.failures[0]?.pointer).toBe('');
  });
});
