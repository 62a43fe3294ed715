/**
 * Legacy import: every A2A example card (e2e/fixtures/conformance/a2a/examples, some not
 * conformant) gives a definition that fails validation exactly at the fields it lists, and is
 * fully valid once an owner fills those in; random JSON never makes it throw.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getAtPointer, parsePointer } from '../definition/json-pointer';
import { validateDefinitionSource } from '../definition/validate-definition';
import { type CardImport, findTodoMarkers, formatImportReport, importCard, isTodoMarker } from './import-card';

const EXAMPLES = join(__dirname, '..', '..', 'e2e', 'fixtures', 'conformance', 'a2a', 'examples');
const CARDS = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();
const IDS = { id: '01J0000000000000000000000A', versionId: '01J0000000000000000000000B' };
const OPTIONS = { ids: IDS, file: 'agents/imported/agent.json', repository: 'https://github.com/acme/agents' };

function readCard(name: string): unknown {
  return JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8'));
}

/** The diagnostic paths of the definition as `validate` would report them. */
function diagnosticPaths(definition: unknown): string[] {
  const result = validateDefinitionSource(`${JSON.stringify(definition, null, 2)}\n`, 'agent.json', 'json');
  return [...new Set(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.path))].sort();
}

/** What an owner writes into each TODO field: a local tool, independent of the importer's own check. */
const OWNER_ANSWERS: Record<string, unknown> = {
  '/identity/signingKeyRef': 'keyref:owner-key',
  '/identity/owner/kind': 'team',
  '/identity/owner/id': 'owner-team',
  '/identity/slug': 'owner-slug',
  '/identity/name': 'Owner name',
  '/identity/versionSemver': '1.0.0',
  '/metadata/description': 'Written by the owner.',
  '/metadata/provenance/repo': 'https://github.com/owner/repo',
  '/modelSet': [],
  '/toolInventory': [{ id: 'local-tool', name: 'local_tool', version: '1.0.0', provenance: 'scripted', risk: 'low' }],
  '/telemetryContract/receiptSigner': 'keyref:owner-key',
  '/telemetryContract/agenticGate': 'tool-only',
  '/telemetryContract/kymRegistrationRequired': false,
  '/runtimeRequirements/runtimeCapabilityClass': 'local-host-required',
  '/runtimeRequirements/keyCustody': 'secrets-store',
  '/lifecycleState': 'tool-shipped',
  '/capabilityContract/inputs': [{ kind: 'text', mediaType: 'text/plain' }],
  '/capabilityContract/outputs': [{ kind: 'text', mediaType: 'text/plain' }],
  '/capabilityContract/skills': [
    { id: 'owner-skill', name: 'Owner skill', description: 'By the owner.', version: '1.0.0', tags: ['owner'] },
  ],
};

function ownerAnswer(pointer: string): unknown {
  if (Object.hasOwn(OWNER_ANSWERS, pointer)) return OWNER_ANSWERS[pointer];
  const skill = /^\/capabilityContract\/skills\/(\d+)\/(id|name|description|version|tags)$/.exec(pointer);
  if (skill)
    return skill[2] === 'id'
      ? `owner-skill-${skill[1]}`
      : skill[2] === 'version'
        ? '1.0.0'
        : skill[2] === 'tags'
          ? ['owner-tag']
          : 'Filled in by the owner.';
  throw new Error(`no owner answer for ${pointer}`);
}

function complete(definition: Record<string, unknown>, pointers: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(definition);
  for (const pointer of pointers) {
    const segments = parsePointer(pointer);
    const last = segments.pop()!;
    const parent = getAtPointer(copy, segments.length === 0 ? '' : `/${segments.join('/')}`) as Record<string, unknown>;
    parent[last] = ownerAnswer(pointer);
  }
  return copy;
}

function expectImported(result: CardImport): asserts result is Extract<CardImport, { ok: true }> {
  expect(result.ok, JSON.stringify(result.findings)).toBe(true);
}

describe('importCard on the A2A example cards', () => {
  it('has the five cards copied from the shared conformance set', () => {
    expect(CARDS).toHaveLength(5);
  });

  for (const name of CARDS) {
    it(`${name}: fails validation only at the listed fields, and is valid once they are filled in`, () => {
      const result = importCard(readCard(name), OPTIONS);
      expectImported(result);
      const listed = result.todo.map((t) => t.pointer);
      expect(new Set(listed).size).toBe(listed.length);
      expect([...listed].sort()).toEqual(findTodoMarkers(result.definition).sort());
      expect(diagnosticPaths(result.definition)).toEqual([...listed].sort());
      for (const pointer of listed) expect(isTodoMarker(getAtPointer(result.definition, pointer))).toBe(true);
      const completed = complete(result.definition, listed);
      const check = validateDefinitionSource(JSON.stringify(completed), 'agent.json', 'json');
      expect(check.diagnostics).toEqual([]);
      expect(check.valid).toBe(true);
    });
  }

  it('fills what the v1.0 sample card says and keeps the rest in metadata.notes', () => {
    const result = importCard(readCard('spec-v1.0.1-sample-agent-card.json'), OPTIONS);
    expectImported(result);
    const d = result.definition as Record<string, any>;
    expect(result.format).toBe('a2a-v1.0');
    expect(d.identity).toMatchObject({
      id: IDS.id,
      versionId: IDS.versionId,
      slug: 'geospatial-route-planner-agent',
      name: 'GeoSpatial Route Planner Agent',
      versionSemver: '1.2.0',
      owner: { kind: 'org', id: 'Example-Geo-Services-Inc.' },
    });
    expect(d.capabilityContract.inputs).toEqual([
      { kind: 'data', mediaType: 'application/json' },
      { kind: 'text', mediaType: 'text/plain' },
    ]);
    expect(d.capabilityContract.outputs).toEqual([
      { kind: 'data', mediaType: 'application/json' },
      { kind: 'file', mediaType: 'image/png' },
    ]);
    expect(d.capabilityContract.skills.map((s: { id: string; version: string }) => `${s.id}@${s.version}`)).toEqual([
      'route-optimizer-traffic@1.2.0',
      'custom-map-generator@1.2.0',
    ]);
    expect(d.capabilityContract.skills[0].examples).toHaveLength(2);
    expect(d.metadata.provenance).toEqual({
      repo: 'https://github.com/acme/agents',
      filePath: 'agents/imported/agent.json',
    });
    expect(d.metadata.notes.origin).toBe('legacy');
    expect(d.metadata.notes.legacyCard).toMatchObject({
      format: 'a2a-v1.0',
      interfaces: [
        { url: 'https://georoute-agent.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://georoute-agent.example.com/a2a/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: 'https://georoute-agent.example.com/a2a/json', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      provider: { organization: 'Example Geo Services Inc.', url: 'https://www.examplegeoservices.com' },
      securitySchemes: ['google'],
      signatures: 1,
    });
    expect(d.metadata.notes.legacyCard.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.todo.map((t) => t.pointer)).toEqual([
      '/identity/signingKeyRef',
      '/modelSet',
      '/toolInventory',
      '/telemetryContract/receiptSigner',
      '/telemetryContract/agenticGate',
      '/telemetryContract/kymRegistrationRequired',
      '/runtimeRequirements/runtimeCapabilityClass',
      '/runtimeRequirements/keyCustody',
      '/lifecycleState',
    ]);
  });

  it('reports what makes a card non-conformant, without failing the import', () => {
    const weather = importCard(readCard('a2a-samples_weather_agent_card.json'), OPTIONS);
    expectImported(weather);
    expect(weather.findings).toContainEqual({
      pointer: '/supportedInterfaces/0/protocolVersion',
      message: 'protocolVersion is required in a v1.0 interface but missing (not conformant)',
    });
    expect(weather.findings).toContainEqual({
      pointer: '/protocolVersion',
      message: 'a v1.0 card states protocolVersion per interface, not at the top (not conformant)',
    });
    const facts = importCard(readCard('a2a-samples_adk_facts_agent.v0.3-style.json'), OPTIONS);
    expectImported(facts);
    expect(facts.format).toBe('a2a-v0.3');
    expect(facts.findings).toContainEqual({
      pointer: '/protocolVersion',
      message: 'protocolVersion is required in a2a-v0.3 but missing (not conformant)',
    });
    // No provider: the owner is the owner's to name.
    expect(facts.todo.map((t) => t.pointer)).toEqual(
      expect.arrayContaining(['/identity/owner/kind', '/identity/owner/id']),
    );
    expect((facts.definition as Record<string, any>).identity.slug).toBe('facts-agent');
  });

  it('asks for a tag where a card skill has none (A2A and the definition both hold at least one)', () => {
    const card = readCard('spec-v0.3.0-sample-agent-card.json') as Record<string, any>;
    card.skills = [
      { ...card.skills[0], tags: [] },
      { ...card.skills[0], id: 'untagged' },
    ];
    delete card.skills[1].tags;
    const result = importCard(card, OPTIONS);
    expectImported(result);
    expect(result.todo.map((t) => t.pointer)).toEqual(
      expect.arrayContaining(['/capabilityContract/skills/0/tags', '/capabilityContract/skills/1/tags']),
    );
    expect(result.findings).toContainEqual({
      pointer: '/skills/1/tags',
      message: 'skill has no tags (A2A requires at least one)',
    });
    const completed = complete(
      result.definition,
      result.todo.map((t) => t.pointer),
    );
    expect(validateDefinitionSource(JSON.stringify(completed), 'agent.json', 'json').diagnostics).toEqual([]);
  });

  it('is deterministic for the same card and ids', () => {
    const card = readCard('spec-v0.3.0-sample-agent-card.json');
    expect(importCard(card, OPTIONS)).toEqual(importCard(structuredClone(card), OPTIONS));
  });

  it('lists every TODO in the printed report', () => {
    const result = importCard(readCard('a2a-samples_check_prime_agent.v0.3-style.json'), { ids: IDS });
    expectImported(result);
    const report = formatImportReport(result, 'check_prime.json');
    for (const task of result.todo) expect(report).toContain(`  ${task.pointer}: ${task.what}\n`);
    expect(result.todo.map((t) => t.pointer)).toContain('/metadata/provenance/repo');
  });
});

describe('importCard on hostile and broken cards', () => {
  it('refuses values that are not objects with a finding', () => {
    for (const value of [null, [], 'card', 3, true]) {
      const result = importCard(value, OPTIONS);
      expect(result.ok).toBe(false);
      expect(result.findings[0]!.message).toMatch(/^an A2A AgentCard is a JSON object/);
    }
  });

  it('turns values the validator rejects into TODOs or drops them, and says so', () => {
    const card = {
      name: 'Bad\u0007 Agent',
      description: 'Fine.',
      version: '1.0',
      url: 'https://user:hunter2@example.com/a2a',
      defaultInputModes: ['text', 'text/plain; charset=utf-8'],
      defaultOutputModes: [],
      capabilities: {},
      skills: [
        { id: 'dup', name: 'One', description: 'First.', tags: ['ok', 'x'.repeat(65)] },
        { id: 'dup', name: 'Two', description: 'Second.', tags: [] },
        'not a skill',
      ],
    };
    const result = importCard(card, OPTIONS);
    expectImported(result);
    const listed = result.todo.map((t) => t.pointer);
    expect(diagnosticPaths(result.definition)).toEqual([...listed].sort());
    expect(listed).toEqual(
      expect.arrayContaining([
        '/identity/name',
        '/identity/versionSemver',
        '/capabilityContract/outputs',
        '/capabilityContract/skills/1/id',
        '/capabilityContract/skills/0/version',
      ]),
    );
    const d = result.definition as Record<string, any>;
    expect(d.capabilityContract.inputs).toEqual([{ kind: 'text', mediaType: 'text/plain' }]);
    expect(d.capabilityContract.skills[0].tags).toEqual(['ok']);
    expect(d.metadata.notes.legacyCard.interfaces).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(result.findings.some((f) => f.pointer === '/skills/2')).toBe(true);
  });

  it('never throws on random JSON, and an import always fails validation exactly at its TODO fields', () => {
    const cardLike = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        description: fc.oneof(fc.string(), fc.jsonValue()),
        version: fc.oneof(fc.constantFrom('1.0.0', '0.2.1-beta', 'v1'), fc.jsonValue()),
        url: fc.oneof(fc.webUrl(), fc.jsonValue()),
        provider: fc.oneof(fc.record({ organization: fc.string(), url: fc.string() }), fc.jsonValue()),
        supportedInterfaces: fc.array(
          fc.record(
            { url: fc.string(), protocolBinding: fc.string(), protocolVersion: fc.string() },
            { requiredKeys: [] },
          ),
        ),
        defaultInputModes: fc.array(
          fc.oneof(fc.constantFrom('text/plain', 'application/json', 'image/png'), fc.string()),
        ),
        defaultOutputModes: fc.oneof(fc.array(fc.constantFrom('text/plain', 'application/json')), fc.jsonValue()),
        skills: fc.oneof(
          fc.array(
            fc.record(
              {
                id: fc.string(),
                name: fc.string(),
                description: fc.string(),
                tags: fc.array(fc.string()),
                examples: fc.array(fc.string()),
              },
              { requiredKeys: [] },
            ),
          ),
          fc.jsonValue(),
        ),
        capabilities: fc.jsonValue(),
        securitySchemes: fc.dictionary(fc.string(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), cardLike), (card) => {
        const result = importCard(card, OPTIONS);
        if (!result.ok) {
          expect(result.findings.length).toBeGreaterThan(0);
          return;
        }
        const listed = result.todo.map((t) => t.pointer);
        expect(diagnosticPaths(result.definition)).toEqual([...listed].sort());
        const completed = complete(result.definition, listed);
        expect(validateDefinitionSource(JSON.stringify(completed), 'agent.json', 'json').diagnostics).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
