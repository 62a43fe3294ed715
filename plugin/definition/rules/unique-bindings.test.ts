import { describe, expect, it } from 'vitest';
import { uniqueBindingsRule as rule } from './unique-bindings';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

describe('unique-bindings', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports a repeated binding name at the later binding', () => {
    const def = loadExample('edit-assistant');
    def.runtimeRequirements.bindings[1]!.name = 'ANTHROPIC_API_KEY';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/runtimeRequirements/bindings/1/name', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toContain('bindings[0]');
  });

  it('reports every repeat', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings.push({ kind: 'kv', name: 'ROUTER_CACHE' }, { kind: 'd1', name: 'ROUTER_CACHE' });
    expect(runRule(rule, def).map((f) => f.path)).toEqual([
      '/runtimeRequirements/bindings/2/name',
      '/runtimeRequirements/bindings/3/name',
    ]);
  });

  it('warns when a secret-ref binding is not UPPER_SNAKE, with the suggested name', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings[0]!.name = 'openaiApiKey';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/runtimeRequirements/bindings/0/name', code: 'agent_definition_invalid', severity: 'warning' },
    ]);
    expect(findings[0]?.suggestion).toBe('Rename it to "OPENAI_API_KEY".');
  });

  it('does not ask other binding kinds for UPPER_SNAKE', () => {
    const def = baseDefinition();
    def.runtimeRequirements.bindings[1]!.name = 'routerCache';
    expect(runRule(rule, def)).toEqual([]);
  });
});
