/**
 * `nx run <agent>:plan` takes its workspace index from the project graph (executors/graph-pin-lookup.ts)
 * and still reports exactly what `agentdef plan` reports: through the real `nx` CLI (daemon off)
 * and the installed `agentdef` CLI in one fresh workspace, a child pin resolves through the graph;
 * then a second copy of the child's slug@version lies in a folder Nx ignores (.gitignore, then
 * .nxignore), which no project shows, and the plan task fails with the CLI's very diagnostics
 * (the copy made just before the task, with no Nx command between: graph inference's walk of
 * this very command finds it, definition-walk-record.ts).
 * (A second copy Nx can see never reaches a task: Nx stops at the graph's error; also checked.)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { definitionJson } from '../plugin/graph/test-support';
import { createWorkspace, packAgentdef, type CommandResult, type TempWorkspace } from './support/nx-workspace';
import { HUNG_CHILD_MS } from './support/hung-child';

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

describe('nx run x:plan with the index from the project graph', () => {
  let ws: TempWorkspace;

  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(ws.dir, file)), { recursive: true });
    writeFileSync(join(ws.dir, file), text);
  };
  /** `agentdef plan <file>` as installed in the workspace. */
  const cliPlan = (file: string): CommandResult => {
    const r = spawnSync(join(ws.dir, 'node_modules', '.bin', 'agentdef'), ['plan', file], {
      cwd: ws.dir,
      env: ws.env,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const planTask = () => ws.nx(['run', 'parent:plan', '--skip-nx-cache', '--output-style=static']);
  const projects = () => (JSON.parse(ok(ws.nx(['show', 'projects', '--json'])).stdout) as string[]).sort();
  const walkCache = () => join(ws.dir, '.nx', 'workspace-data', 'agentdef-definition-walk.json');
  const walkRecord = () =>
    readFileSync(join(ws.dir, '.nx', 'workspace-data', 'agentdef-definition-walk-record.json'), 'utf8');
  /** The digest of graph inference's walk record, as the graph states it (on the first agent project). */
  const statedWalk = () =>
    (
      JSON.parse(ok(ws.nx(['show', 'project', 'base', '--json'])).stdout) as {
        metadata: { agentdef: { walk?: string } };
      }
    ).metadata.agentdef.walk;

  beforeAll(() => {
    ws = createWorkspace('nx-plan-graph-index', packAgentdef());
    ok(ws.nx(['g', 'agentdef:init', '--no-interactive']));
    write('agents/base/agent.json', definitionJson({ slug: 'base', version: '1.0.0' }));
    write('agents/parent/agent.json', definitionJson({ slug: 'parent', version: '1.0.0', pins: ['base@1.0.0'] }));
  });

  it('resolves the child pin through the graph: the task prints the plan the CLI prints', () => {
    expect(projects()).toEqual(['base', 'parent']);
    const task = ok(planTask());
    const cli = ok(cliPlan('agents/parent/agent.json'));
    expect(cli.stdout).toContain('base@1.0.0');
    // The CLI's plan text, line for line, in the task's output (the CLI adds the plan's digest line).
    for (const line of cli.stdout.split('\n').filter((l) => l.trim() !== '' && !/digest/i.test(l)))
      expect(task.stdout, line).toContain(line);
    expect(existsSync(walkCache())).toBe(true); // the graph's index ran (the CLI's own keeps no listings)
    // Graph inference recorded its walk and the graph states the record's digest: the task took
    // the walk's files from it (executors/graph-walk-record.test.ts shows the index does).
    expect(JSON.parse(walkRecord()).files).toEqual(['agents/base/agent.json', 'agents/parent/agent.json']);
    expect(statedWalk()).toBe(createHash('sha256').update(walkRecord()).digest('base64url'));
  });

  for (const ignoreFile of ['.gitignore', '.nxignore']) {
    it(`reports a duplicate slug@version whose copy lies in a folder ${ignoreFile} ignores, exactly as agentdef plan does`, () => {
      write(ignoreFile, 'vendor/\n');
      write('vendor/base/agent.json', definitionJson({ slug: 'base', version: '1.0.0' }));
      try {
        // No Nx command between the copy's arrival and the task: the task's own graph walks.
        const task = planTask();
        const cli = cliPlan('agents/parent/agent.json');
        expect(cli.status).toBe(1);
        expect(cli.stderr).toMatch(
          /pin "base@1\.0\.0" matches 2 workspace definitions: agents\/base\/agent\.json, vendor\/base\/agent\.json/,
        );
        const output = `${task.stdout}\n${task.stderr}`;
        expect(task.status, output).not.toBe(0);
        expect(output).toContain(cli.stderr.trim());
        expect(output).not.toMatch(/Successfully ran target/);
        expect(projects()).toEqual(['base', 'parent']); // Nx sees no second copy
        expect(walkRecord()).toContain('"vendor/base/agent.json"'); // graph inference's walk did
      } finally {
        rmSync(join(ws.dir, 'vendor'), { recursive: true, force: true });
        rmSync(join(ws.dir, ignoreFile), { force: true });
      }
      ok(planTask()); // clean again once the copy is gone
    });
  }

  it('changes no task hash when only the recorded digest changes (project metadata is not hashed)', () => {
    const validate = () => ok(ws.nx(['run', 'base:validate', '--output-style=static']));
    const CACHED = /local cache|existing outputs match the cache|1\/1 hit/;
    write('.gitignore', 'scratch/\n'); // the root .gitignore is an input of every task: written first
    try {
      validate();
      expect(validate().stdout).toMatch(CACHED);
      const before = statedWalk();
      write('scratch/other/agent.json', definitionJson({ slug: 'other', version: '1.0.0' }));
      expect(statedWalk()).not.toBe(before); // the walk found the ignored definition
      expect(validate().stdout).toMatch(CACHED);
    } finally {
      rmSync(join(ws.dir, 'scratch'), { recursive: true, force: true });
      rmSync(join(ws.dir, '.gitignore'), { force: true });
    }
  });

  it('never runs the task when Nx can see both copies: the graph reports the duplicate', () => {
    write('twin/agent.json', definitionJson({ slug: 'base', version: '1.0.0' }));
    try {
      const task = planTask();
      const output = `${task.stdout}\n${task.stderr}`;
      expect(task.status, output).not.toBe(0);
      expect(output).toMatch(
        /twin\/agent\.json:\d+:\d+: identity\.slug "base" is already stated by agents\/base\/agent\.json/,
      );
      expect(output).not.toMatch(/workspace definitions/); // no task ran to plan
    } finally {
      rmSync(join(ws.dir, 'twin'), { recursive: true, force: true });
    }
  });
});
