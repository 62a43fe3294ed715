/**
 * The target of a compile output comes from its plan.json alone, read only as a bounded regular
 * file: a missing, unreadable, hostile or foreign plan gives no target (and a problem that quotes
 * no more than a short, escaped name), never a guess from the files beside it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outputTarget } from './output-target';

const root = mkdtempSync(join(tmpdir(), 'agentdef-output-target-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, plan?: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (plan !== undefined) writeFileSync(join(dir, 'plan.json'), plan);
  return dir;
}

describe('outputTarget', () => {
  it("names the target the plan records, whatever other target's files lie beside it", () => {
    const dir = folder('hb3-with-worker-files', JSON.stringify({ target: 'hb3' }));
    writeFileSync(join(dir, 'host-plan.json'), '{}');
    writeFileSync(join(dir, 'wrangler.jsonc'), '{}');
    expect(outputTarget(dir).target?.id).toBe('hb3');
  });

  it('gives no target for a folder without a plan, even one holding another output’s marker files', () => {
    const dir = folder('markers-only');
    writeFileSync(join(dir, 'hb3-job.json'), '{}');
    expect(outputTarget(dir)).toEqual({ problem: `${dir} holds no plan.json`, noPlan: true });
    expect(outputTarget(join(root, 'nowhere'))).toMatchObject({ noPlan: true });
  });

  it('refuses a plan that is a folder, a FIFO or not JSON, without blocking on the FIFO', () => {
    const asFolder = folder('plan-folder');
    mkdirSync(join(asFolder, 'plan.json'));
    expect(outputTarget(asFolder)).toEqual({
      problem: `${join(asFolder, 'plan.json')} is not a plan agentdef wrote: compile the agent again`,
      noPlan: true,
    });
    const fifo = folder('plan-fifo');
    execFileSync('mkfifo', [join(fifo, 'plan.json')]);
    expect(outputTarget(fifo)).toMatchObject({ noPlan: true });
    const garbage = folder('plan-garbage', '{"target": "hb3"');
    expect(outputTarget(garbage)).toEqual({
      problem: `${join(garbage, 'plan.json')} is not readable JSON: compile the agent again`,
      noPlan: true,
    });
    const nothing = folder('plan-null', 'null');
    expect(outputTarget(nothing).target).toBeUndefined();
  });

  it('follows a plan.json link only to a regular file, and refuses a target this agentdef does not know, quoting at most 80 escaped characters', () => {
    const linked = folder('plan-link');
    symlinkSync('/dev/zero', join(linked, 'plan.json'));
    expect(outputTarget(linked)).toMatchObject({ noPlan: true });
    for (const target of [
      'worker',
      '__proto__',
      'constructor',
      'toString',
      'HB3',
      ' hb3',
      'hb3\u0000',
      42,
      ['hb3'],
      { id: 'hb3' },
    ]) {
      const dir = folder(`foreign-${JSON.stringify(target).replace(/[^a-z0-9]/gi, '_')}`, JSON.stringify({ target }));
      const found = outputTarget(dir);
      expect(found.target, JSON.stringify(target)).toBeUndefined();
      expect(found.problem).toMatch(
        /which is none of cloudflare-dynamic-worker, hb3, kubernetes or local-mac: compile the agent again with this agentdef$/,
      );
    }
    const hostile = folder('foreign-hostile', JSON.stringify({ target: `\u001b[31m${'x'.repeat(500)}` }));
    const problem = outputTarget(hostile).problem!;
    expect(problem).not.toContain('\u001b');
    expect(problem).toContain('"\\u001b[31m');
    // The first 80 characters of the name: the escape sequence's 5, then 75 of the 500 x.
    expect(problem).toContain(`${'x'.repeat(75)}"`);
    expect(problem).not.toContain('x'.repeat(76));
  });
});
