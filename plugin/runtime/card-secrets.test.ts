/**
 * The public AgentCard never carries key material, even from a config that did not come through
 * validation: a private JWK pasted into a description or a skill example (how an Ed25519 `d`
 * member reached `agent-card.json`) and a password in the provider URL are scrubbed from the card
 * the compiler writes and the card every host serves; public members and ordinary text survive.
 * The scrubber uses the definition scanner's own detector (secret-shapes.ts), so every shape that
 * validation refuses is also taken out of a card built from a config that skipped validation:
 * issue 23's JWK private part without `kty`, dotenv and shell assignments, bare AWS secret keys,
 * lower-case and whitespace-stripped PEM keys among them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { baseConfig, toolOnlyConfig } from './__test-support__/configs';
import { serveHandler } from './__test-support__/serve-handler';
import { createA2aHandler } from './a2a-handler';
import { AGENT_CARD_PATH, buildAgentCard } from './agent-card';
import { scrubKeyMaterial, withoutKeyMaterial } from './card-secrets';
import { generateReceiptKeyPair } from './receipts';
import { secretKinds } from './secret-shapes';

let jwk: JsonWebKey;
beforeAll(async () => {
  jwk = (await generateReceiptKeyPair()).privateJwk;
});

const PASSWORD = 'x9Kq2Lm7Rx1T' + 'w8Pz';

function leakyConfig() {
  const config = toolOnlyConfig();
  config.agent.description = `Signs with ${JSON.stringify(jwk)} for now.`;
  config.skills[0]!.description = `key: {kty: 'OKP', crv: 'Ed25519', d: '${jwk.d}'}`;
  config.skills[0]!.examples = [JSON.stringify(JSON.stringify({ kty: 'oct', k: jwk.d }))];
  config.card.provider = { organization: 'acme', url: `https://ci:${PASSWORD}@git.example.com/acme/agents` };
  config.card.documentationUrl = `https://:${PASSWORD}@docs.example.com/`;
  return config;
}

describe('the agent card carries no key material', () => {
  it('buildAgentCard scrubs private JWK members (JSON, escaped JSON, object-literal text) and URL passwords', () => {
    const card = JSON.stringify(buildAgentCard(leakyConfig(), { requestOrigin: 'https://agent.example.com' }));
    expect(card).not.toContain(jwk.d!);
    expect(card).not.toContain(PASSWORD);
    // What is public stays: the public key, the host, the prose around it.
    expect(card).toContain(jwk.x!);
    expect(card).toContain('git.example.com/acme/agents');
    expect(card).toContain('for now.');
  });

  it('the card a host serves is scrubbed too', async () => {
    const handler = createA2aHandler(leakyConfig(), { receipts: { signingKey: jwk } });
    const served = await serveHandler(handler);
    try {
      const text = await (await fetch(`${served.url}${AGENT_CARD_PATH}`)).text();
      expect(text).toContain('"skills"');
      expect(text).not.toContain(jwk.d!);
      expect(text).not.toContain(PASSWORD);
    } finally {
      await served.close();
    }
  });

  it('a JWK object keeps only its public members; unrelated text with d: or k: is untouched', () => {
    expect(
      scrubKeyMaterial({ params: { signer: { kty: 'OKP', crv: 'Ed25519', x: 'pub', d: 'secret-d-value' } } }),
    ).toEqual({ params: { signer: { kty: 'OKP', crv: 'Ed25519', x: 'pub' } } });
    expect(scrubKeyMaterial({ d: 'not a key', k: 3 })).toEqual({ d: 'not a key', k: 3 });
    expect(withoutKeyMaterial('Version d: 2024abcdef of the guide')).toBe('Version d: 2024abcdef of the guide');
    expect(withoutKeyMaterial('ssh://git@github.com/acme/agents.git')).toBe('ssh://git@github.com/acme/agents.git');
    expect(withoutKeyMaterial('{"kty":"RSA","n":"AQAB","e":"AQAB","p":"abcdEFGH1234","q":"ijklMNOP5678"}')).toBe(
      '{"kty":"RSA","n":"AQAB","e":"AQAB","p":"[redacted]","q":"[redacted]"}',
    );
  });

  it('a card without key material is returned unchanged', () => {
    const config = baseConfig();
    const card = buildAgentCard(config, { requestOrigin: 'https://agent.example.com' });
    expect(card.description).toBe(config.agent.description);
    expect(card.provider).toEqual(config.card.provider);
  });

  it('every shape the definition scanner refuses is scrubbed from the card too: the secret part goes, the prose stays', () => {
    const d = 'nWGxne_9Wm' + 'C6LrZbkoiz-5vDRSAqrKyJC0jSIJ4yqkE';
    const aws = 'Zq3+Vb8/Lm2X' + 'c7Rt1Wn9Ks4Hd6Fp0Gy5Je2Ta8Uo';
    const shapes: [string, string][] = [
      [JSON.stringify({ d, x: jwk.x }), d],
      [`{k: '${d}'}`, d],
      [`AWS_SECRET_ACCESS_KEY=${aws}`, aws],
      [aws, aws],
      [`export X_SECRET="${'q8Vn2Lx7' + 'Rt4Kp1Zw'}"`, 'q8Vn2Lx7Rt4Kp1Zw'],
      [`X_TOKEN: ${'Tq9Lm2Xv' + '7Rk4Pz1W'}`, 'Tq9Lm2Xv7Rk4Pz1W'],
      [
        `-----begin ${'private key'}-----\nMC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1\n-----end private key-----`,
        'MC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1',
      ],
      [
        `-----BEGINPRIVATE${'KEY'}-----MC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1`,
        'MC4CAQAwBQYDK2VwBCIEIJ9lbWhUJtVb4Y5bq1',
      ],
      [`ghp_${'4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg'}`, '4f9Kq2Lm7Rx1Tz8Vb3Nc6Wd0Ys5Hj2Pa9Eg'],
      [`Authorization: Bearer ${'Q7vR2mX9kL4p' + 'T8wZ1nB6'}`, 'Q7vR2mX9kL4pT8wZ1nB6'],
    ];
    for (const [shape, secret] of shapes) {
      expect(secretKinds(shape), shape).not.toEqual([]);
      const config = toolOnlyConfig();
      config.skills[0]!.description = `Before ${shape} after.`;
      const card = JSON.stringify(buildAgentCard(config, { requestOrigin: 'https://agent.example.com' }));
      expect(card, shape).not.toContain(secret);
      expect(card).toContain('[redacted]');
      expect(card).toContain('Before ');
      expect(card).toContain(' after.');
    }
    // As an object, too: a key without `kty` keeps only its public member.
    expect(scrubKeyMaterial({ signer: { d, x: jwk.x } })).toEqual({ signer: { x: jwk.x } });
    expect(scrubKeyMaterial({ point: { d: 'north', x: 3, k: 'kilometres' } })).toEqual({
      point: { d: 'north', x: 3, k: 'kilometres' },
    });
  });
});
