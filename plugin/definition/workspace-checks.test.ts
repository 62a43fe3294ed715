/**
 * Workspace-wide checks: duplicate slugs and ids name both files by file:line:column and the field
 * to change; pins that resolve to nothing are warnings (or errors when asked) at the pin's version;
 * the shipped examples, checked together as `agentdef validate examples` does, report nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDefinitionText } from './parse-document';
import { validateWorkspaceFiles } from './validate-workspace';
import { checkWorkspaceDefinitions, type CheckedDefinition } from './workspace-checks';
import { findDefinitionFiles } from './workspace-definitions';

const repoRoot = join(__dirname, '..', '..');
const exampleText = (slug: string) => readFileSync(join(repoRoot, 'examples', slug, 'agent.json'), 'utf8');

function definition(file: string, text: string): CheckedDefinition {
  const parsed = parseDefinitionText(text, file, 'json');
  if (!parsed.document) throw new Error(`${file} does not parse`);
  return { file, document: parsed.document };
}

describe('checkWorkspaceDefinitions', () => {
  it('reports two definitions with the same slug and id in both files, naming the other file and the field', () => {
    const text = exampleText('text-stats');
    const diagnostics = checkWorkspaceDefinitions([definition('a/agent.json', text), definition('b/agent.json', text)]);
    expect(diagnostics.map((d) => [d.file, d.rule, d.severity, d.path])).toEqual([
      ['a/agent.json', 'duplicate-id', 'error', '/identity/id'],
      ['a/agent.json', 'duplicate-slug', 'error', '/identity/slug'],
      ['b/agent.json', 'duplicate-id', 'error', '/identity/id'],
      ['b/agent.json', 'duplicate-slug', 'error', '/identity/slug'],
    ]);
    const slugLine = text.split('\n').findIndex((l) => l.includes('"slug"')) + 1;
    const slugColumn = text.split('\n')[slugLine - 1]!.indexOf('"text-stats"') + 1;
    const slug = diagnostics.find((d) => d.file === 'a/agent.json' && d.rule === 'duplicate-slug')!;
    expect([slug.line, slug.column]).toEqual([slugLine, slugColumn]);
    expect(slug.message).toContain(`"text-stats" is also declared by b/agent.json:${slugLine}:${slugColumn}`);
    expect(slug.suggestion).toBe(
      `change \`/identity/slug\` in a/agent.json:${slugLine}:${slugColumn} or b/agent.json:${slugLine}:${slugColumn}`,
    );
  });

  it('warns at the pin version when a pin resolves to nothing, listing the versions that exist', () => {
    const router = JSON.parse(exampleText('write-router')) as { composition: { nodes: { version: string }[] } };
    router.composition.nodes[1]!.version = '9.9.9';
    const defs = [
      definition('r/agent.json', JSON.stringify(router, null, 2)),
      definition('w/agent.json', exampleText('fallback-writer')),
    ];
    const known = new Map([['splice-resolver', [{ version: '0.4.2', where: 'registry registry/agents' }]]]);
    const [pin, ...rest] = checkWorkspaceDefinitions(defs, { knownVersions: known });
    expect(rest).toEqual([]);
    expect(pin).toMatchObject({
      rule: 'unresolved-pin',
      severity: 'warning',
      file: 'r/agent.json',
      path: '/composition/nodes/1/version',
    });
    expect(pin!.message).toBe(
      'pin "fallback-writer@9.9.9" resolves to nothing: neither the workspace nor the registry has fallback-writer at exactly 9.9.9; versions that exist: 1.1.0 (workspace w/agent.json)',
    );
    expect(pin!.suggestion).toContain('e.g. "fallback-writer@1.1.0"');
    expect(checkWorkspaceDefinitions(defs, { knownVersions: known, unresolvedPinSeverity: 'error' })[0]!.severity).toBe(
      'error',
    );
    // Without a list of what exists, pins are not checked.
    expect(checkWorkspaceDefinitions(defs)).toEqual([]);
  });

  it('suggests creating a child no version of which exists', () => {
    const router = JSON.parse(exampleText('write-router')) as { composition: { nodes: { slug: string }[] } };
    router.composition.nodes[0]!.slug = 'nowhere';
    const diagnostics = checkWorkspaceDefinitions([definition('r/agent.json', JSON.stringify(router))], {
      knownVersions: new Map([['fallback-writer', [{ version: '1.1.0', where: 'workspace w' }]]]),
    });
    expect(diagnostics.map((d) => [d.path, d.suggestion])).toEqual([
      ['/composition/nodes/0/version', expect.stringContaining('create nowhere (`nx g agentdef:agent nowhere`)')],
    ]);
  });
});

describe('validateWorkspaceFiles', () => {
  it('reports nothing for the shipped examples: no errors and no warnings', () => {
    const files = findDefinitionFiles(join(repoRoot, 'examples')).map((f) => ({
      absolutePath: join(repoRoot, 'examples', f),
      file: `examples/${f}`,
    }));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const result = validateWorkspaceFiles(files, { knownVersions: new Map() });
    expect(result.diagnostics).toEqual([]);
    expect([result.checked, result.invalid, result.errors, result.warnings]).toEqual([files.length, 0, 0, 0]);
  });

  it('resolves pins against the whole workspace and its registry, read from disk, and changes nothing there', () => {
    const root = mkdtempSync(join(tmpdir(), 'agentdef-workspace-checks-'));
    try {
      writeFileSync(join(root, 'nx.json'), '{}');
      // The tools.json that maps the router's tools (the tool mapping is checked in a workspace too).
      writeFileSync(join(root, 'tools.json'), readFileSync(join(__dirname, '..', '..', 'tools.json')));
      const router = JSON.parse(exampleText('write-router')) as { composition: { nodes: { version: string }[] } };
      router.composition.nodes[1]!.version = '9.9.9';
      mkdirSync(join(root, 'router'));
      writeFileSync(join(root, 'router', 'agent.json'), JSON.stringify(router, null, 2));
      for (const slug of ['fallback-writer', 'splice-resolver']) {
        mkdirSync(join(root, 'agents', slug), { recursive: true });
        writeFileSync(join(root, 'agents', slug, 'agent.json'), exampleText(slug));
      }
      mkdirSync(join(root, 'registry', 'agents', 'fallback-writer'), { recursive: true });
      writeFileSync(join(root, 'registry', 'agents', 'fallback-writer', '1.0.0.json'), exampleText('fallback-writer'));
      const before = readFileSync(join(root, 'router', 'agent.json'), 'utf8');
      const result = validateWorkspaceFiles(
        [{ absolutePath: join(root, 'router', 'agent.json'), file: 'router/agent.json' }],
        { workspaceRoot: root },
      );
      expect(result.diagnostics.map((d) => [d.rule, d.severity, d.path])).toEqual([
        ['unresolved-pin', 'warning', '/composition/nodes/1/version'],
      ]);
      expect(result.diagnostics[0]!.message).toContain(
        'versions that exist: 1.0.0 (registry registry/agents); 1.1.0 (workspace agents/fallback-writer/agent.json)',
      );
      expect([result.checked, result.invalid, result.errors, result.warnings]).toEqual([1, 0, 0, 1]);
      expect(readFileSync(join(root, 'router', 'agent.json'), 'utf8')).toBe(before);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
