/**
 * A signature covers exactly what a reader of the card sees (issue 23): a `__proto__` member (the
 * payload's normaliser assigns members, so it dropped out of what was checked while every reader
 * still saw it), `constructor` or `prototype`, anywhere in the card, or members inherited through a
 * prototype a parser assigned, are refused by `verifyAgentCard`; `checkEveryCardSignature`
 * reports every entry, a forged one beside a valid one included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { toolOnlyConfig } from './__test-support__/configs';
import { buildAgentCard } from './agent-card';
import { checkEveryCardSignature, signAgentCard, verifyAgentCard } from './card-signature';
import { jwkThumbprint } from './jwk-thumbprint';
import { generateReceiptKeyPair } from './receipts';

let privateJwk: JsonWebKey;
let publicJwk: JsonWebKey;
let kid: string;
let signedText: string;
beforeAll(async () => {
  ({ privateJwk, publicJwk } = await generateReceiptKeyPair());
  kid = await jwkThumbprint(publicJwk);
  const card = buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' });
  signedText = JSON.stringify(await signAgentCard(card, privateJwk));
});
const resolve = (id: string) => (id === kid ? publicJwk : undefined);
const EVIL = { iconUrl: 'https://evil.example/icon.png', securitySchemes: { none: { type: 'none' } } };

describe('verifyAgentCard: members a signature does not cover', () => {
  it('the signed card verifies as it is (the attacks below start from a valid card)', async () => {
    expect(await verifyAgentCard(JSON.parse(signedText), resolve)).toEqual({ ok: true, kid, index: 0 });
  });

  it('an own "__proto__" member (JSON.parse keeps it as one), at the top and nested, is refused and located', async () => {
    const top = `${signedText.slice(0, -1)},"__proto__":${JSON.stringify(EVIL)}}`;
    const parsed = JSON.parse(top) as Record<string, unknown>;
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(await verifyAgentCard(parsed, resolve)).toMatchObject({
      ok: false,
      reason: 'reserved-member',
      pointer: '/__proto__',
    });
    const nested = JSON.parse(signedText) as { skills: Record<string, unknown>[] };
    Object.defineProperty(nested.skills[0], '__proto__', { value: EVIL, enumerable: true });
    expect(await verifyAgentCard(nested, resolve)).toMatchObject({
      reason: 'reserved-member',
      pointer: '/skills/0/__proto__',
    });
  });

  it('a "__proto__" a parser assigned (its members now inherited, dropped from the payload) is refused', async () => {
    const assigned = JSON.parse(signedText) as Record<string, unknown>;
    Object.setPrototypeOf(assigned, EVIL);
    expect((assigned as { iconUrl?: string }).iconUrl).toBe(EVIL.iconUrl);
    expect(await verifyAgentCard(assigned, resolve)).toMatchObject({
      ok: false,
      reason: 'reserved-member',
      pointer: '',
    });
    const inSkill = JSON.parse(signedText) as { skills: object[] };
    Object.setPrototypeOf(inSkill.skills[0]!, { description: 'not what was signed' });
    expect(await verifyAgentCard(inSkill, resolve)).toMatchObject({ reason: 'reserved-member', pointer: '/skills/0' });
  });

  it('"constructor" and "prototype" members are refused too', async () => {
    for (const name of ['constructor', 'prototype']) {
      const card = JSON.parse(signedText) as Record<string, unknown>;
      card[name] = { x: 1 };
      expect(await verifyAgentCard(card, resolve), name).toMatchObject({
        reason: 'reserved-member',
        pointer: `/${name}`,
      });
      expect(await checkEveryCardSignature(card, resolve), name).toMatchObject({
        ok: false,
        reason: 'reserved-member',
      });
    }
  });
});

describe('checkEveryCardSignature', () => {
  it('reports a forged entry beside a valid one (verifyAgentCard stops at the valid one)', async () => {
    const signed = JSON.parse(signedText) as { signatures: { protected: string; signature: string }[] };
    const valid = signed.signatures[0]!;
    const forged = { ...valid, signature: `${valid.signature.startsWith('A') ? 'B' : 'A'}${valid.signature.slice(1)}` };
    for (const [order, expected] of [
      [
        [valid, forged],
        [true, false],
      ],
      [
        [forged, valid],
        [false, true],
      ],
    ] as const) {
      const card = { ...signed, signatures: order };
      const report = await checkEveryCardSignature(card, resolve);
      if (!report.ok) throw new Error(report.detail);
      expect(report.entries.map((e) => [e.index, e.kid, e.verified])).toEqual(expected.map((v, i) => [i, kid, v]));
      expect(report.entries.find((e) => !e.verified)).toMatchObject({ reason: 'bad-signature' });
      expect((await verifyAgentCard(card, resolve)).ok).toBe(true);
    }
  });
});
