/**
 * `agentdef validate` of a path that does not exist says so once, on stderr, and exits 2: no
 * "0 definitions checked" summary on top. When other paths were checked, their summary stays.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidateCommand } from './validate';

const root = mkdtempSync(join(tmpdir(), 'agentdef-validate-missing-'));
writeFileSync(join(root, 'nx.json'), '{}');
mkdirSync(join(root, 'agents', 'text-digest'), { recursive: true });
cpSync(
  join(__dirname, '..', '..', '..', 'examples', 'text-digest', 'agent.json'),
  join(root, 'agents', 'text-digest', 'agent.json'),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function validate(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runValidateCommand(argv, {
    cwd: root,
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
  });
  return { code, stdout, stderr };
}

describe('agentdef validate <missing path>', () => {
  it('prints the error only, with no "0 definitions checked" line, and exits 2', async () => {
    const result = await validate(['nope/missing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: cannot read nope/missing: no such file or directory\n');
    expect(result.stdout).toBe('');
  });

  it('keeps the summary of what it did check next to a missing path', async () => {
    const result = await validate(['agents', 'nope/missing']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^1 definition checked: 1 valid, 0 invalid/m);
    expect(result.stderr).toBe('error: cannot read nope/missing: no such file or directory\n');
  });

  it('with --format json, says invalid and names what it could not read (it said valid: true)', async () => {
    const alone = await validate(['nope/missing', '--format', 'json']);
    expect(alone.code).toBe(2);
    expect(JSON.parse(alone.stdout)).toEqual({
      valid: false,
      diagnostics: [],
      unreadable: ['cannot read nope/missing: no such file or directory'],
    });
    const beside = await validate(['agents', 'nope/missing', '--format', 'json']);
    expect(beside.code).toBe(2);
    expect(JSON.parse(beside.stdout)).toMatchObject({
      valid: false,
      unreadable: ['cannot read nope/missing: no such file or directory'],
    });
    const fine = await validate(['agents', '--format', 'json']);
    expect(fine.code).toBe(0);
    // Warnings only (its pins are not in this workspace): valid, and nothing unreadable.
    expect(JSON.parse(fine.stdout)).toMatchObject({ valid: true });
    expect(JSON.parse(fine.stdout)).not.toHaveProperty('unreadable');
  });
});
