import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeDefinition } from './read-agent-summary';
import { definitionJson } from './test-support';

describe('summarizeDefinition', () => {
  it('reads slug, version, tag fields and each pin with its line', () => {
    const text = definitionJson({
      slug: 'write-router',
      version: '1.4.0',
      pins: ['splice-resolver@0.4.2', 'fallback-writer@1.1.0'],
    });
    const summary = summarizeDefinition(text, 'agents/write-router/agent.json');
    const lines = text.split('\n');
    const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
    const at = (needle: string) => ({
      line: lineOf(needle),
      column: lines[lineOf(needle) - 1]!.indexOf(needle) + needle.indexOf(': ') + 3,
    });
    expect(summary).toEqual({
      parsed: true,
      slug: 'write-router',
      slugAt: at('"slug": "write-router"'),
      id: JSON.parse(text).identity.id,
      idAt: at('"id": "01'),
      versionSemver: '1.4.0',
      runtimeCapabilityClass: 'workers-preferred',
      lifecycleState: 'composed',
      pins: [
        // the line of `{`, which opens the pin object, just above its slug
        { slug: 'splice-resolver', version: '0.4.2', line: lineOf('"slug": "splice-resolver"') - 1 },
        { slug: 'fallback-writer', version: '1.1.0', line: lineOf('"slug": "fallback-writer"') - 1 },
      ],
    });
  });

  it('reads YAML (by file extension) the same way', () => {
    const text = [
      'schemaVersion: agent-definition/v1',
      'identity:',
      '  slug: pdf-extractor',
      '  versionSemver: 1.2.0',
      'composition:',
      '  kind: dag',
      '  nodes:',
      '    - slug: ocr',
      '      version: 2.0.0',
      'lifecycleState: composed',
      '',
    ].join('\n');
    expect(summarizeDefinition(text, 'x/agent.yaml')).toEqual({
      parsed: true,
      slug: 'pdf-extractor',
      slugAt: { line: 3, column: 9 },
      versionSemver: '1.2.0',
      lifecycleState: 'composed',
      pins: [{ slug: 'ocr', version: '2.0.0', line: 8 }],
    });
  });

  it('tolerates schema-invalid files: keeps what is stated plainly, drops malformed pins', () => {
    const text = JSON.stringify({
      identity: { slug: 'Not A Slug', versionSemver: 3 },
      composition: {
        nodes: [
          { slug: 'good', version: '1.0.0' },
          { slug: 'bad slug', version: '1.0.0' },
          'junk',
          { slug: 'no-version' },
        ],
      },
      runtimeRequirements: { runtimeCapabilityClass: 'workers-only' },
    });
    expect(summarizeDefinition(text, 'a/agent.json')).toEqual({
      parsed: true,
      runtimeCapabilityClass: 'workers-only',
      pins: [{ slug: 'good', version: '1.0.0', line: 1 }],
    });
  });

  it('returns an empty summary for text that does not parse, and never throws', () => {
    expect(summarizeDefinition('{ "identity": { "slug": "x", ', 'a/agent.json')).toEqual({ pins: [], parsed: false });
    expect(summarizeDefinition('[1, 2]', 'a/agent.json')).toEqual({ pins: [], parsed: false });
    expect(summarizeDefinition('a: [unclosed', 'a/agent.yaml')).toEqual({ pins: [], parsed: false });
    expect(summarizeDefinition('', 'a/agent.json')).toEqual({ pins: [], parsed: false });
  });

  it('ignores a byte-order mark', () => {
    expect(summarizeDefinition(`\uFEFF${definitionJson({ slug: 'bom' })}`, 'a/agent.json').slug).toBe('bom');
  });

  it('summarises a YAML file of 690,000 aliases (3.95 MiB) as not parsed, within 128 MiB of heap', () => {
    // Graph inference reads YAML through the definition reader; the alias budget is spent before
    // any document is built. Before, this file took 1.18 GB: a 128 MiB heap would die.
    const dir = mkdtempSync(join(__dirname, '.tmp-aliases-'));
    try {
      const file = join(dir, 'agent.yaml');
      writeFileSync(file, `a: &ab x\nb:\n${'- *ab\n'.repeat(690_000)}`);
      const script = [
        "require('@swc-node/register');",
        "const { readFileSync } = require('node:fs');",
        `const { summarizeDefinition } = require(${JSON.stringify(join(__dirname, 'read-agent-summary.ts'))});`,
        `const { parseDefinitionText } = require(${JSON.stringify(join(__dirname, '..', 'definition', 'parse-document.ts'))});`,
        'const text = readFileSync(process.argv[1], "utf8");',
        "const diagnostics = parseDefinitionText(text, 'agent.yaml', 'yaml').diagnostics.map((d) => ({ rule: d.rule, line: d.line, column: d.column }));",
        "process.stdout.write(JSON.stringify({ summary: summarizeDefinition(text, 'agents/a/agent.yaml'), diagnostics }));",
      ].join('\n');
      const out = execFileSync(process.execPath, ['--max-old-space-size=128', '-e', script, file], {
        cwd: join(__dirname, '..', '..'),
        encoding: 'utf8',
        env: { ...process.env, SWC_NODE_PROJECT: join(__dirname, '..', '..', 'tsconfig.json') },
      });
      expect(JSON.parse(out)).toEqual({
        summary: { pins: [], parsed: false },
        diagnostics: [{ rule: 'yaml-alias', line: 10_003, column: 3 }],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
