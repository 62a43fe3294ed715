/**
 * model-task and the model gate (docs/decisions/0006-model-gate.md): a non-chat pin counts for
 * the gate like any other (an entity whose only model is an embedding model is agentic and must
 * register in KYM), and the runtime refuses to call it as a chat pin, located at its task.
 */
import { describe, expect, it } from 'vitest';
import type { LlmPin } from '../../schema/generated/agent-definition.types';
import { validateAgentDefinition } from '../../schema/generated/agent-definition.validator';
import { agenticGateRule } from './agentic-gate';
import { modelTaskRule as rule } from './model-task';
import { EXAMPLE_FILES, loadExample, runRule, summarize } from './test-support';

const NON_CHAT_TASKS = [
  'embedding',
  'classification',
  'speech-to-text',
  'text-to-speech',
  'image-classification',
  'image-generation',
] as const;

/** The text-stats tool given one pin of `task` as its only model. */
function toolWithOnlyPin(task: LlmPin['task']) {
  const def = loadExample('text-stats');
  expect(def.modelSet).toEqual([]);
  def.modelSet = [
    {
      role: 'classifier',
      task,
      modelId: 'text-embedding-3-small',
      modelVersion: '2024-01-25',
      providerId: 'openai',
      samplingParams: { temperature: 0 },
      tier: 'small',
    },
  ];
  return def;
}

describe('model-task', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example (every example pins chat models)', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('accepts a pin that says task "chat" and one that names no task alike', () => {
    const def = loadExample('edit-assistant');
    expect(def.modelSet.length).toBeGreaterThan(0);
    expect(runRule(rule, def)).toEqual([]);
    for (const pin of def.modelSet) pin.task = 'chat';
    expect(runRule(rule, def)).toEqual([]);
  });

  it.each(NON_CHAT_TASKS)('refuses a %s pin at its task, as a runtime capability mismatch', (task) => {
    const def = toolWithOnlyPin(task);
    def.telemetryContract.agenticGate = 'agentic';
    def.telemetryContract.kymRegistrationRequired = true;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/modelSet/0/task', code: 'runtime_capability_mismatch', severity: 'error' },
    ]);
    expect(findings[0]?.message).toMatch(new RegExp(`is an? ${task} model`));
    expect(findings[0]?.suggestion).toContain('counts for the model gate');
  });

  it('refuses a task the schema does not know', () => {
    const def = toolWithOnlyPin('embedding');
    (def.modelSet[0] as { task: string }).task = 'telepathy';
    expect(validateAgentDefinition(def)).toBe(false);
    expect(validateAgentDefinition.errors?.[0]?.instancePath).toBe('/modelSet/0/task');
  });
});

describe('the model gate counts every task', () => {
  it.each(NON_CHAT_TASKS)('an entity whose only model is a %s model is agentic and must register in KYM', (task) => {
    const def = toolWithOnlyPin(task);
    // Still declared a tool: the gate refuses it, however non-LLM the model is.
    expect(def.telemetryContract.agenticGate).toBe('tool-only');
    expect(summarize(runRule(agenticGateRule, def))).toEqual([
      { path: '/telemetryContract/agenticGate', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    def.telemetryContract.agenticGate = 'agentic';
    expect(summarize(runRule(agenticGateRule, def))).toEqual([
      { path: '/telemetryContract/kymRegistrationRequired', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    def.telemetryContract.kymRegistrationRequired = true;
    expect(runRule(agenticGateRule, def)).toEqual([]);
  });
});
