/**
 * `agentdef dev <output folder> [--port n]`: serves any compiled output on loopback until SIGINT
 * (or SIGTERM), printing the card URL and an example `agentdef ask` line.
 * - A Cloudflare Worker output (`host-plan.json`) runs in workerd through miniflare exactly as
 *   production runs it: `loader.js` with its host plan and a Worker Loader binding, KV local,
 *   secrets from the same sources as the other hosts (keychain, then `AGENTDEF_SECRET_<NAME>`),
 *   outbound requests through the loader's egress gateway (dev-worker-host.ts).
 * - An hb3 job (`hb3-job.json`) or a local launcher (`launcher.json`) runs through the existing
 *   `agentdef run` hosts (runOutput), kept serving.
 * `--watch` is not part of this command yet: recompile, then restart it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FILES } from '../../compiler/adapters/cloudflare-dynamic-worker/worker-constants';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { JOB_FILE, LAUNCHER_MANIFEST } from '../../host-contract/output-files';
import { parsePort } from '../../host-contract/port';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import { createSecretSource, howToProvideSecret, type SecretSource } from '../../hosts/node/secret-source';
import { runOutput } from '../../hosts/node/run-output';
import { AGENT_CARD_PATH } from '../../runtime/agent-card';
import { EXIT, type CliIo } from '../io';
import { USAGE, usageError, parseCommandArgs } from '../usage';
import { type StartedWorker, startCompiledWorker } from './dev-worker-host';

export const DEV_USAGE = USAGE.dev;

/** How a caller other than a terminal drives the server (tests): when to stop, and where it serves. */
export interface DevControl {
  /** Stops the server when it resolves (default: on SIGINT or SIGTERM). */
  stop?: Promise<void>;
  onReady?(url: string): void;
  /** Where secrets come from (default: the keychain, then `AGENTDEF_SECRET_<NAME>` of `env`). */
  secrets?: SecretSource;
  /** The environment the hosts read (default: this process's). */
  env?: NodeJS.ProcessEnv;
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

function isMissingMiniflare(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code === 'MODULE_NOT_FOUND' || e?.code === 'ERR_MODULE_NOT_FOUND') && /['"]miniflare['"]/.test(e.message ?? '');
}

async function serveWorker(outDir: string, port: number | undefined, io: CliIo, control: DevControl): Promise<number> {
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
  const source = control.secrets ?? createSecretSource(control.env ? { env: control.env } : {});
  const secrets: Record<string, string> = {};
  const missing: string[] = [];
  for (const binding of hostPlan.bindings ?? []) {
    if (binding.kind !== 'secret-ref') continue;
    const value = await source.get(binding.name);
    if (value === undefined) missing.push(binding.name);
    else secrets[binding.name] = value;
  }
  if (missing.length > 0) {
    for (const name of missing) io.stderr(`error: secret ${name} is not set (the Worker ${hostPlan.agent.slug}@${hostPlan.agent.version} binds it): ${howToProvideSecret(name)}\n`);
    return EXIT.invalid;
  }
  const signal = control.stop === undefined ? untilSignal() : undefined;
  let worker: StartedWorker;
  try {
    worker = await startCompiledWorker(outDir, { mode: 'loader', secrets, outbound: 'internet', ...(port !== undefined ? { port } : {}) });
  } catch (error) {
    signal?.dispose();
    if (isMissingMiniflare(error)) {
      io.stderr("error: serving a Worker output needs miniflare (Cloudflare's local workerd runner): install it with `npm install --save-dev miniflare`\n");
      return EXIT.usage;
    }
    io.stderr(`error: workerd could not start the Worker${port !== undefined ? ` on port ${port}` : ''}: ${(error as Error).message}\n`);
    return EXIT.invalid;
  }
  try {
    io.stdout(
      `${hostPlan.agent.slug}@${hostPlan.agent.version} (Cloudflare Worker: loader.js with a Worker Loader binding, workerd via miniflare) serves A2A at ${worker.url}/\n  agent card: ${worker.url}${AGENT_CARD_PATH}\n`,
    );
    await printAskLine(io, worker.url);
    control.onReady?.(worker.url);
    await (control.stop ?? signal!.stopped);
    return EXIT.ok;
  } finally {
    signal?.dispose();
    await worker.dispose();
  }
}

async function serveProcessHost(outDir: string, port: number | undefined, io: CliIo, control: DevControl): Promise<number> {
  let pid = 0;
  // A caller's stop interrupts the host process as Ctrl-C would (runOutput forwards SIGINT itself).
  void control.stop?.then(() => {
    if (pid > 0) process.kill(pid, 'SIGINT');
  });
  const code = await runOutput({
    outDir,
    workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
    ...(port !== undefined ? { port } : {}),
    ...(control.secrets ? { secrets: control.secrets } : {}),
    ...(control.env ? { env: control.env } : {}),
    serve: true,
    stdout: io.stdout,
    stderr: io.stderr,
    onReady: (info) => {
      pid = info.pid;
      void printAskLine(io, info.url).then(() => control.onReady?.(info.url));
    },
  });
  return code === 0 ? EXIT.ok : code;
}

export async function runDevCommand(argv: string[], io: CliIo, control: DevControl = {}): Promise<number> {
  const parsed = parseCommandArgs(io, DEV_USAGE, { args: argv, allowPositionals: true, strict: true, options: { port: { type: 'string' }, watch: { type: 'boolean', default: false } } });
  if (typeof parsed === 'number') return parsed;
  if (parsed.values.watch === true) return usageError(io, '--watch is not supported yet: recompile the agent, then restart agentdef dev', DEV_USAGE);
  if (parsed.positionals.length !== 1) return usageError(io, parsed.positionals.length === 0 ? 'name the compile output folder' : 'name one output folder', DEV_USAGE);
  const port = parsePort(parsed.values.port);
  if (typeof port === 'string') return usageError(io, port, DEV_USAGE);
  const outDir = resolve(io.cwd, parsed.positionals[0]!);
  if (exists(join(outDir, FILES.hostPlan))) return serveWorker(outDir, port, io, control);
  if (exists(join(outDir, JOB_FILE)) || exists(join(outDir, LAUNCHER_MANIFEST))) return serveProcessHost(outDir, port, io, control);
  io.stderr(`error: ${outDir} holds no compiled output (${FILES.hostPlan}, ${JOB_FILE} or ${LAUNCHER_MANIFEST}): compile the agent first, e.g. agentdef compile <agent.json> --out <folder>\n`);
  return EXIT.usage;
}
