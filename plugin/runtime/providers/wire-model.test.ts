/**
 * Exact models on the wire, per provider: a definition with a pin passes the real validator, the
 * compiler projects it onto a runtime config, the runtime runs it against a loopback stub speaking
 * the provider's wire format, and the request body's `model` is exactly the pinned snapshot (not
 * the alias). The run's receipt records the same model and the pin's modelVersion.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeConfigFor } from '../../compiler/runtime-config';
import { agent, json, tree } from '../../compiler/test-support';
import { EMPTY_WORKSPACE_CONFIG } from '../../compiler/workspace-config';
import { validateDefinitionSource } from '../../definition/validate-definition';
import type { LlmPin } from '../../schema/generated/agent-definition.types';
import { memorySink } from '../__test-support__/configs';
import { baseUrlFor, startScriptedProvider, type StubServer, type Wire } from '../__test-support__/stub-provider';
import { generateReceiptKeyPair } from '../receipts';
import { runAgent } from '../run-agent';
import type { RuntimeCapabilityClass } from '../../definition/runtime-hosts';

const KEY = 'sk-wire-model-test-KEY-24680';
const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Case {
  name: string;
  pin: Omit<LlmPin, 'role' | 'samplingParams'>;
  cls: RuntimeCapabilityClass;
  wire: Wire;
  expected: string;
}

const CASES: Case[] = [
  {
    name: 'openai-chat (OpenAI dated snapshot)',
    pin: { providerId: 'openai', modelId: 'gpt-4o-mini', modelVersion: '2024-07-18', tier: 'small' },
    cls: 'workers-preferred',
    wire: 'openai-chat',
    expected: 'gpt-4o-mini-2024-07-18',
  },
  {
    name: 'anthropic-messages (pre-4.6 dated snapshot)',
    pin: { providerId: 'anthropic', modelId: 'claude-3-5-haiku', modelVersion: '20241022', tier: 'small' },
    cls: 'workers-preferred',
    wire: 'anthropic-messages',
    expected: 'claude-3-5-haiku-20241022',
  },
  {
    name: 'anthropic-messages (dashed date, sent compact)',
    pin: { providerId: 'anthropic', modelId: 'claude-haiku-4-5', modelVersion: '2025-10-01', tier: 'small' },
    cls: 'workers-preferred',
    wire: 'anthropic-messages',
    expected: 'claude-haiku-4-5-20251001',
  },
  {
    name: 'anthropic-messages (dateless 4.6+ id)',
    pin: { providerId: 'anthropic', modelId: 'claude-sonnet-4-6', modelVersion: '2026-02-17', tier: 'small' },
    cls: 'workers-preferred',
    wire: 'anthropic-messages',
    expected: 'claude-sonnet-4-6',
  },
  {
    name: 'ollama-chat (model:tag)',
    pin: { providerId: 'local-ollama', modelId: 'llama3.1', modelVersion: '8b', tier: 'local' },
    cls: 'local-host-required',
    wire: 'ollama-chat',
    expected: 'llama3.1:8b',
  },
  {
    name: 'custom provider (model as given)',
    pin: { providerId: 'custom:acme', modelId: 'acme-writer-7b', modelVersion: '2026-01-15', tier: 'small' },
    cls: 'container-required',
    wire: 'openai-chat',
    expected: 'acme-writer-7b',
  },
];

describe('the wire model is the exact pinned model', () => {
  it.each(CASES)('$name → $expected', async ({ pin, cls, wire, expected }) => {
    const definition = agent('wire-probe', '1.0.0', {
      cls,
      models: [{ role: 'primary', samplingParams: { temperature: 0 }, ...pin }],
    });
    const checked = validateDefinitionSource(json(definition), 'agents/wire-probe/agent.json', 'json');
    expect(checked.diagnostics.filter((d) => d.rule === 'exact-models' || d.severity === 'error')).toEqual([]);

    const { config, diagnostics } = runtimeConfigFor(tree(definition), 'wire-probe@1.0.0', {
      workspace: EMPTY_WORKSPACE_CONFIG,
    });
    expect(diagnostics).toEqual([]);
    expect(config.models[0]).toMatchObject({ wire, model: expected, modelVersion: pin.modelVersion });

    const stub = await startScriptedProvider({
      wire,
      ...(wire === 'ollama-chat' ? {} : { apiKey: KEY }),
      script: [{ text: 'done' }],
    });
    servers.push(stub);
    const model = config.models[0]!;
    model.baseUrl = baseUrlFor(wire, stub);
    config.egress.allow.push(stub.url);

    const keys = await generateReceiptKeyPair();
    const sink = memorySink();
    const result = await runAgent(
      config,
      { text: 'hello' },
      {
        secrets: (name) => (name === config.receipts.keyBinding ? undefined : KEY),
        receipts: { signingKey: keys.privateJwk, sink },
        fetch,
      },
    );
    expect(result, JSON.stringify(result)).toMatchObject({ answer: { text: 'done' } });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.body.model).toBe(expected);

    await new Promise((r) => setTimeout(r, 0));
    expect(sink.receipts).toHaveLength(1);
    expect(sink.receipts[0]!.models).toEqual([
      { role: 'primary', providerId: pin.providerId, model: expected, modelVersion: pin.modelVersion },
    ]);
  });
});
