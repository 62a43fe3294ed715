/** `agentdef diff`: exit 0 when the bump is enough, 1 when not, 2 when a file is unreadable. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDiffCommand } from './diff';
import { captureRun } from './test-support';

const root = mkdtempSync(join(tmpdir(), 'agentdef-diff-'));
writeFileSync(join(root, 'nx.json'), '{}\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'examples', 'text-classify', 'agent.json'), 'utf8'),
);

function write(name: string, edit: (d: typeof base) => void): string {
  const copy = structuredClone(base);
  edit(copy);
  writeFileSync(join(root, name), `${JSON.stringify(copy, null, 2)}\n`);
  return name;
}

const diff = (argv: string[]) => captureRun(runDiffCommand, argv, root);

describe('agentdef diff', () => {
  const old = write('old.json', () => {});
  const addedSkill = (d: typeof base) =>
    d.capabilityContract.skills.push({
      id: 'text.count',
      name: 'Count',
      description: 'Counts lines.',
      version: '1.0.0',
      tags: ['count'],
    });

  it('exits 0 when the new version is a big enough bump, and prints each change and the bump', async () => {
    const next = write('minor.json', (d) => {
      addedSkill(d);
      d.identity.versionSemver = '1.1.0';
    });
    const { code, stdout, stderr } = await diff([old, next]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'old.json (1.0.0) → minor.json (1.1.0): 1 change',
        '  minor  added    /capabilityContract/skills/1: skill added (additive)',
        'required bump: minor; actual bump: minor',
        'ok: the new version is a big enough bump',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 when it is not, naming the changes that require more', async () => {
    const next = write('patch.json', (d) => {
      d.capabilityContract.skills = [];
      d.metadata.description = 'Changed.';
      d.identity.versionSemver = '1.0.1';
    });
    const { code, stdout } = await diff([old, next]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      '  major  removed  /capabilityContract/skills/0 (old): skill removed: callers of it break\n',
    );
    expect(stdout).toContain(
      'not enough: the changes require a major bump, but 1.0.0 → 1.0.1 is a patch bump; these changes require more:\n  major  removed',
    );
    expect(stdout.split('these changes require more:')[1]).not.toContain('description');
  });

  it('prints one JSON report with --format json', async () => {
    const next = write('json.json', (d) => {
      addedSkill(d);
      d.identity.versionSemver = '1.0.1';
    });
    const { code, stdout } = await diff([old, next, '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      old: { file: 'old.json', version: '1.0.0' },
      new: { file: 'json.json', version: '1.0.1' },
      required: 'minor',
      actual: 'patch',
      ok: false,
    });
    expect(report.changes).toEqual([
      {
        pointer: '/capabilityContract/skills/1',
        in: 'new',
        kind: 'added',
        bump: 'minor',
        reason: 'skill added (additive)',
      },
    ]);
    expect(report.insufficient).toEqual(report.changes);
  });

  it('exits 1 when the version goes down', async () => {
    const next = write('lower.json', (d) => void (d.identity.versionSemver = '0.9.0'));
    const { code, stdout } = await diff([old, next]);
    expect(code).toBe(1);
    expect(stdout).toContain('not enough: the new version 0.9.0 is lower than 1.0.0');
  });

  it('exits 2 for a missing or unparsable file, or a version that is not exact semver', async () => {
    writeFileSync(join(root, 'broken.json'), '{ "identity": ');
    const missing = await diff([old, 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read nope.json');
    expect(missing.stderr).not.toContain(root);
    const broken = await diff(['broken.json', old]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('broken.json');
    const ranged = write('ranged.json', (d) => void (d.identity.versionSemver = '^1.0.0'));
    const range = await diff([old, ranged]);
    expect(range.code).toBe(2);
    expect(range.stderr).toContain('is not an exact semantic version');
    expect((await diff([old])).code).toBe(2);
    expect((await diff([old, old, '--format', 'xml'])).code).toBe(2);
  });
});
