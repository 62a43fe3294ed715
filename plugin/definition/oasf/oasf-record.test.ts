/**
 * The OASF projection: every example under examples/ (found on disk, not listed) exports a record
 * that validates against the copied OASF definitions; the record is deterministic (same
 * definition and commit time, same bytes; no clock without a commit); explicit `oasf:` tags win
 * over the mapping table; an unmappable skill and an unknown explicit name fail at the skill or the
 * tag with the nearest taxonomy entries; MCP tools become MCP modules with the workspace's
 * connection and never its arguments or environment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinitionSource } from '../validate-definition';
import type { AgentDefinition } from '../../schema/generated/agent-definition.types';
import { EXAMPLE_FILES, REPO_ROOT, loadExample } from '../rules/test-support';
import { NO_COMMIT_CREATED_AT, projectOasfRecord } from './oasf-record';
import { validateOasfRecord } from './validate-oasf-record';

const exampleFiles = readdirSync(join(REPO_ROOT, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .flatMap((e) =>
    ['agent.json', 'agent.yaml', 'agent.yml']
      .map((name) => `examples/${e.name}/${name}`)
      .filter((file) => {
        try {
          readFileSync(join(REPO_ROOT, file));
          return true;
        } catch {
          return false;
        }
      }),
  );

describe('every example exports an OASF record that validates', () => {
  it('finds every example the rule tests know', () => {
    expect(exampleFiles.sort()).toEqual(Object.values(EXAMPLE_FILES).sort());
  });

  for (const file of exampleFiles) {
    it(file, () => {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      const checked = validateDefinitionSource(text, file, file.endsWith('.json') ? 'json' : 'yaml');
      expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const definition = checked.definition as AgentDefinition;
      const result = projectOasfRecord(definition, {
        createdAt: '2026-05-01T12:00:00Z',
        serviceUrl: 'https://agent.example.workers.dev/',
        worker: true,
        agentCard: { name: definition.identity.name, supportedInterfaces: [{ protocolVersion: '1.0' }] },
      });
      expect(result.ok ? [] : result.findings).toEqual([]);
      if (!result.ok) return;
      expect(validateOasfRecord(result.record)).toEqual([]);
      expect(result.record.skills.length).toBeGreaterThanOrEqual(
        definition.capabilityContract.skills.length > 0 ? 1 : 0,
      );
      expect(result.record.name).toBe(definition.identity.name);
      expect(result.record.version).toBe(definition.identity.versionSemver);
    });
  }
});

describe('projectOasfRecord', () => {
  it('is deterministic, and takes no clock without a commit', () => {
    const a = projectOasfRecord(loadExample('web-summarizer'), { createdAt: '2026-05-01T12:00:00+02:00' });
    const b = projectOasfRecord(loadExample('web-summarizer'), { createdAt: '2026-05-01T12:00:00+02:00' });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const none = projectOasfRecord(loadExample('web-summarizer'));
    expect(none.ok && none.record.created_at).toBe(NO_COMMIT_CREATED_AT);
    expect(none.ok && none.record.annotations['agentdef.created-at']).toBe('no-commit');
    expect(projectOasfRecord(loadExample('web-summarizer'), { createdAt: 'May 1st' }).ok).toBe(false);
  });

  it('maps tags through the table, and lets oasf: tags (by name or id) override it', () => {
    const mapped = projectOasfRecord(loadExample('text-digest'));
    expect(mapped.ok && mapped.record.skills).toEqual([
      { id: 10302, name: 'language_processing/language_generation/summarization' },
    ]);
    const d = loadExample('text-digest');
    d.capabilityContract.skills[0]!.tags.push('oasf:skill/10303', 'oasf:skill/language_processing/text_classification');
    d.metadata.tags.push('oasf:domain/media_and_entertainment/publishing');
    const chosen = projectOasfRecord(d);
    expect(chosen.ok && chosen.record.skills).toEqual([
      { id: 10303, name: 'language_processing/language_generation/paraphrasing' },
      { id: 102, name: 'language_processing/text_classification' },
    ]);
    expect(chosen.ok && chosen.record.domains).toEqual([{ id: 1305, name: 'media_and_entertainment/publishing' }]);
  });

  it('fails an unmappable skill and an unknown oasf: name at the skill or the tag, naming the nearest entries', () => {
    const d = loadExample('text-digest');
    d.capabilityContract.skills[0]!.id = 'text.sumarize';
    d.capabilityContract.skills[0]!.tags = ['condense'];
    d.metadata.tags.push('oasf:domain/technology/sofware_engineering');
    const result = projectOasfRecord(d);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.findings.map((f) => f.path)).toEqual(['/capabilityContract/skills/0', '/metadata/tags/3']);
    expect(result.findings[0]!.message).toContain('"text.sumarize" maps to no OASF skill');
    expect(result.findings[0]!.suggestion).toContain('language_processing/language_generation/summarization (10302)');
    expect(result.findings[1]!.suggestion).toContain('technology/software_engineering (102)');
  });

  it("makes one MCP module per server, with the workspace's command or URL and nothing else", () => {
    const servers = new Map([
      [
        'code-search-index',
        {
          transport: 'stdio' as const,
          command: 'node',
          args: ['--token=s3cr3t'],
          env: { TOKEN: { from: 'secret' as const, name: 'T' } },
        },
      ],
    ]);
    const result = projectOasfRecord(loadExample('code-search'), { mcpServers: servers });
    expect(result.ok && result.record.modules).toEqual([
      {
        name: 'integration/mcp',
        id: 202,
        data: {
          name: 'code-search-index',
          tools: [{ name: 'search' }],
          connections: [{ type: 'stdio', command: 'node' }],
        },
      },
    ]);
    expect(JSON.stringify(result)).not.toContain('s3cr3t');
    const unmapped = projectOasfRecord(loadExample('code-search'));
    expect(unmapped.ok && unmapped.record.modules?.[0]?.annotations).toEqual({
      'agentdef.mcp-server': 'not mapped by the workspace mcp.json',
    });
  });
});
