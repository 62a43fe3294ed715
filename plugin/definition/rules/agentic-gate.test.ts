import { describe, expect, it } from 'vitest';
import { agenticGateRule as rule } from './agentic-gate';
import { baseDefinition, loadExample, runRule, summarize } from './test-support';

describe('agentic-gate', () => {
  it('passes an agent whose gate is "agentic" and which registers in KYM', () => {
    expect(runRule(rule, baseDefinition())).toEqual([]);
  });

  it('passes a tool whose gate is "tool-only" and which does not register in KYM', () => {
    expect(runRule(rule, loadExample('code-search'))).toEqual([]);
    expect(runRule(rule, loadExample('text-stats'))).toEqual([]);
  });

  it('reports a model set with a "tool-only" gate at the gate', () => {
    const def = baseDefinition();
    def.telemetryContract.agenticGate = 'tool-only';
    def.telemetryContract.kymRegistrationRequired = false;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/telemetryContract/agenticGate', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.rule).toBe('agentic-gate');
    expect(findings[0]?.message).toMatch(/"tool-only".*pins 1 model/);
    expect(findings[0]?.suggestion).toMatch(/"agentic"/);
  });

  it('reports an empty model set with an "agentic" gate at the gate', () => {
    const def = loadExample('code-search');
    def.telemetryContract.agenticGate = 'agentic';
    def.telemetryContract.kymRegistrationRequired = true;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/telemetryContract/agenticGate', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toMatch(/modelSet is empty/);
    expect(findings[0]?.suggestion).toMatch(/"tool-only"/);
  });

  it('reports an agentic entity that skips KYM registration', () => {
    const def = baseDefinition();
    def.telemetryContract.kymRegistrationRequired = false;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/telemetryContract/kymRegistrationRequired', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.suggestion).toBe('Set telemetryContract.kymRegistrationRequired to true.');
  });

  it('reports a tool that claims KYM registration', () => {
    const def = loadExample('code-search');
    def.telemetryContract.kymRegistrationRequired = true;
    expect(summarize(runRule(rule, def))).toEqual([
      { path: '/telemetryContract/kymRegistrationRequired', code: 'agent_definition_invalid', severity: 'error' },
    ]);
  });

  it('reports both mismatches at once, never inferring one field from the other', () => {
    const def = loadExample('code-search');
    def.telemetryContract.agenticGate = 'agentic';
    // kymRegistrationRequired stays false: wrong for the stored gate "agentic".
    expect(runRule(rule, def).map((f) => f.path)).toEqual([
      '/telemetryContract/agenticGate',
      '/telemetryContract/kymRegistrationRequired',
    ]);
  });
});
