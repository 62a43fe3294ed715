import { describe, expect, it } from 'vitest';
import { defaultWireFor } from '../../runtime/runtime-config';
import { KNOWN_PROVIDERS } from './pins';
import { samplingParamsRule as rule, samplingWire } from './sampling-params';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const error = (path: string) => ({ path, code: 'agent_definition_invalid', severity: 'error', at: 'key' });

describe('sampling-params', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it("knows each provider's wire as the compiler does (the runtime's defaultWireFor, else openai-chat)", () => {
    for (const providerId of [...KNOWN_PROVIDERS, 'custom:vllm-box'])
      expect(samplingWire(providerId), providerId).toBe(defaultWireFor(providerId) ?? 'openai-chat');
    expect(KNOWN_PROVIDERS).toContain('anthropic');
    expect(KNOWN_PROVIDERS).toContain('local-ollama');
  });

  it('reports topK on an OpenAI pin at the parameter, naming the pin and what to use instead', () => {
    const def = baseDefinition();
    def.modelSet[0]!.samplingParams.topK = 40;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/samplingParams/topK')]);
    expect(findings[0]?.rule).toBe('sampling-params');
    expect(findings[0]?.message).toContain('samplingParams.topK of model pin openai/');
    expect(findings[0]?.message).toContain('has no top-k sampling');
    expect(findings[0]?.suggestion).toBe('Remove topK; use topP to narrow sampling on this provider.');
  });

  it('reports topK on every provider called through the OpenAI wire, custom and tuned ones included', () => {
    for (const providerId of ['azure-openai', 'groq', 'mistral', 'custom:vllm-box']) {
      const def = baseDefinition();
      def.modelSet[0]!.providerId = providerId;
      def.modelSet[0]!.samplingParams.topK = 5;
      expect(summarize(runRule(rule, def)), providerId).toEqual([error('/modelSet/0/samplingParams/topK')]);
    }
    const tuned = loadExample('splice-resolver');
    tuned.modelSet[0]!.samplingParams.topK = 5;
    expect(summarize(runRule(rule, tuned))).toEqual([error('/modelSet/0/samplingParams/topK')]);
  });

  it('reports seed on an Anthropic pin, and accepts topK there', () => {
    const def = loadExample('edit-assistant');
    expect(def.modelSet[0]!.providerId).toBe('anthropic');
    def.modelSet[0]!.samplingParams.topK = 20;
    def.modelSet[0]!.samplingParams.seed = 7;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/samplingParams/seed')]);
    expect(findings[0]?.message).toContain('has no sampling seed');
  });

  it('accepts seed on OpenAI and both on Ollama, whose clients send them', () => {
    const openai = baseDefinition();
    openai.modelSet[0]!.samplingParams.seed = 1;
    expect(runRule(rule, openai)).toEqual([]);
    const ollama = loadExample('local-notes');
    ollama.modelSet[0]!.samplingParams.topK = 40;
    ollama.modelSet[0]!.samplingParams.seed = 1;
    expect(runRule(rule, ollama)).toEqual([]);
  });
});
