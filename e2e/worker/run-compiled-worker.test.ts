/**
 * The main job's entry: one compiled example started in workerd answers an A2A message, both as
 * a function (runCompiledWorkerExample) and as the script the README runs.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompiledWorkerExample } from './run-compiled-worker';
import { compileWorker, exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';
import { HUNG_CHILD_MS } from '../support/hung-child';

let ws: ExampleWorkspace;
beforeAll(() => {
  ws = exampleWorkspace('run-example');
});
afterAll(() => ws.remove());

describe('runCompiledWorkerExample', () => {
  it('runs the quarantined dag and returns its answer with verified receipts', async () => {
    const result = await runCompiledWorkerExample({
      example: 'text-digest',
      message: 'Receipts prove runs. Every run leaves receipts.',
    });
    expect(result).toMatchObject({
      agent: 'text-digest@1.0.0',
      mode: 'loader',
      card: { name: 'Text digest', skills: ['text.digest'] },
      state: 'completed',
      receipts: 3,
      verifiedReceipts: 3,
      stubModel: false,
    });
    expect(JSON.parse(result.answer).keywords[0]).toEqual({ word: 'receipts', count: 2 });
  });

  it("stands a stub provider in for an agentic example's model", async () => {
    const result = await runCompiledWorkerExample({
      example: 'fallback-writer',
      message: 'rewrite it',
      mode: 'direct',
    });
    expect(result).toMatchObject({
      state: 'completed',
      answer: '(stub model) I was asked: "rewrite it"',
      stubModel: true,
      receipts: 1,
      verifiedReceipts: 1,
    });
  });

  it('is the script the main job runs: prints the answer of an already compiled output', async () => {
    const compiled = await compileWorker(ws.root, 'text-stats');
    const run = spawnSync(
      process.execPath,
      [join(repoRoot, 'scripts', 'run-worker-example.mjs'), 'text-stats', 'one two three', '--out', compiled.outDir],
      { encoding: 'utf8', timeout: HUNG_CHILD_MS },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'agent: text-stats@1.0.0 (loaded through loader.js by a Worker Loader binding, workerd via miniflare)',
    );
    expect(run.stdout).toContain(
      'answer: {"characters":13,"words":3,"sentences":1,"paragraphs":1,"lines":1,"fleschReadingEase":',
    );
    const missing = spawnSync(
      process.execPath,
      [join(repoRoot, 'scripts', 'run-worker-example.mjs'), 'text-stats', 'x', '--out', join(ws.root, 'nothing-here')],
      { encoding: 'utf8', timeout: HUNG_CHILD_MS },
    );
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('holds no host-plan.json');
  });
});
