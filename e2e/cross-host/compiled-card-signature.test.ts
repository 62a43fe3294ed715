/**
 * The card a compiled agent serves, signed, verifies on every host: the examples compiled for the
 * Worker (a tool-only leaf, agentic leaves, a composition) run in workerd through miniflare with
 * `AGENTDEF_CARD_SIGNING_KEY` set, both through the Worker Loader (the loader copies that optional
 * secret to the loaded Worker) and as an ordinary Worker, and an HB3 job under `agentdef run` with
 * the key in its environment. Hosts sign the payload of the card they build directly
 * (own-card-payload.ts, no proto presence table); each served card must verify with the
 * table-driven verifier (card-signature.ts, what `agentdef verify` uses) and with `@a2a-js/sdk`,
 * stop verifying when one character changes, and carry no part of the private key.
 */
import type { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING } from '../../plugin/runtime/agent-card';
import { verifyAgentCard } from '../../plugin/runtime/card-signature';
import { jwkThumbprint } from '../../plugin/runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../../plugin/runtime/receipts';
import { startCompiledWorker } from '../worker/support/start-compiled-worker';
import {
  agentdefRun,
  compileExample,
  isolatedEnv,
  receiptKeys,
  scratch,
  type Scratch,
} from '../local/support/host-harness';

const WORKER_EXAMPLES = ['text-stats', 'web-summarizer', 'text-digest', 'fallback-writer', 'keyword-extract'] as const;

let tmp: Scratch;
let cardKeys: { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
let receiptKey: string;
let kid: string;
beforeAll(async () => {
  tmp = scratch('compiled-card-signature');
  cardKeys = await generateReceiptKeyPair();
  kid = await jwkThumbprint(cardKeys.publicJwk);
  receiptKey = (await receiptKeys()).secret;
});
afterAll(() => tmp.cleanup());

async function expectVerifiedCard(what: string, text: string): Promise<void> {
  expect(text, what).not.toContain(cardKeys.privateJwk.d!);
  const card = JSON.parse(text) as Record<string, unknown>;
  expect(card['signatures'], what).toHaveLength(1);
  const resolve = (k: string) => (k === kid ? cardKeys.publicJwk : undefined);
  expect(await verifyAgentCard(card, resolve), what).toEqual({ ok: true, kid, index: 0 });
  await expect(
    verifyAgentCardSignature(async () => ({ ...cardKeys.publicJwk, alg: 'EdDSA' }))(card as unknown as SdkAgentCard),
    what,
  ).resolves.toBeUndefined();
  const changed = { ...card, description: `${String(card['description'])}.` };
  expect(await verifyAgentCard(changed, resolve), what).toMatchObject({ ok: false, reason: 'bad-signature' });
}

describe('a compiled agent serves a card that verifies', () => {
  it.each(WORKER_EXAMPLES)(
    'on the Worker (workerd): %s, through the loader and as an ordinary Worker',
    async (example) => {
      const out = tmp.path(`worker-${example}`);
      await compileExample(example, 'cloudflare-dynamic-worker', out);
      for (const mode of ['loader', 'direct'] as const) {
        const worker = await startCompiledWorker(out, {
          mode,
          secrets: {
            AGENTDEF_RECEIPT_KEY: receiptKey,
            [CARD_SIGNING_KEY_BINDING]: JSON.stringify(cardKeys.privateJwk),
          },
        });
        try {
          const response = await fetch(`${worker.url}${AGENT_CARD_PATH}`);
          expect(response.status).toBe(200);
          await expectVerifiedCard(`${example} (${mode})`, await response.text());
        } finally {
          await worker.dispose();
        }
      }
    },
  );

  it('on the HB3 job (a Node process): fallback-writer', async () => {
    const out = tmp.path('hb3');
    await compileExample('fallback-writer', 'hb3', out);
    const env = isolatedEnv(tmp.path('home-hb3'), {
      AGENTDEF_SECRET_ANTHROPIC_API_KEY: 'sk-ant-card-test-0123456789',
      AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: receiptKey,
      [`AGENTDEF_SECRET_${CARD_SIGNING_KEY_BINDING}`]: JSON.stringify(cardKeys.privateJwk),
    });
    const host = agentdefRun(out, ['--receipts', tmp.path('hb3-receipts.jsonl')], env);
    try {
      const response = await fetch(`${await host.ready}${AGENT_CARD_PATH}`);
      expect(response.status).toBe(200);
      await expectVerifiedCard('fallback-writer on hb3', await response.text());
    } finally {
      await host.stop('SIGKILL');
    }
  });
});
