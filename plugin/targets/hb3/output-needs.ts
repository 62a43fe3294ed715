/** What an HB3 output needs to run: the secrets its job spec references. */
import { JOB_FILE } from '../../host-contract/output-files';
import { readJsonOrUndefined } from '../read-output-json';
import type { OutputNeeds } from '../target';

export function jobNeeds(outDir: string): OutputNeeds {
  const job = readJsonOrUndefined(outDir, JOB_FILE) as { env?: { secretRef?: { name?: string } }[] } | undefined;
  return {
    secretNames: (job?.env ?? []).flatMap((e) => (typeof e.secretRef?.name === 'string' ? [e.secretRef.name] : [])),
    localOnly: false,
  };
}
