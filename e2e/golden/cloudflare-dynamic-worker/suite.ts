/**
 * The Worker adapter's golden files: the generated `src/` and `host-plan.json` of four examples
 * (a tool-only leaf, an agentic leaf, a two-level dag with quarantine, a hybrid leaf whose classifier,
 * specialists and evaluator reach two providers). In `host-plan.json` the
 * bundled code and the digests of bundled code are replaced by markers: they change with every
 * runtime change, and compiled-output.test.ts checks them against `worker.js` itself.
 */
import type { EmittedFile } from '../../../plugin/targets/target';
import type { GoldenSuite } from '../golden-suite';

export const CODE_MARKER = '<bundled code: see worker.js>';
export const DIGEST_MARKER = '<digest of bundled code>';

/** host-plan.json without the bytes of bundled code. */
export function normalisedHostPlan(text: string): string {
  const plan = JSON.parse(text) as {
    id: string;
    workerCode: { modules: Record<string, string> };
    isolates: { codeDigest: string }[];
  };
  for (const name of Object.keys(plan.workerCode.modules)) plan.workerCode.modules[name] = CODE_MARKER;
  plan.id = plan.id.replace(/:[0-9a-f]{16}$/, `:${DIGEST_MARKER}`);
  for (const isolate of plan.isolates) isolate.codeDigest = DIGEST_MARKER;
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export const suite: GoldenSuite = {
  target: 'cloudflare-dynamic-worker',
  examples: ['text-stats', 'web-summarizer', 'text-digest', 'support-triage'],
  select(files: readonly EmittedFile[]) {
    const out = new Map<string, string>();
    for (const file of files) {
      if (file.path.startsWith('src/')) out.set(file.path, file.contents);
      else if (file.path === 'host-plan.json') out.set(file.path, normalisedHostPlan(file.contents));
    }
    return out;
  },
};
