/**
 * The OASF record validator, derived from the copied OASF definitions: a record the projection
 * makes passes; hostile records fail at the attribute that is wrong (a missing required attribute,
 * a wrong dictionary type, an unknown taxonomy id or name, an id that is another class than its
 * name, an unknown attribute, a locator type outside the enum, a module whose data is not its
 * class's data object, a malformed created_at, another schema_version). The taxonomy ids are the
 * OASF server's (parent id × 100 + uid), checked against ids OASF publishes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { OASF_DEFINITIONS_DIR, oasfDefinitions } from './oasf-definitions';
import { projectOasfRecord } from './oasf-record';
import { validateOasfRecord } from './validate-oasf-record';

const definition = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'examples', 'code-search', 'agent.json'), 'utf8'),
) as AgentDefinition;

function validRecord(): Record<string, unknown> {
  const result = projectOasfRecord(definition, {
    createdAt: '2026-05-01T12:00:00Z',
    serviceUrl: 'https://code-search.example.workers.dev/',
    worker: true,
    image: 'registry.example.com/acme/code-search:2.1.0',
    agentCard: { name: 'Code search', supportedInterfaces: [{ protocolVersion: '1.0' }] },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.findings));
  return JSON.parse(JSON.stringify(result.record)) as Record<string, unknown>;
}

const pointers = (record: unknown) => validateOasfRecord(record).map((f) => f.pointer);
const messages = (record: unknown) => validateOasfRecord(record).map((f) => `${f.pointer}: ${f.message}`);

describe('the OASF definitions as read', () => {
  it('derive the ids and names the OASF server derives', () => {
    const defs = oasfDefinitions();
    const version = JSON.parse(readFileSync(join(OASF_DEFINITIONS_DIR, 'version.json'), 'utf8')) as { version: string };
    expect(defs.schemaVersion).toBe(version.version);
    expect(defs.skills.byId.get(10302)?.name).toBe('language_processing/language_generation/summarization');
    expect(defs.skills.byId.get(1)?.name).toBe('language_processing');
    expect(defs.skills.byName.get('language_processing/language_understanding/contextual_comprehension')?.id).toBe(
      10101,
    );
    expect(defs.domains.byName.get('technology/software_engineering')?.id).toBe(102);
    expect(defs.modules.byName.get('integration/a2a')?.id).toBe(203);
    expect(defs.modules.byName.get('integration/mcp')?.id).toBe(202);
    // Every class file but the base class is one entry, with an id of its own.
    expect(defs.skills.byId.size).toBe(defs.skills.entries.length);
    expect(defs.skills.byName.size).toBe(defs.skills.entries.length);
    expect(defs.skills.entries.length).toBe(defs.skills.classes.size - 1);
  });

  it('name every record field the OASF protobuf Record has', () => {
    const proto = readFileSync(
      join(OASF_DEFINITIONS_DIR, '..', 'proto', 'agntcy', 'oasf', 'types', 'v1', 'record.proto'),
      'utf8',
    );
    const message = proto.slice(proto.indexOf('message Record {'));
    const fields = [...message.matchAll(/^\s+(?:repeated \w+|map<[^>]+>|\w+) (\w+) = \d+;/gm)].map((m) => m[1]).sort();
    const attributes = Object.keys(oasfDefinitions().objects.get('record')?.attributes ?? {}).sort();
    expect(fields).toEqual(attributes);
    for (const key of Object.keys(validRecord())) expect(fields).toContain(key);
  });
});

describe('validateOasfRecord', () => {
  it('passes the projection of a definition', () => {
    expect(messages(validRecord())).toEqual([]);
  });

  it('fails a record without a required attribute', () => {
    for (const attribute of ['name', 'version', 'schema_version', 'description', 'authors', 'created_at', 'skills']) {
      const record = validRecord();
      delete record[attribute];
      expect(messages(record)).toEqual([`: record lacks the required attribute "${attribute}"`]);
    }
  });

  it('fails values of the wrong dictionary type', () => {
    const record = validRecord();
    record['name'] = 42;
    record['authors'] = 'acme';
    record['created_at'] = 'yesterday';
    record['annotations'] = { 'agentdef.slug': 7 };
    record['description'] = 'x'.repeat(10_001);
    expect(pointers(record).sort()).toEqual(
      ['/name', '/authors', '/created_at', '/annotations/agentdef.slug', '/description'].sort(),
    );
  });

  it('fails an unknown skill id, an unknown domain name and an id that is not its name', () => {
    const record = validRecord();
    record['skills'] = [
      { id: 99999, name: 'language_processing/language_generation/summarization' },
      { id: 10302, name: 'language_processing/language_generation/summarisation' },
      { id: 10302, name: 'language_processing/text_classification' },
      { id: '10302' },
      {},
    ];
    record['domains'] = [{ name: 'technology/not_a_domain' }];
    expect(messages(record)).toEqual([
      '/skills/0/id: no OASF skill has the id 99999',
      '/skills/1/name: no OASF skill is named "language_processing/language_generation/summarisation"',
      '/skills/2: the skill id 10302 is "language_processing/language_generation/summarization", not "language_processing/text_classification" (whose id is 102)',
      '/skills/3/id: "id" must be an integer (integer_t), not "10302"',
      '/skills/4: skill needs at least one of id, name',
      '/domains/0/name: no OASF domain is named "technology/not_a_domain"',
    ]);
  });

  it('fails unknown attributes, a locator type outside the enum and a malformed module', () => {
    const record = validRecord();
    record['owner'] = 'acme';
    record['locators'] = [{ type: 'ftp_site', urls: ['https://example.com/'] }, { type: 'url' }];
    record['modules'] = [
      { name: 'integration/a2a', id: 203, data: { card_schema_version: '1.0' } },
      { name: 'integration/mcp', id: 203, data: { name: 'x', connections: [{ type: 'stdio' }] } },
      { name: 'integration/not_a_module', data: {} },
    ];
    expect(messages(record).sort()).toEqual([
      '/locators/0/type: "type" "ftp_site" is none of unspecified, helm_chart, container_image, package, source_code, binary, url',
      '/locators/1: locator lacks the required attribute "urls"',
      '/modules/0/data: a2a_data lacks the required attribute "card_data"',
      '/modules/1/data/connections/0: mcp_server_connection needs at least one of url, command',
      '/modules/1: the module id 203 is "integration/a2a", not "integration/mcp" (whose id is 202)',
      '/modules/2/name: no OASF module is named "integration/not_a_module"',
      '/owner: "owner" is not an attribute of record',
    ]);
  });

  it('fails another schema_version than the copied one, and what is no object', () => {
    const record = validRecord();
    record['schema_version'] = '0.7.0';
    expect(messages(record)).toEqual([
      `/schema_version: schema_version "0.7.0" is not the copied OASF schema's ${oasfDefinitions().schemaVersion}`,
    ]);
    expect(messages([])).toEqual([': record must be an object, not []']);
    expect(messages(null)).toEqual([': record must be an object, not null']);
  });
});
