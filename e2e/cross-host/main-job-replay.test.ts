/**
 * The README's main job serves, asks and dry-run deploys a Worker, an HB3 job, a local launcher and
 * a hybrid leaf on a Worker (scripts/run-dev-ask-examples.mjs) with no API key and no model server: the agentic examples'
 * models are replayed from examples/recordings. This runs the script on fresh compile outputs with
 * no key in its environment: it must pass, say on screen that the models are replayed (dev's banner
 * and ask's line), and start no stand-in. A recording that no longer matches what an example sends
 * fails here (re-record with `node scripts/run-dev-ask-examples.mjs --record`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, compileExample } from '../local/support/host-harness';

let work: string;
beforeAll(async () => {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  work = mkdtempSync(join(REPO, 'tmp', 'main-job-replay-'));
  await compileExample('text-digest', 'cloudflare-dynamic-worker', join(work, 'text-digest'));
  await compileExample('fallback-writer', 'hb3', join(work, 'fallback-writer'));
  await compileExample('local-notes', 'local-mac', join(work, 'local-notes'));
  await compileExample('support-triage', 'cloudflare-dynamic-worker', join(work, 'support-triage'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the main job on replayed models', () => {
  it('serves and asks every example with no API key: the models are replayed from examples/recordings and it says so', async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env))
      if (!/^(AGENTDEF_|ANTHROPIC_|OPENAI_|OLLAMA_)/.test(name)) env[name] = value;
    const rel = (slug: string) => relative(REPO, join(work, slug));
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(REPO, 'scripts', 'run-dev-ask-examples.mjs'),
          '--worker',
          rel('text-digest'),
          '--hb3',
          rel('fallback-writer'),
          '--local',
          rel('local-notes'),
          '--hybrid',
          rel('support-triage'),
        ],
        { cwd: REPO, env },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(
      '  models:     replayed from examples/recordings/fallback-writer (1 recorded exchange; no API key used)',
    );
    expect(run.stdout).toContain(
      '  models:     replayed from examples/recordings/local-notes (2 recorded exchanges; no API key used)',
    );
    expect(run.stdout).toContain(
      '  models:     replayed from examples/recordings/support-triage (19 recorded exchanges; no API key used)',
    );
    expect(
      run.stdout.match(/^models: replayed from a recording, not a live model \(the receipt says so\)$/gm),
    ).toHaveLength(3);
    expect(run.stdout).toContain('+if (raw === undefined) throw new Error("no config");');
    expect(run.stdout).toContain(
      'Venue for the Q3 offsite: the Quinta da Serra in Sintra, 15-17 September. (from 2026-06-12-offsite.md)',
    );
    // The hybrid leaf: the billing reply fails the evaluator, the retry with its critique passes.
    expect(run.stdout).toContain(
      '[claude-haiku-4-5-20251001] Thanks for the details; this is what happened with your account.\nNext step: reply to this email with the invoice number.',
    );
    expect(run.stdout).toMatch(
      /^hybrid: routed to billing \(label billing\); evaluator: billing failed, billing passed$/m,
    );
    expect(run.stdout.match(/^state: completed$/gm)).toHaveLength(4);
    expect(run.stdout).not.toMatch(/--record|AGENTDEF_BASE_URL|OLLAMA_HOST=/);
    expect(run.stderr).not.toMatch(/model request not recorded/);
  });
});
