/**
 * The fixed names and settings of the Cloudflare Worker output: file names, binding names the
 * adapter adds, the compatibility date (a constant, never the clock), the virtual import
 * specifiers the generated `src/` uses and the defaults of the size budget.
 */
import { AGENTDEF_MODULES } from '../../compiler/bundler';
import { TASK_STORE } from '../../host-contract/worker-host-plan';

export const COMPATIBILITY_DATE = '2026-04-26';
export const COMPATIBILITY_FLAGS: readonly string[] = [];

/** Cloudflare's Worker size limit on the free plan: the default bundle budget. */
export const DEFAULT_MAX_BUNDLE_BYTES = 3 * 1024 * 1024;

export const FILES = {
  worker: 'worker.js',
  workerMap: 'worker.js.map',
  hostPlan: 'host-plan.json',
  loader: 'loader.js',
  wrangler: 'wrangler.jsonc',
  agentCard: 'agent-card.json',
} as const;

/** Where generated modules live in the output (and in the source map). */
export const SRC_DIR = 'src';

/** Import specifiers of the generated `src/`: agentdef's modules (the bundler resolves them) and the isolates' code. */
export const SPECIFIERS = {
  runtime: AGENTDEF_MODULES.runtime,
  workerHost: AGENTDEF_MODULES.workerHost,
  /** + the tools.json module path without `./`: a module of the workspace. */
  workspace: AGENTDEF_MODULES.workspace,
  /** + `<index>-<slug>`: the bundled code of a quarantined child's isolate, as text. */
  isolate: 'agentdef:isolate/',
} as const;

/** Bindings the adapter adds beside the ones the definitions declare. */
export const BINDINGS = {
  receiptSink: 'AGENTDEF_RECEIPTS',
  loader: 'LOADER',
  isolates: 'AGENTDEF_ISOLATES',
  /** The agent's task store (a Durable Object namespace; the loader's `AgentdefTasks` under the loader). */
  tasks: TASK_STORE.binding,
} as const;

/** The origin the static agent-card.json names until the Worker is deployed (the served card uses the request's origin). */
export const PLACEHOLDER_ORIGIN_SUFFIX = '.workers.dev.invalid';
