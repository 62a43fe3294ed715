/** What a Worker output needs to be served: the secrets its host plan binds. */
import { readJsonOrUndefined } from '../read-output-json';
import type { OutputNeeds } from '../target';
import { FILES } from './worker-constants';

export function workerNeeds(outDir: string): OutputNeeds {
  const hostPlan = readJsonOrUndefined(outDir, FILES.hostPlan) as
    | { bindings?: { kind?: string; name?: string }[] }
    | undefined;
  return {
    secretNames: (hostPlan?.bindings ?? [])
      .filter((b) => b.kind === 'secret-ref' && typeof b.name === 'string')
      .map((b) => b.name!),
    localOnly: false,
  };
}
