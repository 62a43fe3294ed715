/**
 * One record/replay session for a supervisor (`agentdef dev`, `agentdef run`): which mode and
 * folder the command line or the environment asks for (`--record` / `--replay`, else
 * `AGENTDEF_RECORD` / `AGENTDEF_REPLAY`), the folder checked (and, to replay, every exchange in it
 * read and checked), the record/replay server started on loopback, and the variables its hosts
 * get (`AGENTDEF_MODEL_PROXY`, `AGENTDEF_MODEL_PROXY_MODE`). Nothing here prints: the caller says
 * what went wrong, where, and what to do.
 */
import { relative, resolve } from 'node:path';
import type { ModelProxy, ModelProxyOptions, ProxyEvent } from './model-proxy';
import { startModelProxy } from './model-proxy';
import { MODEL_PROXY_ENV, MODEL_PROXY_MODE_ENV, type ProxyMode, RECORD_ENV, REPLAY_ENV } from './proxy-routes';
import type { FolderProblem } from './recording-folder';
import { ensureRecordFolder, loadRecording, recordFolderProblem, replayFolderProblem } from './recording-folder';

export interface ModelModeRequest {
  mode: ProxyMode;
  /** The folder as given (relative to the command's folder, or absolute). */
  folder: string;
  /** Where it was asked: `--replay`, `AGENTDEF_REPLAY`, … */
  source: string;
}

/** The mode asked for, none, or a usage problem (both modes at once). Flags win over the environment. */
export function modelModeRequest(
  flags: { record?: string | undefined; replay?: string | undefined },
  env: NodeJS.ProcessEnv,
): ModelModeRequest | undefined | string {
  if (flags.record !== undefined && flags.replay !== undefined)
    return '--record and --replay exclude each other: record a session first, then replay it';
  for (const [mode, value] of [
    ['record', flags.record],
    ['replay', flags.replay],
  ] as const) {
    if (value === undefined) continue;
    if (value.trim() === '') return `--${mode} names a recording folder`;
    return { mode, folder: value, source: `--${mode}` };
  }
  const record = env[RECORD_ENV]?.trim();
  const replay = env[REPLAY_ENV]?.trim();
  if (record && replay) return `${RECORD_ENV} and ${REPLAY_ENV} are both set: unset one (or pass --record or --replay)`;
  if (replay) return { mode: 'replay', folder: replay, source: REPLAY_ENV };
  if (record) return { mode: 'record', folder: record, source: RECORD_ENV };
  return undefined;
}

export interface ModelSession {
  mode: ProxyMode;
  /** The folder as messages show it: relative to the command's folder. */
  display: string;
  /** Replay: how many exchanges the recording holds. */
  exchanges: number;
  /** The variables the hosts of this session get. */
  env: Record<string, string>;
  proxy: ModelProxy;
  close(): Promise<void>;
}

export interface ModelSessionOptions {
  request: ModelModeRequest;
  /** The command's folder (relative folders are resolved from it) and the workspace root. */
  cwd: string;
  workspaceRoot: string;
  /** Record: base URLs a pin can have (model-endpoints.ts `modelBaseUrls`), forward-only-to-loopback for local-only agents. */
  upstreams: readonly string[];
  loopbackOnly?: boolean;
  secrets: readonly (string | undefined)[];
  credentialShapes?: ModelProxyOptions['credentialShapes'];
  onEvent(event: ProxyEvent): void;
}

export type ModelSessionStart =
  | { ok: true; session: ModelSession }
  | { ok: false; kind: 'folder'; problem: string }
  | { ok: false; kind: 'recording'; problems: FolderProblem[] };

export async function startModelSession(options: ModelSessionOptions): Promise<ModelSessionStart> {
  const folder = resolve(options.cwd, options.request.folder);
  const display = relative(options.cwd, folder).split('\\').join('/') || '.';
  const { mode } = options.request;
  const where = `${options.request.source} ${display}`;
  let exchanges: ModelProxyOptions['exchanges'];
  if (mode === 'replay') {
    const problem = replayFolderProblem(folder, options.workspaceRoot, where);
    if (problem) return { ok: false, kind: 'folder', problem };
    const loaded = loadRecording(folder, display);
    if (loaded.problems.length > 0) return { ok: false, kind: 'recording', problems: loaded.problems };
    exchanges = loaded.exchanges;
  } else {
    const problem = recordFolderProblem(folder, options.workspaceRoot, where);
    if (problem) return { ok: false, kind: 'folder', problem };
    ensureRecordFolder(folder);
  }
  const proxy = await startModelProxy({
    mode,
    folder,
    display,
    ...(exchanges ? { exchanges } : {}),
    upstreams: options.upstreams,
    ...(options.loopbackOnly ? { loopbackOnly: true } : {}),
    secrets: options.secrets,
    ...(options.credentialShapes ? { credentialShapes: options.credentialShapes } : {}),
    onEvent: options.onEvent,
  });
  return {
    ok: true,
    session: {
      mode,
      display,
      exchanges: exchanges?.size ?? 0,
      env: { [MODEL_PROXY_ENV]: proxy.url, [MODEL_PROXY_MODE_ENV]: mode },
      proxy,
      close: () => proxy.close(),
    },
  };
}

/** Every `AGENTDEF_SECRET_*` value of the environment: secrets a recording must never hold. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => name.startsWith('AGENTDEF_SECRET_') && typeof value === 'string' && value !== '')
    .map(([, value]) => value!);
}
