/**
 * `application-plan` executor (`nx run <application>:plan`): verifies the manifest and prints its
 * application plan and plan digest (`--mode=live` plans for a live run; `--format=json` prints the
 * plan itself). A thin shell around the application plan operation (plugin/operations/application-run.ts).
 */
import type { ExecutorContext } from '@nx/devkit';
import { type ApplicationPlanOptions, applicationPlan } from '../../plugin/operations/application-run';
import { checkApplicationOptions, runApplicationOperation } from '../application-options';

export interface ApplicationPlanExecutorOptions {
  /** The manifest file, relative to the workspace root. */
  manifest: string;
  mode?: 'dry-run' | 'live';
  format?: 'text' | 'json';
  /** The approved-artifacts folder of the reference gateway owner, relative to the workspace root. */
  artifacts?: string;
  /** An embedding host module admitting component packs (inferred: `component-host.mjs` beside the manifest). */
  host?: string;
}

export default async function applicationPlanExecutor(
  options: ApplicationPlanExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const checked = checkApplicationOptions(options.manifest, [
    ['mode', options.mode],
    ['format', options.format],
    ['artifacts', options.artifacts],
    ['host', options.host],
  ]);
  return runApplicationOperation(
    'application-plan',
    checked,
    ({ manifest, values }, io) => {
      const {
        mode = 'dry-run',
        format = 'text',
        ...host
      } = values as Partial<Omit<ApplicationPlanOptions, 'manifest'>>;
      return applicationPlan({ manifest, mode, format, ...host }, io);
    },
    context,
  );
}
