import { describe, expect, it } from 'vitest';
import { providerKeyName as compilerProviderKeyName } from '../compiler/runtime-config';
import { providerKeyName } from './provider-keys';
import { CLASS_HOSTS, intersectHosts, pinHosts, type RuntimeCapabilityClass } from './runtime-hosts';
import { LIFECYCLE_STAGES } from './rules/lifecycle-gates';
import { definitionText, planScaffold, scaffoldAgent, scaffoldDefinition, toolModuleFile, toolModuleText, toolsJsonWithTool, type Lifecycle, type ScaffoldOptions } from './scaffold';
import { validateDefinitionSource } from './validate-definition';

const IDS = { id: '01J0000000000000000000000A', versionId: '01J0000000000000000000000B' };
const WORKSPACE = { packageName: '@acme/agents' };
const RUNTIMES: readonly (RuntimeCapabilityClass | undefined)[] = [undefined, 'workers-only', 'workers-preferred', 'container-required', 'local-host-required'];
const LIFECYCLES: readonly (Lifecycle | undefined)[] = [undefined, ...LIFECYCLE_STAGES];

/** The model options of an agent: defaults, each tier, local and custom providers. */
const MODELS: readonly Partial<ScaffoldOptions>[] = [
  {},
  { provider: 'anthropic' },
  { tier: 'frontier', model: 'gpt-4o@2024-08-06' },
  { tier: 'local', model: 'qwen2.5@7b' },
  { provider: 'local-ollama' },
  { tier: 'tuned', provider: 'custom:acme-tuned', model: 'splice-7b' },
  { tier: 'tuned', provider: 'openai', model: 'gpt-4o-mini', modelVersion: '2024-07-18', checkpoint: 'ft:gpt-4o-mini:acme' },
  { provider: 'groq', model: 'llama-3.1-8b-instant', modelVersion: '2024-07-23' },
];

function validate(text: string, file: string) {
  const result = validateDefinitionSource(text, file, 'json');
  return { valid: result.valid && !result.diagnostics.some((d) => d.severity === 'error'), diagnostics: result.diagnostics };
}

function* combinations(): Generator<ScaffoldOptions> {
  for (const nodes of [undefined, 'leaf@0.1.0, other@1.2.3-rc.1']) {
    for (const lifecycle of LIFECYCLES) {
      for (const runtime of RUNTIMES) {
        for (const model of MODELS) yield { name: 'agents/probe-agent', kind: 'agent', ...model, nodes, lifecycle, runtime };
        yield { name: 'tools/probe-tool', kind: 'tool', nodes, lifecycle, runtime };
      }
    }
  }
}

describe('scaffold', () => {
  it('validates with the real validator whenever the options leave the defaults alone', () => {
    let count = 0;
    for (const options of combinations()) {
      if (options.lifecycle !== undefined || options.runtime !== undefined) continue;
      const made = scaffoldAgent(options, WORKSPACE, IDS);
      expect(made.ok).toBe(true);
      if (!made.ok) continue;
      expect([options, validate(made.value.text, made.value.plan.file).diagnostics]).toEqual([options, []]);
      count++;
    }
    expect(count).toBe((MODELS.length + 1) * 2);
  });

  it('validates exactly when an explicit lifecycle and runtime suit the definition', () => {
    for (const options of combinations()) {
      const made = scaffoldAgent(options, WORKSPACE, IDS);
      if (!made.ok) throw new Error(made.problem);
      const { plan } = made.value;
      const stage = plan.lifecycle;
      const lifecycleFits = plan.pin
        ? stage !== 'tool-prototype' && stage !== 'tool-shipped' && stage !== 'marketplace-published' && (stage !== 'composed' || plan.nodes.length > 0)
        : stage === 'tool-prototype' || stage === 'tool-shipped';
      const runtimeFits = plan.pin === undefined || intersectHosts(CLASS_HOSTS[plan.runtime], pinHosts(plan.pin).hosts).length > 0;
      expect([options, validate(made.value.text, plan.file).valid]).toEqual([options, lifecycleFits && runtimeFits]);
    }
  });

  it('is deterministic: the same options, workspace and ids give the same bytes', () => {
    for (const options of combinations()) {
      const a = scaffoldAgent(options, WORKSPACE, IDS);
      const b = scaffoldAgent(structuredClone(options), { ...WORKSPACE }, { ...IDS });
      expect(a).toEqual(b);
      if (a.ok && b.ok) expect(a.value.text).toBe(b.value.text);
    }
  });

  it('writes two-space JSON with a final newline, the ids it is given and the provider key binding', () => {
    const made = scaffoldAgent({ name: 'summarizer' }, WORKSPACE, IDS);
    if (!made.ok) throw new Error(made.problem);
    expect(made.value.text).toBe(`${JSON.stringify(made.value.definition, null, 2)}\n`);
    expect(definitionText(made.value.definition)).toBe(made.value.text);
    expect(made.value.definition.identity).toMatchObject({ id: IDS.id, versionId: IDS.versionId, owner: { kind: 'org', id: 'acme' } });
    expect(made.value.definition.runtimeRequirements.bindings).toEqual([{ kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: 'secrets-store://acme/openai' }]);
    expect(made.value.definition.$schema).toBe('../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
  });

  it('defaults the runtime class from the pin’s hosts', () => {
    const runtime = (options: Partial<ScaffoldOptions>) => {
      const plan = planScaffold({ name: 'x', ...options });
      return plan.ok ? plan.value.runtime : plan.problem;
    };
    expect(runtime({})).toBe('workers-preferred');
    expect(runtime({ kind: 'tool' })).toBe('workers-preferred');
    expect(runtime({ tier: 'tuned', provider: 'custom:a', model: 'm' })).toBe('container-required');
    expect(runtime({ tier: 'local' })).toBe('local-host-required');
    expect(runtime({ provider: 'local-ollama' })).toBe('local-host-required');
    expect(runtime({ tier: 'tuned', provider: 'local-ollama', model: 'm' })).toBe('local-host-required');
  });

  it('returns the first problem instead of throwing, whatever the input', () => {
    const bad: unknown[] = [
      { name: '' },
      { name: '.' },
      { name: '/abs' },
      { name: 'a/../b' },
      { name: 'Bad_Name' },
      { name: 'a'.repeat(65) },
      { name: undefined },
      { name: 'ok', directory: '../x' },
      { name: 'ok', version: '1.0.0-01' },
      { name: 'ok', nodes: 'x@latest' },
      { name: 'ok', nodes: 'ok@1.0.0' },
      { name: 'ok', nodes: 'x@1.0.0,x@2.0.0' },
      { name: 'ok', owner: 'bad owner' },
      { name: 'ok', provider: 'groq' },
      { name: 'ok', checkpoint: 'c' },
      { name: 'ok', kind: 'tool', tier: 'small' },
    ];
    for (const options of bad) {
      const plan = planScaffold(options as ScaffoldOptions, { packageName: { not: 'a string' }, repository: null });
      expect([options, plan.ok]).toEqual([options, false]);
    }
    expect(planScaffold({ name: 'ok', version: '1.0.0-01' })).toEqual({ ok: false, problem: '--version "1.0.0-01" must be an exact semantic version such as 0.1.0' });
  });

  it('derives the owner and the repository from package.json, with placeholders', () => {
    const plan = (packageName: unknown) => {
      const p = planScaffold({ name: 'x' }, { packageName });
      return p.ok ? p.value.owner : p.problem;
    };
    expect(plan('@acme/agents')).toBe('acme');
    expect(plan('my agents!')).toBe('my-agents-');
    expect(plan(undefined)).toBe('my-org');
    expect(plan('@/')).toBe('my-org');
    const p = planScaffold({ name: 'x' });
    if (!p.ok) throw new Error(p.problem);
    expect(scaffoldDefinition(p.value, { repository: { url: ' https://git.example/x ' } }, IDS).metadata.provenance.repo).toBe('https://git.example/x');
    expect(scaffoldDefinition(p.value, { repository: 7 }, IDS).metadata.provenance.repo).toBe('https://example.invalid/my-org');
    expect(scaffoldDefinition(p.value, { packageName: 'agentdef' }, IDS).$schema).toBe('../plugin/schema/agent-definition.v1.schema.json');
  });

  it('names the provider key as the compiled runtime looks for it', () => {
    for (const provider of ['openai', 'anthropic', 'google', 'mistral', 'cohere', 'groq', 'azure-openai', 'bedrock', 'workers-ai', 'custom:acme', 'custom:acme-tuned.v2', 'x']) {
      expect([provider, providerKeyName(provider)]).toEqual([provider, compilerProviderKeyName(provider)]);
    }
  });
});

describe('tool scaffolding', () => {
  it('puts the starter module beside the definition', () => {
    expect(toolModuleFile('.')).toBe('tool.ts');
    expect(toolModuleFile('tools/x')).toBe('tools/x/tool.ts');
    expect(toolModuleText('x')).toMatch(/^\/\*\* The implementation of the "x" tool[\s\S]*export async function run\(/);
  });

  it('adds the tool to tools.json, keeping and sorting what is there', () => {
    expect(toolsJsonWithTool(undefined, 'b', 'b/tool.ts')).toEqual({ ok: true, value: '{\n  "tools": {\n    "b": {\n      "module": "./b/tool.ts",\n      "export": "run"\n    }\n  }\n}\n' });
    const current = { $comment: 'kept', tools: { c: { module: './c.ts', export: 'c' }, b: { module: './mine.ts', export: 'mine' } } };
    const result = toolsJsonWithTool(current, 'a', 'a/tool.ts');
    if (!result.ok) throw new Error(result.problem);
    expect(JSON.parse(result.value)).toEqual({ $comment: 'kept', tools: { a: { module: './a/tool.ts', export: 'run' }, b: { module: './mine.ts', export: 'mine' }, c: { module: './c.ts', export: 'c' } } });
    expect(Object.keys(JSON.parse(result.value).tools)).toEqual(['a', 'b', 'c']);
    const again = toolsJsonWithTool(current, 'b', 'b/tool.ts');
    expect(again.ok && JSON.parse(again.value).tools.b).toEqual({ module: './mine.ts', export: 'mine' });
  });

  it('refuses a tools.json it cannot extend, without throwing', () => {
    for (const current of [null, [], 'x', 3, { tools: [] }, { tools: 'x' }]) expect(toolsJsonWithTool(current, 'a', 'a/tool.ts').ok).toBe(false);
    expect(toolsJsonWithTool({ tools: null }, 'a', 'a/tool.ts').ok).toBe(true);
  });
});
