/** The AgentFacts VC: issued deterministically from an argument time, verified, and its failures located. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateReceiptKeyPair } from '../runtime/receipts';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { issueAgentFactsCredential, VC_UNDEFINED_TERMS_CONTEXT, VC_V2_CONTEXT, verifyCredential } from './agentfacts-credential';
import { didKeyOf } from './did-key';

const ROOT = join(__dirname, '..', '..');
const definition = JSON.parse(readFileSync(join(ROOT, 'examples', 'text-digest', 'agent.json'), 'utf8')) as AgentDefinition;
const ISSUED = '2026-03-01T12:00:00Z';

async function issue(ttlSeconds = 3600) {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  const result = await issueAgentFactsCredential(definition, { target: 'local-mac', port: 4100, ttlSeconds, issuedAt: ISSUED, privateJwk });
  if (!result.ok) throw new Error(JSON.stringify(result.failures));
  return { privateJwk, publicJwk, credential: result.credential };
}

describe('issueAgentFactsCredential', () => {
  it('wraps the facts as a VC 2.0 from the given time, issuer = did:key, validity from the TTL', async () => {
    const { privateJwk, publicJwk, credential } = await issue(7200);
    const did = didKeyOf(publicJwk);
    expect(credential).toMatchObject({
      '@context': [VC_V2_CONTEXT, VC_UNDEFINED_TERMS_CONTEXT],
      type: ['VerifiableCredential', 'AgentFactsCredential'],
      issuer: did,
      validFrom: ISSUED,
      validUntil: '2026-03-01T14:00:00Z',
      credentialSubject: { id: 'kym://agents/text-digest@1.0.0', provider: { did }, ttl: 7200 },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', created: ISSUED, verificationMethod: `${did}#${did!.slice(8)}`, proofPurpose: 'assertionMethod' },
    });
    expect(credential['credentialStatus']).toBeUndefined();
    expect(JSON.stringify(credential)).not.toContain(String(privateJwk.d));
    const again = await issueAgentFactsCredential(definition, { target: 'local-mac', port: 4100, ttlSeconds: 7200, issuedAt: ISSUED, privateJwk });
    expect(again.ok && again.credential).toEqual(credential);
  });

  it('verifies inside its window and fails outside it, at the member that says so', async () => {
    const { credential } = await issue();
    expect(await verifyCredential(credential, { at: '2026-03-01T12:30:00Z' })).toMatchObject({ verified: true, failures: [] });
    const early = await verifyCredential(credential, { at: '2026-03-01T11:59:59Z' });
    expect(early.failures.map((f) => f.pointer)).toEqual(['/validFrom']);
    const late = await verifyCredential(credential, { at: '2026-03-01T13:00:00Z' });
    expect(late.failures.map((f) => f.pointer)).toEqual(['/validUntil']);
  });

  it('fails a changed subject, a foreign issuer, a status entry and a non-AgentFacts subject', async () => {
    const { credential } = await issue();
    const at = '2026-03-01T12:30:00Z';
    const subject = credential['credentialSubject'] as Record<string, unknown>;
    const changed = await verifyCredential({ ...credential, credentialSubject: { ...subject, label: 'Other' } }, { at });
    expect(changed.failures.map((f) => f.pointer)).toEqual(['/proof/proofValue']);
    const issuer = await verifyCredential({ ...credential, issuer: 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2' }, { at });
    expect(issuer.failures.map((f) => f.pointer)).toContain('/issuer');
    const status = await verifyCredential({ ...credential, credentialStatus: { type: 'BitstringStatusListEntry' } }, { at });
    expect(status.failures.map((f) => f.pointer)).toContain('/credentialStatus');
    const { skills: _skills, ...noSkills } = subject;
    const schema = await verifyCredential({ ...credential, credentialSubject: noSkills }, { at });
    expect(schema.failures.map((f) => f.pointer)).toContain('/credentialSubject');
  });

  it('refuses a bad time or key without echoing the key', async () => {
    const { privateJwk } = await generateReceiptKeyPair();
    const noTime = await issueAgentFactsCredential(definition, { target: 'local-mac', port: 1, issuedAt: 'now', privateJwk });
    expect(!noTime.ok && noTime.failures[0]?.pointer).toBe('#/options/issuedAt');
    const noKey = await issueAgentFactsCredential(definition, { target: 'local-mac', port: 1, issuedAt: ISSUED, privateJwk: { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x! } });
    expect(!noKey.ok && noKey.failures[0]?.pointer).toBe('#/options/privateJwk');
    const noPort = await issueAgentFactsCredential(definition, { target: 'local-mac', issuedAt: ISSUED, privateJwk });
    expect(!noPort.ok && noPort.failures[0]?.pointer).toBe('#/options/port');
    expect(JSON.stringify([noTime, noKey, noPort])).not.toContain(String(privateJwk.d));
  });
});
