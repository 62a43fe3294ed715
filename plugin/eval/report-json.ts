/**
 * `eval.json`: the whole eval run for CI and tools, deterministic: keys in a fixed order, cases in
 * the order they were loaded, scores rounded (score-case.ts), no clock, host name or absolute path
 * (files are named as the loader names them, relative to the workspace). Latencies are the
 * measured ones. Secret values were scrubbed by the scorer; JSON.stringify escapes control
 * characters and lone surrogates, so any answer text stays valid JSON.
 */
import type { CaseResult, RunScore } from './score-case';

export const EVAL_REPORT_VERSION = 'eval-report/v1';

export interface EvalReportInput {
  definition: { slug: string; version: string; digest: string };
  /** `evalCasesDigest` of the cases scored. */
  casesDigest: string;
  /** The cases files, as the loader names them. */
  files: readonly string[];
  results: readonly CaseResult[];
  run: RunScore;
}

function caseEntry(result: CaseResult) {
  return {
    id: result.caseId,
    file: result.file,
    passed: result.passed,
    score: result.score,
    latencyMs: result.latencyMs,
    cost: { ...result.cost },
    ...(result.error !== undefined ? { error: { code: result.error.code, message: result.error.message } } : {}),
    ...(result.runId !== undefined ? { runId: result.runId } : {}),
    ...(result.receiptDigest !== undefined ? { receiptDigest: result.receiptDigest } : {}),
    assertions: result.assertions.map((a) => ({
      id: a.id,
      type: a.type,
      passed: a.passed,
      score: a.score,
      weight: a.weight,
      detail: a.detail,
      ...(a.grader !== undefined ? { grader: a.grader } : {}),
      ...(a.reasoning !== undefined ? { reasoning: a.reasoning } : {}),
    })),
  };
}

/** The report as an object, in its fixed key order. */
export function evalReport(input: EvalReportInput) {
  const { run } = input;
  return {
    reportVersion: EVAL_REPORT_VERSION,
    definition: { slug: input.definition.slug, version: input.definition.version, digest: input.definition.digest },
    casesDigest: input.casesDigest,
    files: [...input.files],
    threshold: run.threshold,
    passed: run.passed,
    totals: { ...run.totals },
    invariants: run.coverage.invariants.map((i) => ({ index: i.index, text: i.text, cases: [...i.cases] })),
    unscoredInvariants: [...run.coverage.unscored],
    cases: input.results.map(caseEntry),
  };
}

/** `eval.json`'s text: two-space indented, ending in a newline. */
export function evalReportJson(input: EvalReportInput): string {
  return `${JSON.stringify(evalReport(input), null, 2)}\n`;
}
