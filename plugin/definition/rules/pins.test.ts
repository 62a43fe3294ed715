import { describe, expect, it } from 'vitest';
import { closestProvider, floatingVersionReason, levenshtein, pinsRule as rule } from './pins';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const error = (path: string, at?: 'key') => ({
  path,
  code: 'agent_definition_invalid',
  severity: 'error',
  ...(at ? { at } : {}),
});

describe('pins', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports a tuned pin without a checkpoint', () => {
    const def = loadExample('splice-resolver');
    delete def.modelSet[0]?.checkpointId;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/checkpointId')]);
    expect(findings[0]?.message).toContain('tier "tuned"');
  });

  it('reports a checkpoint on a pin that is not tuned, at the key', () => {
    const def = baseDefinition();
    const pin = def.modelSet[0]!;
    pin.checkpointId = 'ckpt:acme/router/1';
    expect(summarize(runRule(rule, def))).toEqual([error('/modelSet/0/checkpointId', 'key')]);
    delete pin.tier;
    expect(summarize(runRule(rule, def))).toEqual([error('/modelSet/0/checkpointId', 'key')]);
  });

  it('reports an unknown provider with the closest known id', () => {
    const def = baseDefinition();
    def.modelSet[0]!.providerId = 'opneai';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/providerId')]);
    expect(findings[0]?.message).toContain('"opneai"');
    expect(findings[0]?.suggestion).toMatch(/^Did you mean "openai"\?/);
  });

  it('reports an unknown provider with no close match, suggesting custom:<name>', () => {
    const def = baseDefinition();
    def.modelSet[0]!.providerId = 'together';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/providerId')]);
    expect(findings[0]?.suggestion).toContain('"custom:together"');
  });

  it('accepts every known provider and any custom:<name>', () => {
    const def = baseDefinition();
    for (const providerId of [
      'openai',
      'anthropic',
      'google',
      'mistral',
      'cohere',
      'groq',
      'workers-ai',
      'azure-openai',
      'bedrock',
      'custom:acme.vllm',
    ]) {
      def.modelSet[0]!.providerId = providerId;
      expect(runRule(rule, def)).toEqual([]);
    }
  });

  it.each([
    'latest',
    'LATEST',
    '*',
    '^2024.7.0',
    '~1.2',
    '>=2024-07-18',
    '1.x',
    '1.2.*',
    '1.0 - 2.0',
    '1 || 2',
    'llama3.1:latest',
  ])('reports the floating modelVersion %s', (modelVersion) => {
    const def = baseDefinition();
    def.modelSet[0]!.modelVersion = modelVersion;
    expect(summarize(runRule(rule, def))).toEqual([error('/modelSet/0/modelVersion')]);
  });

  it.each(['2024-07-18', '20251001', 'v3', '8b-instruct-q4_K_M', 'gpt-4o-2024-08-06', '1.2.3'])(
    'accepts the exact modelVersion %s',
    (modelVersion) => {
      expect(floatingVersionReason(modelVersion)).toBeUndefined();
    },
  );

  it('reports a local tier on a remote provider, at the tier', () => {
    const def = baseDefinition();
    def.modelSet[0]!.tier = 'local';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/tier')]);
    expect(findings[0]?.suggestion).toContain('local-ollama');
  });

  it('accepts a local tier on a custom provider, and local-ollama without a tier', () => {
    const def = loadExample('local-notes');
    def.modelSet[0]!.providerId = 'custom:lm-studio';
    expect(runRule(rule, def)).toEqual([]);
    const untiered = loadExample('local-notes');
    delete untiered.modelSet[0]!.tier;
    expect(runRule(rule, untiered)).toEqual([]);
  });

  it('reports local-ollama with a non-local tier', () => {
    const def = loadExample('local-notes');
    def.modelSet[0]!.tier = 'small';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/modelSet/0/tier')]);
    expect(findings[0]?.suggestion).toContain('"local"');
  });

  it('reports every violation of every pin', () => {
    const def = baseDefinition();
    def.modelSet.push(
      {
        role: 'specialist',
        modelId: 'splice',
        modelVersion: 'latest',
        providerId: 'anthropc',
        samplingParams: {},
        tier: 'tuned',
      },
      {
        role: 'evaluator',
        modelId: 'judge',
        modelVersion: '2025-01-01',
        providerId: 'groq',
        samplingParams: {},
        tier: 'local',
      },
    );
    expect(summarize(runRule(rule, def))).toEqual([
      error('/modelSet/1/checkpointId'),
      error('/modelSet/1/providerId'),
      error('/modelSet/1/modelVersion'),
      error('/modelSet/2/tier'),
    ]);
  });

  it('computes edit distances and close providers', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(closestProvider('antropic')).toBe('anthropic');
    expect(closestProvider('local-olama')).toBe('local-ollama');
    expect(closestProvider('gogle')).toBe('google');
    expect(closestProvider('huggingface')).toBeUndefined();
  });
});
