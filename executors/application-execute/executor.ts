/**
 * `application-execute` executor (`nx run <application>:execute`): plans the manifest (or takes
 * `--expect`, the plan digest the caller accepted), then executes it step by step with the given
 * entrypoint values, dry-run unless `--mode=live`. A thin shell around the application execute
 * operation (plugin/operations/application-run.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { type ApplicationExecuteOptions, applicationExecute } from '../../plugin/operations/application-run';
import { checkApplicationOptions, runApplicationOperation } from '../application-options';

export interface ApplicationExecuteExecutorOptions {
  /** The manifest file, relative to the workspace root. */
  manifest: string;
  mode?: 'dry-run' | 'live';
  /** Entrypoint values, each `node.port=<json>` (one string, or a list). */
  input?: string | string[];
  /** A JSON file of entrypoint values, relative to the workspace root (default, when neither `input` nor `inputs` is given: `inputs.json` beside the manifest, when there is one). */
  inputs?: string;
  /** The idempotency key: the same key with the same plan, mode and inputs replays the recorded run. */
  key?: string;
  /** The plan digest the caller accepted; any other digest now is drift. */
  expect?: string;
  format?: 'text' | 'json';
  /** The approved-artifacts folder of the reference gateway owner, relative to the workspace root. */
  artifacts?: string;
  /** An embedding host module admitting component packs (inferred: `component-host.mjs` beside the manifest). */
  host?: string;
  /** The durable (SQLite) execution ledger file, relative to the workspace root; or `secret:NAME` / `postgres://…` (PostgreSQL). */
  ledger?: string;
}

export default async function applicationExecuteExecutor(
  options: ApplicationExecuteExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const checked = checkApplicationOptions(options.manifest, [
    ['mode', options.mode],
    ['input', options.input],
    ['inputs', options.inputs],
    ['key', options.key],
    ['expect', options.expect],
    ['format', options.format],
    ['artifacts', options.artifacts],
    ['host', options.host],
    ['ledger', options.ledger],
  ]);
  return runApplicationOperation(
    'application-execute',
    checked,
    ({ manifest, values }, io) => {
      const {
        mode = 'dry-run',
        format = 'text',
        ...rest
      } = values as Partial<Omit<ApplicationExecuteOptions, 'manifest'>>;
      return applicationExecute({ manifest, mode, format, ...rest }, io);
    },
    context,
  );
}
