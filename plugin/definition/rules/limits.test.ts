import { describe, expect, it } from 'vitest';
import { limitsRule as rule } from './limits';
import { EXAMPLE_FILES, loadExample, runRule, summarize } from './test-support';

describe('limits', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports cpuMs on a class that never runs on a Worker, at the key', () => {
    for (const slug of ['splice-resolver', 'code-search']) {
      const def = loadExample(slug);
      def.runtimeRequirements.limits.cpuMs = 50;
      const findings = runRule(rule, def);
      expect(summarize(findings), slug).toEqual([
        { path: '/runtimeRequirements/limits/cpuMs', code: 'agent_definition_invalid', severity: 'error', at: 'key' },
      ]);
      expect(findings[0]?.message).toContain(
        `"${def.runtimeRequirements.runtimeCapabilityClass}" never runs on a Worker`,
      );
      expect(findings[0]?.suggestion).toBe('Remove cpuMs; bound the run with wallClockMs, which every host enforces.');
    }
  });

  it('accepts cpuMs on every class that may run on a Worker', () => {
    for (const slug of ['web-summarizer', 'write-router']) {
      const def = loadExample(slug);
      expect(def.runtimeRequirements.limits.cpuMs).toBeGreaterThan(0);
      expect(runRule(rule, def)).toEqual([]);
    }
  });

  it('reports more memory than a Worker isolate has on a workers-only agent', () => {
    const def = loadExample('web-summarizer');
    def.runtimeRequirements.limits.memoryMb = 129;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      { path: '/runtimeRequirements/limits/memoryMb', code: 'agent_definition_invalid', severity: 'error' },
    ]);
    expect(findings[0]?.message).toContain('(129 MiB) is more than the 128 MiB a Cloudflare Worker isolate has');
    def.runtimeRequirements.limits.memoryMb = 128;
    expect(runRule(rule, def)).toEqual([]);
  });

  it('accepts more memory on workers-preferred, whose container fallback gets it', () => {
    const def = loadExample('edit-assistant');
    expect(def.runtimeRequirements.runtimeCapabilityClass).toBe('workers-preferred');
    expect(def.runtimeRequirements.limits.memoryMb).toBe(256);
    expect(runRule(rule, def)).toEqual([]);
  });
});
