/** What a local launcher needs to run: the secrets its manifest names, and whether it reaches only local models. */
import { LAUNCHER_MANIFEST } from '../../host-contract/output-files';
import { readJsonOrUndefined } from '../read-output-json';
import type { OutputNeeds } from '../target';

export function launcherNeeds(outDir: string): OutputNeeds {
  const launcher = readJsonOrUndefined(outDir, LAUNCHER_MANIFEST) as
    | { secrets?: unknown[]; localOnly?: unknown }
    | undefined;
  return {
    secretNames: (launcher?.secrets ?? []).filter((name): name is string => typeof name === 'string'),
    localOnly: launcher?.localOnly === true,
  };
}
