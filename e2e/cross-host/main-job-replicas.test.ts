/**
 * The README's main job runs two replicas of the HB3 example on one PostgreSQL task store
 * (scripts/run-replicas-example.mjs): real `agentdef run --task-store secret:TASK_STORE_URL`
 * processes (the runner reads the secret on this machine and hands it to the job as its container
 * would get it), the model replayed. A task sent to one replica is listed and read through the
 * other, and no output carries the connection string. Run here on a fresh compile output, with no
 * key in the environment.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, compileExample } from '../local/support/host-harness';

let work: string;
beforeAll(async () => {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  work = mkdtempSync(join(REPO, 'tmp', 'main-job-replicas-'));
  await compileExample('fallback-writer', 'hb3', join(work, 'fallback-writer'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the main job’s replicas step', () => {
  it('sends through one replica and reads and lists through the other, printing no connection string', async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env))
      if (!/^(AGENTDEF_|ANTHROPIC_|OPENAI_|OLLAMA_)/.test(name)) env[name] = value;
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(REPO, 'scripts', 'run-replicas-example.mjs'), relative(REPO, join(work, 'fallback-writer'))],
        { cwd: REPO, env },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const taskId = /agentdef ask \(SendMessage\) +A +task (\S+) answered/.exec(run.stdout)?.[1];
    expect(taskId).toMatch(/^[0-9A-Z]{26}$/);
    expect(run.stdout).toMatch(new RegExp(`ListTasks +B +1 task\\(s\\): ${taskId}\\n`));
    expect(run.stdout).toMatch(/GetTask +B +TASK_STATE_COMPLETED\n/);
    expect(run.stdout).toContain('connection string in any output: no\n');
    expect(run.stdout + run.stderr).not.toMatch(/postgres(ql)?:\/\//);
  });
});
