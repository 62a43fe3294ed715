/** telemetry-kinds: a tool emits events only; session-report and experiment need a model pin. */
import { describe, expect, it } from 'vitest';
import { telemetryKindsRule as rule } from './telemetry-kinds';
import { EXAMPLE_FILES, loadExample, runRule, summarize } from './test-support';

describe('telemetry-kinds', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('refuses session-report and experiment on a tool, each at its index', () => {
    const def = loadExample('text-stats');
    expect(def.modelSet).toEqual([]);
    def.telemetryContract.telemetryKinds = ['events', 'session-report', 'experiment'];
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/telemetryContract/telemetryKinds/1', code: 'agent_definition_invalid', severity: 'error' },
      { path: '/telemetryContract/telemetryKinds/2', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toContain('session-report');
    expect(findings[1]?.message).toContain('experiment');
  });

  it('lets an agent declare every kind', () => {
    const def = loadExample('edit-assistant');
    expect(def.modelSet.length).toBeGreaterThan(0);
    def.telemetryContract.telemetryKinds = ['events', 'session-report', 'experiment'];
    expect(runRule(rule, def)).toEqual([]);
  });
});
