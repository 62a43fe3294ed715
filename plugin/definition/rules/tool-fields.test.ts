import { describe, expect, it } from 'vitest';
import { toolFieldsRule as rule } from './tool-fields';
import { EXAMPLE_FILES, baseDefinition, loadExample, runRule, summarize } from './test-support';

const error = (path: string, at?: 'key') => ({
  path,
  code: 'agent_definition_invalid',
  severity: 'error',
  ...(at ? { at } : {}),
});

describe('tool-fields', () => {
  it.each(Object.keys(EXAMPLE_FILES))('passes the %s example', (slug) => {
    expect(runRule(rule, loadExample(slug))).toEqual([]);
  });

  it('reports an MCP tool without server and transport', () => {
    const def = loadExample('code-search');
    delete def.toolInventory[0]!.mcpServer;
    delete def.toolInventory[0]!.mcpTransport;
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/toolInventory/0/mcpServer'), error('/toolInventory/0/mcpTransport')]);
    expect(findings[0]?.message).toContain('"search"');
  });

  it('reports MCP fields on a tool that is not MCP, at the keys', () => {
    const def = baseDefinition();
    def.toolInventory[0]!.mcpServer = 'fs';
    def.toolInventory[0]!.mcpTransport = 'http';
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([
      error('/toolInventory/0/mcpServer', 'key'),
      error('/toolInventory/0/mcpTransport', 'key'),
    ]);
    expect(findings[0]?.message).toContain('"skill-package"');
  });

  it('reports duplicate tool ids and names, pointing at the later copies', () => {
    const def = baseDefinition();
    def.toolInventory.push(
      { id: 'fs-write', name: 'write_file_v2', version: '2.0.0', provenance: 'skill-package', risk: 'medium' },
      { id: 'fs-write-2', name: 'write_file', version: '2.0.0', provenance: 'scripted', risk: 'medium' },
    );
    const findings = runRule(rule, def);
    expect(summarize(findings)).toEqual([error('/toolInventory/1/id'), error('/toolInventory/2/name')]);
    expect(findings[0]?.message).toContain('toolInventory[0]');
  });

  it('reports duplicate skill ids', () => {
    const def = baseDefinition();
    const skill = def.capabilityContract.skills[0]!;
    def.capabilityContract.skills.push({ ...skill, name: 'Apply an edit again' });
    expect(summarize(runRule(rule, def))).toEqual([error('/capabilityContract/skills/1/id')]);
  });
});
