import { describe, expect, it } from 'vitest';
import { kymRefRule as rule } from './kym-ref';
import { baseDefinition, loadExample, runRule, summarize } from './test-support';

describe('kym-ref', () => {
  it('passes a kymRef naming this slug and version', () => {
    expect(runRule(rule, baseDefinition())).toEqual([]);
  });

  it('passes a definition without a kymRef (lifecycle-gates decides whether one is needed)', () => {
    expect(runRule(rule, loadExample('code-search'))).toEqual([]);
  });

  it('reports a kymRef with another version and gives the exact expected string', () => {
    const def = baseDefinition();
    def.identity.kymRef = 'kym://agents/write-router@1.3.0';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/identity/kymRef', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.rule).toBe('kym-ref');
    expect(findings[0]?.message).toContain('"kym://agents/write-router@1.3.0"');
    expect(findings[0]?.suggestion).toBe('Set identity.kymRef to "kym://agents/write-router@1.4.0".');
  });

  it('reports a kymRef naming another agent', () => {
    const def = loadExample('splice-resolver');
    def.identity.kymRef = 'kym://agents/write-router@0.4.2';
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(['/identity/kymRef']);
    expect(findings[0]?.suggestion).toBe('Set identity.kymRef to "kym://agents/splice-resolver@0.4.2".');
  });

  it('compares exactly (build metadata and pre-releases included)', () => {
    const def = baseDefinition();
    def.identity.versionSemver = '1.4.0-rc.1';
    expect(runRule(rule, def)[0]?.suggestion).toBe('Set identity.kymRef to "kym://agents/write-router@1.4.0-rc.1".');
    def.identity.kymRef = 'kym://agents/write-router@1.4.0-rc.1';
    expect(runRule(rule, def)).toEqual([]);
  });
});
