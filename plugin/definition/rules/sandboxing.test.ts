import { describe, expect, it } from 'vitest';
import { sandboxingRule as rule } from './sandboxing';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const mismatch = (path: string) => ({ path, code: 'runtime_capability_mismatch', severity: 'error' });

describe('sandboxing', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports a native tool in a workers-only agent at the tool, naming tool, class and host', () => {
    const def = loadExample('web-summarizer');
    def.toolInventory[0]!.provenance = 'native';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([mismatch('/toolInventory/0')]);
    expect(findings[0]?.rule).toBe('sandboxing');
    expect(findings[0]?.message).toContain('"web-fetch"');
    expect(findings[0]?.message).toContain('"workers-only"');
    expect(findings[0]?.message).toContain('a container or the local host');
    expect(findings[0]?.suggestion).toMatch(/^Declare runtimeRequirements.runtimeCapabilityClass "container-required"/);
  });

  it('accepts a native tool under workers-preferred (it degrades to a container)', () => {
    const def = baseDefinition();
    def.toolInventory[0]!.provenance = 'native';
    expect(runRule(rule, def)).toEqual([]);
  });

  it('reports an MCP stdio tool outside the local host, suggesting local-host-required', () => {
    const def = loadExample('code-search');
    def.runtimeRequirements.runtimeCapabilityClass = 'workers-preferred';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([mismatch('/toolInventory/0')]);
    expect(findings[0]?.message).toContain('over stdio');
    expect(findings[0]?.suggestion).toContain('"local-host-required"');
  });

  it('reports a tuned pin in a Worker at the pin', () => {
    const def = loadExample('splice-resolver');
    def.runtimeRequirements.runtimeCapabilityClass = 'workers-only';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([mismatch('/modelSet/0'), mismatch('/toolInventory/0')]);
    expect(findings[0]?.message).toContain('"qwen2.5-coder-7b-splice-lora" (specialist)');
    expect(findings[0]?.suggestion).toContain('"container-required"');
  });

  it('reports a local model pin anywhere but the local host', () => {
    for (const cls of ['workers-only', 'workers-preferred', 'container-required'] as const) {
      const def = loadExample('local-notes');
      def.runtimeRequirements.runtimeCapabilityClass = cls;
      const findings = runRule(rule, def);
      expect(summarize(findings)).toEqual([mismatch('/modelSet/0'), mismatch('/toolInventory/0')]);
      expect(findings[0]?.suggestion).toContain('"local-host-required"');
    }
  });

  it('suggests a class that hosts every tool and pin, not just the offending one', () => {
    const def = loadExample('splice-resolver');
    def.runtimeRequirements.runtimeCapabilityClass = 'workers-only';
    def.toolInventory.push({
      id: 'notes',
      name: 'notes',
      version: '1.0.0',
      provenance: 'mcp',
      mcpServer: 'n',
      mcpTransport: 'stdio',
      risk: 'low',
    });
    // The tuned pin alone would fit a container, but the stdio tool needs the local host.
    const all = runRule(rule, def);
    expect(all.map((f) => f.path)).toEqual(['/modelSet/0', '/toolInventory/0', '/toolInventory/1']);
    expect(all.every((f) => f.suggestion?.includes('"local-host-required"'))).toBe(true);

    const stuck = loadExample('text-stats');
    stuck.toolInventory.push({
      id: 'notes',
      name: 'notes',
      version: '1.0.0',
      provenance: 'mcp',
      mcpServer: 'n',
      mcpTransport: 'stdio',
      risk: 'low',
    });
    stuck.runtimeRequirements.runtimeCapabilityClass = 'container-required';
    const findings = runRule(rule, stuck);
    expect(summarize(findings)).toEqual([mismatch('/toolInventory/1')]);
    expect(findings[0]?.suggestion).toContain('"local-host-required"');
  });

  it('does not resolve composed children (the compiler does)', () => {
    const def = loadExample('edit-assistant');
    def.runtimeRequirements.runtimeCapabilityClass = 'workers-only';
    expect(runRule(rule, def)).toEqual([]);
  });
});
