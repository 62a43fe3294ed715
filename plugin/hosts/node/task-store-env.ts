/**
 * Which task store a Node host (HB3 container, local launcher) keeps its A2A tasks in: the bounded
 * in-memory store by default, or the SQLite file named by `AGENTDEF_TASK_STORE` (set directly, or
 * by `agentdef run <output> --task-store <file>`), which survives a restart and may be shared by
 * several host processes of the same agent. A relative path is taken from the host's working folder.
 */
import { resolve } from 'node:path';
import type { TaskStoreLimits } from '../../runtime/task-store';
import { openSqliteTaskStore, type SqliteTaskStore } from './sqlite-task-store';

export const TASK_STORE_ENV = 'AGENTDEF_TASK_STORE';

/** The SQLite store's bounds: larger than the in-memory default (tasks are on disk), bounded all the same. */
export const SQLITE_TASK_STORE_LIMITS: TaskStoreLimits = { maxTasks: 1000, maxBytes: 64 * 1024 * 1024 };

/**
 * The store the environment configures for the agent `agentSlug` (a version upgrade keeps its file): none (keep tasks in memory), an open SQLite
 * store, or the one-line problem that must stop the host from starting.
 */
export function taskStoreFromEnv(
  env: NodeJS.ProcessEnv,
  agentSlug: string,
  cwd = process.cwd(),
): { store?: SqliteTaskStore } | { problem: string } {
  const file = env[TASK_STORE_ENV];
  if (file === undefined || file === '') return {};
  const opened = openSqliteTaskStore(resolve(cwd, file), SQLITE_TASK_STORE_LIMITS, { owner: agentSlug });
  return opened.ok
    ? { store: opened.store }
    : { problem: `${TASK_STORE_ENV}: ${opened.message} (or unset ${TASK_STORE_ENV} to keep tasks in memory)` };
}
