import { readJson, writeJson, type Tree } from '@nx/devkit';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsTree } from 'nx/src/generators/tree';
import { createTreeWithEmptyWorkspace } from 'nx/src/devkit-testing-exports';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { OPTION_VALUES } from '../../plugin/definition/scaffold';
import type { AgentDefinition } from '../../plugin/schema/generated/agent-definition.types';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import { agentGenerator, versionFromArgv } from './generator';
import type { AgentGeneratorSchema } from './schema';

const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function read(tree: Tree, file: string): AgentDefinition {
  return readJson<AgentDefinition>(tree, file);
}

/** Re-validates what the generator wrote, exactly as `validate` would. */
function expectValid(tree: Tree, file: string): void {
  const result = validateDefinitionSource(tree.read(file, 'utf-8')!, file, 'json');
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(result.valid).toBe(true);
}

async function generate(tree: Tree, options: AgentGeneratorSchema): Promise<void> {
  await agentGenerator(tree, options);
}

describe('agentdef:agent', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
    writeJson(tree, 'package.json', { name: '@acme/agents', private: true });
  });

  it('gives a tool agent a starter implementation mapped in tools.json, keeping existing entries', async () => {
    writeJson(tree, 'tools.json', { tools: { 'other-tool': { module: './other.ts', export: 'other' } } });
    await generate(tree, { name: 'word-count', kind: 'tool' });
    await generate(tree, { name: 'tools/line-count', kind: 'tool' });
    expect(readJson(tree, 'tools.json')).toEqual({
      tools: {
        'line-count': { module: './tools/line-count/tool.ts', export: 'run' },
        'other-tool': { module: './other.ts', export: 'other' },
        'word-count': { module: './word-count/tool.ts', export: 'run' },
      },
    });
    expect(tree.read('word-count/tool.ts', 'utf-8')).toContain('export async function run(');
    const def = read(tree, 'word-count/agent.json');
    expect(def.toolInventory.map((t) => t.id)).toEqual(['word-count']);
    await generate(tree, { name: 'summarizer' });
    expect(tree.exists('summarizer/tool.ts')).toBe(false);
  });

  it('writes a valid agent by default: one small model, mcp-resident, at <name>/agent.json', async () => {
    await generate(tree, { name: 'summarizer' });
    expectValid(tree, 'summarizer/agent.json');
    const def = read(tree, 'summarizer/agent.json');
    expect(def.identity).toMatchObject({
      slug: 'summarizer',
      name: 'Summarizer',
      versionSemver: '0.1.0',
      owner: { kind: 'org', id: 'acme' },
      signingKeyRef: 'keyref:acme-agents',
    });
    expect(def.modelSet).toEqual([
      {
        role: 'primary',
        modelId: 'gpt-5-mini',
        modelVersion: '2025-08-07',
        providerId: 'openai',
        samplingParams: { temperature: 0 },
        tier: 'small',
      },
    ]);
    expect(def.lifecycleState).toBe('mcp-resident');
    expect(def.telemetryContract).toMatchObject({
      agenticGate: 'agentic',
      kymRegistrationRequired: true,
      receiptSigner: 'keyref:acme-agents',
    });
    expect(def.composition).toEqual({ kind: 'leaf' });
    expect(def.runtimeRequirements).toMatchObject({
      runtimeCapabilityClass: 'workers-preferred',
      keyCustody: 'secrets-store',
      bindings: [{ kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: 'secrets-store://acme/openai' }],
    });
    expect(def.metadata.provenance).toEqual({
      repo: 'https://example.invalid/acme',
      filePath: 'summarizer/agent.json',
    });
    expect(def.$schema).toBe('../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
  });

  it('gives every definition a fresh ULID id and versionId', async () => {
    await generate(tree, { name: 'one' });
    await generate(tree, { name: 'two' });
    const ids = ['one', 'two'].flatMap((n) => [
      read(tree, `${n}/agent.json`).identity.id,
      read(tree, `${n}/agent.json`).identity.versionId,
    ]);
    for (const id of ids) expect(id).toMatch(ULID);
    expect(new Set(ids).size).toBe(4);
  });

  it('writes a tool: no model, tool-only gate, tool-prototype with its receipt signer named (so tool-shipped needs only the key)', async () => {
    await generate(tree, { name: 'leaf', kind: 'tool', runtime: 'workers-preferred' });
    expectValid(tree, 'leaf/agent.json');
    const def = read(tree, 'leaf/agent.json');
    expect(def.modelSet).toEqual([]);
    expect(def.lifecycleState).toBe('tool-prototype');
    expect(def.telemetryContract).toMatchObject({
      agenticGate: 'tool-only',
      kymRegistrationRequired: false,
      receiptSigner: 'keyref:acme-agents',
    });
    expect(def.toolInventory).toEqual([
      { id: 'leaf', name: 'leaf', version: '0.1.0', provenance: 'scripted', risk: 'low', description: 'Runs leaf.' },
    ]);
    expect(def.runtimeRequirements).toMatchObject({ keyCustody: 'session', bindings: [] });
  });

  it('turns --nodes into a DAG of pins and a composed agent with its kymRef', async () => {
    await generate(tree, { name: 'leaf', kind: 'tool' });
    tree.write('registry/agents/tuned/0.2.0.json', '{}'); // a published snapshot resolves a pin too
    await generate(tree, { name: 'mid', kind: 'agent', nodes: 'leaf@0.1.0, tuned@0.2.0' });
    expectValid(tree, 'mid/agent.json');
    const def = read(tree, 'mid/agent.json');
    expect(def.composition).toEqual({
      kind: 'dag',
      nodes: [
        { slug: 'leaf', version: '0.1.0' },
        { slug: 'tuned', version: '0.2.0' },
      ],
      edges: [],
    });
    expect(def.lifecycleState).toBe('composed');
    expect(def.identity.kymRef).toBe('kym://agents/mid@0.1.0');
    expect(def.modelSet[0]!.role).toBe('router');
  });

  it('lets a tool compose children deterministically (a DAG without a model stays a tool)', async () => {
    await generate(tree, { name: 'leaf', kind: 'tool' });
    await generate(tree, { name: 'pipeline', kind: 'tool', nodes: 'leaf@0.1.0' });
    expectValid(tree, 'pipeline/agent.json');
    const def = read(tree, 'pipeline/agent.json');
    expect(def.composition).toEqual({ kind: 'dag', nodes: [{ slug: 'leaf', version: '0.1.0' }], edges: [] });
    expect(def.lifecycleState).toBe('tool-prototype');
    expect(def.modelSet).toEqual([]);
  });

  it('pins a tuned specialist with a checkpoint and runs it in a container by default', async () => {
    await generate(tree, { name: 'tuned', tier: 'tuned', provider: 'custom:acme-tuned', model: 'splice-7b' });
    expectValid(tree, 'tuned/agent.json');
    const def = read(tree, 'tuned/agent.json');
    expect(def.modelSet[0]).toMatchObject({
      role: 'specialist',
      modelId: 'splice-7b',
      modelVersion: '1',
      providerId: 'custom:acme-tuned',
      tier: 'tuned',
      checkpointId: 'ckpt:acme/splice-7b/1',
    });
    expect(def.runtimeRequirements.runtimeCapabilityClass).toBe('container-required');
    expect(def.runtimeRequirements.bindings).toEqual([
      { kind: 'secret-ref', name: 'ACME_TUNED_API_KEY', ref: 'secrets-store://acme/acme-tuned' },
    ]);
  });

  it('keeps inference on the machine for a local model', async () => {
    await generate(tree, { name: 'notes', tier: 'local', model: 'qwen2.5@7b' });
    expectValid(tree, 'notes/agent.json');
    const def = read(tree, 'notes/agent.json');
    expect(def.modelSet[0]).toMatchObject({
      providerId: 'local-ollama',
      modelId: 'qwen2.5',
      modelVersion: '7b',
      tier: 'local',
    });
    expect(def.runtimeRequirements).toMatchObject({
      runtimeCapabilityClass: 'local-host-required',
      keyCustody: 'session',
      bindings: [],
    });
  });

  it('honours --directory, a path as name, --version, --lifecycle and --owner', async () => {
    await generate(tree, {
      name: 'agents/code-search',
      kind: 'tool',
      version: '2.1.0',
      lifecycle: 'tool-shipped',
      owner: 'search-team',
    });
    await generate(tree, { name: 'writer', directory: 'examples/writing/writer', lifecycle: 'kym-registered' });
    expectValid(tree, 'agents/code-search/agent.json');
    expectValid(tree, 'examples/writing/writer/agent.json');
    const tool = read(tree, 'agents/code-search/agent.json');
    expect(tool.identity).toMatchObject({ slug: 'code-search', versionSemver: '2.1.0', owner: { id: 'search-team' } });
    expect(tool.lifecycleState).toBe('tool-shipped');
    expect(tool.telemetryContract.receiptSigner).toBe('keyref:search-team-agents');
    expect(tool.$schema).toBe('../../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
    const writer = read(tree, 'examples/writing/writer/agent.json');
    expect(writer.identity.kymRef).toBe('kym://agents/writer@0.1.0');
    expect(writer.$schema).toBe('../../../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
  });

  it('points $schema at the source schema inside the agentdef repository itself', async () => {
    writeJson(tree, 'package.json', { name: 'agentdef' });
    await generate(tree, { name: 'examples/new-one' });
    expect(read(tree, 'examples/new-one/agent.json').$schema).toBe(
      '../../plugin/schema/agent-definition.v1.schema.json',
    );
  });

  it('writes agent.yaml with a schema modeline first, which validates and reads back to the same definition as the JSON one', async () => {
    await generate(tree, { name: 'agents/notes-yaml', format: 'yaml', provider: 'anthropic' });
    await generate(tree, { name: 'agents/notes-json', provider: 'anthropic' });
    expect(tree.exists('agents/notes-yaml/agent.json')).toBe(false);
    const text = tree.read('agents/notes-yaml/agent.yaml', 'utf-8')!;
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json',
    );
    const result = validateDefinitionSource(text, 'agents/notes-yaml/agent.yaml', 'yaml');
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
    const fromYaml = parseYaml(text) as AgentDefinition;
    const fromJson = read(tree, 'agents/notes-json/agent.json');
    const comparable = (def: AgentDefinition) => ({
      ...def,
      $schema: undefined,
      identity: { ...def.identity, id: '', versionId: '', slug: '', name: '' },
      capabilityContract: undefined,
      metadata: undefined,
    });
    expect(comparable(fromYaml)).toEqual(comparable(fromJson));
    expect(fromYaml.metadata.provenance.filePath).toBe('agents/notes-yaml/agent.yaml');
  });

  it('refuses a second definition in a folder that holds an agent.yaml, whatever the format', async () => {
    await generate(tree, { name: 'twin', format: 'yaml' });
    await expect(generate(tree, { name: 'other', directory: 'twin' })).rejects.toThrow(
      /twin\/agent\.yaml already exists/,
    );
    await expect(generate(tree, { name: 'twin', format: 'json', directory: 'elsewhere' })).rejects.toThrow(
      /slug "twin" already exists \(twin\/agent\.yaml\)/,
    );
  });

  describe('refusals (nothing is written)', () => {
    it('refuses a --nodes pin that resolves to nothing, naming it, what exists and the nearest slug', async () => {
      await generate(tree, { name: 'summarizer', provider: 'anthropic' });
      const before = tree.listChanges().map((c) => c.path);
      await expect(generate(tree, { name: 'router', nodes: 'summarizer@0.1.0,splice@0.1.0' })).rejects.toThrow(
        /--nodes pins splice@0\.1\.0, which does not resolve: no agent definition in the workspace has the slug "splice" and registry\/agents\/splice\/0\.1\.0\.json does not exist; create the child first \(nx g agentdef:agent splice\)/,
      );
      await expect(generate(tree, { name: 'router', nodes: 'summarizer@0.2.0' })).rejects.toThrow(
        /--nodes pins summarizer@0\.2\.0, which does not resolve: summarizer exists at 0\.1\.0 only/,
      );
      await expect(generate(tree, { name: 'router', nodes: 'sumarizer@0.1.0' })).rejects.toThrow(
        /did you mean summarizer\?/,
      );
      expect(tree.listChanges().map((c) => c.path)).toEqual(before);
      expect(tree.exists('router/agent.json')).toBe(false);
    });

    it('refuses a tuned model or a custom provider without --model, and never leaves a half-made agent', async () => {
      const before = tree.listChanges().map((c) => c.path);
      const readmeLine = {
        name: 'splice',
        runtime: 'container-required',
        tier: 'tuned',
        provider: 'custom:acme',
      } as const;
      await expect(generate(tree, readmeLine)).rejects.toThrow(
        /--model is required with --tier=tuned: .*--model=<id>\[@<version>\]/,
      );
      await expect(generate(tree, { name: 'splice', provider: 'custom:acme' })).rejects.toThrow(
        /--model is required: --provider "custom:acme" has no default model/,
      );
      await expect(generate(tree, { name: 'splice', tier: 'tuned', provider: 'openai' })).rejects.toThrow(
        /--model is required with --tier=tuned/,
      );
      expect(tree.listChanges().map((c) => c.path)).toEqual(before);
      await generate(tree, { ...readmeLine, model: 'splice-7b@1' });
      expectValid(tree, 'splice/agent.json');
      expect(read(tree, 'splice/agent.json').modelSet[0]).toMatchObject({
        modelId: 'splice-7b',
        modelVersion: '1',
        providerId: 'custom:acme',
        tier: 'tuned',
      });
    });

    it('answers a wrong enumerated value or provider with the value it probably means and every allowed one', async () => {
      const before = tree.listChanges().map((c) => c.path);
      await expect(generate(tree, { name: 'x', provider: 'OpenAI' })).rejects.toThrow(
        'agentdef:agent: --provider "OpenAI" is not a provider agentdef knows: did you mean "openai"? It must be one of openai, anthropic, google, mistral, cohere, groq, workers-ai, azure-openai, bedrock, local-ollama, or custom:<name>',
      );
      await expect(generate(tree, { name: 'x', provider: 'anthropik' })).rejects.toThrow(/did you mean "anthropic"\?/);
      await expect(generate(tree, { name: 'x', provider: 'custom:Acme', model: 'm' })).rejects.toThrow(
        /--provider "custom:Acme" is not a provider agentdef knows: did you mean "custom:acme"\?/,
      );
      await expect(generate(tree, { name: 'x', provider: 'my-llm-host' })).rejects.toThrow(
        /^agentdef:agent: --provider "my-llm-host" is not a provider agentdef knows\. It must be one of .*custom:<name> for your own endpoint/,
      );
      const wrong = (options: Record<string, string>) =>
        generate(tree, { name: 'x', ...options } as AgentGeneratorSchema);
      await expect(wrong({ tier: 'Small' })).rejects.toThrow(
        '--tier "Small" is not allowed: did you mean "small"? It must be one of frontier, small, tuned, local',
      );
      await expect(wrong({ runtime: 'container-requird' })).rejects.toThrow(
        '--runtime "container-requird" is not allowed: did you mean "container-required"? It must be one of workers-only, workers-preferred, container-required, local-host-required',
      );
      await expect(wrong({ kind: 'Tool' })).rejects.toThrow(
        '--kind "Tool" is not allowed: did you mean "tool"? It must be one of tool, agent',
      );
      await expect(wrong({ lifecycle: 'composd' })).rejects.toThrow(
        /--lifecycle "composd" is not allowed: did you mean "composed"\? It must be one of tool-prototype, .*marketplace-published/,
      );
      await expect(wrong({ format: 'yml' })).rejects.toThrow(
        '--format "yml" is not allowed: did you mean "yaml"? It must be one of json, yaml',
      );
      await expect(wrong({ runtime: 'kubernetes' })).rejects.toThrow(
        /^agentdef:agent: --runtime "kubernetes" is not allowed\. It must be one of/,
      );
      for (const attempt of [
        wrong({ provider: 'OpenAI', model: 'gpt-4o' }),
        wrong({ provider: 'custom:Acme', model: 'm' }),
      ]) {
        await expect(attempt).rejects.not.toThrow(/pattern|\^\(\?:/);
      }
      expect(tree.listChanges().map((c) => c.path)).toEqual(before);
    });

    it('keeps the enumerated options out of schema.json enums, so Nx hands every value to the generator to answer', () => {
      const schema = JSON.parse(readFileSync(join(__dirname, 'schema.json'), 'utf8')) as {
        properties: Record<string, { enum?: unknown; description: string }>;
      };
      for (const [flag, values] of Object.entries(OPTION_VALUES)) {
        expect(schema.properties[flag]?.enum, flag).toBeUndefined();
        for (const value of values)
          expect(schema.properties[flag]?.description, `${flag} lists ${value}`).toContain(value);
      }
    });

    it('refuses a slug that already exists anywhere in the workspace, naming where', async () => {
      tree.write('deep/down/there/agent.yaml', 'identity:\n  slug: leaf\n  versionSemver: 9.0.0\n');
      await expect(generate(tree, { name: 'leaf' })).rejects.toThrow(
        /an agent with slug "leaf" already exists \(deep\/down\/there\/agent\.yaml\)/,
      );
      await generate(tree, { name: 'agents/one' });
      await expect(generate(tree, { name: 'one', directory: 'elsewhere/one' })).rejects.toThrow(
        /slug "one" already exists \(agents\/one\/agent\.json\)/,
      );
      expect(tree.exists('leaf/agent.json')).toBe(false);
      expect(tree.exists('elsewhere/one/agent.json')).toBe(false);
    });

    it('refuses a slug published in the registry', async () => {
      tree.write('registry/agents/published/1.0.0.json', '{}');
      await expect(generate(tree, { name: 'published' })).rejects.toThrow(
        /slug "published" already exists \(registry\/agents\/published\)/,
      );
    });

    it('refuses a project graph inference would refuse: a built-in property name, an application id, an application folder', async () => {
      // Written, each broke every nx command in the workspace (the plugin refuses the project).
      tree.write('apps/triage/application.json', JSON.stringify({ id: 'triage' }));
      const before = tree.listChanges().map((c) => c.path);
      await expect(generate(tree, { name: 'constructor' })).rejects.toThrow(
        /^agentdef:agent: "constructor" cannot name an Nx project: .*property every object has; choose another name\. Nothing was written$/,
      );
      await expect(generate(tree, { name: 'agents/triage' })).rejects.toThrow(
        /^agentdef:agent: "triage" already names the project of apps\/triage\/application\.json \(an application's id\); project names are unique/,
      );
      await expect(generate(tree, { name: 'other', directory: 'apps/triage' })).rejects.toThrow(
        /^agentdef:agent: apps\/triage is already the project of apps\/triage\/application\.json, and a folder is one project; choose another --directory/,
      );
      expect(tree.listChanges().map((c) => c.path)).toEqual(before);
    });

    it('refuses a folder that already holds a definition', async () => {
      tree.write('taken/agent.yaml', 'identity:\n  slug: something-else\n');
      await expect(generate(tree, { name: 'fresh', directory: 'taken' })).rejects.toThrow(
        /taken\/agent\.yaml already exists/,
      );
    });

    it('refuses bad names, versions, nodes and tool options with a clear message', async () => {
      await expect(generate(tree, { name: 'Bad_Name' })).rejects.toThrow(/"Bad_Name" is not a valid slug/);
      await expect(generate(tree, { name: '../escape' })).rejects.toThrow(/inside the workspace/);
      await expect(generate(tree, { name: 'ok', version: '^1.0.0' })).rejects.toThrow(
        /--version "\^1\.0\.0" must be an exact semantic version/,
      );
      await expect(generate(tree, { name: 'ok', nodes: 'leaf@latest' })).rejects.toThrow(/--nodes entry "leaf@latest"/);
      await expect(generate(tree, { name: 'ok', nodes: 'ok@1.0.0' })).rejects.toThrow(/the agent itself/);
      await expect(generate(tree, { name: 'ok', kind: 'tool', model: 'gpt-4o' })).rejects.toThrow(
        /a tool has no model/,
      );
      await expect(generate(tree, { name: 'ok', provider: 'groq' })).rejects.toThrow(
        /--model is required: --provider "groq" has no default model/,
      );
      expect(tree.exists('ok/agent.json')).toBe(false);
    });

    it('refuses options whose definition would not validate, printing the diagnostics', async () => {
      const attempt = generate(tree, { name: 'shop', lifecycle: 'marketplace-published' });
      await expect(attempt).rejects.toThrow(/do not make a valid definition, so nothing was written/);
      await expect(generate(tree, { name: 'shop', lifecycle: 'marketplace-published' })).rejects.toThrow(
        /lifecycle-gates.*nandaFactsRef|nandaFactsRef[\s\S]*lifecycle-gates/,
      );
      await expect(generate(tree, { name: 'fast', runtime: 'workers-only', tier: 'local' })).rejects.toThrow(
        /sandboxing/,
      );
      expect(tree.exists('shop/agent.json')).toBe(false);
      expect(tree.exists('fast/agent.json')).toBe(false);
    });
  });

  it('writes only through the Tree, so --dry-run (a Tree never flushed) leaves the disk untouched', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agentdef-gen-'));
    try {
      writeFileSync(join(root, 'nx.json'), '{}');
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'dry' }));
      const fsTree = new FsTree(root, false);
      await agentGenerator(fsTree, { name: 'dry-agent' });
      expect(fsTree.listChanges().map((c) => [c.type, c.path])).toEqual([['CREATE', 'dry-agent/agent.json']]);
      expect(existsSync(join(root, 'dry-agent'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads --version back from the command line, where the Nx CLI hands the generator a boolean', async () => {
    expect(versionFromArgv(['node', 'nx', 'g', 'agent', 'x', '--version=1.2.3'])).toBe('1.2.3');
    expect(versionFromArgv(['node', 'nx', 'g', 'agent', 'x', '--version', '2.0.0', '--dry-run'])).toBe('2.0.0');
    expect(versionFromArgv(['node', 'nx', 'g', 'agent', 'x', '--version', '--dry-run'])).toBeUndefined();
    expect(versionFromArgv(['node', 'vitest'])).toBeUndefined();
    await generate(tree, { name: 'flagged', version: false });
    expect(read(tree, 'flagged/agent.json').identity.versionSemver).toBe('0.1.0');
  });
});
