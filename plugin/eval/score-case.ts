/**
 * Scores: one case from what its run did (`scoreCase`), and a whole run (`scoreRun`: totals, pass
 * rate against the threshold, and invariant coverage: every invariant of the definition is
 * scored by some case's `invariant` assertion, or listed as unscored).
 *
 * - An assertion scores 0..1 (a deterministic one 0 or 1; a model-graded one the grader's score)
 *   and passes or fails; a case's score is the weighted mean (`weight`, default 1; all weights 0:
 *   1 when it passed, else 0) and it passes when every assertion passes and the run did not fail.
 * - Scores are rounded to 4 decimals, so reports and receipts say the same on every machine.
 * - Every detail, reasoning and error message is scrubbed of the run's secret values (the
 *   runner's `Redactor`, runtime/redact.ts) and capped in length before it is kept.
 */
import type { Redactor } from '../runtime/redact';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import type { Assertion } from '../schema/generated/eval-cases.types';
import { type AssertionOutcome, checkDeterministic, checkModelGraded, round } from './assertions';
import { invariantIndex } from './eval-definition-checks';
import type { EvalObservation, Grade } from './observation';
import type { LocatedEvalCase } from './parse-eval-cases';

export interface AssertionResult {
  /** The assertion's `id`, or `<index>-<type>`. */
  id: string;
  type: Assertion['type'];
  passed: boolean;
  score: number;
  weight: number;
  detail: string;
  /** Model-graded: the grader (pin name or model id) and its reasoning. */
  grader?: string;
  reasoning?: string;
}

export interface CaseCost {
  /** The agent's run (grader calls not counted). */
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  /** The grader calls of the case's model-graded assertions. */
  graderInputTokens: number;
  graderOutputTokens: number;
  graderCalls: number;
}

export interface CaseResult {
  caseId: string;
  /** The cases file, as diagnostics name it. */
  file: string;
  passed: boolean;
  score: number;
  assertions: AssertionResult[];
  latencyMs: number;
  cost: CaseCost;
  /** The run failed: why (code and scrubbed message). */
  error?: { code: string; message: string };
  runId?: string;
  receiptDigest?: string;
}

export interface ScoreOptions {
  /** Scrubs the run's secret values from every kept string (the runner holds them). */
  redactor?: Redactor;
}

export const MAX_DETAIL = 500;
export const MAX_REASONING = 4000;

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function assertionId(assertion: Assertion, index: number): string {
  return assertion.id ?? `${index}-${assertion.type}`;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Scores one case. Never throws (a grader that throws fails its assertion). */
export async function scoreCase(
  evalCase: LocatedEvalCase,
  observation: EvalObservation,
  grade: Grade,
  definition: AgentDefinition,
  options: ScoreOptions = {},
): Promise<CaseResult> {
  const scrub = (text: string, max: number) => capped(options.redactor ? options.redactor.text(text) : text, max);
  const assertions: AssertionResult[] = [];
  const cost: CaseCost = {
    inputTokens: count(observation.usage?.inputTokens),
    outputTokens: count(observation.usage?.outputTokens),
    modelCalls: count(observation.modelCalls),
    graderInputTokens: 0,
    graderOutputTokens: 0,
    graderCalls: 0,
  };
  for (const [index, assertion] of evalCase.value.assertions.entries()) {
    let outcome: AssertionOutcome;
    try {
      outcome =
        assertion.type === 'invariant' || assertion.type === 'rubric'
          ? await checkModelGraded(
              assertion,
              evalCase.value,
              observation,
              grade,
              definition,
              evalCase.fileGrader,
              evalCase.fileGraders,
            )
          : checkDeterministic(assertion, evalCase.value, observation);
    } catch {
      outcome = { passed: false, score: 0, detail: 'the assertion could not be checked' };
    }
    if (outcome.graderUsage !== undefined) {
      cost.graderCalls++;
      cost.graderInputTokens += count(outcome.graderUsage.inputTokens);
      cost.graderOutputTokens += count(outcome.graderUsage.outputTokens);
    }
    assertions.push({
      id: assertionId(assertion, index),
      type: assertion.type,
      passed: outcome.passed,
      score: round(outcome.score),
      weight: assertion.weight ?? 1,
      detail: scrub(outcome.detail, MAX_DETAIL),
      ...(outcome.grader !== undefined ? { grader: scrub(outcome.grader, 256) } : {}),
      ...(outcome.reasoning !== undefined ? { reasoning: scrub(outcome.reasoning, MAX_REASONING) } : {}),
    });
  }
  const error =
    observation.error !== undefined
      ? {
          code: scrub(String(observation.error.code), 128),
          message: scrub(String(observation.error.message), MAX_DETAIL),
        }
      : undefined;
  const passed = error === undefined && assertions.every((a) => a.passed);
  const totalWeight = assertions.reduce((sum, a) => sum + a.weight, 0);
  const score =
    totalWeight > 0 ? round(assertions.reduce((sum, a) => sum + a.weight * a.score, 0) / totalWeight) : passed ? 1 : 0;
  return {
    caseId: evalCase.value.id,
    file: evalCase.file,
    passed,
    score,
    assertions,
    latencyMs: count(observation.latencyMs),
    cost,
    ...(error !== undefined ? { error } : {}),
    ...(observation.runId !== undefined ? { runId: scrub(String(observation.runId), 128) } : {}),
    ...(observation.receiptDigest !== undefined ? { receiptDigest: String(observation.receiptDigest) } : {}),
  };
}

export interface RunTotals {
  cases: number;
  passed: number;
  failed: number;
  /** passed / cases; 0 with no cases (an eval of nothing never passes). */
  passRate: number;
  /** The mean of the cases' scores (0 with no cases). */
  score: number;
  assertions: number;
  assertionsPassed: number;
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  graderInputTokens: number;
  graderOutputTokens: number;
  graderCalls: number;
}

export interface InvariantCoverage {
  /** Every invariant of the definition, with the cases that score it (an `invariant` assertion, or any assertion's `covers`). */
  invariants: { index: number; text: string; cases: string[] }[];
  /** The texts of the invariants no case scores. */
  unscored: string[];
  /** Their 0-based indices. */
  unscoredIndices: number[];
}

export interface RunScore {
  totals: RunTotals;
  threshold: number;
  /** passRate >= threshold (and at least one case). */
  passed: boolean;
  coverage: InvariantCoverage;
}

/** Which invariants the cases score, and which none does. */
export function invariantCoverage(cases: readonly LocatedEvalCase[], definition: AgentDefinition): InvariantCoverage {
  const invariants = definition.capabilityContract.invariants.map((text, index) => ({
    index,
    text,
    cases: [] as string[],
  }));
  for (const evalCase of cases)
    for (const assertion of evalCase.value.assertions) {
      const named = [...(assertion.type === 'invariant' ? [assertion.invariant] : []), ...(assertion.covers ?? [])];
      for (const invariant of named) {
        const index = invariantIndex(definition, invariant);
        const entry = index === undefined ? undefined : invariants[index];
        if (entry !== undefined && !entry.cases.includes(evalCase.value.id)) entry.cases.push(evalCase.value.id);
      }
    }
  const unscored = invariants.filter((i) => i.cases.length === 0);
  return { invariants, unscored: unscored.map((i) => i.text), unscoredIndices: unscored.map((i) => i.index) };
}

/** Totals, pass rate against `threshold` (0..1, the share of cases that must pass), and coverage. */
export function scoreRun(
  results: readonly CaseResult[],
  cases: readonly LocatedEvalCase[],
  definition: AgentDefinition,
  threshold = 1,
): RunScore {
  const sum = (pick: (r: CaseResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const passedCases = results.filter((r) => r.passed).length;
  const passRate = results.length === 0 ? 0 : round(passedCases / results.length);
  const totals: RunTotals = {
    cases: results.length,
    passed: passedCases,
    failed: results.length - passedCases,
    passRate,
    score: results.length === 0 ? 0 : round(sum((r) => r.score) / results.length),
    assertions: sum((r) => r.assertions.length),
    assertionsPassed: sum((r) => r.assertions.filter((a) => a.passed).length),
    inputTokens: sum((r) => r.cost.inputTokens),
    outputTokens: sum((r) => r.cost.outputTokens),
    modelCalls: sum((r) => r.cost.modelCalls),
    graderInputTokens: sum((r) => r.cost.graderInputTokens),
    graderOutputTokens: sum((r) => r.cost.graderOutputTokens),
    graderCalls: sum((r) => r.cost.graderCalls),
  };
  const bounded = Number.isFinite(threshold) ? Math.min(1, Math.max(0, threshold)) : 1;
  return {
    totals,
    threshold: bounded,
    passed: results.length > 0 && passRate >= bounded,
    coverage: invariantCoverage(cases, definition),
  };
}
