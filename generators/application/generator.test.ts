import { readJson, readNxJson, type Tree } from '@nx/devkit';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FsTree } from 'nx/src/generators/tree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinCatalog, catalogView } from '../../plugin/application/catalog';
import { validateApplicationManifestText } from '../../plugin/application/manifest-validate';
import { digestApplicationManifestSource } from '../../plugin/application/source-digest';
import { definitionJson } from '../../plugin/graph/test-support';
import type { ApplicationManifest } from '../../plugin/schema/generated/application-manifest.types';
import { APPLICATION_INCLUDE, applicationGenerator } from './generator';
import type { ApplicationGeneratorSchema } from './schema';

let root: string;
let tree: Tree;

/** Writes a file into the workspace on disk (where the generator resolves agents). */
function onDisk(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

const generate = (options: ApplicationGeneratorSchema) => applicationGenerator(tree, options);
const read = (file: string) => readJson<ApplicationManifest>(tree, file);

/** Re-validates what the generator wrote, with the built-in catalog, as a planner would. */
function expectValid(file: string): void {
  const catalog = builtinCatalog();
  const result = validateApplicationManifestText(tree.read(file, 'utf-8')!, file, 'json', {
    catalog: catalogView(catalog),
    activeDigests: { catalogDigest: catalog.catalogDigest, adapterPolicyDigest: catalog.adapterPolicyDigest },
  });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(result.valid).toBe(true);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentdef-app-gen-'));
  onDisk('nx.json', '{}\n');
  onDisk('package.json', JSON.stringify({ name: '@acme/apps', private: true }));
  onDisk('agents/summarizer/agent.json', definitionJson({ slug: 'summarizer', version: '0.1.0' }));
  onDisk('agents/router/agent.json', definitionJson({ slug: 'router', version: '1.4.0', pins: ['summarizer@0.1.0'] }));
  onDisk('agents/router-next/agent.json', definitionJson({ slug: 'router', version: '2.0.0' }));
  tree = new FsTree(root, false);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('agentdef:application', () => {
  it('writes a valid manifest composing one agent at <name>/application.json, digests filled in, and sample inputs beside it', async () => {
    await generate({ name: 'triage', agents: 'summarizer@0.1.0' });
    expectValid('triage/application.json');
    const manifest = read('triage/application.json');
    const catalog = builtinCatalog();
    expect(manifest).toMatchObject({
      schemaVersion: 'agentdef.application-manifest/v1',
      id: 'triage',
      revision: '0.1.0',
      source: { uri: 'workspace:/triage/application.json' },
      catalogDigest: catalog.catalogDigest,
      adapterPolicyDigest: catalog.adapterPolicyDigest,
    });
    const digest = digestApplicationManifestSource(manifest);
    expect(digest.ok && digest.sha256).toBe(manifest.source.sha256);
    expect(manifest.nodes.map((n) => `${n.id}:${n.component.id}@${n.component.revision}`)).toEqual([
      'request:agentdef.input@1.0.0',
      'prompt:agentdef.prompt-template@1.0.0',
      'agent-1:agentdef.registered-agent@1.0.0',
      'result-1:agentdef.output@1.0.0',
    ]);
    expect(manifest.nodes[1]!.config).toMatchObject({ template: '{{question}}', variables: ['question'] });
    expect(manifest.nodes[2]!.config).toEqual({ slug: 'summarizer', version: '0.1.0' });
    expect(manifest.entrypoints).toEqual([{ node: 'request', port: 'value' }]);
    expect(manifest.outputs).toEqual([{ name: 'plan-1', node: 'result-1', port: 'value' }]);
    // the sample entrypoint value fills the template's one variable
    expect(readJson(tree, 'triage/inputs.json')).toEqual([
      { node: 'request', port: 'value', value: { question: 'What should this application answer?' } },
    ]);
    // written in memory only: nothing on disk until Nx flushes the tree
    expect(tree.listChanges().map((c) => [c.type, c.path])).toEqual([
      ['CREATE', 'triage/application.json'],
      ['CREATE', 'triage/inputs.json'],
    ]);
    expect(existsSync(join(root, 'triage'))).toBe(false);
  });

  it('fans the prompt out to one registered-agent node per agent, each with its own output, none named after its agent', async () => {
    await generate({ name: 'apps/support', agents: 'router@1.4.0, summarizer@0.1.0,router@2.0.0', revision: '1.2.3' });
    expectValid('apps/support/application.json');
    const manifest = read('apps/support/application.json');
    expect(manifest).toMatchObject({
      id: 'support',
      revision: '1.2.3',
      source: { uri: 'workspace:/apps/support/application.json' },
    });
    const edges = manifest.edges.map((e) => `${e.from.node}.${e.from.port}->${e.to.node}.${e.to.port}`);
    expect(edges).toEqual([
      'request.value->prompt.vars',
      'prompt.prompt->agent-1.prompt',
      'prompt.prompt->agent-2.prompt',
      'prompt.prompt->agent-3.prompt',
      'agent-1.plan->result-1.value',
      'agent-2.plan->result-2.value',
      'agent-3.plan->result-3.value',
    ]);
    expect(manifest.nodes.filter((n) => n.component.id === 'agentdef.registered-agent').map((n) => n.config)).toEqual([
      { slug: 'router', version: '1.4.0' },
      { slug: 'summarizer', version: '0.1.0' },
      { slug: 'router', version: '2.0.0' },
    ]);
    expect(manifest.outputs.map((o) => o.name)).toEqual(['plan-1', 'plan-2', 'plan-3']);
    // a plan names nodes and outputs: no slug (a configuration value) may show up there
    const publicNames = [...manifest.nodes.map((n) => n.id), ...manifest.outputs.map((o) => o.name)].join(' ');
    for (const slug of ['router', 'summarizer']) expect(publicNames).not.toContain(slug);
  });

  it('puts the folder under --directory, keeping an inputs.json that is already there', async () => {
    onDisk('apps/quiz/inputs.json', '[]\n');
    tree = new FsTree(root, false);
    await generate({ name: 'quiz', directory: './apps/', agents: 'summarizer@0.1.0' });
    expectValid('apps/quiz/application.json');
    expect(read('apps/quiz/application.json').source.uri).toBe('workspace:/apps/quiz/application.json');
    expect(tree.read('apps/quiz/inputs.json', 'utf-8')).toBe('[]\n');
    expect(tree.listChanges().map((c) => c.path)).toEqual(['apps/quiz/application.json']);
  });

  it('adds the application globs to an agentdef include that names none, and leaves other registrations alone', async () => {
    onDisk(
      'nx.json',
      JSON.stringify({
        plugins: [{ plugin: 'agentdef', include: ['**/agent.json', '**/agent.yaml', '**/agent.yml'] }, '@nx/js'],
      }),
    );
    tree = new FsTree(root, false);
    await generate({ name: 'triage', agents: 'summarizer@0.1.0' });
    expect(readNxJson(tree)!.plugins).toEqual([
      { plugin: 'agentdef', include: ['**/agent.json', '**/agent.yaml', '**/agent.yml', ...APPLICATION_INCLUDE] },
      '@nx/js',
    ]);
    expect(APPLICATION_INCLUDE).toEqual(['**/application.json', '**/application.yaml', '**/application.yml']);

    const custom = { plugins: [{ plugin: 'agentdef', include: ['agents/**/agent.json', 'apps/**/application.json'] }] };
    onDisk('nx.json', JSON.stringify(custom));
    tree = new FsTree(root, false);
    await generate({ name: 'apps/other', agents: 'summarizer@0.1.0' });
    expect(readNxJson(tree)!.plugins).toEqual(custom.plugins);
    expect(tree.listChanges().map((c) => c.path)).toEqual(['apps/other/application.json', 'apps/other/inputs.json']);
  });

  describe('refuses, writing nothing', () => {
    const refusal = async (options: ApplicationGeneratorSchema) => {
      const error = await generate(options).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error, JSON.stringify(options)).toBeInstanceOf(Error);
      expect(tree.listChanges()).toEqual([]);
      return error!.message;
    };

    it('an agent that resolves to no workspace definition, naming the versions there are', async () => {
      expect(await refusal({ name: 'triage', agents: 'router@1.5.0' })).toMatch(
        /^agentdef:application: router@1\.5\.0 does not resolve to an agent definition in the workspace \(the workspace defines router at 1\.4\.0, 2\.0\.0 only\)/,
      );
      expect(await refusal({ name: 'triage', agents: 'summarizer@0.1.0,nowhere@1.0.0' })).toMatch(
        /nowhere@1\.0\.0 does not resolve .*no agent definition in the workspace has the slug nowhere/,
      );
    });

    it('an agent defined twice at the same version (ambiguous)', async () => {
      onDisk('copies/summarizer/agent.yaml', 'identity:\n  slug: summarizer\n  versionSemver: 0.1.0\n');
      expect(await refusal({ name: 'triage', agents: 'summarizer@0.1.0' })).toMatch(
        /summarizer@0\.1\.0 is defined more than once \(agents\/summarizer\/agent\.json, copies\/summarizer\/agent\.yaml\)/,
      );
    });

    it('an existing manifest: never overwritten', async () => {
      onDisk('triage/application.yaml', 'id: triage\n');
      tree = new FsTree(root, false);
      expect(await refusal({ name: 'triage', agents: 'summarizer@0.1.0' })).toMatch(
        /triage\/application\.yaml already exists, and an application is never overwritten/,
      );
      await generate({ name: 'fresh', agents: 'summarizer@0.1.0' });
      const first = tree.read('fresh/application.json', 'utf-8');
      const again = await generate({ name: 'fresh', agents: 'router@1.4.0' }).catch((e: Error) => e.message);
      expect(again).toMatch(/fresh\/application\.json already exists/);
      expect(tree.read('fresh/application.json', 'utf-8')).toBe(first);
    });

    it('a folder that holds an agent definition, and an id taken by an agent or an application', async () => {
      expect(await refusal({ name: 'router-next', directory: 'agents', agents: 'summarizer@0.1.0' })).toMatch(
        /agents\/router-next holds the agent definition agents\/router-next\/agent\.json, and a folder is one project/,
      );
      expect(await refusal({ name: 'apps/router', agents: 'summarizer@0.1.0' })).toMatch(
        /an agent with slug "router" already exists \(agents\/router(-next)?\/agent\.json\)/,
      );
      onDisk('elsewhere/application.json', JSON.stringify({ id: 'triage' }));
      tree = new FsTree(root, false);
      expect(await refusal({ name: 'apps/triage', agents: 'summarizer@0.1.0' })).toMatch(
        /an application with id "triage" already exists \(elsewhere\/application\.json\)/,
      );
    });

    it('an id Nx reads as a built-in property (the plugin refused the written project, breaking every nx command)', async () => {
      expect(await refusal({ name: 'constructor', agents: 'summarizer@0.1.0' })).toMatch(
        /^agentdef:application: "constructor" cannot name an Nx project: .*choose another name\. Nothing was written$/,
      );
    });

    it('options that make no manifest: agents, name, folder, revision', async () => {
      expect(await refusal({ name: 'triage', agents: '' })).toMatch(
        /name the agents to compose: --agents=<slug>@<version>/,
      );
      expect(await refusal({ name: 'triage', agents: ' , ' })).toMatch(/name at least one agent/);
      expect(await refusal({ name: 'triage', agents: 'summarizer' })).toMatch(
        /--agents entry "summarizer" must be slug@version/,
      );
      expect(await refusal({ name: 'triage', agents: 'summarizer@^0.1.0' })).toMatch(
        /--agents entry "summarizer@\^0\.1\.0" must be slug@version with an exact version/,
      );
      expect(await refusal({ name: 'triage', agents: 'summarizer@0.1.0,summarizer@0.1.0' })).toMatch(
        /names "summarizer@0\.1\.0" twice/,
      );
      expect(await refusal({ name: 'Triage', agents: 'summarizer@0.1.0' })).toMatch(
        /the application id "Triage" .* must be lowercase kebab-case/,
      );
      expect(await refusal({ name: '../triage', agents: 'summarizer@0.1.0' })).toMatch(
        /name "\.\.\/triage" must be a folder inside the workspace/,
      );
      expect(await refusal({ name: 'triage', directory: 'Apps', agents: 'summarizer@0.1.0' })).toMatch(
        /Apps\/triage\/application\.json cannot be named by a workspace source URI/,
      );
      expect(await refusal({ name: 'triage', agents: 'summarizer@0.1.0', revision: 'latest' })).toMatch(
        /--revision "latest" must be an exact semantic version/,
      );
    });
  });
});
