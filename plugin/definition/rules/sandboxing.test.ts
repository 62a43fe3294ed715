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

describe('sandboxing: bindings the declared class cannot provide', () => {
  it('reports a KV binding on a container-required agent at the binding, suggesting a class with a Worker', () => {
    const def = loadExample('splice-resolver');
    def.runtimeRequirements.bindings.push({ kind: 'kv', name: 'CACHE' });
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([mismatch('/runtimeRequirements/bindings/1')]);
    expect(findings[0]?.message).toContain('kv binding "CACHE" is provided by Cloudflare Workers only');
    expect(findings[0]?.message).toContain('"container-required" runs only on a container');
    // The tuned pin still needs a container: workers-preferred hosts both.
    expect(findings[0]?.suggestion).toBe(
      'Remove runtimeRequirements.bindings[1], or declare runtimeCapabilityClass "workers-preferred" (it runs on a Worker or a container).',
    );
  });

  it('reports every Worker-only kind on the local host, and an R2 bucket there too', () => {
    const def = loadExample('local-notes');
    def.runtimeRequirements.keyCustody = 'secrets-store';
    def.runtimeRequirements.bindings = [
      { kind: 'service', name: 'PEER', service: 'peer' },
      { kind: 'kv', name: 'KV' },
      { kind: 'd1', name: 'DB' },
      { kind: 'r2', name: 'BUCKET', bucket: 'acme-bucket' },
      { kind: 'queue', name: 'JOBS' },
      { kind: 'custom', name: 'AI', type: 'ai' },
      { kind: 'secret-ref', name: 'TOKEN', ref: 'secrets-store://acme/token' },
    ];
    const findings = runRule(rule, def);
    expect(findings.map((f) => f.path)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/runtimeRequirements/bindings/${i}`));
    expect(findings[3]?.message).toContain('on a container only as the source of tuned weights');
    expect(findings.every((f) => f.message.includes('"local-host-required" runs only on the local host'))).toBe(true);
  });

  it('accepts an R2 weights bucket on a container, any binding under a class with a Worker, secrets everywhere', () => {
    expect(runRule(rule, loadExample('splice-resolver'))).toEqual([]);
    for (const cls of ['workers-only', 'workers-preferred'] as const) {
      const def = baseDefinition();
      def.runtimeRequirements.runtimeCapabilityClass = cls;
      def.toolInventory = def.toolInventory.filter((t) => t.provenance !== 'native');
      def.runtimeRequirements.bindings.push({ kind: 'd1', name: 'DB' }, { kind: 'custom', name: 'AI', type: 'ai' });
      expect(runRule(rule, def)).toEqual([]);
    }
    const def = loadExample('splice-resolver');
    def.runtimeRequirements.keyCustody = 'secrets-store';
    def.runtimeRequirements.bindings.push({ kind: 'secret-ref', name: 'TOKEN', ref: 'secrets-store://acme/token' });
    expect(runRule(rule, def)).toEqual([]);
  });
});
