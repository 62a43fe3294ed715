/**
 * The dev operation (`agentdef dev <output folder> [--port n]`, the `serve` executor): serves any compiled output on loopback until SIGINT
 * (or SIGTERM), printing the card URL and an example `agentdef ask` line.
 * The output's plan.json names its target; the target's own server runs it (`serve` of its
 * descriptor, plugin/targets/<id>/target.ts): a Worker in workerd through miniflare, the process
 * hosts kept serving (their events printed as readable lines, or as the hosts' JSON lines with
 * `--log-format json`).
 * With `--watch`, a change to what the compile read (the definitions, tools.json, mcp.json, the tool
 * modules and their imports) recompiles the definition named in the output's plan.json for the same
 * target into the same folder, and the host restarts on the same port (dev-watch.ts); a failed
 * compile prints its diagnostics and the last good build keeps serving.
 */
import { join, resolve } from 'node:path';
import { PLAN_FILE } from '../compiler/plan';
import { findWorkspaceRoot } from '../definition/workspace-definitions';
import type { ModelModeRequest, ModelSession } from '../hosts/model-replay/model-session';
import { modelModeRequest } from '../hosts/model-replay/model-session';
import { modelBaseUrls } from '../hosts/node/model-endpoints';
import { TASK_STORE_ENV, taskStoreEnvValue } from '../hosts/node/task-store-option';
import type { LogFormat } from '../hosts/node/event-text';
import type { SecretSource } from '../hosts/node/secret-source';
import { AGENT_CARD_PATH } from '../runtime/agent-card';
import { outputTarget } from '../targets/output-target';
import type { HostStarter, RunningHost } from '../targets/target';
import { type CompileTarget, isCompileTarget } from '../targets/targets';
import { EXIT, type ExitCode, type OperationIo, type OperationResult } from './io';
import { type RebuildOutcome, type Watching, watchAndReload } from './dev-watch';
import { absoluteIn, insideWorkspace, isFile } from './dev-watch-files';
import { modelsSummary, startCliModelSession } from './model-session';

/** How a caller other than a terminal drives the server (tests): when to stop, and where it serves. */
export interface DevControl {
  /** Stops the server when it resolves (default: on SIGINT or SIGTERM). */
  stop?: Promise<void>;
  onReady?(url: string): void;
  /** Where secrets come from (default: the keychain, then `AGENTDEF_SECRET_<NAME>` of `env`). */
  secrets?: SecretSource;
  /** The environment the hosts read (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** With `--watch`: called after every rebuild. */
  onRebuild?(outcome: RebuildOutcome): void;
}

const DEFAULT_QUESTION = 'Hello';

/** `text` as one single-quoted POSIX shell word. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The first example of the served card's first skill (a question the agent was made for), or a greeting. */
async function exampleQuestion(url: string): Promise<string> {
  try {
    const card = (await (await fetch(`${url}${AGENT_CARD_PATH}`)).json()) as { skills?: { examples?: unknown[] }[] };
    const example = card.skills?.[0]?.examples?.[0];
    return typeof example === 'string' && example.trim() !== '' ? example : DEFAULT_QUESTION;
  } catch {
    return DEFAULT_QUESTION;
  }
}

async function printAskLine(io: OperationIo, url: string): Promise<void> {
  io.stdout(`  ask it:     agentdef ask ${url} ${shellWord(await exampleQuestion(url))}\nstop with Ctrl-C\n`);
}

/** Resolves on SIGINT or SIGTERM; `dispose` removes the listeners. */
function untilSignal(): { stopped: Promise<void>; dispose(): void } {
  let onSignal: () => void = () => {};
  const stopped = new Promise<void>((done) => {
    onSignal = () => done();
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The loopback port of a served URL. */
function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** What `--watch` recompiles: the root definition and target the output's plan.json records, in the workspace `dev` runs in. */
interface WatchSource {
  workspaceRoot: string;
  rootFile: string;
  target: CompileTarget;
}

/** The watch source of `outDir`, or the reason it has none (a usage error). */
function watchSourceOf(recorded: Record<string, unknown>, outDir: string, io: OperationIo): WatchSource | string {
  const plan = recorded as { target?: unknown; nodes?: { depth?: unknown; source?: unknown; file?: unknown }[] };
  const root = Array.isArray(plan?.nodes) ? plan.nodes.find((n) => n?.depth === 0) : undefined;
  const rootFile =
    root?.source === 'workspace' && typeof root.file === 'string' ? insideWorkspace(root.file) : undefined;
  if (rootFile === undefined || !isCompileTarget(plan.target)) {
    return `${join(outDir, PLAN_FILE)} names no workspace definition and target to recompile: compile the agent again`;
  }
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  if (!isFile(absoluteIn(workspaceRoot, rootFile)))
    return `${join(outDir, PLAN_FILE)} names ${rootFile}, which is not in the workspace ${workspaceRoot}: run agentdef dev --watch from the workspace the agent was compiled in`;
  return { workspaceRoot, rootFile, target: plan.target };
}

/**
 * Serves until stopped. With `watch`, a change recompiles and the host restarts on the same port;
 * a host that cannot start (or ends on its own) is reported and started again on the next change.
 */
async function serve(
  start: HostStarter,
  port: number | undefined,
  outDir: string,
  io: OperationIo,
  control: DevControl,
  watch: WatchSource | undefined,
  modelsLine: string | undefined,
): Promise<number> {
  const signal = control.stop === undefined ? untilSignal() : undefined;
  const stopRequested = control.stop ?? signal!.stopped;
  try {
    const first = await start(port, false);
    if (typeof first === 'number') return first;
    if (modelsLine) io.stdout(modelsLine);
    if (!watch) {
      await printAskLine(io, first.url);
      control.onReady?.(first.url);
      return await Promise.race([stopRequested.then(() => first.stop()).then(() => EXIT.ok), first.ended]).finally(() =>
        first.stop(),
      );
    }
    const servingPort = portOf(first.url);
    let current: RunningHost | undefined = first;
    let stopping = false;
    let watching: Watching | undefined;
    const track = (host: RunningHost) => {
      void host.ended.then((code) => {
        if (current !== host || stopping) return;
        current = undefined;
        io.stderr(`error: the host ended (exit code ${code}); it starts again on the next change\n`);
      });
    };
    try {
      track(first);
      // Watching before the ready line: an edit made as soon as it serves is seen.
      watching = await watchAndReload({
        ...watch,
        outDir,
        io,
        ...(control.onRebuild ? { onRebuild: control.onRebuild } : {}),
        reload: async () => {
          const previous = current;
          current = undefined;
          await previous?.stop();
          const next = await start(servingPort, true);
          if (typeof next === 'number') {
            io.stderr(
              `error: the new build did not start on port ${servingPort}; it starts again on the next change\n`,
            );
            return false;
          }
          current = next;
          track(next);
          return true;
        },
      });
      await printAskLine(io, first.url);
      control.onReady?.(first.url);
      await stopRequested;
      return EXIT.ok;
    } finally {
      stopping = true;
      await watching?.close();
      await current?.stop();
    }
  } finally {
    signal?.dispose();
  }
}

/** What `agentdef dev` (and the `serve` executor) is asked to do. */
export interface DevOptions {
  /** The compile output folder as given: resolved against the working folder, and named so in hints. */
  outDir: string;
  /** The loopback port (default: any free one). */
  port?: number;
  /** Recompile and reload on changes. */
  watch?: boolean;
  /** Record the model exchanges into this folder, or replay them from it. */
  record?: string;
  replay?: string;
  /** Where a Node host keeps its A2A tasks (`AGENTDEF_TASK_STORE`): a file, postgres://… or secret:NAME. */
  taskStore?: string;
  logFormat: LogFormat;
}

/**
 * Serves the output until stopped: the target its plan.json names serves it (the target table's
 * `serve`), under a record/replay session when asked. A problem with the options is returned, not printed.
 */
export async function dev(options: DevOptions, io: OperationIo, given: DevControl = {}): Promise<OperationResult> {
  let control = given;
  const outDir = resolve(io.cwd, options.outDir);
  const output = outputTarget(outDir);
  if (output.target === undefined) {
    io.stderr(
      output.noPlan
        ? `error: ${outDir} holds no compiled output (no ${PLAN_FILE} naming its target): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`
        : `error: ${output.problem}\n`,
    );
    return EXIT.usage;
  }
  let env = control.env ?? process.env;
  if (options.taskStore !== undefined) {
    if (output.target.host === 'worker')
      return {
        usage: `--task-store is for Node hosts: a ${output.target.id} output keeps its tasks in its Durable Object`,
      };
    const store = taskStoreEnvValue(options.taskStore, io.cwd);
    if ('problem' in store) return { usage: store.problem };
    env = { ...env, [TASK_STORE_ENV]: store.value };
    control = { ...control, env };
  }
  const models: ModelModeRequest | undefined | string = modelModeRequest(
    { record: options.record, replay: options.replay },
    env,
  );
  if (typeof models === 'string') return { usage: models };
  const watch = options.watch === true ? watchSourceOf(output.plan, outDir, io) : undefined;
  if (typeof watch === 'string') return { usage: watch };
  let session: ModelSession | undefined;
  if (models) {
    const started = await startCliModelSession({
      request: models,
      outDir,
      outArg: options.outDir,
      io,
      env,
      upstreams: modelBaseUrls(env),
      ...(control.secrets ? { secrets: control.secrets } : {}),
    });
    if (typeof started === 'number') return started as ExitCode;
    session = started;
  }
  try {
    const hostControl: DevControl = session ? { ...control, env: { ...env, ...session.env } } : control;
    const serveOutput = await output.target.serve();
    const start = serveOutput({
      outDir,
      workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
      cwd: io.cwd,
      stdout: io.stdout,
      stderr: io.stderr,
      ...(hostControl.secrets ? { secrets: hostControl.secrets } : {}),
      ...(hostControl.env ? { env: hostControl.env } : {}),
      ...(session ? { session } : {}),
      logFormat: options.logFormat,
    });
    return (await serve(
      start,
      options.port,
      outDir,
      io,
      hostControl,
      watch,
      session ? modelsLine(session) : undefined,
    )) as ExitCode;
  } finally {
    await session?.close();
  }
}

/** The banner line that says where this session's models answer from. */
function modelsLine(session: ModelSession): string {
  return `  models:     ${modelsSummary(session)}\n`;
}
