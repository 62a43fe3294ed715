/** key-custody: secret-ref bindings come from the store keyCustody names. */
import { describe, expect, it } from 'vitest';
import { keyCustodyRule as rule } from './key-custody';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

describe('key-custody', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('accepts secrets-store refs under secrets-store custody (write-router)', () => {
    const def = baseDefinition();
    expect(def.runtimeRequirements.keyCustody).toBe('secrets-store');
    expect(def.runtimeRequirements.bindings.some((b) => b.kind === 'secret-ref')).toBe(true);
    expect(runRule(rule, def)).toEqual([]);
  });

  it('refuses a vault ref under secrets-store custody, at the ref, without quoting it', () => {
    const def = baseDefinition();
    const index = def.runtimeRequirements.bindings.findIndex((b) => b.kind === 'secret-ref');
    const binding = def.runtimeRequirements.bindings[index];
    if (binding?.kind !== 'secret-ref') throw new Error('write-router has a secret-ref binding');
    binding.ref = 'vault://acme/openai';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: `/runtimeRequirements/bindings/${index}/ref`, code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toContain('secrets-store://');
    expect(findings[0]?.message).not.toContain('vault://acme/openai');
  });

  it('requires vault:// refs under vault-ref custody', () => {
    const def = baseDefinition();
    def.runtimeRequirements.keyCustody = 'vault-ref';
    const index = def.runtimeRequirements.bindings.findIndex((b) => b.kind === 'secret-ref');
    expect(runRule(rule, def).map((f) => f.path)).toEqual([`/runtimeRequirements/bindings/${index}/ref`]);
    const binding = def.runtimeRequirements.bindings[index];
    if (binding?.kind !== 'secret-ref') throw new Error('write-router has a secret-ref binding');
    binding.ref = 'vault://acme/openai';
    expect(runRule(rule, def)).toEqual([]);
  });

  it('refuses any secret-ref binding under session custody, and leaves other bindings alone', () => {
    const def = baseDefinition();
    def.runtimeRequirements.keyCustody = 'session';
    const secretIndexes = def.runtimeRequirements.bindings.flatMap((b, i) => (b.kind === 'secret-ref' ? [i] : []));
    expect(secretIndexes.length).toBeGreaterThan(0);
    expect(def.runtimeRequirements.bindings.length).toBeGreaterThan(secretIndexes.length);
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual(secretIndexes.map((i) => `/runtimeRequirements/bindings/${i}`));
    expect(findings[0]?.message).toContain('session');
  });
});
