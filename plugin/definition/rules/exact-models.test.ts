/**
 * The wire-id mapping (provider, modelId, modelVersion) → the `model` a request carries, and the
 * `exact-models` rule that reports pins naming no exact provider model, located through the real
 * validator.
 */
import { describe, expect, it } from 'vitest';
import type { LlmPin } from '../../schema/generated/agent-definition.types';
import { validateDefinitionSource } from '../validate-definition';
import { exactModelsRule as rule, isDatelessClaudeId, parseSnapshotDate, wireModelId } from './exact-models';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const pin = (providerId: string, modelId: string, modelVersion: string, extra: Partial<LlmPin> = {}): LlmPin => ({
  role: 'primary',
  providerId,
  modelId,
  modelVersion,
  samplingParams: {},
  ...extra,
});

describe('wireModelId', () => {
  it.each([
    ['openai', 'gpt-4o-mini', '2024-07-18', 'gpt-4o-mini-2024-07-18'],
    ['openai', 'gpt-4o-mini', '20240718', 'gpt-4o-mini-2024-07-18'],
    ['openai', 'gpt-5', '2025-08-07', 'gpt-5-2025-08-07'],
    ['openai', 'gpt-5-mini', '2025-08-07', 'gpt-5-mini-2025-08-07'],
    ['openai', 'gpt-4', '0613', 'gpt-4-0613'],
    ['anthropic', 'claude-3-5-haiku', '20241022', 'claude-3-5-haiku-20241022'],
    ['anthropic', 'claude-haiku-4-5', '2025-10-01', 'claude-haiku-4-5-20251001'],
    ['anthropic', 'claude-sonnet-4', '20250514', 'claude-sonnet-4-20250514'],
    ['anthropic', 'claude-opus-4-1', '2025-08-05', 'claude-opus-4-1-20250805'],
    ['anthropic', 'claude-sonnet-4-6', '2026-02-17', 'claude-sonnet-4-6'],
    ['anthropic', 'claude-sonnet-4-6', '2026-02-17', 'claude-sonnet-4-6'],
    ['anthropic', 'claude-opus-5', 'anything-recorded', 'claude-opus-5'],
    ['local-ollama', 'llama3.1', '8b', 'llama3.1:8b'],
    ['local-ollama', 'hf.co/acme/notes-GGUF', 'Q4_K_M', 'hf.co/acme/notes-GGUF:Q4_K_M'],
    ['custom:acme', 'qwen2.5-coder-7b', '2026-10-02', 'qwen2.5-coder-7b'],
    ['mistral', 'mistral-large-2411', '2411', 'mistral-large-2411'],
    ['groq', 'llama-3.1-8b-instant', '2024-07-23', 'llama-3.1-8b-instant'],
  ])('%s %s + %s → %s', (providerId, modelId, modelVersion, expected) => {
    expect(wireModelId(pin(providerId, modelId, modelVersion))).toEqual({ id: expected });
  });

  it('sends a tuned pin’s checkpoint, whatever the provider', () => {
    expect(
      wireModelId(
        pin('custom:acme-tuned', 'splice', '2026-10-02', {
          tier: 'tuned',
          checkpointId: 'ckpt:acme/splice/2026-10-02',
        }),
      ),
    ).toEqual({ id: 'ckpt:acme/splice/2026-10-02' });
    expect(
      wireModelId(
        pin('openai', 'gpt-4o-mini', '2024-07-18', {
          tier: 'tuned',
          checkpointId: 'ft:gpt-4o-mini-2024-07-18:acme::abc',
        }),
      ).id,
    ).toBe('ft:gpt-4o-mini-2024-07-18:acme::abc');
  });

  it('sends a modelId that repeats its own snapshot once, in the provider’s form, with a warning', () => {
    const openai = wireModelId(pin('openai', 'gpt-4o-mini-2024-07-18', '2024-07-18'));
    expect(openai.id).toBe('gpt-4o-mini-2024-07-18');
    expect(openai.problem).toMatchObject({ severity: 'warning', field: 'modelId' });
    expect(openai.problem?.suggestion).toContain('"modelId": "gpt-4o-mini"');
    const anthropic = wireModelId(pin('anthropic', 'claude-3-5-haiku-20241022', '2024-10-22'));
    expect(anthropic).toMatchObject({
      id: 'claude-3-5-haiku-20241022',
      problem: { severity: 'warning', field: 'modelId' },
    });
    expect(wireModelId(pin('openai', 'gpt-4-0613', '0613'))).toMatchObject({
      id: 'gpt-4-0613',
      problem: { severity: 'warning' },
    });
    expect(wireModelId(pin('local-ollama', 'llama3.1:8b', '8b'))).toMatchObject({
      id: 'llama3.1:8b',
      problem: { severity: 'warning', field: 'modelId' },
    });
  });

  it('refuses a modelId whose date or tag contradicts modelVersion', () => {
    const dated = wireModelId(pin('openai', 'gpt-4o-mini-2024-07-18', '2024-08-06'));
    expect(dated.problem).toMatchObject({ severity: 'error', field: 'modelId' });
    expect(dated.problem?.suggestion).toContain('"modelId": "gpt-4o-mini"');
    const tagged = wireModelId(pin('local-ollama', 'llama3.1:8b', '2024-07-23'));
    expect(tagged.problem).toMatchObject({ severity: 'error', field: 'modelId' });
    expect(tagged.problem?.suggestion).toBe(
      'Write "modelId": "llama3.1" with "modelVersion": "8b"; agentdef sends "llama3.1:8b".',
    );
  });

  it.each([
    ['openai', 'gpt-4o-mini', '1', 'YYYY-MM-DD'],
    ['openai', 'gpt-4o-mini', '2024-13-01', 'YYYY-MM-DD'],
    ['openai', 'gpt-4o-mini', '2024-02-30', 'YYYY-MM-DD'],
    ['anthropic', 'claude-3-5-haiku', 'v2', 'YYYYMMDD'],
    ['anthropic', 'claude-haiku-4-5', '4.5', 'YYYYMMDD'],
    ['local-ollama', 'llama3.1', '8b:q4', 'tag'],
    ['local-ollama', 'llama3.1', 'a/b', 'tag'],
  ])('refuses a %s version malformed for the provider: %s + %s', (providerId, modelId, modelVersion, advice) => {
    const result = wireModelId(pin(providerId, modelId, modelVersion));
    expect(result.problem).toMatchObject({ severity: 'error', field: 'modelVersion' });
    expect(`${result.problem?.message} ${result.problem?.suggestion}`).toContain(advice);
  });

  it('parses snapshot dates in both forms and only real calendar days', () => {
    expect(parseSnapshotDate('2024-07-18')).toEqual({ year: '2024', month: '07', day: '18' });
    expect(parseSnapshotDate('20241022')).toEqual({ year: '2024', month: '10', day: '22' });
    expect(parseSnapshotDate('2024-02-29')).toBeDefined();
    for (const bad of ['2023-02-29', '2024-00-10', '2024-7-18', '240718', 'latest'])
      expect(parseSnapshotDate(bad)).toBeUndefined();
  });

  it('tells dateless (4.6+) Claude ids from earlier ones', () => {
    for (const id of ['claude-sonnet-4-6', 'claude-opus-4-8', 'claude-sonnet-5'])
      expect(isDatelessClaudeId(id)).toBe(true);
    for (const id of [
      'claude-haiku-4-5',
      'claude-opus-4-1',
      'claude-sonnet-4',
      'claude-3-5-haiku',
      'claude-3-haiku',
      'claude-haiku-4-5-20251001',
    ])
      expect(isDatelessClaudeId(id)).toBe(false);
  });
});

describe('exact-models', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports each offending pin at its field, with its index', () => {
    const def = baseDefinition();
    def.modelSet = [
      pin('openai', 'gpt-4o-mini', '2024-07-18'),
      pin('anthropic', 'claude-3-5-haiku', 'v2', { role: 'evaluator' }),
      pin('openai', 'gpt-4o-mini-2024-07-18', '2024-07-18', { role: 'classifier' }),
    ];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/modelSet/1/modelVersion', code: 'agent_definition_invalid', severity: 'error' },
      { path: '/modelSet/2/modelId', code: 'agent_definition_invalid', severity: 'warning' },
    ]);
    expect(findings[0]?.message).toContain('modelSet[1] ("claude-3-5-haiku", anthropic)');
    expect(findings[1]?.message).toContain('It is sent as "gpt-4o-mini-2024-07-18".');
  });

  it('locates the diagnostic at file:line:column through the real validator', () => {
    const def = baseDefinition();
    def.modelSet[0]!.modelVersion = 'mini-v2';
    const text = JSON.stringify(def, null, 2);
    const result = validateDefinitionSource(text, 'agents/router/agent.json', 'json');
    expect(result.valid).toBe(false);
    const diagnostic = result.diagnostics.find((d) => d.rule === 'exact-models');
    const line = text.split('\n').findIndex((l) => l.includes('"modelVersion": "mini-v2"')) + 1;
    expect(diagnostic).toMatchObject({
      severity: 'error',
      path: '/modelSet/0/modelVersion',
      file: 'agents/router/agent.json',
      line,
    });
    expect(diagnostic?.column).toBe(text.split('\n')[line - 1]!.indexOf('"mini-v2"') + 1);
    expect(diagnostic?.suggestion).toContain('"modelVersion": "2024-07-18"');
  });
});
