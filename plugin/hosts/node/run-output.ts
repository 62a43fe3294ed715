/**
 * `agentdef run <output folder>`: runs a compiled output on this machine as a process.
 *
 * An HB3 job (`hb3-job.json`) runs the way HB3 would run it, mapped onto the local machine: the
 * environment from the spec, every `secretRef` read from the local secret source (keychain, then
 * `AGENTDEF_SECRET_<NAME>`), the weights mount mapped to a local folder (`--weights`), the image's
 * files mapped to the output's `image/` folder, memory bounded by Node's heap limit from the
 * spec's command, A2A served on a loopback port. The wall clock is enforced from outside: a run
 * still open `timeouts.killAfterMs` after it started gets the process killed, and this supervisor
 * issues that run's receipt (`limit:wallClock`, `killed_by_host`).
 *
 * A local launcher (`launcher.json` + `launch.mjs`) is started as it is, in the workspace.
 * Either way the serving URL is printed, the host's events as one readable line each on stderr
 * (event-text.ts; its JSON lines with `logFormat: 'json'`), SIGINT/SIGTERM are passed on, and the
 * exit code is the host's (non-zero when it could not start or was killed).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Hb3Job } from '../../host-contract/hb3-job';
import { PUBLIC_ORIGIN_ENV } from '../../host-contract/container-contract';
import { CARD_SIGNING_KEY_BINDING } from '../../runtime/agent-card';
import {
  JOB_FILE,
  LAUNCHER_MANIFEST,
  RUNTIME_CONFIGS_FILE,
  WEIGHTS_LOCK_FILE,
  type LauncherManifest,
} from '../../host-contract/output-files';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { AGENT_CARD_PATH } from '../../runtime/agent-card';
import { KEY_REF_PREFIX, loadPrivateKey } from './key-store';
import { createReceiptFileSink } from './receipt-file-sink';
import { killedRunReceipt } from './killed-receipt';
import { eventLine, type LogFormat } from './event-text';
import { createRunTracker, lineSplitter, parseEvent, type HostEvent } from './run-events';
import { createSecretSource, howToProvideSecret, type SecretSource } from './secret-source';
import { defaultReceiptsFile } from './state-dir';
import { TELEMETRY_FILE_ENV, defaultTelemetryFile } from './telemetry-export';
import { REPLAY_PLACEHOLDER_KEY, modelProxyOf } from '../model-replay/proxy-routes';
import { readStoreSpec } from '../../postgres/store-spec';
import { TASK_STORE_ENV } from './task-store-option';

export interface RunOutputOptions {
  /** The compile output folder (absolute). */
  outDir: string;
  /** The workspace root (absolute): a launcher's MCP servers run there. */
  workspaceRoot: string;
  port?: number;
  /** The local folder the job's weights root (`/weights`) maps to. */
  weights?: string;
  /** The receipts file (default: the state folder's `<slug>/receipts.jsonl`). */
  receipts?: string;
  /** Keep a `Job` serving after its first task. */
  serve?: boolean;
  env?: NodeJS.ProcessEnv;
  secrets?: SecretSource;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Called once the host serves (tests and scripts). */
  onReady?(info: { url: string; pid: number }): void;
  /** How the host's events are printed on stderr: one readable line each (default), or the host's JSON lines. */
  logFormat?: LogFormat;
}

/** The folder a job's weights root (`/weights`) maps to, when `weights` is not given. */
const WEIGHTS_ROOT_ENV = 'AGENTDEF_WEIGHTS_ROOT';

/** Variables of this machine a local run passes on (paths, locale, and agentdef's host overrides). */
const PASS_THROUGH =
  /^(PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|LC_[A-Z]+|TZ|SYSTEMROOT|NODE_OPTIONS|NODE_EXTRA_CA_CERTS|XDG_[A-Z_]+|OLLAMA_HOST|AGENTDEF_(BASE_URL_[A-Z0-9_]+|INFERENCE_BASE_URL|NATIVE_BIN|KEYCHAIN|KEYS_DIR|STATE_DIR|PUBLIC_ORIGIN|TASK_STORE|MODEL_PROXY|MODEL_PROXY_MODE|TELEMETRY_FILE)|OTEL_EXPORTER_OTLP_(ENDPOINT|TRACES_ENDPOINT|HEADERS|TRACES_HEADERS))$/;

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function readOptionalJson(path: string): unknown {
  try {
    return readJson(path);
  } catch {
    return undefined;
  }
}

function fileExists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs an HB3 job output (`hb3-job.json`) the way HB3 would, mapped onto this machine. */
export async function runJobOutput(options: RunOutputOptions): Promise<number> {
  const jobPath = join(options.outDir, JOB_FILE);
  if (!fileExists(jobPath)) return missingFile(options, JOB_FILE);
  return runJob(options, options.env ?? process.env, jobPath);
}

/** Runs a local launcher output (`launcher.json`) as the user's service would. */
export async function runLauncherOutput(options: RunOutputOptions): Promise<number> {
  const launcherPath = join(options.outDir, LAUNCHER_MANIFEST);
  if (!fileExists(launcherPath)) return missingFile(options, LAUNCHER_MANIFEST);
  return runLauncher(options, options.env ?? process.env, launcherPath);
}

function missingFile(options: RunOutputOptions, file: string): number {
  options.stderr(`error: ${options.outDir} holds no ${file}: compile the agent again\n`);
  return 2;
}

/** Secrets the configs use only as model pins' API keys. */
function modelKeyOnlySecrets(configs: readonly RuntimeConfig[]): Set<string> {
  const keys = new Set<string>();
  for (const config of configs) for (const pin of config.models) if (pin.secretBinding) keys.add(pin.secretBinding);
  for (const config of configs) if (config.receipts.keyBinding) keys.delete(config.receipts.keyBinding);
  return keys;
}

function baseEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (PASS_THROUGH.test(k) && v !== undefined) out[k] = v;
  return out;
}

async function runJob(options: RunOutputOptions, env: NodeJS.ProcessEnv, jobPath: string): Promise<number> {
  let job: Hb3Job;
  let configs: Record<string, RuntimeConfig>;
  try {
    job = readJson(jobPath) as Hb3Job;
    configs = readJson(join(options.outDir, RUNTIME_CONFIGS_FILE)) as Record<string, RuntimeConfig>;
    if (!Array.isArray(job.command) || !Array.isArray(job.env) || !job.metadata?.node)
      throw new Error('not a job spec');
  } catch (error) {
    options.stderr(`error: cannot read ${jobPath}: ${(error as Error).message}; compile the agent again\n`);
    return 2;
  }
  const config = configs[job.metadata.node];
  if (!config) {
    options.stderr(`error: ${RUNTIME_CONFIGS_FILE} has no node ${job.metadata.node}; compile the agent again\n`);
    return 2;
  }
  const secrets = options.secrets ?? createSecretSource({ env });
  const childEnv = baseEnv(env);
  const resolved: Record<string, string> = {};
  // The receipt key of a job whose signer is `keyref:<name>`: on this machine, the key store's key
  // when no secret is set (the host started here signs with it too, its kid the key's thumbprint).
  let receiptKid: string | undefined;
  const receiptKeyFromStore = async (): Promise<string | undefined> => {
    const signerRef = config.receipts.signerRef;
    if (config.receipts.mode !== 'signed' || !signerRef?.startsWith(KEY_REF_PREFIX)) return undefined;
    const loaded = await loadPrivateKey(signerRef, { env });
    if (!loaded.ok) return undefined;
    receiptKid = loaded.kid;
    return JSON.stringify(loaded.privateJwk);
  };
  // Replaying models: a key only model pins use is not read (the placeholder reaches the replay server only).
  const replayedKeys =
    modelProxyOf(env)?.mode === 'replay' ? modelKeyOnlySecrets(Object.values(configs)) : new Set<string>();
  for (const entry of job.env) {
    if ('value' in entry) {
      childEnv[entry.name] = entry.value;
      continue;
    }
    if (replayedKeys.has(entry.secretRef.name)) {
      childEnv[entry.name] = REPLAY_PLACEHOLDER_KEY;
      continue;
    }
    const value =
      (await secrets.get(entry.secretRef.name)) ??
      (job.receipts.mode === 'signed' && entry.secretRef.name === job.receipts.keySecret
        ? await receiptKeyFromStore()
        : undefined);
    if (value === undefined && entry.secretRef.optional === true) continue; // left unset, as the platform would
    if (value === undefined) {
      options.stderr(
        `error: secret ${entry.secretRef.name} is not set (the job ${job.metadata.agent} references it): ${howToProvideSecret(entry.secretRef.name)}\n`,
      );
      return 1;
    }
    childEnv[entry.name] = value;
    resolved[entry.secretRef.name] = value;
  }
  // A task store named `secret:NAME`: a container reads the variable NAME (its platform's secret);
  // on this machine it comes from the local secret source, like every secretRef of the job.
  const storeSpec = childEnv[TASK_STORE_ENV] !== undefined ? readStoreSpec(childEnv[TASK_STORE_ENV]!) : undefined;
  if (storeSpec?.kind === 'secret' && childEnv[storeSpec.name] === undefined) {
    const value = await secrets.get(storeSpec.name);
    if (value === undefined) {
      options.stderr(
        `error: secret ${storeSpec.name} is not set (${TASK_STORE_ENV} names it): ${howToProvideSecret(storeSpec.name)}\n`,
      );
      return 1;
    }
    childEnv[storeSpec.name] = value;
  }
  // The card signing key is optional (the card is served unsigned without it): the root's spec names
  // it as an optional secretRef; a spec compiled before that names none, and the key is passed on anyway.
  if (childEnv[CARD_SIGNING_KEY_BINDING] === undefined) {
    const cardKey = await secrets.get(CARD_SIGNING_KEY_BINDING);
    if (cardKey !== undefined) childEnv[CARD_SIGNING_KEY_BINDING] = cardKey;
  }
  // Every checkpoint of the tree (the job's own, and its quarantined children's, which run as
  // processes of this one here) is in the weights lock.
  const lock = readOptionalJson(join(options.outDir, WEIGHTS_LOCK_FILE)) as
    | { checkpoints?: { checkpointId: string; mountPath: string; path: string; agent: string }[] }
    | undefined;
  const checkpoints = lock?.checkpoints ?? [];
  if (checkpoints.length > 0) {
    // --weights, else this machine's AGENTDEF_WEIGHTS_ROOT (how `agentdef dev` and `agentdef eval`,
    // which take no --weights, are given the folder).
    const weights = options.weights ?? (env[WEIGHTS_ROOT_ENV] || undefined);
    if (!weights) {
      const first = checkpoints[0]!;
      options.stderr(
        `error: the job ${job.metadata.agent} mounts checkpoint ${first.checkpointId}${first.agent !== job.metadata.agent ? ` (of ${first.agent})` : ''} at ${first.mountPath}: pass --weights <folder> (or set ${WEIGHTS_ROOT_ENV} to it) holding ${first.path}/\n`,
      );
      return 1;
    }
    childEnv[WEIGHTS_ROOT_ENV] = weights;
  }
  const receiptsFile = options.receipts ?? defaultReceiptsFile(config.agent.slug, env);
  if (job.receipts.mode === 'signed') childEnv['AGENTDEF_RECEIPTS_FILE'] = receiptsFile;
  // The job's spans, when no collector is named: beside its receipts on this machine, not in the container's folder.
  childEnv[TELEMETRY_FILE_ENV] ||= defaultTelemetryFile(receiptsFile);
  childEnv['HOST'] = '127.0.0.1';
  childEnv['PORT'] = String(options.port ?? 0);
  // The job's service origin does not exist on this machine: the host is reached on loopback,
  // unless this machine's own environment names an origin.
  if (env[PUBLIC_ORIGIN_ENV]) childEnv[PUBLIC_ORIGIN_ENV] = env[PUBLIC_ORIGIN_ENV];
  else delete childEnv[PUBLIC_ORIGIN_ENV];
  childEnv['AGENTDEF_SUPERVISOR_PID'] = String(process.pid);
  if (options.serve) childEnv['AGENTDEF_JOB_MODE'] = 'serve';

  // The image's files are the output's build context; `node` is this Node.
  const workdir = job.image.workdir.replace(/\/+$/, '');
  const contextDir = join(options.outDir, job.image.build.context);
  const [command, ...rest] = job.command;
  const args = rest.map((arg) =>
    arg.startsWith(`${workdir}/`) ? join(contextDir, arg.slice(workdir.length + 1)) : arg,
  );
  if (command !== 'node') {
    options.stderr(`error: the job's command starts with "${command}", and agentdef run runs node entrypoints only\n`);
    return 2;
  }

  const killReceipt = async (run: { runId: string; skill?: string; startedAtMs: number }) => {
    if (job.receipts.mode !== 'signed') return;
    const key = resolved[job.receipts.keySecret];
    if (!key) return;
    const receipt = await killedRunReceipt(
      receiptKid ? { ...config, receipts: { ...config.receipts, signerRef: receiptKid } } : config,
      {
        runId: run.runId,
        ...(run.skill ? { skillId: run.skill } : {}),
        startedAtMs: run.startedAtMs,
        killedAtMs: Date.now(),
      },
      key,
    );
    const sink = createReceiptFileSink(receiptsFile);
    await sink.put(receipt);
    await sink.flush();
  };
  return supervise(options, {
    label: `${job.metadata.agent} (HB3 ${job.kind})`,
    agent: job.metadata.agent,
    command: process.execPath,
    args,
    cwd: options.outDir,
    env: childEnv,
    startupMs: job.timeouts.startupMs,
    killAfterMs: job.timeouts.killAfterMs,
    runMs: job.timeouts.runMs,
    receiptsFile: job.receipts.mode === 'signed' ? receiptsFile : undefined,
    onKilled: killReceipt,
  });
}

async function runLauncher(options: RunOutputOptions, env: NodeJS.ProcessEnv, launcherPath: string): Promise<number> {
  let launcher: Pick<LauncherManifest, 'agent' | 'entry' | 'heapMb'>;
  try {
    launcher = readJson(launcherPath) as LauncherManifest;
    if (
      typeof launcher.entry !== 'string' ||
      typeof launcher.agent !== 'string' ||
      isAbsolute(launcher.entry) ||
      launcher.entry.includes('..')
    )
      throw new Error('not a launcher manifest');
  } catch (error) {
    options.stderr(`error: cannot read ${launcherPath}: ${(error as Error).message}; compile the agent again\n`);
    return 2;
  }
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    AGENTDEF_WORKSPACE: options.workspaceRoot,
    AGENTDEF_SUPERVISOR_PID: String(process.pid),
  };
  if (options.receipts) childEnv['AGENTDEF_RECEIPTS_FILE'] = options.receipts;
  const args = [
    ...(launcher.heapMb ? [`--max-old-space-size=${launcher.heapMb}`] : []),
    join(options.outDir, launcher.entry),
    '--port',
    String(options.port ?? 0),
  ];
  return supervise(options, {
    label: `${launcher.agent} (local launcher)`,
    agent: launcher.agent,
    command: process.execPath,
    args,
    cwd: options.workspaceRoot,
    env: childEnv,
    startupMs: 60_000,
  });
}

interface SuperviseSpec {
  label: string;
  agent: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  startupMs: number;
  killAfterMs?: number;
  runMs?: number;
  receiptsFile?: string | undefined;
  onKilled?(run: { runId: string; skill?: string; startedAtMs: number }): Promise<void>;
}

function supervise(options: RunOutputOptions, spec: SuperviseSpec): Promise<number> {
  return new Promise((done) => {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tracker = createRunTracker(spec.agent);
    const timers = new Map<string, NodeJS.Timeout>();
    let ready = false;
    let killed: { runId: string } | undefined;
    let pendingKill: Promise<void> = Promise.resolve();
    const startup = setTimeout(() => {
      if (ready) return;
      options.stderr(`error: ${spec.label} did not become ready within ${spec.startupMs} ms; it was stopped\n`);
      child.kill('SIGKILL');
    }, spec.startupMs);

    const onEvent = (event: HostEvent) => {
      if (event.event === 'host.ready' && typeof event['url'] === 'string') {
        ready = true;
        clearTimeout(startup);
        const url = event['url'];
        const receipts = spec.receiptsFile ?? (typeof event['receipts'] === 'string' ? event['receipts'] : undefined);
        options.stdout(
          `${spec.label} serves A2A at ${url}/\n  agent card: ${url}${AGENT_CARD_PATH}\n${receipts ? `  receipts:   ${receipts}\n` : ''}`,
        );
        options.onReady?.({ url, pid: child.pid ?? 0 });
      }
      const change = tracker.push(event);
      if (!change || spec.killAfterMs === undefined) return;
      if (change.kind === 'started') {
        const startedAtMs = Date.now();
        timers.set(
          change.runId,
          setTimeout(() => {
            if (killed || child.exitCode !== null) return;
            killed = { runId: change.runId };
            child.kill('SIGKILL');
            pendingKill = (
              spec.onKilled?.({ runId: change.runId, ...(change.skill ? { skill: change.skill } : {}), startedAtMs }) ??
              Promise.resolve()
            ).catch(() => undefined);
            options.stderr(
              `error: ${spec.agent} run ${change.runId} exceeded its wall clock (wallClockMs ${spec.runMs ?? '?'} ms) and was killed after ${spec.killAfterMs} ms; its receipt records limit:wallClock (killed_by_host)\n`,
            );
          }, spec.killAfterMs),
        );
      } else {
        clearTimeout(timers.get(change.runId));
        timers.delete(change.runId);
      }
    };
    const stdoutLines = lineSplitter((line) => {
      const event = parseEvent(line);
      const shown = eventLine(line, event, options.logFormat ?? 'text');
      if (shown !== '') options.stderr(shown);
      if (event) onEvent(event);
    });
    child.stdout.on('data', (c: Buffer) => stdoutLines.push(c));
    child.stderr.on('data', (c: Buffer) => options.stderr(c.toString()));

    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null) child.kill(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      options.stderr(`error: cannot start ${spec.label}: ${(error as NodeJS.ErrnoException).code ?? error.message}\n`);
    });
    child.once('close', (code, signal) => {
      stdoutLines.end();
      clearTimeout(startup);
      for (const timer of timers.values()) clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      void pendingKill.then(() => {
        if (killed) return done(1);
        if (code === null) return done(signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1);
        done(code);
      });
    });
  });
}
