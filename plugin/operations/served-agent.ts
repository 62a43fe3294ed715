/**
 * An agent compiled and served on loopback for the runners that ask it over A2A (`agentdef eval`,
 * `agentdef bench-tool`): compiled for `target` (default: the plan's choice) into `buildDir`, one
 * record/replay model session started (`--replay`, `--record`, else `AGENTDEF_REPLAY` /
 * `AGENTDEF_RECORD`, else `<folder>/recordings` when it exists, else the live providers) and the
 * output served through its target's own host, as `agentdef dev` does, under it. The caller's
 * `work` gets the host, an official A2A client of it, the host's event lines (host-events.ts) and
 * the session; the host and the session are stopped when it returns or throws. A compile that
 * fails prints its located diagnostics (exit 2); a host that does not start, exit 1.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { compileAgent } from '../compiler/compile';
import { hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { EVAL_RECORDINGS_FOLDER } from '../eval/eval-output';
import { type HostEventLog, hostEventLog } from '../eval/host-events';
import { type ModelModeRequest, modelModeRequest, type ModelSession } from '../hosts/model-replay/model-session';
import type { KeyStoreOptions } from '../hosts/node/key-store';
import { modelBaseUrls } from '../hosts/node/model-endpoints';
import { createSecretSource, type SecretSource } from '../hosts/node/secret-source';
import { outputTarget } from '../targets/output-target';
import type { RunningHost } from '../targets/target';
import type { CompileTarget } from '../targets/targets';
import { EXIT, type ExitCode, type OperationIo } from './io';
import { startCliModelSession } from './model-session';
import { withReceiptKeyFromStore } from './receipt-key-from-store';

export interface ServeAgentRequest {
  /** The definition file (absolute) and the workspace root. */
  file: string;
  workspaceRoot: string;
  /** The folder the definition is in (its `recordings/` is the default replay). */
  folder: string;
  /** Where the compile output goes (absolute). */
  buildDir: string;
  target?: string;
  record?: string;
  replay?: string;
  env: NodeJS.ProcessEnv;
  secrets?: SecretSource;
  keyStore?: KeyStoreOptions;
  /** `telemetryContract.receiptSigner`: the run receipts' key, read from the key store when no secret holds it. */
  receiptSigner: string | null | undefined;
  /** The definition as the user names it, and the command that records its model exchanges. */
  shownDefinition: string;
  recordCommand: string;
}

export interface ServedAgent {
  host: RunningHost;
  client: Client;
  events: HostEventLog;
  session?: ModelSession;
  /** The host's environment (the session's proxy variables added). */
  hostEnv: NodeJS.ProcessEnv;
  secrets: SecretSource;
}

/** The recording folder to use: the flags, else the environment, else `<folder>/recordings` when it is there. */
function modelRequest(request: ServeAgentRequest, cwd: string): ModelModeRequest | undefined | string {
  const asked = modelModeRequest({ record: request.record, replay: request.replay }, request.env);
  if (asked !== undefined) return asked;
  const beside = join(request.folder, EVAL_RECORDINGS_FOLDER);
  return existsSync(beside)
    ? { mode: 'replay', folder: relative(cwd, beside) || '.', source: 'the default' }
    : undefined;
}

/** Compiles and serves the agent, runs `work` with it, stops it; `work`'s result, or the exit code or usage problem that stopped it first. */
export async function withServedAgent<R>(
  io: OperationIo,
  request: ServeAgentRequest,
  work: (served: ServedAgent) => Promise<R>,
): Promise<R | ExitCode | { usage: string }> {
  const { env, buildDir, workspaceRoot } = request;
  const compiled = await compileAgent({
    file: request.file,
    workspaceRoot,
    target: (request.target ?? 'auto') as CompileTarget | 'auto',
    outDir: buildDir,
  });
  if (compiled.ioError !== undefined || hasErrors(compiled.diagnostics) || compiled.outDir === undefined) {
    if (compiled.diagnostics.length > 0)
      io.stderr(formatDiagnostics(compiled.diagnostics, { format: 'text', sources: compiled.sources }));
    if (compiled.ioError !== undefined) io.stderr(`error: ${compiled.ioError}\n`);
    return EXIT.usage;
  }
  const output = outputTarget(buildDir);
  if (output.target === undefined) {
    io.stderr(`error: ${output.problem}\n`);
    return EXIT.usage;
  }

  const models = modelRequest(request, io.cwd);
  if (typeof models === 'string') return { usage: models };
  let session: ModelSession | undefined;
  if (models) {
    const started = await startCliModelSession({
      request: models,
      outDir: buildDir,
      outArg: request.shownDefinition,
      io,
      env,
      upstreams: modelBaseUrls(env),
      recordCommand: request.recordCommand,
      ...(request.secrets ? { secrets: request.secrets } : {}),
    });
    if (typeof started === 'number') return started as ExitCode;
    session = started;
  }
  const hostEnv: NodeJS.ProcessEnv = session ? { ...env, ...session.env } : env;
  const secrets = withReceiptKeyFromStore(
    request.secrets ?? createSecretSource({ env }),
    request.receiptSigner,
    request.keyStore ?? { env },
  );
  const events = hostEventLog();
  let host: RunningHost | undefined;
  try {
    const serveOutput = await output.target.serve();
    const start = serveOutput({
      outDir: buildDir,
      workspaceRoot,
      cwd: io.cwd,
      stdout: () => {},
      stderr: (text) => {
        const rest = events.write(text);
        if (rest !== '') io.stderr(rest);
      },
      secrets,
      env: hostEnv,
      ...(session ? { session } : {}),
      logFormat: 'json',
    });
    const started = await start(undefined, false);
    if (typeof started === 'number') {
      io.stderr(`error: the agent's host did not start (exit code ${started}); nothing was asked\n`);
      return EXIT.invalid;
    }
    host = started;
    if (session)
      io.stdout(`models: ${session.mode === 'replay' ? 'replayed from' : 'recorded into'} ${session.display}\n`);
    const client = await new ClientFactory().createFromUrl(host.url);
    return await work({ host, client, events, hostEnv, secrets, ...(session ? { session } : {}) });
  } finally {
    await host?.stop();
    await session?.close();
  }
}
