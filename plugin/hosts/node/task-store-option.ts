/**
 * The task store option as the CLI reads it (`agentdef run|dev --task-store`, the variable it sets):
 * light, so the commands name it without loading the stores.
 */
import { resolve } from 'node:path';
import { readStoreSpec } from '../../postgres/store-spec';

export const TASK_STORE_ENV = 'AGENTDEF_TASK_STORE';

/**
 * What `--task-store <value>` sets `AGENTDEF_TASK_STORE` to: a file path made absolute from `cwd`,
 * a connection string or `secret:NAME` as given; or the one-line problem (never quoting the value).
 */
export function taskStoreEnvValue(value: string, cwd: string): { value: string } | { problem: string } {
  if (value === '')
    return {
      problem: '--task-store names a file (the host creates it), a postgres:// connection string or secret:NAME',
    };
  const spec = readStoreSpec(value);
  if (spec.kind === 'invalid') return { problem: `--task-store: ${spec.message}` };
  return { value: spec.kind === 'file' ? resolve(cwd, spec.path) : value };
}
