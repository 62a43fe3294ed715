/**
 * `--record <folder>` / `--replay <folder>` (and `AGENTDEF_RECORD` / `AGENTDEF_REPLAY`) for
 * `agentdef dev` and `agentdef run`: starts the session's record/replay server
 * (plugin/hosts/model-replay) and says, as lines a person reads, what it does: a folder it
 * refuses, each tampered exchange file, each request the recording does not hold (with the command
 * that records it), each exchange recorded or not written.
 */
import { outputTarget } from '../targets/output-target';
import type { OutputNeeds } from '../targets/target';
import { secretKinds } from '../definition/rules/secrets';
import { findWorkspaceRoot } from '../definition/workspace-definitions';
import type { ProxyEvent } from '../hosts/model-replay/model-proxy';
import type { ModelModeRequest, ModelSession } from '../hosts/model-replay/model-session';
import { environmentSecrets, startModelSession } from '../hosts/model-replay/model-session';
import { createSecretSource, type SecretSource } from '../hosts/node/secret-source';
import { EXIT, type OperationIo } from './io';

/** The secret names a compile output binds (its model keys among them) and whether it is a local-only launcher, as its target reads them. */
async function outputNeeds(outDir: string): Promise<OutputNeeds> {
  const target = outputTarget(outDir).target;
  return target === undefined ? { secretNames: [], localOnly: false } : (await target.needs())(outDir);
}

/** What a session's banner says about its models: where they answer from, and that no key is used when replayed. */
export function modelsSummary(session: ModelSession): string {
  return session.mode === 'replay'
    ? `replayed from ${session.display} (${session.exchanges} recorded exchange${session.exchanges === 1 ? '' : 's'}; no API key used)`
    : `recorded into ${session.display} (the live providers answer; each exchange is written as it happens)`;
}

/** One line per event of the server, in the terms of the command that records what is missing. */
function eventPrinter(
  io: OperationIo,
  outArg: string,
  display: string,
  recordCommand?: string,
): (event: ProxyEvent) => void {
  return (event) => {
    switch (event.kind) {
      case 'replayed':
        return;
      case 'not-recorded':
        io.stderr(
          `error: model request not recorded: ${event.wire} ${event.method} ${event.path} (${event.digest}) is not in ${display}; the run fails with model_request_not_recorded. Record it against the real provider: ${recordCommand ?? `agentdef dev ${outArg}`} --record ${display}\n`,
        );
        return;
      case 'recorded':
        io.stdout(`recorded ${event.wire} ${event.method} ${event.path} into ${event.file}\n`);
        return;
      case 'not-written':
        io.stderr(
          `warning: model exchange ${event.digest} (${event.wire} ${event.method} ${event.path}) was not recorded: ${event.reason}\n`,
        );
        return;
      case 'refused':
        io.stderr(
          `error: model request refused by the record/replay server: ${event.method} ${event.path}: ${event.reason}\n`,
        );
        return;
    }
  };
}

export interface CliModelSessionOptions {
  request: ModelModeRequest;
  outDir: string;
  /** The output folder as the user typed it (for the command that records a missing request). */
  outArg: string;
  io: OperationIo;
  env: NodeJS.ProcessEnv;
  upstreams: readonly string[];
  secrets?: SecretSource;
  /** The command that records a missing request, without its `--record <dir>` (default `agentdef dev <outArg>`). */
  recordCommand?: string;
}

/** The started session, or the exit code once the reason has been printed. */
export async function startCliModelSession(options: CliModelSessionOptions): Promise<ModelSession | number> {
  const { io, env, request } = options;
  const needs = await outputNeeds(options.outDir);
  const secrets = environmentSecrets(env);
  if (request.mode === 'record') {
    // Every secret value the hosts will use is kept out of the recording, keychain values included.
    const source = options.secrets ?? createSecretSource({ env });
    for (const name of needs.secretNames) secrets.push((await source.get(name)) ?? '');
  }
  let printer: (event: ProxyEvent) => void = () => {};
  const started = await startModelSession({
    request,
    cwd: io.cwd,
    workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd,
    upstreams: options.upstreams,
    loopbackOnly: needs.localOnly,
    secrets,
    credentialShapes: (text) => secretKinds(text),
    onEvent: (event) => printer(event),
  });
  if (!started.ok) {
    if (started.kind === 'folder') {
      io.stderr(`error: ${started.problem}\n`);
      return EXIT.usage;
    }
    for (const problem of started.problems) io.stderr(`error: ${problem.where}: ${problem.problem}\n`);
    io.stderr(
      `error: the recording cannot be replayed (${started.problems.length} file${started.problems.length === 1 ? '' : 's'} above): record the session again with --record, or restore the files\n`,
    );
    return EXIT.invalid;
  }
  printer = eventPrinter(io, options.outArg, started.session.display, options.recordCommand);
  return started.session;
}
