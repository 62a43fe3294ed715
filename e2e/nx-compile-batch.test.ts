/**
 * The `compile` executor's batch implementation (`nx run-many -t compile --batch`, one process for
 * every task) against the per-task executor, in a workspace installed from the packed tarball:
 * several agents (a composition among them) compile to byte-identical outputs with the same
 * summary lines; a second batch run is all cache hits and replays each task's output; agents
 * that fail, each in its own way (an invalid definition, a target that cannot host the tree, a
 * refused outputPath, a tool module that does not build, an option of the wrong kind), fail their
 * own tasks only, each with its own diagnostics, writing nothing and caching nothing; with
 * `dependsOn: ['^compile']` the tasks whose dependency failed are skipped, as in a per-task run.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cloneWorkspace,
  createWorkspace,
  packAgentdef,
  snapshotTree,
  type CommandResult,
  type TempWorkspace,
} from './support/nx-workspace';

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
const failedTasks = (output: string) =>
  [...(output.split('Failed tasks:')[1] ?? '').matchAll(/^- (\S+)$/gm)].map((match) => match[1]).sort();

/** Each task's terminal output as Nx prints it (`> nx run <task>` up to the next task or the run's summary), by task. */
const taskSections = (r: CommandResult) => {
  const sections: Record<string, string> = {};
  const parts = `${r.stdout}\n${r.stderr}`.split(/^> nx run (\S+?)(?: {2}\[local cache\])?$/m);
  for (let i = 1; i < parts.length; i += 2)
    sections[parts[i]!] = parts[i + 1]!.split(/^ NX {3}|^ {2}Run duration:/m)[0]!.trim();
  return sections;
};

/** The agents whose compile fails, and a line of each one's own diagnostics. */
const FAILING: Record<string, string> = {
  broken: 'is "quantum-required"; it must be one of',
  nohost: 'runtime_capability_mismatch',
  badout: 'outputPath "../escape" must be a folder inside the workspace',
  badtool: 'cannot bundle tool "badtool"',
  badopt: 'the "maxDepth" option must be a whole number of at least 1',
};

describe('nx run-many -t compile --batch', () => {
  let perTask: TempWorkspace;
  let batch: TempWorkspace;
  let perTaskRun: CommandResult;
  let batchRun: CommandResult;

  beforeAll(() => {
    perTask = createWorkspace('nx-batch', packAgentdef());
    ok(perTask.nx(['g', 'agentdef:init', '--no-interactive']));
    ok(perTask.nx(['g', 'agentdef:agent', 'leaf', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']));
    ok(
      perTask.nx([
        'g',
        'agentdef:agent',
        'tuned',
        '--kind=agent',
        '--runtime=container-required',
        '--tier=tuned',
        '--provider=custom:acme-tuned',
        '--model=splice-7b',
        '--no-interactive',
      ]),
    );
    ok(
      perTask.nx([
        'g',
        'agentdef:agent',
        'mid',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=leaf@0.1.0,tuned@0.1.0',
        '--no-interactive',
      ]),
    );
    ok(
      perTask.nx([
        'g',
        'agentdef:agent',
        'root',
        '--kind=agent',
        '--runtime=workers-preferred',
        '--nodes=mid@0.1.0',
        '--no-interactive',
      ]),
    );
    ok(
      perTask.nx([
        'g',
        'agentdef:agent',
        'notes',
        '--kind=agent',
        '--runtime=local-host-required',
        '--nodes=leaf@0.1.0',
        '--no-interactive',
      ]),
    );
    // An agent the graph accepts but the compile rejects: its runtime class is not one the schema knows.
    ok(
      perTask.nx(['g', 'agentdef:agent', 'broken', '--kind=agent', '--runtime=workers-preferred', '--no-interactive']),
    );
    const brokenFile = join(perTask.dir, 'broken', 'agent.json');
    writeFileSync(brokenFile, readFileSync(brokenFile, 'utf8').replace('"workers-preferred"', '"quantum-required"'));
    // An agent compiled for a target its tree forbids, one whose outputPath leaves the workspace, a
    // tool whose module does not build, and an option of the wrong kind: Nx checked each task's
    // options against the schema before the batch started, and ended the batch process on this one.
    ok(
      perTask.nx(['g', 'agentdef:agent', 'nohost', '--kind=agent', '--runtime=container-required', '--no-interactive']),
    );
    ok(
      perTask.nx(['g', 'agentdef:agent', 'badout', '--kind=agent', '--runtime=workers-preferred', '--no-interactive']),
    );
    ok(
      perTask.nx(['g', 'agentdef:agent', 'badtool', '--kind=tool', '--runtime=workers-preferred', '--no-interactive']),
    );
    ok(
      perTask.nx(['g', 'agentdef:agent', 'badopt', '--kind=agent', '--runtime=workers-preferred', '--no-interactive']),
    );
    const compileOptions = (agent: string, options: Record<string, unknown>) =>
      writeFileSync(
        join(perTask.dir, agent, 'project.json'),
        `${JSON.stringify({ targets: { compile: { options } } })}\n`,
      );
    compileOptions('nohost', { target: 'cloudflare-dynamic-worker' });
    compileOptions('badout', { outputPath: '../escape' });
    compileOptions('badopt', { maxDepth: 'deep' });
    writeFileSync(
      join(perTask.dir, 'badtool', 'tool.ts'),
      'export async function run(args: unknown): Promise<unknown> {\n  return args +;\n}\n',
    );

    batch = cloneWorkspace(perTask, 'nx-batch-clone');
    perTaskRun = perTask.nx(['run-many', '-t', 'compile', '--parallel=2', '--output-style=static']);
    batchRun = batch.nx(['run-many', '-t', 'compile', '--batch', '--output-style=static']);
  });

  it('writes byte-identical outputs to the per-task executor, agent by agent', () => {
    for (const agent of AGENTS)
      expect(snapshotTree(join(batch.dir, 'dist', 'agents', agent)), agent).toEqual(
        snapshotTree(join(perTask.dir, 'dist', 'agents', agent)),
      );
    expect(
      Object.keys(snapshotTree(join(batch.dir, 'dist', 'agents'))).map((file) => file.split('/')[0]),
    ).not.toContain('broken');
  });

  it('prints the same summary line per task', () => {
    expect(summaryLines(batchRun)).toHaveLength(AGENTS.length);
    expect(summaryLines(batchRun)).toEqual(summaryLines(perTaskRun));
  });

  it('fails each failing agent’s task only, with its own diagnostics and none of another task’s, writing nothing', () => {
    for (const run of [perTaskRun, batchRun]) {
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).not.toBe(0);
      expect(failedTasks(output), output).toEqual(
        Object.keys(FAILING)
          .map((agent) => `${agent}:compile`)
          .sort(),
      );
      expect(summaryLines(run)).toHaveLength(AGENTS.length);
      const sections = taskSections(run);
      for (const [agent, line] of Object.entries(FAILING)) {
        expect(sections[`${agent}:compile`], agent).toContain(line);
        for (const [other, otherLine] of Object.entries(FAILING))
          if (other !== agent) expect(sections[`${agent}:compile`], agent).not.toContain(otherLine);
      }
    }
    expect(taskSections(batchRun)).toEqual(taskSections(perTaskRun));
    for (const ws of [perTask, batch]) {
      expect(
        Object.keys(snapshotTree(join(ws.dir, 'dist', 'agents')))
          .map((file) => file.split('/')[0])
          .filter((agent) => !AGENTS.includes(agent!)),
      ).toEqual([]);
      expect(existsSync(join(ws.dir, '..', 'escape'))).toBe(false);
    }
  });

  it('serves a second batch run from the cache, replaying each task’s output', () => {
    const warm = batch.nx([
      'run-many',
      '-t',
      'compile',
      '--batch',
      '--output-style=static',
      `--exclude=${Object.keys(FAILING).join(',')}`,
    ]);
    ok(warm);
    for (const agent of AGENTS) expect(warm.stdout).toMatch(new RegExp(`nx run ${agent}:compile {2}\\[local cache\\]`));
    expect(warm.stdout).toContain(
      `Nx read the output from the cache instead of running the command for ${AGENTS.length} out of ${AGENTS.length} tasks`,
    );
    expect(summaryLines(warm)).toEqual(summaryLines(perTaskRun));
  });

  it('with dependsOn ^compile, skips the tasks whose dependency failed, as a per-task run does', () => {
    // mid pins broken instead of tuned (root pins mid); Nx puts dependents in the dependency's batch.
    const dependents = (name: string) => {
      const ws = cloneWorkspace(perTask, name);
      const nxJson = JSON.parse(readFileSync(join(ws.dir, 'nx.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(
        join(ws.dir, 'nx.json'),
        `${JSON.stringify({ ...nxJson, targetDefaults: { compile: { dependsOn: ['^compile'] } } }, null, 2)}\n`,
      );
      const mid = join(ws.dir, 'mid', 'agent.json');
      writeFileSync(mid, readFileSync(mid, 'utf8').replace('"slug": "tuned"', '"slug": "broken"'));
      return ws;
    };
    const notRun = (r: CommandResult) =>
      [
        ...(`${r.stdout}\n${r.stderr}`.split('dependencies failed')[1]?.split('Failed tasks:')[0] ?? '').matchAll(
          /^- (\S+)$/gm,
        ),
      ]
        .map((match) => match[1])
        .sort();
    const perTaskDeps = dependents('nx-batch-deps-per-task');
    const batchDeps = dependents('nx-batch-deps');
    const perTaskDepsRun = perTaskDeps.nx(['run-many', '-t', 'compile', '--parallel=2', '--output-style=static']);
    const batchDepsRun = batchDeps.nx(['run-many', '-t', 'compile', '--batch', '--output-style=static']);
    for (const run of [perTaskDepsRun, batchDepsRun]) {
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).not.toBe(0);
      expect(notRun(run), output).toEqual(['mid:compile', 'root:compile']);
      expect(failedTasks(output), output).toEqual(
        Object.keys(FAILING)
          .map((agent) => `${agent}:compile`)
          .sort(),
      );
    }
    expect(taskSections(batchDepsRun)).toEqual(taskSections(perTaskDepsRun));
    expect(Object.keys(taskSections(batchDepsRun))).not.toContain('mid:compile');
    for (const ws of [perTaskDeps, batchDeps])
      expect(readdirSync(join(ws.dir, 'dist', 'agents')).sort(), ws.dir).toEqual(['leaf', 'notes', 'tuned']);
  });

  it('caches no failed task: a batch run after the outputs are deleted restores the successful ones’ bytes and runs the failed ones again', () => {
    rmSync(join(batch.dir, 'dist'), { recursive: true, force: true });
    const again = batch.nx(['run-many', '-t', 'compile', '--batch', '--output-style=static']);
    expect(again.status).not.toBe(0);
    for (const agent of AGENTS)
      expect(again.stdout).toMatch(new RegExp(`nx run ${agent}:compile {2}\\[local cache\\]`));
    for (const agent of Object.keys(FAILING)) expect(again.stdout).toMatch(new RegExp(`nx run ${agent}:compile$`, 'm'));
    expect(taskSections(again)).toEqual(taskSections(batchRun));
    for (const agent of AGENTS)
      expect(snapshotTree(join(batch.dir, 'dist', 'agents', agent)), agent).toEqual(
        snapshotTree(join(perTask.dir, 'dist', 'agents', agent)),
      );
  });
});
