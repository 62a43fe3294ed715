/**
 * The main of a compiled Node host (HB3 entrypoint, local launcher). It serves the A2A handler of
 * one node (the root, or `AGENTDEF_NODE`) over HTTP, prints `host.ready` with the URL, and stops
 * cleanly on SIGINT/SIGTERM: no new requests, requests in flight answered, receipts flushed to the
 * JSONL file, MCP servers and child processes stopped, exit 0. A `Job` stops the same way after
 * its first task. `--child <nodeId>` runs a quarantined child instead (see child-main.ts).
 * A start problem prints one line (`agentdef: error: ...`) and exits 78 with nothing left running.
 */
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BODY_BYTES, createA2aHandler } from '../../runtime/a2a-handler';
import { parseOriginList } from '../../runtime/request-guard';
import { AGENT_CARD_PATH, CARD_SIGNING_KEY_BINDING, UNREGISTERED_DEPLOYMENT_ENV } from '../../runtime/agent-card';
import { runChildMain } from './child-main';
import { concurrentRunsFor, heapLimitMb } from '../../host-contract/heap-limit';
import { parsePort } from '../../host-contract/port';
import { CONTAINER_PORT, CONTAINER_RECEIPTS_FILE, PUBLIC_ORIGIN_ENV } from '../../host-contract/container-contract';
import { HostStartError, START_FAILED_EXIT } from './host-error';
import { loadPrivateKey } from './key-store';
import type { HostProgram } from '../../host-contract/node-host-spec';
import { agentKey } from '../../host-contract/node-host-spec';
import { gateTimeLimits } from './gate-time-limits';
import { serveWebHandler, type ServedHost } from './http-server';
import { claimHostListen } from './listen-guard';
import { startedWithInspector } from './debug-guard';
import type { McpStdioTools, StartMcpOptions } from './mcp-stdio-tools';
import { startProcessHost, type ProcessHost } from './process-host';
import { createReceiptFileSink } from './receipt-file-sink';
import { hostTelemetry, telemetryTarget } from './telemetry-export';
import { createRunTracker, formatEvent, type HostEvent } from './run-events';
import { createSecretSource, envSecretSource, howToProvideSecret } from './secret-source';
import { printServiceFile } from './service-files';
import { defaultReceiptsFile } from './state-dir';
import { type ConfiguredTaskStore, openTaskStore, taskStoreChoice } from './task-store-env';
import { hostSocket } from './network-guard';

export interface NodeHostOptions {
  startMcp?: (options: StartMcpOptions) => Promise<McpStdioTools>;
}

function fail(message: string): never {
  process.stderr.write(`agentdef: error: ${message}\n`);
  process.exit(START_FAILED_EXIT);
}

function portOption(text: string | undefined, fallback: number): number {
  const port = parsePort(text === '' ? undefined : text, 'the port');
  if (typeof port === 'string') fail(port);
  return port ?? fallback;
}

export async function runNodeHost(program: HostProgram, options: NodeHostOptions = {}): Promise<void> {
  // First, synchronously, while the entry is evaluated: no tool module has run yet (they are
  // evaluated on the first tool call), so no tool code can claim the host's listen before it.
  const hostListen = claimHostListen();
  if (startedWithInspector())
    fail(
      'this host was started with its inspector open (--inspect, --inspect-brk or --inspect-wait, on the command line or in NODE_OPTIONS): any local user could run code in it; start it without',
    );
  const local = program.host === 'local';
  let args;
  try {
    args = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        child: { type: 'string' },
        port: { type: 'string' },
        'print-service': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    fail(
      `${(error as Error).message}; usage: node ${local ? 'launch.mjs' : 'entrypoint.mjs'} [--port <n>]${local ? ' [--print-service launchd|systemd]' : ''}`,
    );
  }
  if (args.help) {
    process.stdout.write(
      `usage: node ${local ? 'launch.mjs' : 'entrypoint.mjs'} [--port <n>]${local ? ' [--print-service launchd|systemd]' : ''}\n`,
    );
    return;
  }
  if (args.child !== undefined) {
    return runChildMain(program, args.child, {
      readCheckpoints: !local,
      checkOllama: local,
      localKeys: local,
      ...(options.startMcp ? { startMcp: options.startMcp } : {}),
    });
  }
  const rootSpec = program.nodes[program.rootId]!;
  if (args['print-service'] !== undefined) {
    const port = portOption(args.port ?? process.env['AGENTDEF_PORT'], 0);
    let text: string | undefined;
    try {
      text = printServiceFile(
        args['print-service'],
        rootSpec.config.agent.slug,
        rootSpec.config.agent.version,
        rootSpec.memoryMb ? heapLimitMb(rootSpec.memoryMb) : undefined,
        port,
        process.env,
      );
    } catch (error) {
      fail(`cannot print the ${args['print-service']} service file: ${(error as Error).message}`); // a ServiceFileError: a value it cannot hold
    }
    if (text === undefined) fail(`--print-service takes launchd or systemd, not "${args['print-service']}"`);
    process.stdout.write(text);
    return;
  }

  const env = process.env;
  const nodeId = (!local && env['AGENTDEF_NODE']) || program.rootId;
  const spec = program.nodes[nodeId];
  if (!spec) fail(`AGENTDEF_NODE names no node of this entry: use one of ${Object.keys(program.nodes).join(', ')}`);
  const agent = agentKey(spec);
  const host = local ? '127.0.0.1' : env['HOST'] || '0.0.0.0';
  const port = local
    ? portOption(args.port ?? env['AGENTDEF_PORT'], 0)
    : portOption(args.port ?? env['PORT'], CONTAINER_PORT);
  const receiptsFile =
    env['AGENTDEF_RECEIPTS_FILE'] ||
    (local ? defaultReceiptsFile(spec.config.agent.slug, env) : CONTAINER_RECEIPTS_FILE);
  const once = !local && program.kind === 'Job' && env['AGENTDEF_JOB_MODE'] !== 'serve';
  // Where clients reach the host besides its loopback names (a container's service name, a
  // gateway): allowed in Host and Origin, and the first one is what the card advertises.
  const configured = parseOriginList(env[PUBLIC_ORIGIN_ENV]);
  if ('problem' in configured)
    fail(`${PUBLIC_ORIGIN_ENV}: ${configured.problem}; give one or more origins separated by commas`);
  const publicOrigins = configured.origins;
  const gateTimes = gateTimeLimits(env);
  if ('problem' in gateTimes) fail(gateTimes.problem);
  const secretSource = local ? createSecretSource({ env }) : envSecretSource(env);
  // AGENTDEF_TASK_STORE: tasks in a SQLite file that survives a restart, or in PostgreSQL shared
  // by replicas; else in memory.
  // It is opened once the network guard knows the database's endpoint (the host's own, not the agent's).
  const tasksChoice = await taskStoreChoice(env, secretSource, (name) =>
    local ? howToProvideSecret(name) : `set ${name} in the container's environment (from your platform's secrets)`,
  );
  if ('problem' in tasksChoice) fail(tasksChoice.problem);
  let configuredTasks: ConfiguredTaskStore = {};
  if (tasksChoice.kind === 'file') {
    // A SQLite file is opened before the host starts: its driver may load a native library, which
    // the process guard refuses once the host serves.
    const opened = await openTaskStore(tasksChoice, spec.config.agent.slug);
    if ('problem' in opened) fail(opened.problem);
    configuredTasks = opened;
  }

  // Events are written synchronously: a supervisor must see `run.start` even when the run then
  // blocks the event loop (pipes are asynchronous on macOS).
  const emit = (event: HostEvent) => {
    const line = formatEvent(event);
    try {
      writeSync(1, line);
    } catch {
      process.stdout.write(line);
    }
  };
  const sink = createReceiptFileSink(receiptsFile, () => emit({ event: 'receipt.write_failed', runId: '' }));
  // Spans to the OTLP collector the environment names, else the definition's, else to a local JSON-lines file.
  const telemetry = telemetryTarget(env, {
    receiptsFile,
    ...(spec.config.telemetry?.collector ? { collector: spec.config.telemetry.collector } : {}),
  });
  if ('problem' in telemetry) fail(telemetry.problem);
  const runTelemetry = hostTelemetry(telemetry, (runId) => emit({ event: 'telemetry.export_failed', runId }));
  const tracker = createRunTracker(agent);
  let served: ServedHost | undefined;
  let processHost: ProcessHost | undefined;
  let stopping: Promise<void> | undefined;

  const stop = (code: number, reason: string): Promise<void> => {
    stopping ??= (async () => {
      emit({ event: 'host.stopping', runId: '', reason });
      await served?.close();
      await processHost?.settled();
      await sink.flush();
      await processHost?.close();
      await configuredTasks.store?.close();
      emit({ event: 'host.stopped', runId: '', reason });
      process.exit(code);
    })();
    return stopping;
  };
  const log = (event: HostEvent) => {
    emit(event);
    const change = tracker.push(event);
    if (once && change?.kind === 'finished') void stop(0, 'job done');
  };

  // A second signal forces the exit; one arriving within a second of the first is the same request
  // (a terminal signals the whole process group, and a supervisor passes it on too).
  let firstSignalAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt > 1000) process.exit(130);
      return;
    }
    firstSignalAt = Date.now();
    void stop(0, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Started by `agentdef run`: if the supervisor dies (even by SIGKILL), stop too.
  const supervisor = Number(env['AGENTDEF_SUPERVISOR_PID']);
  const supervised = Number.isInteger(supervisor) && supervisor > 0;
  if (supervised) {
    setInterval(() => {
      if (process.ppid !== supervisor) void stop(1, 'supervisor gone');
    }, 500).unref();
  }

  try {
    // The launcher, and an HB3 job that `agentdef run` (or `agentdef dev`) started on this machine,
    // resolve `keyref:` signers through this machine's key store; a job in its container does not.
    const machineKeys = local || supervised;
    // One key-store lookup per key ref: the card and the receipts are often signed by the same key,
    // and each keychain read may ask the user.
    const keyLookups = new Map<string, ReturnType<typeof loadPrivateKey>>();
    const machineKey = (ref: string) => {
      const known = keyLookups.get(ref);
      if (known !== undefined) return known;
      const lookup = loadPrivateKey(ref, { env });
      keyLookups.set(ref, lookup);
      return lookup;
    };
    const cardSigningKeyFor = async (
      signerRef: string | undefined,
    ): Promise<{ cardSigningKey?: string | JsonWebKey }> => {
      const fromSecret = await secretSource.get(CARD_SIGNING_KEY_BINDING);
      if (fromSecret !== undefined) return { cardSigningKey: fromSecret };
      if (!machineKeys || signerRef === undefined || !signerRef.startsWith('keyref:')) return {};
      const loaded = await machineKey(signerRef);
      return loaded.ok ? { cardSigningKey: loaded.privateJwk } : {};
    };
    // Looked up before the host starts: once it serves, its process guard lets no keychain reader
    // start (the lookup was refused then, and a key in the keychain never signed the card).
    const cardSigning = await cardSigningKeyFor(spec.config.card.signerRef);
    processHost = await startProcessHost({
      program,
      nodeId,
      env,
      secrets: secretSource,
      secretHint: local
        ? (name) => howToProvideSecret(name)
        : (name) =>
            `give the job a secretRef for ${name} (agentdef run reads it from the keychain or AGENTDEF_SECRET_${name})`,
      // Locally a `keyref:` receipt signer resolves through the key store (keychain, keys folder) first.
      ...(machineKeys ? { receiptKeys: machineKey } : {}),
      entryFile: process.argv[1] ?? '',
      cwd: env['AGENTDEF_WORKSPACE'] || process.cwd(),
      sink,
      log,
      telemetry: {
        runs: runTelemetry,
        ...(telemetry.kind === 'otlp-http' ? { collectorOrigin: telemetry.origin } : {}),
      },
      readCheckpoints: !local,
      checkOllama: local,
      ...(options.startMcp ? { startMcp: options.startMcp } : {}),
      ...(tasksChoice.kind === 'postgres' ? { hostEndpoints: [tasksChoice.endpoint] } : {}),
    });
    if (tasksChoice.kind === 'postgres') {
      const opened = await openTaskStore(tasksChoice, spec.config.agent.slug, { socket: hostSocket });
      if ('problem' in opened) throw new HostStartError(opened.problem);
      configuredTasks = opened;
    }
    const handler = createA2aHandler(processHost.configs[nodeId]!, {
      ...processHost.depsFor(nodeId),
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      ...(spec.memoryMb ? { maxConcurrentRuns: concurrentRunsFor(heapLimitMb(spec.memoryMb)) } : {}),
      ...(publicOrigins[0] !== undefined ? { publicOrigin: publicOrigins[0] } : {}),
      ...(configuredTasks.store ? { taskStore: configuredTasks.store } : {}),
      allowedOrigins: () => served?.allowedOrigins ?? publicOrigins,
      // The served card is signed when the card signing key is set (keychain / environment locally,
      // the environment in containers), like the receipt key; locally, else with the definition's
      // `identity.signingKeyRef` when the key store holds it; unsigned otherwise.
      ...cardSigning,
      // Set by a service file `agentdef deploy --allow-unregistered` installed: the card says so.
      ...(env[UNREGISTERED_DEPLOYMENT_ENV] === '1' ? { unregisteredDeployment: true } : {}),
    });
    const checkpoints = processHost.checkpoints.map((c) => ({
      checkpointId: c.checkpointId,
      digest: c.digest,
      files: c.files,
    }));
    served = await serveWebHandler(handler, {
      host,
      port,
      ...(hostListen ? { listen: hostListen } : {}),
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      allowedOrigins: publicOrigins,
      ...gateTimes.limits,
      portHint: local
        ? 'pass --port <n> (or AGENTDEF_PORT=<n>) with a free port'
        : 'set PORT (or --port) to a free port',
      health: () => ({ agent, node: nodeId, host: program.host, kind: local ? 'Service' : program.kind, checkpoints }),
    });
  } catch (error) {
    await processHost?.close().catch(() => undefined);
    if (error instanceof HostStartError) fail(error.message);
    fail(`internal error while starting ${agent} (${error instanceof Error ? error.message : typeof error})`);
  }
  for (const missing of processHost.unimplemented) {
    emit({
      event: 'host.tool_unimplemented',
      runId: '',
      agent: missing.agent,
      tool: missing.toolId,
      kind: missing.kind,
    });
    process.stderr.write(
      `agentdef: warning: tool "${missing.toolId}" of ${missing.agent} has no implementation on this host (calls fail with tool_unavailable): map it in the workspace's tools.json and compile again\n`,
    );
  }
  // The receipts file is named only when receipts are written; under `agentdef run` the supervisor
  // prints the address (once), so the host's own line is for hosts started without it.
  const receipts = spec.config.receipts.mode === 'signed' ? { receipts: receiptsFile } : {};
  emit({
    event: 'host.ready',
    runId: '',
    url: served.url,
    agent,
    node: nodeId,
    host: program.host,
    kind: local ? 'Service' : program.kind,
    ...receipts,
  });
  if (!supervised)
    process.stderr.write(`agentdef: ${agent} serves A2A at ${served.url}/ (card: ${served.url}${AGENT_CARD_PATH})\n`);
}
