import { describe, expect, it } from 'vitest';
import { budgetsRule as rule } from './budgets';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const PATH = '/memoryContract/workingSetTokens';

describe('budgets', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('passes without budgets, and with a working set equal to the budget', () => {
    const def = baseDefinition();
    delete def.memoryContract.workingSetTokens;
    expect(runRule(rule, def)).toEqual([]);
    const equal = baseDefinition();
    equal.memoryContract.workingSetTokens = 32000;
    expect(runRule(rule, equal)).toEqual([]);
    const noBudget = baseDefinition();
    delete noBudget.memoryContract.contextWindowBudget;
    delete noBudget.memoryContract.compactionPolicy;
    expect(runRule(rule, noBudget)).toEqual([]);
  });

  it('reports a compaction policy with no context budget to apply to, at the policy', () => {
    const def = baseDefinition();
    delete def.memoryContract.contextWindowBudget;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/memoryContract/compactionPolicy', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toBe(
      'memoryContract.compactionPolicy "summarise" would never apply: the runtime compacts only when a turn would exceed contextWindowBudget, and no contextWindowBudget is set.',
    );
    expect(findings[0]?.suggestion).toContain('Add memoryContract.contextWindowBudget');
    // With no working set either, the policy is still reported.
    delete def.memoryContract.workingSetTokens;
    expect(summarize(runRule(rule, def)).map((f) => f.path)).toEqual(['/memoryContract/compactionPolicy']);
  });

  it('reports a working set larger than the context window', () => {
    const def = baseDefinition();
    def.memoryContract.workingSetTokens = 40000;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([{ path: PATH, code: 'agent_definition_invalid', severity: 'error' }]);
    expect(findings[0]?.message).toContain('40,000 tokens');
    expect(findings[0]?.message).toContain('32,000 tokens');
  });

  it('reports a Workers-hostile working set as an error for workers-only', () => {
    const def = loadExample('web-summarizer');
    def.memoryContract.workingSetTokens = 150_000;
    def.memoryContract.contextWindowBudget = 400_000;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([{ path: PATH, code: 'runtime_capability_mismatch', severity: 'error' }]);
    expect(findings[0]?.message).toContain('"workers-only"');
  });

  it('reports a Workers-hostile working set as a warning for workers-preferred', () => {
    const def = baseDefinition();
    def.memoryContract.workingSetTokens = 200_000;
    def.memoryContract.contextWindowBudget = 200_000;
    expect(summarize(runRule(rule, def))).toEqual([
      { path: PATH, code: 'runtime_capability_mismatch', severity: 'warning' },
    ]);
  });

  it('leaves containers and the local host alone, and honours the threshold option', () => {
    const def = loadExample('splice-resolver');
    def.memoryContract.workingSetTokens = 200_000;
    def.memoryContract.contextWindowBudget = 262_144;
    expect(runRule(rule, def)).toEqual([]);

    const small = loadExample('web-summarizer');
    expect(runRule(rule, small, { workingSetThreshold: 20_000 }).map((f) => f.code)).toEqual([
      'runtime_capability_mismatch',
    ]);
    const atThreshold = loadExample('web-summarizer');
    expect(runRule(rule, atThreshold, { workingSetThreshold: 24_000 })).toEqual([]);
  });

  it('reports both problems at once', () => {
    const def = loadExample('web-summarizer');
    def.memoryContract.workingSetTokens = 300_000;
    def.memoryContract.contextWindowBudget = 200_000;
    expect(summarize(runRule(rule, def))).toEqual([
      { path: PATH, code: 'agent_definition_invalid', severity: 'error' },
      { path: PATH, code: 'runtime_capability_mismatch', severity: 'error' },
    ]);
  });
});
