/**
 * `application-check` executor (`nx run <application>:check`): checks the manifest offline (the
 * local verification of application composition) and reports every problem, located. A thin
 * shell around the application check operation (plugin/operations/application-check.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { type ApplicationCheckOptions, applicationCheck } from '../../plugin/operations/application-check';
import { checkApplicationOptions, runApplicationOperation } from '../application-options';

export interface ApplicationCheckExecutorOptions {
  /** The manifest file, relative to the workspace root. */
  manifest: string;
  /** The approved-artifacts folder of the reference gateway owner, relative to the workspace root. */
  artifacts?: string;
  /** An embedding host module admitting component packs (inferred: `component-host.mjs` beside the manifest). */
  host?: string;
  /** The entrypoint values of the offline dry-run (default: `inputs.json` beside the manifest, when there is one). */
  inputs?: string;
}

export default async function applicationCheckExecutor(
  options: ApplicationCheckExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const checked = checkApplicationOptions(options.manifest, [
    ['artifacts', options.artifacts],
    ['host', options.host],
    ['inputs', options.inputs],
  ]);
  return runApplicationOperation(
    'application-check',
    checked,
    ({ manifest, values }, io) =>
      applicationCheck({ manifest, ...(values as Omit<ApplicationCheckOptions, 'manifest'>) }, io),
    context,
  );
}
