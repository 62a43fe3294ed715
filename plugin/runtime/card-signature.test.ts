/**
 * Signed AgentCards (A2A §8.4): the payload is the §8.4.1 canonical form (defaults removed,
 * `signatures` left out, RFC 8785), the JWS verifies with WebCrypto, and every way a card or an
 * entry can be wrong is named by `verifyAgentCard` without a throw. The `@a2a-js/sdk`
 * cross-verification is e2e/trust/cards-sdk.test.ts.
 */
import canonicalizeOracle from 'canonicalize';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolOnlyConfig } from './__test-support__/configs';
import type { AgentCard } from './agent-card';
import { buildAgentCard } from './agent-card';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';
import { agentCardSigningPayload, signAgentCard, verifyAgentCard } from './card-signature';
import { jwkThumbprint } from './jwk-thumbprint';
import { generateReceiptKeyPair } from './receipts';

let privateJwk: JsonWebKey;
let publicJwk: JsonWebKey;
let kid: string;
let otherPublic: JsonWebKey;
beforeAll(async () => {
  ({ privateJwk, publicJwk } = await generateReceiptKeyPair());
  kid = await jwkThumbprint(publicJwk);
  otherPublic = (await generateReceiptKeyPair()).publicJwk;
});

const card = (): AgentCard => buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' });
const resolver = (keys: Record<string, JsonWebKey>) => (id: string) => keys[id];
const decodeHeader = (encoded: string) =>
  JSON.parse(new TextDecoder().decode(base64UrlToBytes(encoded))) as Record<string, unknown>;

describe('the §8.4.1 payload', () => {
  it('reproduces the spec example: defaults removed, optional fields set to false kept, RFC 8785', () => {
    const example = {
      name: 'Example Agent',
      description: '',
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      skills: [],
    };
    expect(agentCardSigningPayload(example)).toBe(
      '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}',
    );
  });

  it('leaves out signatures, implicit defaults (extension required:false, empty tenant) and empty non-required lists', () => {
    const built = card();
    const payload = JSON.parse(
      agentCardSigningPayload({ ...built, signatures: [{ protected: 'x', signature: 'y' }], securityRequirements: [] }),
    );
    expect(payload.signatures).toBeUndefined();
    expect(payload.securityRequirements).toBeUndefined();
    expect(payload.capabilities.extensions[0].required).toBeUndefined();
    expect(payload.capabilities.extensions[0].params.card).toBe(built.capabilities.extensions![0]!.params!['card']);
    expect(
      JSON.parse(
        agentCardSigningPayload({
          ...built,
          supportedInterfaces: [
            { url: 'https://a.example/', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
          ],
        }),
      ).supportedInterfaces[0],
    ).toEqual({
      url: 'https://a.example/',
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
  });

  it('is the RFC 8785 text (the canonicalize package as oracle) of the normalized card, and keeps unknown fields', () => {
    const built = { ...card(), 'x-vendor': { b: 1, a: 'é' } };
    const payload = agentCardSigningPayload(built);
    expect(payload).toBe(canonicalizeOracle(JSON.parse(payload)));
    expect(JSON.parse(payload)['x-vendor']).toEqual({ a: 'é', b: 1 });
  });
});

describe('signAgentCard', () => {
  it('appends one detached EdDSA JWS whose protected header is {alg, typ, kid} and whose kid defaults to the thumbprint', async () => {
    const signed = await signAgentCard(card(), privateJwk);
    expect(signed.signatures).toHaveLength(1);
    const entry = signed.signatures[0]!;
    expect(Object.keys(entry).sort()).toEqual(['protected', 'signature']);
    expect(decodeHeader(entry.protected)).toEqual({ alg: 'EdDSA', typ: 'JOSE', kid });
    expect(base64UrlToBytes(entry.signature)).toHaveLength(64);
    // Detached: the signing input is header.base64url(payload), and WebCrypto verifies it directly.
    const input = new TextEncoder().encode(
      `${entry.protected}.${bytesToBase64Url(new TextEncoder().encode(agentCardSigningPayload(signed)))}`,
    );
    const key = await crypto.subtle.importKey('jwk', publicJwk, { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key, base64UrlToBytes(entry.signature), input)).toBe(true);
  });

  it('is deterministic and keeps earlier signatures (rotation): each verifies with its own key', async () => {
    const second = await generateReceiptKeyPair();
    const secondKid = await jwkThumbprint(second.publicJwk);
    const once = await signAgentCard(card(), privateJwk);
    expect(await signAgentCard(card(), privateJwk)).toEqual(once);
    const twice = await signAgentCard(once, second.privateJwk);
    expect(twice.signatures).toHaveLength(2);
    expect(await verifyAgentCard(twice, resolver({ [secondKid]: second.publicJwk }))).toEqual({
      ok: true,
      kid: secondKid,
      index: 1,
    });
    expect(await verifyAgentCard(twice, resolver({ [kid]: publicJwk }))).toEqual({ ok: true, kid, index: 0 });
  });

  it('takes an explicit kid, and rejects an unusable key without naming its material', async () => {
    const signed = await signAgentCard(card(), privateJwk, 'key-1');
    expect(decodeHeader(signed.signatures[0]!.protected)['kid']).toBe('key-1');
    const broken = { ...privateJwk, d: 'AAAA' };
    const failure = await signAgentCard(card(), broken).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure!.message).not.toContain(privateJwk.x!);
  });
});

describe('verifyAgentCard names what failed and never throws', () => {
  it('verifies an intact card', async () => {
    expect(await verifyAgentCard(await signAgentCard(card(), privateJwk), resolver({ [kid]: publicJwk }))).toEqual({
      ok: true,
      kid,
      index: 0,
    });
  });

  it('bad-signature: any one changed byte of the card, and a card signed by another key', async () => {
    const signed = await signAgentCard(card(), privateJwk);
    const changed = {
      ...signed,
      description: `${signed.description.slice(0, -1)}${signed.description.endsWith('.') ? '!' : '.'}`,
    };
    const result = await verifyAgentCard(changed, resolver({ [kid]: publicJwk }));
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' });
    const skills = structuredClone(signed.skills);
    skills[0]!.tags = [...skills[0]!.tags, 'extra'];
    expect(await verifyAgentCard({ ...signed, skills }, resolver({ [kid]: publicJwk }))).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await verifyAgentCard(signed, resolver({ [kid]: otherPublic }))).toMatchObject({
      ok: false,
      reason: 'bad-signature',
      failures: [{ index: 0, kid }],
    });
  });

  it('no-signatures, unknown-kid, unusable-key, bad-header, not-a-card, not-canonical', async () => {
    const signed = await signAgentCard(card(), privateJwk);
    const keys = resolver({ [kid]: publicJwk });
    expect(await verifyAgentCard(card(), keys)).toMatchObject({ ok: false, reason: 'no-signatures' });
    expect(await verifyAgentCard({ ...card(), signatures: [] }, keys)).toMatchObject({
      ok: false,
      reason: 'no-signatures',
    });
    // ProtoJSON (A2A §5.7): null is an unset field, so `signatures: null` is a card without signatures.
    expect(await verifyAgentCard({ ...card(), signatures: null }, keys)).toMatchObject({
      ok: false,
      reason: 'no-signatures',
    });
    expect(await verifyAgentCard(signed, () => undefined)).toMatchObject({ ok: false, reason: 'unknown-kid' });
    expect(
      await verifyAgentCard(signed, () => {
        throw new Error('resolver down');
      }),
    ).toMatchObject({ ok: false, reason: 'unknown-kid' });
    expect(await verifyAgentCard(signed, () => ({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }))).toMatchObject({
      ok: false,
      reason: 'unusable-key',
    });
    const entry = signed.signatures[0]!;
    const header = (h: unknown) => bytesToBase64Url(new TextEncoder().encode(JSON.stringify(h)));
    const withEntry = (e: unknown) => ({ ...signed, signatures: [e] });
    for (const bad of [
      { ...entry, protected: 'not base64url!' },
      { ...entry, protected: header({ alg: 'ES256', typ: 'JOSE', kid }) },
      { ...entry, protected: header({ alg: 'none', typ: 'JOSE', kid }) },
      { ...entry, protected: header({ alg: 'EdDSA', typ: 'JOSE' }) },
      { ...entry, protected: header({ alg: 'EdDSA', typ: 'JWT', kid }) },
      { ...entry, protected: header({ alg: 'EdDSA', typ: 'JOSE', kid, b64: false, crit: ['b64'] }) },
      { ...entry, header: { kid } },
      'a string',
    ]) {
      expect(await verifyAgentCard(withEntry(bad), keys)).toMatchObject({ ok: false, reason: 'bad-header' });
    }
    expect(await verifyAgentCard(withEntry({ ...entry, signature: `${entry.signature}A` }), keys)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await verifyAgentCard('{}', keys)).toMatchObject({ ok: false, reason: 'not-a-card' });
    expect(await verifyAgentCard({ ...signed, signatures: 'x' }, keys)).toMatchObject({
      ok: false,
      reason: 'not-a-card',
    });
    expect(await verifyAgentCard({ ...signed, name: '\uD800' }, keys)).toMatchObject({
      ok: false,
      reason: 'not-canonical',
    });
  });

  it('reports every entry and, as the reason, the one that got furthest', async () => {
    const signed = await signAgentCard(
      await signAgentCard(card(), privateJwk),
      (await generateReceiptKeyPair()).privateJwk,
    );
    const result = await verifyAgentCard({ ...signed, name: 'renamed' }, resolver({ [kid]: publicJwk }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures.map((f) => f.reason)).toEqual(['bad-signature', 'unknown-kid']);
    expect(result.reason).toBe('bad-signature');
  });
});
