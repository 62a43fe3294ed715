/**
 * Workers carry only the runtime parts their agents use: the bundled worker.js of the examples,
 * searched for strings only a part's code holds. A tool-only leaf (text-stats) has no provider
 * client, no composition, no MCP client, no agentic loop and no compaction; an agentic leaf
 * (web-summarizer, OpenAI) has its own provider client and the agentic loop, and nothing else; a
 * dag (text-digest) has the composition runner; compaction comes with its agent's policy only
 * (web-summarizer: summarise). Receipt signing comes only with signed receipts
 * (text-stats has them off), the config check only for a config that fails it, the card's
 * proto presence table never (the served card's payload needs none), the card scrub only for a
 * config whose card holds key material, and the OTLP exporter only when the egress allow-list
 * could hold a collector (text-stats: empty). That the bundles still serve A2A is e2e/worker/'s
 * job. A config with key material in its card strings is served from the very parts its
 * generated module names, and the card it serves carries none of it.
 */
import CodeBlockWriter from 'code-block-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import * as runtime from '../../runtime';
import { agenticConfig, toolOnlyConfig } from '../../runtime/__test-support__/configs';
import type { RuntimeConfig, RuntimeTool } from '../../runtime/runtime-config';
import { serveHandler } from '../../runtime/__test-support__/serve-handler';
import { AGENT_CARD_PATH } from '../../runtime/agent-card';
import { createA2aHandlerWithParts } from '../../runtime/a2a-handler';
import { generateReceiptKeyPair } from '../../runtime/receipts';
import type { RuntimeParts } from '../../runtime/runtime-parts';
import { runtimePartsSource } from './runtime-parts-source';
import { exampleWorkerJs } from './__test-support__/example-worker-js';

/** A string only the named part's code holds (messages, header names, URL paths survive minification). */
const MARKERS = {
  openAiClient: '/chat/completions',
  anthropicClient: 'anthropic-version',
  ollamaClient: '/api/chat',
  composition: 'the composition edges form a cycle',
  mcpClient: 'mcp-session-id',
  agenticLoop: 'You compress the working notes',
  compaction: 'compaction; the budget is',
  dropCompaction: 'earlier step(s) to fit the context budget',
  quarantineCompaction: 'quarantined out of context',
  receipts: 'the receipt signing key is not set',
  configCheck: 'receipts.mode: must be signed or off',
  cardPresenceTable: 'AuthorizationCodeOAuthFlow',
  cardScrub: 'a private key (JWK)',
  otlpExporter: 'the collector answered HTTP',
} as const;

type Part = keyof typeof MARKERS;

function partsIn(code: string): Part[] {
  return (Object.keys(MARKERS) as Part[]).filter((part) => code.includes(MARKERS[part]));
}

describe('the runtime parts a Worker bundles', () => {
  it('a tool-only leaf bundles no provider client, composition, MCP client, agentic loop or compaction', async () => {
    expect(partsIn(await exampleWorkerJs('text-stats'))).toEqual([]);
  });

  it('an agentic leaf bundles its own provider client, the agentic loop and compaction, nothing else', async () => {
    expect(partsIn(await exampleWorkerJs('web-summarizer'))).toEqual([
      'openAiClient',
      'agenticLoop',
      'compaction',
      'receipts',
      'otlpExporter',
    ]);
  });

  it('a tool-only dag bundles the composition runner, no provider client or agentic loop', async () => {
    expect(partsIn(await exampleWorkerJs('text-digest'))).toEqual(['composition', 'receipts']);
  });

  it('names the MCP client only for mcp-http tools reached by URL, not through a service binding', () => {
    const config = (tools: Omit<RuntimeTool, 'version' | 'risk'>[]) =>
      toolOnlyConfig({
        tools: tools.map((tool) => ({ version: '1.0.0', risk: 'low', ...tool })),
        receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null },
      });
    expect(
      runtimePartsSource(config([{ id: 't', name: 't', kind: 'mcp-http', url: 'https://tools.example/mcp' }])).imports,
    ).toEqual(['createMcpHttpToolHandler']);
    expect(
      runtimePartsSource(
        config([{ id: 't', name: 't', kind: 'mcp-http', url: 'https://tools.example/mcp', binding: 'TOOLS' }]),
      ).imports,
    ).toEqual([]);
    expect(runtimePartsSource(config([{ id: 't', name: 't', kind: 'bundled' }])).write).toBeUndefined();
  });

  it('names the agentic loop with the compaction policy the config uses, none without a context budget', () => {
    const agentic = (memory: RuntimeConfig['memory']) =>
      runtimePartsSource(agenticConfig('openai-chat', 'https://llm.example', { memory })).imports;
    expect(agentic({})).toEqual(['createAgenticLoop', 'createOpenAiChatClient', 'modelClientFrom', 'signedReceipts']);
    expect(agentic({ contextWindowBudget: 1000 })).toEqual([
      'compactWith',
      'createAgenticLoop',
      'createOpenAiChatClient',
      'dropOlderSteps',
      'modelClientFrom',
      'signedReceipts',
    ]);
    expect(agentic({ contextWindowBudget: 1000, compactionPolicy: 'quarantine' })).toContain('quarantineOlderSteps');
  });

  it('names receipt signing for signed receipts, and the config check only for a config that fails it', () => {
    expect(runtimePartsSource(toolOnlyConfig()).imports).toEqual(['signedReceipts']);
    const failing = { ...toolOnlyConfig(), skills: [] } as RuntimeConfig;
    expect(runtimePartsSource(failing).imports).toEqual(['checkRuntimeConfig', 'signedReceipts']);
  });
});

/** The `parts` a generated module names for `config`, evaluated from the source the generator writes. */
function generatedParts(config: RuntimeConfig): RuntimeParts {
  const source = runtimePartsSource(config);
  if (!source.write) return {};
  const writer = new CodeBlockWriter();
  source.write(writer);
  const exports = runtime as unknown as Record<string, unknown>;
  return new Function(...source.imports, `return ${writer.toString()};`)(
    ...source.imports.map((name) => exports[name]),
  ) as RuntimeParts;
}

describe('the served card of a generated Worker', () => {
  let jwk: JsonWebKey;
  beforeAll(async () => {
    jwk = (await generateReceiptKeyPair()).privateJwk;
  });
  const PASSWORD = 'x9Kq2Lm7Rx1T' + 'w8Pz';
  const leaky = (publicUrl?: string) => {
    const config = toolOnlyConfig({ receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } });
    config.agent.description = `Signs with ${JSON.stringify(jwk)} for now.`;
    config.skills[0]!.examples = [`AWS_SECRET_ACCESS_KEY=${PASSWORD}abc123`];
    config.card.provider = { organization: 'acme', url: `https://ci:${PASSWORD}@git.example.com/acme/agents` };
    if (publicUrl !== undefined) config.card.publicUrl = publicUrl;
    return config;
  };

  it('names the card scrub only for a config whose card holds key material', () => {
    const clean = toolOnlyConfig({ receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } });
    expect(runtimePartsSource(clean).imports).toEqual([]);
    expect(runtimePartsSource(leaky()).imports).toEqual(['scrubKeyMaterial']);
    expect(runtimePartsSource(leaky('https://agent.example.com')).imports).toEqual(['scrubKeyMaterial']);
    // Each string of the card alone is enough.
    const one = toolOnlyConfig({ receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } });
    one.card.documentationUrl = `https://:${PASSWORD}@docs.example.com/`;
    expect(runtimePartsSource(one).imports).toEqual(['scrubKeyMaterial']);
    const skill = toolOnlyConfig({ receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } });
    skill.skills[0]!.name = `key: {kty: 'OKP', crv: 'Ed25519', d: '${jwk.d}'}`;
    expect(runtimePartsSource(skill).imports).toEqual(['scrubKeyMaterial']);
  });

  it('serves no key material from a config that holds some, with the parts its module names', async () => {
    for (const publicUrl of [undefined, 'https://agent.example.com']) {
      const handler = createA2aHandlerWithParts(leaky(publicUrl), generatedParts(leaky(publicUrl)));
      const served = await serveHandler(handler);
      try {
        const text = await (await fetch(`${served.url}${AGENT_CARD_PATH}`)).text();
        expect(text).toContain('"skills"');
        expect(text).not.toContain(jwk.d!);
        expect(text).not.toContain(PASSWORD);
        expect(text).toContain(jwk.x!);
        expect(text).toContain('for now.');
      } finally {
        await served.close();
      }
    }
  });

  it('serves a clean config the same card with and without the scrub', async () => {
    const clean = toolOnlyConfig({ receipts: { mode: 'off', schemaVersion: 'receipt/v1', signerRef: null } });
    const cards: string[] = [];
    for (const parts of [generatedParts(clean), { cardScrub: runtime.scrubKeyMaterial }]) {
      const handler = createA2aHandlerWithParts(clean, parts);
      const response = await handler(new Request(`https://agent.example.com${AGENT_CARD_PATH}`));
      cards.push(await response.text());
    }
    expect(cards[0]).toContain('"skills"');
    expect(cards[0]).toBe(cards[1]);
  });
});
