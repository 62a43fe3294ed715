/**
 * Where `agentdef eval` writes and what it names its files, apart from the operation so that
 * `agentdef promote --require-eval` (and the Nx graph) find the receipt without loading the runner.
 */
import { join } from 'node:path';

/** Where `agentdef eval` writes, below the workspace root, when `--out` is not given: `<root>/<slug>`. */
export const EVAL_OUTPUT_ROOT = 'dist/eval';
/** The recordings folder beside a definition that `agentdef eval` replays when no other is named. */
export const EVAL_RECORDINGS_FOLDER = 'recordings';
/** The cases folder beside a definition. */
export const EVAL_CASES_FOLDER = 'evals';
export const EVAL_JSON_FILE = 'eval.json';
export const EVAL_JUNIT_FILE = 'junit.xml';
export const EVAL_RECEIPT_FILE = 'eval.receipt.json';
/** The compile output eval serves, inside its output folder. */
export const EVAL_BUILD_FOLDER = 'build';

/** The default output folder of a slug, workspace-relative, posix. */
export function defaultEvalOutput(slug: string): string {
  return join(EVAL_OUTPUT_ROOT, slug).split('\\').join('/');
}

/** The signed tool benchmark events `agentdef bench-tool` writes (and `agentdef eval` of a tool-only agent). */
export const TOOL_BENCHMARK_EVENTS_FILE = 'tool-benchmark-events.json';
/** Where `agentdef bench-tool` writes, below the workspace root, when `--out` is not given: `<root>/<slug>`. */
export const BENCH_OUTPUT_ROOT = 'dist/bench';

/** The default output folder of `agentdef bench-tool` for a slug, workspace-relative, posix. */
export function defaultBenchOutput(slug: string): string {
  return join(BENCH_OUTPUT_ROOT, slug).split('\\').join('/');
}
