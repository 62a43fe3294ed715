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
});
