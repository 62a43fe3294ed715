/** validateFiles: what `agentdef validate` and the `validate` executor share. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateFiles } from './validate-files';
import { workspacePath } from './workspace-path';

const repoRoot = join(__dirname, '..', '..');
const at = (file: string) => ({ absolutePath: join(repoRoot, file), file });

describe('validateFiles', () => {
  it('validates each file in order, keeping sources, diagnostics, I/O problems and counts apart', () => {
    const result = validateFiles([
      at('examples/text-digest/agent.json'),
      at('e2e/fixtures/invalid/schema-version-range.json'),
      at('examples/nope/agent.json'),
      at('README.md'),
      at('examples/pdf-extractor/agent.yaml'),
    ]);
    expect(result.files.map((f) => [f.file, f.valid, f.ioError !== undefined])).toEqual([
      ['examples/text-digest/agent.json', true, false],
      ['e2e/fixtures/invalid/schema-version-range.json', false, false],
      ['examples/nope/agent.json', false, true],
      ['README.md', false, true],
      ['examples/pdf-extractor/agent.yaml', true, false],
    ]);
    expect(result.ioErrors).toEqual([
      expect.stringMatching(/^cannot read examples\/nope\/agent\.json: /),
      'README.md: not a definition file (expected .json, .yaml or .yml)',
    ]);
    expect([result.checked, result.invalid]).toEqual([3, 1]);
    expect(result.errors).toBe(result.diagnostics.filter((d) => d.severity === 'error').length);
    expect(result.errors).toBeGreaterThan(0);
    expect(result.errors + result.warnings).toBe(result.diagnostics.length);
    expect(result.diagnostics).toEqual(result.files.flatMap((f) => f.diagnostics));
    expect([...result.sources.keys()]).toEqual([
      'examples/text-digest/agent.json',
      'e2e/fixtures/invalid/schema-version-range.json',
      'examples/pdf-extractor/agent.yaml',
    ]);
  });

  it('checks nothing for no files', () => {
    expect(validateFiles([])).toEqual({
      files: [],
      diagnostics: [],
      sources: new Map(),
      ioErrors: [],
      checked: 0,
      invalid: 0,
      errors: 0,
      warnings: 0,
    });
  });
});

describe('workspacePath', () => {
  it('names a path relative to the root, posix, and the root itself "."', () => {
    expect(workspacePath('/ws', '/ws/examples/a/agent.json')).toBe('examples/a/agent.json');
    expect(workspacePath('/ws', '/ws')).toBe('.');
    expect(workspacePath('/ws/a', '/ws/b/c')).toBe('../b/c');
  });
});
