/**
 * Every Nx target agentdef infers fails when the command it wraps fails (issue 21): through the
 * real `nx` CLI in one fresh workspace, each target is made to fail the way a user meets it (an
 * invalid definition, a port in use, an option for another target, a promotion that skips a stage,
 * an uncommitted file, an edited manifest, a missing inputs file), and `nx` must print the
 * command's error, report the target as failed and exit non-zero: never `Successfully ran target`.
 * `serve` used to be declared continuous, and Nx counts a continuous task that exits on its own as
 * a success when nothing depends on it: dev's error, then `Successfully ran target serve`, exit 0.
 * HOME, caches, keys and state live inside the test's temp folder; the keychain is off.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkspace,
  openWorkspace,
  packAgentdef,
  type CommandResult,
  type TempWorkspace,
} from './support/nx-workspace';
import { freePort } from './support/loopback-ports';

const ok = (r: CommandResult) => {
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

/** The run failed as Nx reports failed targets: non-zero exit, each target named as failed, no success line. */
function expectFailed(r: CommandResult, ...targets: string[]): string {
  const output = `${r.stdout}\n${r.stderr}`;
  expect(r.status, output).not.toBe(0);
  expect(r.status, output).not.toBeNull();
  expect(output).not.toMatch(/Successfully ran target/);
  const failed = [...(output.split('Failed tasks:')[1] ?? '').matchAll(/^- (\S+)$/gm)].map((m) => m[1]);
  expect(failed.sort(), output).toEqual([...targets].sort());
  return output;
}

describe('every inferred Nx target fails when its command fails', () => {
  let ws: TempWorkspace;
  let busy: Server;
  let busyPort: number;
  const manifest = () => join(ws.dir, 'apps', 'triage', 'application.json');

  beforeAll(async () => {
    const created = createWorkspace('nx-exit-status', packAgentdef());
    ws = openWorkspace(created.dir, created.home, {
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_STATE_DIR: join(created.home, 'state'),
      WRANGLER_LOG_PATH: join(created.home, 'wrangler-logs'),
    });
    ok(ws.nx(['g', 'agentdef:init']));
    ok(ws.nx(['g', 'agentdef:agent', 'echo', '--kind=tool']));
    ok(ws.nx(['g', 'agentdef:agent', 'helper', '--kind=agent']));
    ok(ws.nx(['g', 'agentdef:agent', 'broken', '--kind=tool']));
    ok(ws.nx(['g', 'agentdef:application', 'triage', '--directory=apps', '--agents=helper@0.1.0']));
    // The generated agents' signing key, so promote and publish get past it; a repository with no commit yet.
    const sh = (command: string, args: string[]) =>
      spawnSync(command, args, { cwd: ws.dir, env: ws.env, encoding: 'utf8' });
    ok(
      sh(join(ws.dir, 'node_modules', '.bin', 'agentdef'), [
        'keys',
        'generate',
        'keyref:nx-exit-status-workspace-agents',
      ]),
    );
    ok(sh('git', ['init', '-q']));
    // An invalid definition is still a project: its targets report the problems.
    const broken = join(ws.dir, 'broken', 'agent.json');
    writeFileSync(
      broken,
      readFileSync(broken, 'utf8').replace(
        '"runtimeCapabilityClass": "workers-preferred"',
        '"runtimeCapabilityClass": "workers-someday"',
      ),
    );
    busyPort = await freePort();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (busy ? busy.close(() => resolve()) : resolve()));
  });

  it('validate, plan and compile of an invalid definition', () => {
    // One Nx run for the three (each real nx spawn costs seconds).
    const output = expectFailed(
      ws.nx(['run-many', '-t', 'validate,plan,compile', '-p', 'broken', '--output-style=stream']),
      'broken:validate',
      'broken:plan',
      'broken:compile',
    );
    expect(output.match(/\/runtimeRequirements\/runtimeCapabilityClass/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('serve when dev cannot start (its port is in use)', () => {
    const output = expectFailed(
      ws.nx(['run', 'echo:serve', `--port=${busyPort}`, '--output-style=stream']),
      'echo:serve',
    );
    expect(output).toContain(`error: workerd could not start the Worker on port ${busyPort}`);
  });

  it('run of an output it cannot run (a Worker)', () => {
    const output = expectFailed(ws.nx(['run', 'echo:run', '--output-style=stream']), 'echo:run');
    expect(output).toMatch(
      /is a cloudflare-dynamic-worker output, which runs in its own engine \(serve it with agentdef dev <folder>\): compile the agent with --target hb3, --target kubernetes or --target local-mac first/,
    );
  });

  it('deploy given an option of another target', () => {
    const output = expectFailed(
      ws.nx(['run', 'echo:deploy', '--dry-run', '--registry=registry.example.com/acme', '--output-style=stream']),
      'echo:deploy',
    );
    expect(output).toMatch(/--registry is for hb3 outputs/);
  });

  it('promote past a stage it skips', () => {
    const output = expectFailed(
      ws.nx(['run', 'echo:promote', '--to=mcp-resident', '--output-style=stream']),
      'echo:promote',
    );
    expect(output).toContain('skips "tool-shipped"');
  });

  it('publish of a definition that is not committed', () => {
    const output = expectFailed(
      ws.nx(['run', 'echo:publish', '--workerUrl=https://echo.example.workers.dev', '--output-style=stream']),
      'echo:publish',
    );
    expect(output).toContain('error: echo/agent.json has uncommitted changes');
  });

  it('the application targets: plan and check of an edited manifest, execute with an inputs file that is not there', () => {
    const file = manifest();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"template": "{{question}}"', '"template": "Q: {{question}}"'));
    try {
      const output = expectFailed(
        ws.nx(['run-many', '-t', 'plan,check', '-p', 'triage', '--output-style=stream']),
        'triage:plan',
        'triage:check',
      );
      expect(output).toContain('/source/sha256');
      expect(output).toMatch(/FAIL +canonical-hashing/);
    } finally {
      writeFileSync(file, text);
    }
    const output = expectFailed(
      ws.nx(['run', 'triage:execute', '--inputs=apps/triage/no-such-inputs.json', '--output-style=stream']),
      'triage:execute',
    );
    expect(output).toContain('--inputs: cannot read apps/triage/no-such-inputs.json');
  });
});
