/**
 * The `agentdef validate` command, end to end through the real binary: the examples pass, every
 * invalid fixture fails with its rule's code, JSON Pointer and line, and usage errors exit 2.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runAgentdef } from './support/run-cli';

interface Expected {
  rule: string;
  code: string;
  path: string;
  line: number;
}
const invalidDir = join(repoRoot, 'e2e', 'fixtures', 'invalid');
const expectations = JSON.parse(
  readFileSync(join(repoRoot, 'e2e', 'fixtures', 'invalid.expected.json'), 'utf8'),
) as Record<string, Expected>;

describe('agentdef validate', () => {
  it('accepts every example definition and application manifest (exit 0)', () => {
    const run = runAgentdef(['validate', 'examples']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Folders that hold a definition (examples/tools holds the example tools' code).
    const count = readdirSync(join(repoRoot, 'examples')).filter((name) =>
      readdirSync(join(repoRoot, 'examples', name)).some((f) => /^agent\.(json|ya?ml)$/.test(f)),
    ).length;
    const applications = readdirSync(join(repoRoot, 'examples', 'applications'), { withFileTypes: true }).filter(
      (d) =>
        d.isDirectory() && readdirSync(join(repoRoot, 'examples', 'applications', d.name)).includes('application.json'),
    ).length;
    expect(count).toBeGreaterThanOrEqual(8);
    expect(applications).toBeGreaterThanOrEqual(2);
    expect(run.stdout).toMatch(
      new RegExp(
        `^${count} definitions and ${applications} application manifests checked: ${count + applications} valid, 0 invalid`,
        'm',
      ),
    );
  });

  it('has an expectation for every invalid fixture and a fixture for every expectation', () => {
    expect(readdirSync(invalidDir).sort()).toEqual(Object.keys(expectations).sort());
  });

  for (const [file, expected] of Object.entries(expectations)) {
    it(`rejects ${file} with ${expected.rule} at ${expected.path || '(root)'} line ${expected.line}`, () => {
      const run = runAgentdef(['validate', `e2e/fixtures/invalid/${file}`, '--format', 'json']);
      expect(run.status, run.stderr).toBe(1);
      const output = JSON.parse(run.stdout) as {
        valid: boolean;
        diagnostics: Array<Expected & { severity: string; file: string; column: number }>;
      };
      expect(output.valid).toBe(false);
      const first = output.diagnostics.find((d) => d.severity === 'error');
      expect(first).toBeDefined();
      expect({ rule: first!.rule, code: first!.code, path: first!.path, line: first!.line }).toEqual(expected);
      expect(first!.file).toBe(`e2e/fixtures/invalid/${file}`);
      expect(first!.column).toBeGreaterThanOrEqual(1);
    });
  }

  it('prints a compiler-style excerpt with a caret under the offending value', () => {
    const run = runAgentdef(['validate', 'e2e/fixtures/invalid/schema-version-range.json']);
    expect(run.status).toBe(1);
    const { line } = expectations['schema-version-range.json']!;
    expect(run.stdout).toContain(`--> e2e/fixtures/invalid/schema-version-range.json:${line}:`);
    const lines = run.stdout.split('\n');
    const excerpt = lines.findIndex((l) => l.startsWith(`${line} | `));
    expect(excerpt).toBeGreaterThan(0);
    const caret = lines[excerpt + 1]!;
    const column = caret.indexOf('^') - caret.indexOf('|') - 1;
    expect(lines[excerpt]!.slice(lines[excerpt]!.indexOf('|') + 1 + column)).toMatch(/^"\^0\.4\.0"/);
  });

  it('never prints a secret that a definition holds', () => {
    const run = runAgentdef(['validate', 'e2e/fixtures/invalid/secrets.json']);
    expect(run.status).toBe(1);
    const fixture = readFileSync(join(invalidDir, 'secrets.json'), 'utf8');
    const secrets = fixture.match(/sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}/g) ?? [];
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
      expect(run.stdout).not.toContain(secret.slice(0, 12));
    }
    const json = runAgentdef(['validate', 'e2e/fixtures/invalid/secrets.json', '--format', 'json']);
    for (const secret of secrets) expect(json.stdout).not.toContain(secret);
  });

  it('exits 2 on usage and I/O errors without touching anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdef-cli-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    mkdirSync(join(dir, 'empty'));
    const cases: Array<[string[], RegExp]> = [
      [['validate'], /name at least one file/],
      [['validate', 'does/not/exist.json'], /cannot read does\/not\/exist\.json/],
      [['validate', 'notes.txt'], /not a definition file/],
      [['validate', 'empty'], /no agent\.json, agent\.yaml, application\.json or application\.yaml/],
      [['validate', '--format', 'xml', 'notes.txt'], /--format "xml" is not allowed/],
      [['frobnicate'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const before = readdirSync(dir).sort();
      const run = runAgentdef(args, dir);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(readdirSync(dir).sort()).toEqual(before);
    }
  });
});
