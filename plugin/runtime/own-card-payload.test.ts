/**
 * The served card's signing payload (own-card-payload.ts) is the table-driven §8.4.1 payload
 * (card-signature.ts) of every card `buildAgentCard` makes: generated configs with any strings
 * (key-material look-alikes the card scrubs, empty strings, lone surrogates, which both refuse
 * alike), optional card fields present or not, and origins; and a card it signed verifies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolOnlyConfig } from './__test-support__/configs';
import type { RuntimeConfig } from './runtime-config';
import { buildAgentCard } from './agent-card';
import { agentCardSigningPayload, verifyAgentCard } from './card-signature';
import { jwkThumbprint } from './jwk-thumbprint';
import { ownAgentCardSigningPayload, signOwnAgentCard } from './own-card-payload';
import { generateReceiptKeyPair, importSigningKey } from './receipts';

/** Strings that reach every branch of the card's scrub and of the canonical form. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    'd',
    'kty',
    'crv',
    '{"kty":"OKP","d":"c2VjcmV0c2VjcmV0"}',
    'kty: OKP d=abcdEFGH1234',
    'https://user:pass@host.example/x',
    '\uD800',
    'a\uDC00b',
  ),
  fc.string({ unit: 'binary' }),
);
const textList = fc.array(text, { maxLength: 3 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const skill = fc.record(
  {
    id: text,
    name: text,
    description: text,
    version: text,
    tags: textList,
    examples: optional(textList),
    inputModes: optional(textList),
    outputModes: optional(textList),
  },
  { requiredKeys: ['id', 'name', 'description', 'version', 'tags'] },
);

const config = fc
  .record({
    agent: fc.record({ slug: text, name: text, version: text, versionId: text, description: text }),
    skills: fc.array(skill, { minLength: 1, maxLength: 3 }),
    defaultInputModes: textList,
    defaultOutputModes: textList,
    provider: optional(fc.record({ organization: text, url: text })),
    documentationUrl: optional(text),
    iconUrl: optional(text),
    publicUrl: optional(fc.constantFrom('https://agent.example.com', 'https://d:8080', 'http://kty:1/')),
  })
  .map(
    ({
      agent,
      skills,
      defaultInputModes,
      defaultOutputModes,
      provider,
      documentationUrl,
      iconUrl,
      publicUrl,
    }): RuntimeConfig => {
      const base = toolOnlyConfig();
      return {
        ...base,
        agent: { ...base.agent, ...agent },
        skills,
        card: {
          ...base.card,
          defaultInputModes,
          defaultOutputModes,
          ...(provider ? { provider } : { provider: undefined }),
          ...(documentationUrl !== undefined ? { documentationUrl } : {}),
          ...(iconUrl !== undefined ? { iconUrl } : {}),
          ...(publicUrl !== undefined ? { publicUrl } : {}),
        },
      };
    },
  );

/** The payload, or the message of the TypeError it throws. */
function outcome(payload: () => string): string {
  try {
    return payload();
  } catch (error) {
    return `throws ${error instanceof TypeError ? error.message : String(error)}`;
  }
}

describe('the served card signing payload', () => {
  it('equals the table-driven payload on every card buildAgentCard makes', () => {
    fc.assert(
      fc.property(
        config,
        fc.constantFrom('https://agent.example.com', 'http://127.0.0.1:8787', 'https://d:8080'),
        (cfg, origin) => {
          const card = buildAgentCard(cfg, { requestOrigin: origin });
          expect(outcome(() => ownAgentCardSigningPayload(card))).toBe(outcome(() => agentCardSigningPayload(card)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('equals it on the built card with earlier signatures', () => {
    const card = {
      ...buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' }),
      signatures: [{ protected: 'x', signature: 'y' }],
    };
    expect(ownAgentCardSigningPayload(card)).toBe(agentCardSigningPayload(card));
  });

  it('signs a card that verifies with the table-driven payload', async () => {
    const { privateJwk, publicJwk } = await generateReceiptKeyPair();
    const kid = await jwkThumbprint(publicJwk);
    const signed = await signOwnAgentCard(
      buildAgentCard(toolOnlyConfig(), { requestOrigin: 'https://agent.example.com' }),
      await importSigningKey(privateJwk),
      kid,
    );
    expect(await verifyAgentCard(signed, (id) => (id === kid ? publicJwk : undefined))).toEqual({
      ok: true,
      kid,
      index: 0,
    });
  });
});
