import { readJson, writeJson, type Tree } from '@nx/devkit';
import { mkdtempSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsTree } from 'nx/src/generators/tree';
import { createTreeWithEmptyWorkspace } from 'nx/src/devkit-testing-exports';
import { beforeEach, describe, expect, it } from 'vitest';
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
    expect(def.identity).toMatchObject({ slug: 'summarizer', name: 'Summarizer', versionSemver: '0.1.0', owner: { kind: 'org', id: 'acme' }, signingKeyRef: 'keyref:acme-agents' });
    expect(def.modelSet).toEqual([{ role: 'primary', modelId: 'gpt-4o-mini', modelVersion: '2024-07-18', providerId: 'openai', samplingParams: { temperature: 0 }, tier: 'small' }]);
    expect(def.lifecycleState).toBe('mcp-resident');
    expect(def.telemetryContract).toMatchObject({ agenticGate: 'agentic', kymRegistrationRequired: true, receiptSigner: 'keyref:acme-agents' });
    expect(def.composition).toEqual({ kind: 'leaf' });
    expect(def.runtimeRequirements).toMatchObject({
      runtimeCapabilityClass: 'workers-preferred',
      keyCustody: 'secrets-store',
      bindings: [{ kind: 'secret-ref', name: 'OPENAI_API_KEY', ref: 'secrets-store://acme/openai' }],
    });
    expect(def.metadata.provenance).toEqual({ repo: 'https://example.invalid/acme', filePath: 'summarizer/agent.json' });
    expect(def.$schema).toBe('../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
  });

  it('gives every definition a fresh ULID id and versionId', async () => {
    await generate(tree, { name: 'one' });
    await generate(tree, { name: 'two' });
    const ids = ['one', 'two'].flatMap((n) => [read(tree, `${n}/agent.json`).identity.id, read(tree, `${n}/agent.json`).identity.versionId]);
    for (const id of ids) expect(id).toMatch(ULID);
    expect(new Set(ids).size).toBe(4);
  });

  it('writes a tool: no model, tool-only gate, tool-prototype with a null receipt signer', async () => {
    await generate(tree, { name: 'leaf', kind: 'tool', runtime: 'workers-preferred' });
    expectValid(tree, 'leaf/agent.json');
    const def = read(tree, 'leaf/agent.json');
    expect(def.modelSet).toEqual([]);
    expect(def.lifecycleState).toBe('tool-prototype');
    expect(def.telemetryContract).toMatchObject({ agenticGate: 'tool-only', kymRegistrationRequired: false, receiptSigner: null });
    expect(def.toolInventory).toEqual([{ id: 'leaf', name: 'leaf', version: '0.1.0', provenance: 'scripted', risk: 'low', description: 'Runs leaf.' }]);
    expect(def.runtimeRequirements).toMatchObject({ keyCustody: 'session', bindings: [] });
  });

  it('turns --nodes into a DAG of pins and a composed agent with its kymRef', async () => {
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
    expect(def.modelSet[0]).toMatchObject({ role: 'specialist', modelId: 'splice-7b', modelVersion: '1', providerId: 'custom:acme-tuned', tier: 'tuned', checkpointId: 'ckpt:acme/splice-7b/1' });
    expect(def.runtimeRequirements.runtimeCapabilityClass).toBe('container-required');
    expect(def.runtimeRequirements.bindings).toEqual([{ kind: 'secret-ref', name: 'ACME_TUNED_API_KEY', ref: 'secrets-store://acme/acme-tuned' }]);
  });

  it('keeps inference on the machine for a local model', async () => {
    await generate(tree, { name: 'notes', tier: 'local', model: 'qwen2.5@7b' });
    expectValid(tree, 'notes/agent.json');
    const def = read(tree, 'notes/agent.json');
    expect(def.modelSet[0]).toMatchObject({ providerId: 'local-ollama', modelId: 'qwen2.5', modelVersion: '7b', tier: 'local' });
    expect(def.runtimeRequirements).toMatchObject({ runtimeCapabilityClass: 'local-host-required', keyCustody: 'session', bindings: [] });
  });

  it('honours --directory, a path as name, --version, --lifecycle and --owner', async () => {
    await generate(tree, { name: 'agents/code-search', kind: 'tool', version: '2.1.0', lifecycle: 'tool-shipped', owner: 'search-team' });
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
    expect(read(tree, 'examples/new-one/agent.json').$schema).toBe('../../plugin/schema/agent-definition.v1.schema.json');
  });

  describe('refusals (nothing is written)', () => {
    it('refuses a slug that already exists anywhere in the workspace, naming where', async () => {
      tree.write('deep/down/there/agent.yaml', 'identity:\n  slug: leaf\n  versionSemver: 9.0.0\n');
      await expect(generate(tree, { name: 'leaf' })).rejects.toThrow(/an agent with slug "leaf" already exists \(deep\/down\/there\/agent\.yaml\)/);
      await generate(tree, { name: 'agents/one' });
      await expect(generate(tree, { name: 'one', directory: 'elsewhere/one' })).rejects.toThrow(/slug "one" already exists \(agents\/one\/agent\.json\)/);
      expect(tree.exists('leaf/agent.json')).toBe(false);
      expect(tree.exists('elsewhere/one/agent.json')).toBe(false);
    });

    it('refuses a slug published in the registry', async () => {
      tree.write('registry/agents/published/1.0.0.json', '{}');
      await expect(generate(tree, { name: 'published' })).rejects.toThrow(/slug "published" already exists \(registry\/agents\/published\)/);
    });

    it('refuses a folder that already holds a definition', async () => {
      tree.write('taken/agent.yaml', 'identity:\n  slug: something-else\n');
      await expect(generate(tree, { name: 'fresh', directory: 'taken' })).rejects.toThrow(/taken\/agent\.yaml already exists/);
    });

    it('refuses bad names, versions, nodes and tool options with a clear message', async () => {
      await expect(generate(tree, { name: 'Bad_Name' })).rejects.toThrow(/"Bad_Name" is not a valid slug/);
      await expect(generate(tree, { name: '../escape' })).rejects.toThrow(/inside the workspace/);
      await expect(generate(tree, { name: 'ok', version: '^1.0.0' })).rejects.toThrow(/--version "\^1\.0\.0" must be an exact semantic version/);
      await expect(generate(tree, { name: 'ok', nodes: 'leaf@latest' })).rejects.toThrow(/--nodes entry "leaf@latest"/);
      await expect(generate(tree, { name: 'ok', nodes: 'ok@1.0.0' })).rejects.toThrow(/the agent itself/);
      await expect(generate(tree, { name: 'ok', kind: 'tool', model: 'gpt-4o' })).rejects.toThrow(/a tool has no model/);
      await expect(generate(tree, { name: 'ok', provider: 'groq' })).rejects.toThrow(/--provider "groq" has no default model/);
      expect(tree.exists('ok/agent.json')).toBe(false);
    });

    it('refuses options whose definition would not validate, printing the diagnostics', async () => {
      const attempt = generate(tree, { name: 'shop', lifecycle: 'marketplace-published' });
      await expect(attempt).rejects.toThrow(/do not make a valid definition, so nothing was written/);
      await expect(generate(tree, { name: 'shop', lifecycle: 'marketplace-published' })).rejects.toThrow(/lifecycle-gates.*nandaFactsRef|nandaFactsRef[\s\S]*lifecycle-gates/);
      await expect(generate(tree, { name: 'fast', runtime: 'workers-only', tier: 'local' })).rejects.toThrow(/sandboxing/);
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
