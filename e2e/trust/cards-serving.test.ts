/**
 * Every host serves the signed AgentCard at AGENT_CARD_PATH when the card signing key is set
 * (`AGENTDEF_CARD_SIGNING_KEY`, a private Ed25519 JWK; kid = its RFC 7638 thumbprint), and the
 * unsigned card otherwise:
 * - on a Worker, run in workerd through miniflare, the key being an `env` binding (the shape the
 *   cloudflare adapter emits: secrets are read from `env` by name);
 * - on the Node host server (plugin/hosts/node/http-server.ts, what hb3 and local-mac serve with),
 *   the key read from the environment as node-host-main reads it.
 * The served card verifies here and with `@a2a-js/sdk`; the private key appears in no response.
 */
import { join } from 'node:path';
import type { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSecretSource } from '../../plugin/hosts/node/secret-source';
import { serveWebHandler } from '../../plugin/hosts/node/http-server';
import { toolOnlyConfig } from '../../plugin/runtime/__test-support__/configs';
import { createA2aHandler } from '../../plugin/runtime/a2a-handler';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING } from '../../plugin/runtime/agent-card';
import { verifyAgentCard } from '../../plugin/runtime/card-signature';
import { jwkThumbprint } from '../../plugin/runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import { COMPATIBILITY_DATE } from '../../plugin/targets/cloudflare-dynamic-worker/worker-constants';

let keys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let kid: string;
let workerCode: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  keys = await generateReceiptKeyPair();
  kid = await jwkThumbprint(keys.publicJwk);
  workerCode = (
    await build({
      entryPoints: [join(__dirname, '../../plugin/runtime/__test-support__/worker-entry.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      logLevel: 'silent',
    })
  ).outputFiles[0]!.text;
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function expectVerifiedCard(text: string): Promise<void> {
  expect(text).not.toContain(keys.privateJwk.d!);
  const card = JSON.parse(text) as Record<string, unknown>;
  expect(await verifyAgentCard(card, (k) => (k === kid ? keys.publicJwk : undefined))).toEqual({
    ok: true,
    kid,
    index: 0,
  });
  await expect(
    verifyAgentCardSignature(async () => ({ ...keys.publicJwk, alg: 'EdDSA' }))(card as unknown as SdkAgentCard),
  ).resolves.toBeUndefined();
  // One byte changed (a character of the card's name): the card no longer verifies.
  const changed = {
    ...card,
    name: `${String(card['name']).slice(0, -1)}${String(card['name']).endsWith('x') ? 'y' : 'x'}`,
  };
  expect(await verifyAgentCard(changed, (k) => (k === kid ? keys.publicJwk : undefined))).toMatchObject({
    ok: false,
    reason: 'bad-signature',
  });
}

async function startWorker(bindings: Record<string, string>): Promise<string> {
  const mf = new Miniflare({
    modules: true,
    script: workerCode,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: { AGENT_CONFIG: JSON.stringify(toolOnlyConfig()), ...bindings },
    serviceBindings: { RECEIPTS: async () => new Response('stored') },
  });
  cleanups.push(() => mf.dispose());
  return (await mf.ready).toString().replace(/\/$/, '');
}

describe('Worker (workerd through miniflare)', () => {
  it('serves the signed card when AGENTDEF_CARD_SIGNING_KEY is bound', async () => {
    const url = await startWorker({ [CARD_SIGNING_KEY_BINDING]: JSON.stringify(keys.privateJwk) });
    const response = await fetch(`${url}${AGENT_CARD_PATH}`);
    expect(response.status).toBe(200);
    await expectVerifiedCard(await response.text());
  });

  it('serves the unsigned card without the binding, and a 500 naming no key for an unusable one', async () => {
    const plain = await (await fetch(`${await startWorker({})}${AGENT_CARD_PATH}`)).json();
    expect(plain.signatures).toBeUndefined();
    expect(plain.name).toBe(toolOnlyConfig().agent.name);
    const broken = { ...keys.privateJwk, x: 'not-a-key' };
    const response = await fetch(
      `${await startWorker({ [CARD_SIGNING_KEY_BINDING]: JSON.stringify(broken) })}${AGENT_CARD_PATH}`,
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toContain('signing key is unusable');
    expect(text).not.toContain(keys.privateJwk.d!);
  });
});

describe('Node host server', () => {
  async function serveNode(env: NodeJS.ProcessEnv): Promise<string> {
    const cardSigningKey = await envSecretSource(env).get(CARD_SIGNING_KEY_BINDING);
    const handler = createA2aHandler(toolOnlyConfig(), { ...(cardSigningKey !== undefined ? { cardSigningKey } : {}) });
    const served = await serveWebHandler(handler, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => served.close());
    return served.url;
  }

  it('serves the signed card when the environment sets AGENTDEF_CARD_SIGNING_KEY', async () => {
    const url = await serveNode({ [CARD_SIGNING_KEY_BINDING]: JSON.stringify(keys.privateJwk) });
    const first = await (await fetch(`${url}${AGENT_CARD_PATH}`)).text();
    await expectVerifiedCard(first);
    // Deterministic: the same card, byte for byte, on every request.
    expect(await (await fetch(`${url}${AGENT_CARD_PATH}`)).text()).toBe(first);
  });

  it('serves the unsigned card otherwise', async () => {
    const card = await (await fetch(`${await serveNode({})}${AGENT_CARD_PATH}`)).json();
    expect(card.signatures).toBeUndefined();
    expect(card.supportedInterfaces[0].protocolVersion).toBe('1.0');
  });
});
