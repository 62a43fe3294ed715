/** The AgentFacts VC: issued deterministically from an argument time, verified, and its failures located. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateReceiptKeyPair } from '../runtime/receipts';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import {
  issueAgentFactsCredential,
  VC_UNDEFINED_TERMS_CONTEXT,
  VC_V2_CONTEXT,
  verifyCredential,
} from './agentfacts-credential';
import { type DataIntegrityProof, dateTimeStampMillis, signEddsaJcs2022 } from './data-integrity';
import { didKeyOf } from './did-key';

const ROOT = join(__dirname, '..', '..');
const definition = JSON.parse(
  readFileSync(join(ROOT, 'examples', 'text-digest', 'agent.json'), 'utf8'),
) as AgentDefinition;
const ISSUED = '2026-03-01T12:00:00Z';

async function issue(ttlSeconds = 3600) {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  const result = await issueAgentFactsCredential(definition, {
    target: 'local-mac',
    port: 4100,
    ttlSeconds,
    issuedAt: ISSUED,
    privateJwk,
  });
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
      proof: {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-jcs-2022',
        created: ISSUED,
        verificationMethod: `${did}#${did!.slice(8)}`,
        proofPurpose: 'assertionMethod',
      },
    });
    expect(credential['credentialStatus']).toBeUndefined();
    expect(JSON.stringify(credential)).not.toContain(String(privateJwk.d));
    const again = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 4100,
      ttlSeconds: 7200,
      issuedAt: ISSUED,
      privateJwk,
    });
    expect(again.ok && again.credential).toEqual(credential);
  });

  it('verifies inside its window and fails outside it, at the member that says so', async () => {
    const { credential } = await issue();
    expect(await verifyCredential(credential, { at: '2026-03-01T12:30:00Z' })).toMatchObject({
      verified: true,
      failures: [],
    });
    const early = await verifyCredential(credential, { at: '2026-03-01T11:59:59Z' });
    // Before validFrom is also before the proof was created (issue 23: a proof created after the time checked fails).
    expect(early.failures.map((f) => f.pointer)).toEqual(['/validFrom', '/proof/created']);
    const late = await verifyCredential(credential, { at: '2026-03-01T13:00:00Z' });
    expect(late.failures.map((f) => f.pointer)).toEqual(['/validUntil']);
  });

  it("reads the window and the proof's expiry as instants: no host time zone, no year Date.parse cannot hold, no day the month lacks", async () => {
    const { privateJwk, credential } = await issue();
    const { proof, ...unsigned } = credential as Record<string, unknown> & { proof: DataIntegrityProof };
    const { proofValue: _value, ...proofOptions } = proof;
    const resigned = async (changes: Record<string, unknown>, extraProof: Record<string, unknown> = {}) => {
      const signed = await signEddsaJcs2022(
        { ...unsigned, ...changes },
        { ...proofOptions, ...extraProof },
        privateJwk,
      );
      if (!signed.ok) throw new Error(JSON.stringify(signed.failures));
      return verifyCredential(signed.document, { at: '2026-03-01T12:30:00Z' });
    };
    const pointers = async (changes: Record<string, unknown>, extraProof?: Record<string, unknown>) =>
      (await resigned(changes, extraProof)).failures.map((f) => f.pointer);
    expect(await pointers({})).toEqual([]);
    // Date.parse gives NaN for these years, which skipped the check
    expect(await pointers({ validFrom: '99999-01-01T00:00:00Z' })).toEqual(['/validFrom']);
    expect(await pointers({ validUntil: '-0001-01-01T00:00:00Z' })).toEqual(['/validUntil']);
    expect(await pointers({ validUntil: '0099-01-01T00:00:00Z' })).toEqual(['/validUntil']); // not 1999
    // an offset counts: 14:30+02:00 is 12:30Z, so the window has just closed
    expect(await pointers({ validUntil: '2026-03-01T14:30:00+02:00' })).toEqual(['/validUntil']);
    expect(await pointers({ validUntil: '2026-03-01T14:31:00+02:00' })).toEqual([]);
    // no time zone (the host's would be used), a 30th of February
    expect(await pointers({ validUntil: '2026-03-02T00:00:00' })).toEqual(['/validUntil']);
    expect(await pointers({ validFrom: '2026-02-30T00:00:00Z' })).toEqual(['/validFrom']);
    // the proof's own expiry
    expect(await pointers({}, { expires: '2026-03-01T12:00:00Z' })).toEqual(['/proof/expires']);
    expect(await pointers({}, { expires: '2026-03-01T13:00:00Z' })).toEqual([]);
    expect((await verifyCredential(credential, { at: '2026-03-01T12:30:00' })).verified).toBe(false);
  });

  it('dateTimeStampMillis agrees with Date.parse wherever both hold, and is undefined for what is no dateTimeStamp', () => {
    for (const value of [
      '2026-03-01T12:00:00Z',
      '1970-01-01T00:00:00.5Z',
      '2024-02-29T23:59:59.999-14:00',
      '0001-01-01T00:00:00+14:00',
      '2026-12-31T23:59:59.123456Z',
    ]) {
      expect(dateTimeStampMillis(value), value).toBe(Date.parse(value));
    }
    for (const value of [
      '2026-03-01T12:00:00',
      '2025-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-3-01T12:00:00Z',
      'Sun, 01 Mar 2026 12:00:00 GMT',
      1_772_366_400_000,
      null,
    ]) {
      expect(dateTimeStampMillis(value), String(value)).toBeUndefined();
    }
    expect(dateTimeStampMillis('300000-01-01T00:00:00Z')).toBe(Number.POSITIVE_INFINITY);
    expect(dateTimeStampMillis('-300000-01-01T00:00:00Z')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('fails a changed subject, a foreign issuer, a status entry and a non-AgentFacts subject', async () => {
    const { credential } = await issue();
    const at = '2026-03-01T12:30:00Z';
    const subject = credential['credentialSubject'] as Record<string, unknown>;
    const changed = await verifyCredential(
      { ...credential, credentialSubject: { ...subject, label: 'Other' } },
      { at },
    );
    expect(changed.failures.map((f) => f.pointer)).toEqual(['/proof/proofValue']);
    const issuer = await verifyCredential(
      { ...credential, issuer: 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2' },
      { at },
    );
    expect(issuer.failures.map((f) => f.pointer)).toContain('/issuer');
    const status = await verifyCredential(
      { ...credential, credentialStatus: { type: 'BitstringStatusListEntry' } },
      { at },
    );
    expect(status.failures.map((f) => f.pointer)).toContain('/credentialStatus');
    const { skills: _skills, ...noSkills } = subject;
    const schema = await verifyCredential({ ...credential, credentialSubject: noSkills }, { at });
    expect(schema.failures.map((f) => f.pointer)).toContain('/credentialSubject');
  });

  it('refuses a bad time or key without echoing the key', async () => {
    const { privateJwk } = await generateReceiptKeyPair();
    const noTime = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 1,
      issuedAt: 'now',
      privateJwk,
    });
    expect(!noTime.ok && noTime.failures[0]?.pointer).toBe('#/options/issuedAt');
    const noKey = await issueAgentFactsCredential(definition, {
      target: 'local-mac',
      port: 1,
      issuedAt: ISSUED,
      privateJwk: { kty: 'OKP', crv: 'Ed25519', x: privateJwk.x! },
    });
    expect(!noKey.ok && noKey.failures[0]?.pointer).toBe('#/options/privateJwk');
    const noPort = await issueAgentFactsCredential(definition, { target: 'local-mac', issuedAt: ISSUED, privateJwk });
    expect(!noPort.ok && noPort.failures[0]?.pointer).toBe('#/options/port');
    expect(JSON.stringify([noTime, noKey, noPort])).not.toContain(String(privateJwk.d));
  });
});
