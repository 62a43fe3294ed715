/**
 * Serving, running and deploying through Nx as users meet it (issue 12): agentdef packed with
 * `npm pack`, installed into a fresh Nx workspace, driven by the real `nx` CLI and
 * the `agentdef ask` the install linked (what `npx agentdef ask` runs). Three generated tool agents (no model, no network), one per runtime class:
 * - `nx run <worker agent>:serve --port=<n>` compiles and serves the Worker (workerd via
 *   miniflare) until Ctrl-C; `agentdef ask` gets a completed task from it; after Ctrl-C nothing
 *   listens on the port any more;
 * - `nx run <worker agent>:run --target=hb3` serves the hb3 job: its `dependsOn` compile honours
 *   `--target` instead of overwriting the output with the auto (Worker) compile;
 * - `nx run <agent>:deploy --dry-run` for each target prints the target's plan and changes nothing.
 * HOME, caches and state live inside the test's temp folder; the keychain is off.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkspace,
  nxBin,
  openWorkspace,
  packAgentdef,
  snapshotTree,
  type TempWorkspace,
} from './support/nx-workspace';
import { freePort, listening } from './support/loopback-ports';
import { HUNG_CHILD_MS } from './support/hung-child';

const WORKER = 'echo';
const CONTAINER = 'boxed';
const LOCAL = 'desk';
const READY_MS = 120_000;
/** `agentdef dev` is ready once it prints its ask line; `agentdef run` once its supervisor names the URL. */
const DEV_READY = /ask it: +agentdef ask /;
const RUN_READY = / \((?:HB3 \w+|local launcher)\) serves A2A at /;

interface Served {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Ctrl-C in the terminal: SIGINT to the whole process group; resolves with nx's exit. */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a long-running `nx run …` in its own process group and waits for the agent's URL and `ready` after it. */
function serveWithNx(ws: TempWorkspace, args: string[], ready: RegExp): Promise<Served> {
  const child = spawn(process.execPath, [nxBin, ...args], {
    cwd: ws.dir,
    env: ws.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const interrupt = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within ${READY_MS} ms:\n${output}`)), READY_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
      if (url && ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output, interrupt });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`nx ${args.join(' ')} exited (${signal ?? code}) before serving:\n${output}`));
    });
  });
}

/** Every process group this file started, killed if a test left one running. */
const started: ChildProcess[] = [];

describe('nx serve, run --target and deploy --dry-run in a fresh Nx workspace', () => {
  let ws: TempWorkspace;
  const ask = (url: string, text: string) =>
    spawnSync(join(ws.dir, 'node_modules', '.bin', 'agentdef'), ['ask', url, text], {
      cwd: ws.dir,
      env: ws.env,
      encoding: 'utf8',
      timeout: HUNG_CHILD_MS,
    });
  const ok = (r: { status: number | null; stdout: string; stderr: string }) => {
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const outputOf = (agent: string) => join(ws.dir, 'dist', 'agents', agent);

  beforeAll(() => {
    const created = createWorkspace('nx-serve', packAgentdef());
    ws = openWorkspace(created.dir, created.home, {
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_STATE_DIR: join(created.home, 'state'),
      WRANGLER_LOG_PATH: join(created.home, 'wrangler-logs'),
    });
    ok(ws.nx(['g', 'agentdef:init']));
    ok(ws.nx(['g', 'agentdef:agent', WORKER, '--kind=tool']));
    ok(ws.nx(['g', 'agentdef:agent', CONTAINER, '--kind=tool', '--runtime=container-required']));
    ok(ws.nx(['g', 'agentdef:agent', LOCAL, '--kind=tool', '--runtime=local-host-required']));
  });

  afterEach(() => {
    for (const child of started.splice(0))
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });

  it('serve compiles and serves the Worker until Ctrl-C; agentdef ask gets a completed task', async () => {
    const port = await freePort();
    const served = await serveWithNx(
      ws,
      ['run', `${WORKER}:serve`, `--port=${port}`, '--output-style=stream'],
      DEV_READY,
    );
    expect(served.url).toBe(`http://127.0.0.1:${port}`);
    expect(served.output()).toContain('Cloudflare Worker');
    expect(existsSync(join(outputOf(WORKER), 'host-plan.json'))).toBe(true);
    const answer = ok(ask(served.url, 'hello from the nx serve test'));
    expect(answer.stdout).toMatch(/^task: \S+$/m);
    expect(answer.stdout).toMatch(/^state: completed$/m);
    await served.interrupt();
    expect(await listening(port)).toBe(false);
    // Asked again, nothing answers: the agent is really gone, not just the nx process.
    const after = ask(served.url, 'still there?');
    expect(after.status).toBe(2);
    expect(after.stderr).toContain('cannot read the agent card');
  });

  it('run --target=hb3 serves the hb3 job of a Worker-class agent: its dependsOn compile does not overwrite it in auto mode', async () => {
    // The auto compile first (a Worker), so an overwrite back to auto would show.
    ok(ws.nx(['run', `${WORKER}:compile`]));
    expect(existsSync(join(outputOf(WORKER), 'host-plan.json'))).toBe(true);
    const port = await freePort();
    const served = await serveWithNx(
      ws,
      ['run', `${WORKER}:run`, '--target=hb3', `--port=${port}`, '--serve', '--output-style=stream'],
      RUN_READY,
    );
    const files = readdirSync(outputOf(WORKER));
    expect(files).toContain('hb3-job.json');
    expect(files).not.toContain('host-plan.json');
    expect(served.output()).toMatch(/\(HB3 (Job|Service)\)/);
    const answer = ok(ask(served.url, 'hello, hb3'));
    expect(answer.stdout).toMatch(/^state: completed$/m);
    const card = (await (await fetch(`${served.url}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: { url: string }[];
    };
    expect(card.supportedInterfaces[0]!.url).toBe(`${served.url}/`);
    await served.interrupt();
    expect(await listening(port)).toBe(false);
    // Still the hb3 output after the run: nothing recompiled it behind the user's back.
    expect(readdirSync(outputOf(WORKER))).toContain('hb3-job.json');
  });

  it('deploy --dry-run prints each target’s deploy and changes nothing', () => {
    // Compile first (the deploy target compiles too), so the snapshot compares the deploy alone.
    for (const agent of [WORKER, CONTAINER, LOCAL]) ok(ws.nx(['run', `${agent}:compile`]));
    const before = snapshotTree(join(ws.dir, 'dist'));
    const services = join(ws.home, 'services');

    const worker = ok(ws.nx(['run', `${WORKER}:deploy`, '--dry-run', '--output-style=stream']));
    expect(worker.stdout).toContain(`wrangler deploy --config dist/agents/${WORKER}/wrangler.jsonc --dry-run`);
    expect(worker.stdout).toContain('dry run: nothing was uploaded');

    const container = ok(ws.nx(['run', `${CONTAINER}:deploy`, '--dry-run', '--output-style=stream']));
    expect(container.stdout).toMatch(
      new RegExp(
        `docker build -t agentdef/${CONTAINER}:0\\.1\\.0-[0-9a-f]{12} -f dist/agents/${CONTAINER}/image/Dockerfile dist/agents/${CONTAINER}/image`,
      ),
    );
    expect(container.stdout).toContain(`dist/agents/${CONTAINER}/hb3-job.json`);
    expect(container.stdout).toContain('dry run: nothing was built or pushed');

    const local = ok(ws.nx(['run', `${LOCAL}:deploy`, '--dry-run', `--into=${services}`, '--output-style=stream']));
    expect(local.stdout).toMatch(new RegExp(`dry run: would install the (systemd|launchd) service for ${LOCAL} at `));
    expect(existsSync(services)).toBe(false);

    expect(snapshotTree(join(ws.dir, 'dist'))).toEqual(before);
  });

  it('deploy --target=kubernetes --dry-run compiles the container agent for kubernetes first, then prints its apply line', () => {
    const kubernetes = ok(
      ws.nx(['run', `${CONTAINER}:deploy`, '--target=kubernetes', '--dry-run', '--output-style=stream']),
    );
    expect(kubernetes.stdout).toContain(`kubectl apply -k dist/agents/${CONTAINER}/kubernetes`);
    expect(kubernetes.stdout).toContain('dry run: nothing was applied');
    expect(readdirSync(join(outputOf(CONTAINER), 'kubernetes'))).toContain('kustomization.yaml');
  });
});
