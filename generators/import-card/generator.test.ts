/** `nx g agentdef:import-card`: writes the imported definition, prints its TODO fields, refuses what it cannot do. */
import { logger, writeJson, type Tree } from '@nx/devkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTreeWithEmptyWorkspace } from 'nx/src/devkit-testing-exports';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateDefinitionSource } from '../../plugin/definition/validate-definition';
import { findTodoMarkers } from '../../plugin/trust/import-card';
import { importCardGenerator } from './generator';

const EXAMPLES = join(__dirname, '..', '..', 'e2e', 'fixtures', 'conformance', 'a2a', 'examples');
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function cardText(name: string): string {
  return readFileSync(join(EXAMPLES, name), 'utf8');
}

describe('agentdef:import-card', () => {
  let tree: Tree;
  let printed: string[];
  beforeEach(() => {
    tree = createTreeWithEmptyWorkspace();
    writeJson(tree, 'package.json', {
      name: '@acme/agents',
      private: true,
      repository: { type: 'git', url: 'https://github.com/acme/agents' },
    });
    printed = [];
    vi.spyOn(logger, 'info').mockImplementation((message: unknown) => void printed.push(String(message)));
  });
  afterEach(() => vi.restoreAllMocks());

  it('writes <slug>/agent.json that fails validation only at the TODO fields it prints', async () => {
    tree.write('cards/weather.json', cardText('a2a-samples_weather_agent_card.json'));
    await importCardGenerator(tree, { card: 'cards/weather.json' });
    const text = tree.read('weather-agent/agent.json', 'utf-8')!;
    const definition = JSON.parse(text);
    expect(definition.identity.id).toMatch(ULID);
    expect(definition.identity.versionId).toMatch(ULID);
    expect(definition.identity.id).not.toBe(definition.identity.versionId);
    expect(definition.metadata.notes.origin).toBe('legacy');
    expect(definition.metadata.provenance).toEqual({
      repo: 'https://github.com/acme/agents',
      filePath: 'weather-agent/agent.json',
    });
    const todo = findTodoMarkers(definition).sort();
    const result = validateDefinitionSource(text, 'weather-agent/agent.json', 'json');
    expect([...new Set(result.diagnostics.map((d) => d.path))].sort()).toEqual(todo);
    const report = printed.join('\n');
    expect(report).toContain('weather-agent/agent.json:');
    for (const pointer of todo) expect(report).toContain(`  ${pointer}: `);
    expect(report).toContain(
      '/supportedInterfaces/0/protocolVersion: protocolVersion is required in a v1.0 interface but missing (not conformant)',
    );
  });

  it('writes into --directory', async () => {
    tree.write('facts.json', cardText('a2a-samples_adk_facts_agent.v0.3-style.json'));
    await importCardGenerator(tree, { card: 'facts.json', directory: 'agents/facts' });
    const definition = JSON.parse(tree.read('agents/facts/agent.json', 'utf-8')!);
    expect(definition.identity.slug).toBe('facts-agent');
    expect(definition.metadata.provenance.filePath).toBe('agents/facts/agent.json');
  });

  it('refuses a missing card, a card that is not JSON or not an object, and an occupied folder, writing nothing', async () => {
    await expect(importCardGenerator(tree, { card: 'nope.json' })).rejects.toThrow(
      'agentdef:import-card: cannot read the card nope.json',
    );
    tree.write('broken.json', '{ "name": ');
    await expect(importCardGenerator(tree, { card: 'broken.json' })).rejects.toThrow(
      'the card broken.json is not JSON',
    );
    tree.write('list.json', '[]');
    await expect(importCardGenerator(tree, { card: 'list.json' })).rejects.toThrow(
      'an A2A AgentCard is a JSON object, but this is an array',
    );
    tree.write('card.json', cardText('spec-v0.3.0-sample-agent-card.json'));
    tree.write('taken/agent.yaml', 'schemaVersion: agent-definition/v1\n');
    await expect(importCardGenerator(tree, { card: 'card.json', directory: 'taken' })).rejects.toThrow(
      'taken/agent.yaml already exists',
    );
    await expect(importCardGenerator(tree, { card: '../outside.json' })).rejects.toThrow(
      'must be a folder inside the workspace',
    );
    expect(tree.exists('taken/agent.json')).toBe(false);
  });

  it('refuses a project graph inference would refuse: a slug already taken, a built-in property name, an application folder', async () => {
    // Written, each broke every nx command in the workspace (the plugin refuses the project).
    tree.write('facts.json', cardText('a2a-samples_adk_facts_agent.v0.3-style.json'));
    await importCardGenerator(tree, { card: 'facts.json', directory: 'agents/facts' });
    const before = tree.listChanges().map((c) => c.path);
    await expect(importCardGenerator(tree, { card: 'facts.json', directory: 'again' })).rejects.toThrow(
      /"facts-agent" already names the project of agents\/facts\/agent\.json \(an agent's identity\.slug\).*Nothing was written$/,
    );
    await expect(importCardGenerator(tree, { card: 'facts.json', directory: 'again' })).rejects.toThrow(
      /pass --slug=<another>/,
    );
    for (const slug of ['Facts Legacy', '../x', 'a--b', '', 'x'.repeat(65)]) {
      await expect(importCardGenerator(tree, { card: 'facts.json', directory: 'again', slug })).rejects.toThrow(
        /--slug must be a kebab-case slug/,
      );
    }
    await expect(
      importCardGenerator(tree, { card: 'facts.json', directory: 'again', slug: 'constructor' }),
    ).rejects.toThrow(/"constructor" cannot name an Nx project.*the slug given with --slug/);
    expect(tree.exists('again/agent.json')).toBe(false);
    tree.write(
      'object.json',
      JSON.stringify({ ...JSON.parse(cardText('a2a-samples_adk_facts_agent.v0.3-style.json')), name: 'constructor' }),
    );
    await expect(importCardGenerator(tree, { card: 'object.json' })).rejects.toThrow(
      /"constructor" cannot name an Nx project/,
    );
    tree.write('apps/triage/application.json', JSON.stringify({ id: 'triage' }));
    await expect(importCardGenerator(tree, { card: 'object.json', directory: 'apps/triage' })).rejects.toThrow(
      /apps\/triage is already the project of apps\/triage\/application\.json, and a folder is one project/,
    );
    tree.write('nameless.json', JSON.stringify({ name: '***', description: 'x', version: '1.0.0', skills: [] }));
    await expect(importCardGenerator(tree, { card: 'nameless.json', directory: 'deep/constructor' })).rejects.toThrow(
      /"constructor" cannot name an Nx project/,
    );
    expect(
      tree
        .listChanges()
        .map((c) => c.path)
        .sort(),
    ).toEqual([...before, 'apps/triage/application.json', 'nameless.json', 'object.json'].sort());
  });

  it("takes --slug instead of the slug made from the card's name (a second card of an agent the workspace holds)", async () => {
    tree.write('facts.json', cardText('a2a-samples_adk_facts_agent.v0.3-style.json'));
    await importCardGenerator(tree, { card: 'facts.json', directory: 'agents/facts' });
    await importCardGenerator(tree, { card: 'facts.json', slug: 'facts-legacy' });
    const definition = JSON.parse(tree.read('facts-legacy/agent.json', 'utf-8')!) as {
      identity: { slug: string };
      metadata: { provenance: { filePath: string } };
    };
    expect(definition.identity.slug).toBe('facts-legacy');
    expect(definition.metadata.provenance.filePath).toBe('facts-legacy/agent.json');
  });

  it('asks for --directory when the card name gives no slug', async () => {
    tree.write('nameless.json', JSON.stringify({ name: '***', description: 'x', version: '1.0.0', skills: [] }));
    await expect(importCardGenerator(tree, { card: 'nameless.json' })).rejects.toThrow(
      "the card's name gives no slug: pass --directory=<folder>",
    );
    await importCardGenerator(tree, { card: 'nameless.json', directory: 'nameless' });
    const definition = JSON.parse(tree.read('nameless/agent.json', 'utf-8')!);
    expect(findTodoMarkers(definition)).toEqual(
      expect.arrayContaining(['/identity/slug', '/capabilityContract/skills']),
    );
  });
});
