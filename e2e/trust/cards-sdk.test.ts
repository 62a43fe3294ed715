/**
 * Cross-verification of signed AgentCards with `@a2a-js/sdk` 1.3.0 (its `generateAgentCardSignature`
 * / `verifyAgentCardSignature`, over `jose`): a card signed by agentdef verifies with the SDK, one
 * signed with the SDK verifies with agentdef, and a card changed by one byte fails both. Also: the
 * two canonical payloads (§8.4.1) are the same text for the cards agentdef builds.
 */
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import type { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agenticConfig, toolOnlyConfig } from '../../plugin/runtime/__test-support__/configs';
import type { AgentCard } from '../../plugin/runtime/agent-card';
import { buildAgentCard } from '../../plugin/runtime/agent-card';
import { agentCardSigningPayload, signAgentCard, verifyAgentCard } from '../../plugin/runtime/card-signature';
import { jwkThumbprint } from '../../plugin/runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';

let privateJwk: JsonWebKey;
let publicJwk: JsonWebKey;
let kid: string;
beforeAll(async () => {
  ({ privateJwk, publicJwk } = await generateReceiptKeyPair());
  kid = await jwkThumbprint(publicJwk);
  // The SDK logs every entry that fails to verify on console.debug; the failures are asserted here.
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
});
afterAll(() => vi.restoreAllMocks());

const cards: [string, () => AgentCard][] = [
  ['tool-only agent', () => buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' })],
  [
    'agentic agent with provider, docs and icon',
    () => {
      const config = agenticConfig('openai-chat', 'https://api.example.com/v1');
      config.card.provider = { organization: 'Acme', url: 'https://acme.example.com' };
      config.card.documentationUrl = 'https://docs.example.com/agent';
      config.card.iconUrl = 'https://acme.example.com/icon.png';
      config.agent.description = 'Answers in «français» and 日本語 — with emoji 🚀.';
      return buildAgentCard(config, { requestOrigin: 'https://agent.example.com' });
    },
  ],
];

const sdkVerifies = async (card: unknown): Promise<boolean> =>
  verifyAgentCardSignature(async (k) => {
    if (k !== kid) throw new Error(`unknown kid ${k}`);
    return { ...publicJwk, alg: 'EdDSA' };
  })(card as SdkAgentCard).then(
    () => true,
    () => false,
  );
const hereVerifies = async (card: unknown) => verifyAgentCard(card, (k) => (k === kid ? publicJwk : undefined));

/** The card with one byte of its description changed (a character of the same UTF-8 length). */
function oneByteChanged<C extends { description: string }>(card: C): C {
  const last = card.description.at(-1)!;
  return { ...card, description: `${card.description.slice(0, -1)}${last === 'x' ? 'y' : 'x'}` };
}

describe.each(cards)('%s', (_label, make) => {
  it('has the same §8.4.1 canonical payload here and in the SDK', () => {
    const card = make();
    expect(agentCardSigningPayload(card)).toBe(canonicalizeAgentCard(card as unknown as SdkAgentCard));
  });

  it('signed here: verifies with the SDK; one byte changed fails with the SDK and here', async () => {
    const signed = await signAgentCard(make(), privateJwk);
    expect(await sdkVerifies(signed)).toBe(true);
    expect(await hereVerifies(signed)).toEqual({ ok: true, kid, index: 0 });
    const changed = oneByteChanged(signed);
    expect(new TextEncoder().encode(JSON.stringify(changed)).length).toBe(
      new TextEncoder().encode(JSON.stringify(signed)).length,
    );
    expect(await sdkVerifies(changed)).toBe(false);
    expect(await hereVerifies(changed)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('signed with the SDK (EdDSA, typ JOSE, kid = thumbprint): verifies here; one byte changed fails both', async () => {
    const sign = generateAgentCardSignature({ ...privateJwk, alg: 'EdDSA' }, { alg: 'EdDSA', typ: 'JOSE', kid });
    const signed = JSON.parse(JSON.stringify(await sign(make() as unknown as SdkAgentCard))) as Record<string, unknown>;
    expect(await hereVerifies(signed)).toEqual({ ok: true, kid, index: 0 });
    expect(await sdkVerifies(signed)).toBe(true);
    const changed = oneByteChanged(signed as unknown as { description: string });
    expect(await hereVerifies(changed)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(await sdkVerifies(changed)).toBe(false);
  });

  it('a signature moved onto another card fails both', async () => {
    const signed = await signAgentCard(make(), privateJwk);
    const other = { ...make(), name: `${make().name} II`, signatures: signed.signatures };
    expect(await sdkVerifies(other)).toBe(false);
    expect(await hereVerifies(other)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });
});
