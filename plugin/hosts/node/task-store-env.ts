/**
 * Which task store a Node host (HB3 container, local launcher) keeps its A2A tasks in: the bounded
 * in-memory store by default; the SQLite file named by `AGENTDEF_TASK_STORE` (set directly, or by
 * `agentdef run|dev <output> --task-store <file>`), which survives a restart and may be shared by
 * host processes on one machine; or PostgreSQL, shared by replicas on many machines, when the
 * value is a `postgres://` connection string or `secret:NAME` (the connection string kept as a
 * secret: on this machine the keychain or `AGENTDEF_SECRET_NAME`, in a container the variable `NAME`). A relative file path is taken from the host's
 * working folder. A connection string is never printed: messages name the store by its kind.
 */
import { resolve } from 'node:path';
import { TASK_STORE_ENV } from './task-store-option';
import type { TaskStore, TaskStoreLimits } from '../../runtime/task-store';
import { connectionStringOf, postgresEndpoint, readStoreSpec, storeLabel } from '../../postgres/store-spec';
import { openPostgresTaskStore } from './postgres-task-store';
import { openSqliteTaskStore } from './sqlite-task-store';

/** The SQLite store's bounds: larger than the in-memory default (tasks are on disk), bounded all the same. */
export const SQLITE_TASK_STORE_LIMITS: TaskStoreLimits = { maxTasks: 1000, maxBytes: 64 * 1024 * 1024 };
/** The PostgreSQL store's bounds, per agent: the SQLite store's (the same contract, a larger disk). */
export const POSTGRES_TASK_STORE_LIMITS: TaskStoreLimits = SQLITE_TASK_STORE_LIMITS;

export interface ConfiguredTaskStore {
  store?: TaskStore & { close(): unknown };
  /** How the host names the store (`SQLite /path`, `PostgreSQL`): never a connection string. */
  label?: string;
}

/** The store the environment asks for, read (secrets included) but not opened yet. */
export type TaskStoreChoice =
  | { kind: 'memory' }
  | { kind: 'file'; path: string; label: string }
  | {
      kind: 'postgres';
      url: string;
      /** `host:port` of the database: the host's network guard lets the store's sockets reach it. */
      endpoint: string;
      label: string;
    };

/**
 * What `AGENTDEF_TASK_STORE` asks for: memory (unset), a SQLite file, or PostgreSQL with its
 * connection string read (a `secret:` one through `secrets`); or the one-line problem that must
 * stop the host from starting. Nothing is opened or connected yet (the host's network guard is
 * armed with the database's endpoint first).
 */
export async function taskStoreChoice(
  env: NodeJS.ProcessEnv,
  secrets: { get(name: string): Promise<string | undefined> },
  howToProvide: (name: string) => string,
  cwd = process.cwd(),
): Promise<TaskStoreChoice | { problem: string }> {
  const value = env[TASK_STORE_ENV];
  if (value === undefined || value === '') return { kind: 'memory' };
  const unset = `(or unset ${TASK_STORE_ENV} to keep tasks in memory)`;
  const spec = readStoreSpec(value);
  if (spec.kind === 'invalid') return { problem: `${TASK_STORE_ENV}: ${spec.message} ${unset}` };
  if (spec.kind === 'file') return { kind: 'file', path: resolve(cwd, spec.path), label: storeLabel(spec) };
  const url = await connectionStringOf(spec, (name) => secrets.get(name), howToProvide);
  if (!url.ok) return { problem: `${TASK_STORE_ENV}: ${url.message} ${unset}` };
  const endpoint = postgresEndpoint(url.url);
  if ('problem' in endpoint) return { problem: `${TASK_STORE_ENV}: ${endpoint.problem} ${unset}` };
  return { kind: 'postgres', url: url.url, endpoint: endpoint.endpoint, label: storeLabel(spec) };
}

/** Opens the chosen store for the agent `agentSlug` (a version upgrade keeps its tasks). */
export async function openTaskStore(
  choice: TaskStoreChoice,
  agentSlug: string,
  options: { socket?: () => unknown } = {},
): Promise<ConfiguredTaskStore | { problem: string }> {
  const unset = `(or unset ${TASK_STORE_ENV} to keep tasks in memory)`;
  if (choice.kind === 'memory') return {};
  if (choice.kind === 'file') {
    const opened = openSqliteTaskStore(choice.path, SQLITE_TASK_STORE_LIMITS, { owner: agentSlug });
    return opened.ok
      ? { store: opened.store, label: choice.label }
      : { problem: `${TASK_STORE_ENV}: ${opened.message} ${unset}` };
  }
  const opened = await openPostgresTaskStore(choice.url, POSTGRES_TASK_STORE_LIMITS, {
    owner: agentSlug,
    ...(options.socket ? { socket: options.socket } : {}),
  });
  return opened.ok
    ? { store: opened.store, label: choice.label }
    : { problem: `${TASK_STORE_ENV}: ${opened.message} ${unset}` };
}

/** `taskStoreChoice`, then `openTaskStore` (a process with no network guard to arm in between). */
export async function taskStoreFromEnv(
  env: NodeJS.ProcessEnv,
  agentSlug: string,
  secrets: { get(name: string): Promise<string | undefined> },
  howToProvide: (name: string) => string,
  cwd = process.cwd(),
): Promise<ConfiguredTaskStore | { problem: string }> {
  const choice = await taskStoreChoice(env, secrets, howToProvide, cwd);
  return 'problem' in choice ? choice : openTaskStore(choice, agentSlug);
}

export { TASK_STORE_ENV };
