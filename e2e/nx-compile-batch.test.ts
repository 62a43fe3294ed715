/**
 * The `compile` executor's batch implementation (`nx run-many -t compile --batch`, one process for
 * every task) against the per-task executor, in a workspace installed from the packed tarball:
 * several agents (a composition among them) compile to byte-identical outputs with the same
 * summary lines; a second batch run is all cache hits and replays each task's output; an agent
 * that fails to compile fails its own task only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloneWorkspace, createWorkspace, packAgentdef, snapshotTree, type CommandResult, type TempWorkspace } from './support/nx-workspace';

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

const AGENTS = ['leaf', 'tuned', 'mid', 'root', 'notes'];
/** The summary line each successful compile task prints (compile-summary.ts), sorted. */
const summaryLines = (r: CommandResult) =>
  `${r.stdout}\n${r.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('compiled '))
    .sort();

/** The tasks Nx lists under "Failed tasks:" at the end of a run. */
const failedTasks = (output: string) => [...(output.split('Failed tasks:')[1] ?? '').matchAll(/^- (\S+)$/gm)].map((match) => match[1]);

describe('nx run-many -t compile --batch', () => {
  let perTask: TempWorkspace;
  let batch: TempWorkspace;
  let perTaskRun: CommandResult;
  let batchRun: CommandResult;

  beforeAll(() => {
    perTask = createWorkspace('nx-batch', packAgentdef());
    ok(perTask.nx(['g', 'agentdef:init', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'leaf', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'tuned', '--kind=agent', '--runtime=container-required', '--tier=tuned', '--provider=custom:acme-tuned', '--model=splice-7b', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'mid', '--kind=agent', '--runtime=workers-preferred', '--nodes=leaf@0.1.0,tuned@0.1.0', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'root', '--kind=agent', '--runtime=workers-preferred', '--nodes=mid@0.1.0', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'notes', '--kind=agent', '--runtime=local-host-required', '--nodes=leaf@0.1.0', '--no-interactive']));
    // An agent the graph accepts but the compile rejects: its runtime class is not one the schema knows.
    ok(perTask.nx(['g', 'agentdef:agent', 'broken', '--kind=agent', '--runtime=workers-preferred', '--no-interactive']));
    const brokenFile = join(perTask.dir, 'broken', 'agent.json');
    writeFileSync(brokenFile, readFileSync(brokenFile, 'utf8').replace('"workers-preferred"', '"quantum-required"'));

    batch = cloneWorkspace(perTask, 'nx-batch-clone');
    perTaskRun = perTask.nx(['run-many', '-t', 'compile', '--parallel=2', '--output-style=static']);
    batchRun = batch.nx(['run-many', '-t', 'compile', '--batch', '--output-style=static']);
  }, 600_000);

  it('writes byte-identical outputs to the per-task executor, agent by agent', () => {
    for (const agent of AGENTS) expect(snapshotTree(join(batch.dir, 'dist', 'agents', agent)), agent).toEqual(snapshotTree(join(perTask.dir, 'dist', 'agents', agent)));
    expect(Object.keys(snapshotTree(join(batch.dir, 'dist', 'agents'))).map((file) => file.split('/')[0])).not.toContain('broken');
  });

  it('prints the same summary line per task', () => {
    expect(summaryLines(batchRun)).toHaveLength(AGENTS.length);
    expect(summaryLines(batchRun)).toEqual(summaryLines(perTaskRun));
  });

  it('fails the broken agent’s task only, with its diagnostics', () => {
    for (const run of [perTaskRun, batchRun]) {
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).not.toBe(0);
      expect(failedTasks(output)).toEqual(['broken:compile']);
      expect(summaryLines(run)).toHaveLength(AGENTS.length);
      expect(output).toContain('broken/agent.json');
      expect(output).toContain('/runtimeRequirements/runtimeCapabilityClass');
    }
  });

  it('serves a second batch run from the cache, replaying each task’s output', () => {
    const warm = batch.nx(['run-many', '-t', 'compile', '--batch', '--output-style=static', `--exclude=broken`]);
    ok(warm);
    for (const agent of AGENTS) expect(warm.stdout).toMatch(new RegExp(`nx run ${agent}:compile {2}\\[local cache\\]`));
    expect(warm.stdout).toContain(`Nx read the output from the cache instead of running the command for ${AGENTS.length} out of ${AGENTS.length} tasks`);
    expect(summaryLines(warm)).toEqual(summaryLines(perTaskRun));
  });
});
