/**
 * YAML and JSON syntax errors print like every other diagnostic: file:line:column, the source line
 * with a caret under the problem, and a help line saying what to do.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from './format-diagnostics';
import { parseHelp } from './parse-help';
import { validateFiles } from './validate-files';
import { validateDefinition } from './validate-definition-file';

const repoRoot = join(__dirname, '..', '..');

describe('parse diagnostics', () => {
  for (const [file, format, shown] of [
    ['e2e/fixtures/invalid/syntax-json.json', 'json', '6 |     "name": "Text stats",,'],
    ['e2e/fixtures/invalid/syntax-yaml.yaml', 'yaml', '6 |   name: PDF extractor: text layer'],
  ] as const) {
    it(`prints ${format} syntax errors with a code frame, a caret and a help line`, () => {
      const result = validateFiles([{ absolutePath: join(repoRoot, file), file }]);
      const [syntax] = result.diagnostics;
      expect(syntax).toMatchObject({ rule: 'syntax', file, suggestion: parseHelp('syntax', format) });
      expect(result.sources.has(file)).toBe(true);
      const lines = formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }).split('\n');
      expect(lines[1]).toBe(
        `  --> ${file}:${syntax!.line}:${syntax!.column}${syntax!.path ? `  (${syntax!.path})` : ''}`,
      );
      expect(lines[3]).toBe(shown);
      expect(lines[4]!.indexOf('^') - lines[3]!.indexOf('|')).toBe(syntax!.column + 1);
      expect(lines[5]).toBe(`  = help: ${parseHelp('syntax', format)}`);
    });
  }

  it('gives the script entry the source of a file that does not parse, and a help line for duplicate keys', () => {
    const checked = validateDefinition('e2e/fixtures/invalid/duplicate-key.json', { cwd: repoRoot });
    expect(checked.sources.get('e2e/fixtures/invalid/duplicate-key.json')).toContain('"name"');
    expect(checked.diagnostics[0]).toMatchObject({
      rule: 'duplicate-key',
      suggestion: parseHelp('duplicate-key', 'json'),
    });
    const text = formatDiagnostics(checked.diagnostics, { format: 'text', sources: checked.sources });
    expect(text).toContain('7 |     "name": "Local notes (beta)",');
  });
});
