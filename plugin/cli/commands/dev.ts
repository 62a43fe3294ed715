/**
 * `agentdef dev <output folder> [--port n]`: serves any compiled output on loopback until SIGINT
 * (or SIGTERM), printing the card URL and an example `agentdef ask` line.
 * - A Cloudflare Worker output (`host-plan.json`) runs in workerd through miniflare exactly as
 *   production runs it: `loader.js` with its host plan and a Worker Loader binding, KV local,
 *   secrets from the same sources as the other hosts (keychain, then `AGENTDEF_SECRET_<NAME>`),
 *   outbound requests through the loader's egress gateway (dev-worker-host.ts).
 * - An hb3 job (`hb3-job.json`) or a local launcher (`launcher.json`) runs through the existing
 *   `agentdef run` hosts (runOutput), kept serving; their events are printed as readable lines, or
 *   as the hosts' JSON lines with `--log-format json`.
 * With `--watch`, a change to what the compile read (the definitions, tools.json, mcp.json, the tool
 * modules and their imports) recompiles the definition named in the output's plan.json for the same
 * target into the same folder, and the host restarts on the same port (dev-watch.ts); a failed
 * compile prints its diagnostics and the last good build keeps serving.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FILES } from '../../compiler/adapters/cloudflare-dynamic-worker/worker-constants';
import { PLAN_FILE } from '../../compiler/plan';
import { type CompileTarget, isCompileTarget } from '../../compiler/targets';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { JOB_FILE, LAUNCHER_MANIFEST } from '../../host-contract/output-files';
import { parsePort } from '../../host-contract/port';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { createSecretSource, howToProvideSecret, type SecretSource } from '../../hosts/node/secret-source';
import type { LogFormat } from '../../hosts/node/event-text';
import { modelBaseUrls, publicModelUpstreams } from '../../hosts/node/model-endpoints';
import { proxiedBaseUrl, REPLAY_PLACEHOLDER_KEY } from '../../hosts/model-replay/proxy-routes';
import { DEFAULT_PROVIDER_BASE_URLS } from '../../runtime/runtime-config';
import { type ModelSession, type ModelModeRequest, modelModeRequest } from '../../hosts/model-replay/model-session';
import { modelsSummary, startCliModelSession } from './model-session';
import { runOutput } from '../../hosts/node/run-output';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING } from '../../runtime/agent-card';
import { EXIT, type CliIo } from '../io';
import { DEV } from '../specs/dev';
import { parseCommand, usageError } from '../usage';
import { type StartedWorker, startCompiledWorker } from './dev-worker-host';
import { type RebuildOutcome, type Watching, watchAndReload } from './dev-watch';
import { absoluteIn, insideWorkspace } from './dev-watch-files';

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

function exists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

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

async function printAskLine(io: CliIo, url: string): Promise<void> {
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

/** The miniflare agentdef is tested with (an optional peer of the package): what a missing one says to install. */
export const MINIFLARE_PACKAGE = 'miniflare@4.20260426.0';

function isMissingMiniflare(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code === 'MODULE_NOT_FOUND' || e?.code === 'ERR_MODULE_NOT_FOUND') && /['"]miniflare['"]/.test(e.message ?? '');
}

/** One build of the output, serving: `stop` ends it; `ended` resolves with its exit code when it ends (on its own, or stopped). */
interface RunningHost {
  url: string;
  stop(): Promise<void>;
  ended: Promise<number>;
}

/** Starts the output's host on `port` (any free one when undefined); a number is the exit code when it could not (the reason printed). */
type HostStarter = (port: number | undefined, restart: boolean) => Promise<RunningHost | number>;

/** The Worker's secret values, or the exit code once each missing one has been named. */
async function workerSecrets(hostPlan: HostPlan, io: CliIo, control: DevControl, session: ModelSession | undefined): Promise<Record<string, string> | number> {
  const source = control.secrets ?? createSecretSource(control.env ? { env: control.env } : {});
  const secrets: Record<string, string> = {};
  const missing: string[] = [];
  for (const binding of hostPlan.bindings ?? []) {
    if (binding.kind !== 'secret-ref') continue;
    // Replaying: a model key is not read; the placeholder reaches only the replay server (the routes below).
    if (session?.mode === 'replay' && binding.purpose === 'model-key') {
      secrets[binding.name] = REPLAY_PLACEHOLDER_KEY;
      continue;
    }
    const value = await source.get(binding.name);
    if (value === undefined) missing.push(binding.name);
    else secrets[binding.name] = value;
  }
  // The card signing key is optional: when this machine has it, the served card is signed.
  const cardKey = await source.get(CARD_SIGNING_KEY_BINDING);
  if (cardKey !== undefined) secrets[CARD_SIGNING_KEY_BINDING] = cardKey;
  for (const name of missing) io.stderr(`error: secret ${name} is not set (the Worker ${hostPlan.agent.slug}@${hostPlan.agent.version} binds it): ${howToProvideSecret(name)}\n`);
  return missing.length > 0 ? EXIT.invalid : secrets;
}

/**
 * Under a record/replay session, where a Worker's model requests go: a Worker's pins can only
 * reach the public providers' default base URLs (a custom or tuned pin cannot run on a Worker),
 * so each request under one of them is sent to the session's server, carrying the base it stands
 * for (the override `AGENTDEF_BASE_URL_<PROVIDER>` names, else the default).
 */
function workerModelRoute(session: ModelSession, overrides: Record<string, string>): (url: URL) => string | undefined {
  const routes = (['openai-chat', 'anthropic-messages'] as const).map((wire) => {
    const base = DEFAULT_PROVIDER_BASE_URLS[wire];
    const origin = new URL(base).origin;
    const upstream = overrides[origin] !== undefined ? `${overrides[origin]}${new URL(base).pathname.replace(/\/+$/, '')}` : base;
    return { base, proxied: proxiedBaseUrl(session.proxy.url, wire, upstream) };
  });
  return (url) => {
    for (const { base, proxied } of routes) if (url.href === base || url.href.startsWith(`${base}/`) || url.href.startsWith(`${base}?`)) return `${proxied}${url.href.slice(base.length)}`;
    return undefined;
  };
}

function workerStarter(outDir: string, io: CliIo, control: DevControl, session: ModelSession | undefined): HostStarter {
  return async (port, restart) => {
    let hostPlan: HostPlan;
    try {
      hostPlan = JSON.parse(readFileSync(join(outDir, FILES.hostPlan), 'utf8')) as HostPlan;
    } catch (error) {
      io.stderr(`error: ${join(outDir, FILES.hostPlan)} is not readable JSON (${(error as Error).message}): compile the agent again\n`);
      return EXIT.usage;
    }
    if (!exists(join(outDir, FILES.loader))) {
      io.stderr(`error: ${outDir} holds ${FILES.hostPlan} but no ${FILES.loader}: compile the agent again\n`);
      return EXIT.usage;
    }
    const secrets = await workerSecrets(hostPlan, io, control, session);
    if (typeof secrets === 'number') return secrets;
    // The process hosts read AGENTDEF_BASE_URL_<PROVIDER> for their pins; a Worker's requests to the public providers are rerouted the same way.
    const models = publicModelUpstreams(control.env ?? process.env);
    if (models.problems.length > 0) {
      for (const problem of models.problems) io.stderr(`error: ${problem}\n`);
      return EXIT.usage;
    }
    let worker: StartedWorker;
    try {
      worker = await startCompiledWorker(outDir, {
        mode: 'loader',
        secrets,
        outbound: 'internet',
        ...(session ? { route: workerModelRoute(session, models.upstreams) } : { upstreams: models.upstreams }),
        callerHandlesSignals: true,
        ...(port !== undefined ? { port } : {}),
      });
    } catch (error) {
      if (isMissingMiniflare(error)) {
        io.stderr(`error: serving a Worker output needs miniflare (Cloudflare's local workerd runner), an optional peer of agentdef: install it in the workspace with \`npm install --save-dev ${MINIFLARE_PACKAGE}\`\n`);
        return EXIT.usage;
      }
      io.stderr(`error: workerd could not start the Worker${port !== undefined ? ` on port ${port}` : ''}: ${(error as Error).message}\n`);
      return EXIT.invalid;
    }
    if (!restart) {
      io.stdout(
        `${hostPlan.agent.slug}@${hostPlan.agent.version} (Cloudflare Worker: loader.js with a Worker Loader binding, workerd via miniflare) serves A2A at ${worker.url}/\n  agent card: ${worker.url}${AGENT_CARD_PATH}\n`,
      );
    }
    let stopped: Promise<void> | undefined;
    let ended: (code: number) => void = () => {};
    return {
      url: worker.url,
      ended: new Promise<number>((done) => {
        ended = done;
      }),
      stop: () => {
        stopped ??= worker.dispose().finally(() => ended(EXIT.ok));
        return stopped;
      },
    };
  };
}

/** hb3 and local-mac outputs through the `agentdef run` host (runOutput), kept serving; a restart does not print its banner again. */
function processHostStarter(outDir: string, io: CliIo, control: DevControl, logFormat: LogFormat): HostStarter {
  return (port, restart) =>
    new Promise((started) => {
      let pid = 0;
      let exited = false;
      const ended = runOutput({
        outDir,
        workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
        ...(port !== undefined ? { port } : {}),
        ...(control.secrets ? { secrets: control.secrets } : {}),
        ...(control.env ? { env: control.env } : {}),
        serve: true,
        logFormat,
        stdout: restart ? () => {} : io.stdout,
        stderr: io.stderr,
        onReady: (info) => {
          pid = info.pid;
          started({
            url: info.url,
            ended,
            // Interrupted as Ctrl-C would (runOutput forwards SIGINT itself).
            stop: async () => {
              // Never signal a pid once the child is gone: the number may belong to another process by then.
              if (!exited) {
                try {
                  process.kill(pid, 'SIGINT');
                } catch {
                  // exited meanwhile
                }
              }
              await ended;
            },
          });
        },
      }).then((code) => (code === 0 ? EXIT.ok : code));
      void ended.then((code) => {
        exited = true;
        if (pid === 0) started(code);
      });
    });
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
function watchSourceOf(outDir: string, io: CliIo): WatchSource | string {
  let plan: { target?: unknown; nodes?: { depth?: unknown; source?: unknown; file?: unknown }[] };
  try {
    plan = JSON.parse(readFileSync(join(outDir, PLAN_FILE), 'utf8')) as typeof plan;
  } catch {
    return `--watch needs the ${PLAN_FILE} the compile wrote in ${outDir} (it names the definition): compile the agent again`;
  }
  const root = Array.isArray(plan?.nodes) ? plan.nodes.find((n) => n?.depth === 0) : undefined;
  const rootFile = root?.source === 'workspace' && typeof root.file === 'string' ? insideWorkspace(root.file) : undefined;
  if (rootFile === undefined || !isCompileTarget(plan.target)) {
    return `${join(outDir, PLAN_FILE)} names no workspace definition and target to recompile: compile the agent again`;
  }
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  if (!exists(absoluteIn(workspaceRoot, rootFile)))
    return `${join(outDir, PLAN_FILE)} names ${rootFile}, which is not in the workspace ${workspaceRoot}: run agentdef dev --watch from the workspace the agent was compiled in`;
  return { workspaceRoot, rootFile, target: plan.target };
}

/**
 * Serves until stopped. With `watch`, a change recompiles and the host restarts on the same port;
 * a host that cannot start (or ends on its own) is reported and started again on the next change.
 */
async function serve(start: HostStarter, port: number | undefined, outDir: string, io: CliIo, control: DevControl, watch: WatchSource | undefined, modelsLine: string | undefined): Promise<number> {
  const signal = control.stop === undefined ? untilSignal() : undefined;
  const stopRequested = control.stop ?? signal!.stopped;
  try {
    const first = await start(port, false);
    if (typeof first === 'number') return first;
    if (modelsLine) io.stdout(modelsLine);
    if (!watch) {
      await printAskLine(io, first.url);
      control.onReady?.(first.url);
      return await Promise.race([stopRequested.then(() => first.stop()).then(() => EXIT.ok), first.ended]).finally(() => first.stop());
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
            io.stderr(`error: the new build did not start on port ${servingPort}; it starts again on the next change\n`);
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

export async function runDevCommand(argv: string[], io: CliIo, control: DevControl = {}): Promise<number> {
  const parsed = parseCommand(io, DEV, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) return usageError(io, parsed.positionals.length === 0 ? 'name the compile output folder' : 'name one output folder', DEV);
  const port = parsePort(parsed.values.port);
  if (typeof port === 'string') return usageError(io, port, DEV);
  const outDir = resolve(io.cwd, parsed.positionals[0]!);
  const isWorker = exists(join(outDir, FILES.hostPlan));
  if (!isWorker && !exists(join(outDir, JOB_FILE)) && !exists(join(outDir, LAUNCHER_MANIFEST))) {
    io.stderr(`error: ${outDir} holds no compiled output (${FILES.hostPlan}, ${JOB_FILE} or ${LAUNCHER_MANIFEST}): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`);
    return EXIT.usage;
  }
  const env = control.env ?? process.env;
  const models: ModelModeRequest | undefined | string = modelModeRequest({ record: parsed.values.record, replay: parsed.values.replay }, env);
  if (typeof models === 'string') return usageError(io, models, DEV);
  const watch = parsed.values.watch === true ? watchSourceOf(outDir, io) : undefined;
  if (typeof watch === 'string') return usageError(io, watch, DEV);
  let session: ModelSession | undefined;
  if (models) {
    const started = await startCliModelSession({ request: models, outDir, outArg: parsed.positionals[0]!, io, env, upstreams: modelBaseUrls(env), ...(control.secrets ? { secrets: control.secrets } : {}) });
    if (typeof started === 'number') return started;
    session = started;
  }
  try {
    const hostControl: DevControl = session ? { ...control, env: { ...env, ...session.env } } : control;
    const start = isWorker ? workerStarter(outDir, io, hostControl, session) : processHostStarter(outDir, io, hostControl, parsed.values['log-format']);
    return await serve(start, port, outDir, io, hostControl, watch, session ? modelsLine(session) : undefined);
  } finally {
    await session?.close();
  }
}

/** The banner line that says where this session's models answer from. */
function modelsLine(session: ModelSession): string {
  return `  models:     ${modelsSummary(session)}\n`;
}
