import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerKeyName as compilerProviderKeyName } from '../compiler/runtime-config';
import { providerKeyName } from './provider-keys';
import { CLASS_HOSTS, intersectHosts, pinHosts, type RuntimeCapabilityClass } from './runtime-hosts';
import { LIFECYCLE_STAGES } from './rules/lifecycle-gates';
import { KNOWN_PROVIDERS } from './rules/pins';
import {
  definitionText,
  planScaffold,
  scaffoldAgent,
  scaffoldDefinition,
  toolModuleFile,
  toolModuleText,
  toolsJsonWithTool,
  type Lifecycle,
  type ScaffoldOptions,
} from './scaffold';
import { validateDefinitionSource } from './validate-definition';

const IDS = { id: '01J0000000000000000000000A', versionId: '01J0000000000000000000000B' };
const WORKSPACE = { packageName: '@acme/agents' };
const RUNTIMES: readonly (RuntimeCapabilityClass | undefined)[] = [
  undefined,
  'workers-only',
  'workers-preferred',
  'container-required',
  'local-host-required',
];
const LIFECYCLES: readonly (Lifecycle | undefined)[] = [undefined, ...LIFECYCLE_STAGES];

/** The model options of an agent: defaults, each tier, local and custom providers. */
const MODELS: readonly Partial<ScaffoldOptions>[] = [
  {},
  { provider: 'anthropic' },
  { tier: 'frontier', model: 'gpt-4o@2024-08-06' },
  { tier: 'local', model: 'qwen2.5@7b' },
  { provider: 'local-ollama' },
  { tier: 'tuned', provider: 'custom:acme-tuned', model: 'splice-7b' },
  {
    tier: 'tuned',
    provider: 'openai',
    model: 'gpt-4o-mini',
    modelVersion: '2024-07-18',
    checkpoint: 'ft:gpt-4o-mini:acme',
  },
  { provider: 'groq', model: 'llama-3.1-8b-instant', modelVersion: '2024-07-23' },
];

function validate(text: string, file: string) {
  const result = validateDefinitionSource(text, file, 'json');
  return {
    valid: result.valid && !result.diagnostics.some((d) => d.severity === 'error'),
    diagnostics: result.diagnostics,
  };
}

function* combinations(): Generator<ScaffoldOptions> {
  for (const nodes of [undefined, 'leaf@0.1.0, other@1.2.3-rc.1']) {
    for (const lifecycle of LIFECYCLES) {
      for (const runtime of RUNTIMES) {
        for (const model of MODELS)
          yield { name: 'agents/probe-agent', kind: 'agent', ...model, nodes, lifecycle, runtime };
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
        ? stage !== 'tool-prototype' &&
          stage !== 'tool-shipped' &&
          stage !== 'marketplace-published' &&
          (stage !== 'composed' || plan.nodes.length > 0)
        : stage === 'tool-prototype' || stage === 'tool-shipped';
      const runtimeFits =
        plan.pin === undefined || intersectHosts(CLASS_HOSTS[plan.runtime], pinHosts(plan.pin).hosts).length > 0;
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
    expect(made.value.definition.identity).toMatchObject({
      id: IDS.id,
      versionId: IDS.versionId,
      owner: { kind: 'org', id: 'acme' },
    });
    expect(made.value.definition.runtimeRequirements.bindings).toEqual([
      { kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: 'secrets-store://acme/openai' },
    ]);
    expect(made.value.definition.$schema).toBe(
      '../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json',
    );
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
    expect(planScaffold({ name: 'ok', version: '1.0.0-01' })).toEqual({
      ok: false,
      problem: '--version "1.0.0-01" must be an exact semantic version such as 0.1.0',
    });
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
    expect(
      scaffoldDefinition(p.value, { repository: { url: ' https://git.example/x ' } }, IDS).metadata.provenance.repo,
    ).toBe('https://git.example/x');
    expect(scaffoldDefinition(p.value, { repository: 7 }, IDS).metadata.provenance.repo).toBe(
      'https://example.invalid/my-org',
    );
    // npm's shorthand is no URL the card can name (the url-fields rule would refuse it): the placeholder.
    expect(scaffoldDefinition(p.value, { repository: 'acme/agents' }, IDS).metadata.provenance.repo).toBe(
      'https://example.invalid/my-org',
    );
    expect(scaffoldDefinition(p.value, { repository: 'github:acme/agents' }, IDS).metadata.provenance.repo).toBe(
      'github:acme/agents',
    );
    expect(scaffoldDefinition(p.value, { packageName: 'agentdef' }, IDS).$schema).toBe(
      '../plugin/schema/agent-definition.v1.schema.json',
    );
  });

  it('names the provider key as the compiled runtime looks for it', () => {
    for (const provider of [
      'openai',
      'anthropic',
      'google',
      'mistral',
      'cohere',
      'groq',
      'azure-openai',
      'bedrock',
      'workers-ai',
      'custom:acme',
      'custom:acme-tuned.v2',
      'x',
    ]) {
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
    expect(toolsJsonWithTool(undefined, 'b', 'b/tool.ts')).toEqual({
      ok: true,
      value: '{\n  "tools": {\n    "b": {\n      "module": "./b/tool.ts",\n      "export": "run"\n    }\n  }\n}\n',
    });
    const current = {
      $comment: 'kept',
      tools: { c: { module: './c.ts', export: 'c' }, b: { module: './mine.ts', export: 'mine' } },
    };
    const result = toolsJsonWithTool(current, 'a', 'a/tool.ts');
    if (!result.ok) throw new Error(result.problem);
    expect(JSON.parse(result.value)).toEqual({
      $comment: 'kept',
      tools: {
        a: { module: './a/tool.ts', export: 'run' },
        b: { module: './mine.ts', export: 'mine' },
        c: { module: './c.ts', export: 'c' },
      },
    });
    expect(Object.keys(JSON.parse(result.value).tools)).toEqual(['a', 'b', 'c']);
    const again = toolsJsonWithTool(current, 'b', 'b/tool.ts');
    expect(again.ok && JSON.parse(again.value).tools.b).toEqual({ module: './mine.ts', export: 'mine' });
  });

  it('refuses a tools.json it cannot extend, without throwing', () => {
    for (const current of [null, [], 'x', 3, { tools: [] }, { tools: 'x' }])
      expect(toolsJsonWithTool(current, 'a', 'a/tool.ts').ok).toBe(false);
    expect(toolsJsonWithTool({ tools: null }, 'a', 'a/tool.ts').ok).toBe(true);
  });
});

describe('scaffold: the model version each provider needs (issue 21)', () => {
  /** Every provider the schema names in providerId's description, and a custom one. */
  const schemaProviders = (): string[] => {
    const schema = JSON.parse(readFileSync(join(__dirname, '../schema/agent-definition.v1.schema.json'), 'utf8')) as {
      $defs: { LlmPin: { properties: { providerId: { description: string } } } };
    };
    const listed = /known provider \(([^)]*)\)/.exec(schema.$defs.LlmPin.properties.providerId.description)![1]!;
    return [...listed.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!);
  };
  const PROVIDERS = [...schemaProviders(), 'custom:acme'];
  const MODEL_IDS = [
    'some-model',
    'gpt-4o-mini',
    'gpt-4o-mini-2024-07-18',
    'claude-3-5-haiku',
    'claude-3-5-haiku-20241022',
    'claude-sonnet-4-6',
    'llama3.1',
    'llama3.1:8b',
    'mistral-large-2411',
  ];
  const VERSIONS = [
    undefined,
    '',
    '1',
    '2024-07-18',
    '20241022',
    '8b',
    '0613',
    '2024-13-45',
    'latest',
    '^1.0',
    '8b:q4',
  ];
  /** The form each provider that needs one is asked for, and its example. */
  const ASKED: Record<string, { format: string; example: string }> = {
    openai: { format: 'YYYY-MM-DD', example: '--model=gpt-4o-mini@2024-07-18' },
    anthropic: { format: 'YYYYMMDD', example: '--model=claude-haiku-4-5@20251001' },
    'local-ollama': { format: '<tag>', example: '--model=llama3.1@8b' },
  };

  it('covers every provider the schema knows', () => {
    expect(schemaProviders()).toEqual([...KNOWN_PROVIDERS]);
    expect(PROVIDERS.length).toBe(KNOWN_PROVIDERS.length + 1);
  });

  it('whatever it writes validates with no diagnostic at all, for every provider, model and version form; anything else is refused naming --model', () => {
    let written = 0;
    let refused = 0;
    for (const provider of PROVIDERS) {
      for (const modelId of MODEL_IDS) {
        for (const version of VERSIONS) {
          const options: ScaffoldOptions = {
            name: 'agents/probe',
            provider,
            model: version === undefined ? modelId : `${modelId}@${version}`,
          };
          const made = scaffoldAgent(options, WORKSPACE, IDS);
          if (!made.ok) {
            refused++;
            expect([options, made.problem]).toEqual([options, expect.stringMatching(/--model=.*Nothing was written$/)]);
            continue;
          }
          written++;
          expect([
            options,
            validateDefinitionSource(made.value.text, made.value.plan.file, 'json').diagnostics,
          ]).toEqual([options, []]);
        }
      }
    }
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('asks, before writing anything, for the exact version form with an example where the wire id needs it (OpenAI and pre-4.6 Claude snapshots, Ollama tags)', () => {
    for (const [provider, modelId] of [
      ['openai', 'gpt-4o-mini'],
      ['openai', 'gpt-4.1'],
      ['anthropic', 'claude-3-5-haiku'],
      ['local-ollama', 'qwen2.5'],
    ] as const) {
      // ("1" is a tag Ollama accepts, so only a bare id and a moving tag are asked about there.)
      for (const model of [modelId, ...(provider === 'local-ollama' ? [] : [`${modelId}@1`]), `${modelId}@latest`]) {
        const made = scaffoldAgent({ name: 'x', kind: 'agent', provider, model }, WORKSPACE, IDS);
        expect(made.ok, `${provider} ${model}`).toBe(false);
        if (made.ok) continue;
        expect(made.problem).toContain(
          `Pass it after "@": --model=${modelId}@${ASKED[provider]!.format.startsWith('<') ? ASKED[provider]!.format : `<${ASKED[provider]!.format}>`}`,
        );
        expect(made.problem).toContain(`for example ${ASKED[provider]!.example}`);
      }
    }
    // The issue's command, word for word.
    const issue = scaffoldAgent({ name: 'x', kind: 'agent', provider: 'openai', model: 'gpt-4o-mini' }, WORKSPACE, IDS);
    expect(issue).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /^--model=gpt-4o-mini names no version: OpenAI pins a model by the date of its snapshot, written YYYY-MM-DD\./,
      ),
    });
  });

  it('writes the form the provider needs: the dated snapshot, the tag, a version a model id carries split off; recorded-only providers keep the version given', () => {
    const pin = (options: Partial<ScaffoldOptions>) => {
      const made = scaffoldAgent({ name: 'x', kind: 'agent', ...options }, WORKSPACE, IDS);
      if (!made.ok) throw new Error(made.problem);
      return made.value.definition.modelSet[0];
    };
    expect(pin({ provider: 'openai', model: 'gpt-4o-mini@2024-07-18' })).toMatchObject({
      modelId: 'gpt-4o-mini',
      modelVersion: '2024-07-18',
    });
    expect(pin({ provider: 'openai', model: 'gpt-4o-mini-2024-07-18' })).toMatchObject({
      modelId: 'gpt-4o-mini',
      modelVersion: '2024-07-18',
    });
    expect(pin({ provider: 'openai', model: 'gpt-4o-mini-2024-07-18@2024-07-18' })).toMatchObject({
      modelId: 'gpt-4o-mini',
      modelVersion: '2024-07-18',
    });
    expect(pin({ provider: 'anthropic', model: 'claude-3-5-haiku-20241022' })).toMatchObject({
      modelId: 'claude-3-5-haiku',
      modelVersion: '20241022',
    });
    expect(pin({ provider: 'anthropic', model: 'claude-sonnet-4-6@2026-02-17' })).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      modelVersion: '2026-02-17',
    });
    expect(pin({ provider: 'local-ollama', model: 'qwen2.5:7b' })).toMatchObject({
      modelId: 'qwen2.5',
      modelVersion: '7b',
      tier: 'local',
    });
    expect(pin({ provider: 'mistral', model: 'mistral-large-2411@2411' })).toMatchObject({
      modelId: 'mistral-large-2411',
      modelVersion: '2411',
    });
    expect(pin({ provider: 'openai' })).toMatchObject({ modelId: 'gpt-5-mini', modelVersion: '2025-08-07' });
    const contradiction = scaffoldAgent(
      { name: 'x', provider: 'openai', model: 'gpt-4o-mini-2024-07-18@2024-08-06' },
      WORKSPACE,
      IDS,
    );
    expect(contradiction).toEqual({
      ok: false,
      problem: expect.stringContaining('the pin names two different models'),
    });
  });
});
