/** The script of one HB3 job and one local launcher, their answers printed: their models replayed from examples/recordings, no model server started. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../local/support/host-harness';
import { HUNG_CHILD_MS } from '../support/hung-child';

describe('scripts/run-host-examples.mjs', () => {
  it('runs the splice-resolver job and the local-notes launcher and prints both answers', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'run-host-examples.mjs')], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('answer:     {"start":7,"end":14,"replacement":"renamed","node":"export_statement"}');
    expect(run.stdout).toMatch(/read by the job from a local folder: 2 files, sha-256:[0-9a-f]{64} \(as expected\)/);
    expect(run.stdout).toContain(
      'answer:     Venue for the Q3 offsite: the Quinta da Serra in Sintra, 15-17 September. (from 2026-06-12-offsite.md)',
    );
    expect(run.stdout.match(/receipts: 1 \(1 verified\)/g)).toHaveLength(2);
    expect(run.stdout).toContain('models:     replayed from examples/recordings/splice-resolver (no API key used)');
    expect(run.stdout).toContain('models:     replayed from examples/recordings/local-notes (no API key used)');
  });
});
