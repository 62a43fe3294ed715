/**
 * What `agentdef eval` observed of one case's run, and how a model-graded assertion asks for a
 * verdict: the interface between the runner (`plugin/operations/eval.ts`, which serves the agent
 * and runs each case) and the scorer (`score-case.ts`, which judges an observation against the
 * case's assertions). Nothing here runs anything.
 */

import type { GraderPin } from '../schema/generated/eval-cases.types';

/** One criterion's verdict; the same shape as `CriterionVerdict` in `plugin/runtime/hybrid/grade.ts`. */
export interface GradeCriterionVerdict {
  /** 0-based index into the criteria the grader was given. */
  index: number;
  pass: boolean;
  reason: string;
}

/** A grader's verdict; the same shape as `Verdict` in `plugin/runtime/hybrid/grade.ts` (`readVerdict`). */
export interface GradeVerdict {
  pass: boolean;
  /** 0..1 */
  score: number;
  critique: string;
  criteria: GradeCriterionVerdict[];
}

export interface EvalToolCall {
  name: string;
  ok: boolean;
  errorCode?: string;
}

export interface EvalObservation {
  caseId: string;
  /** The agent's answer; absent when the run failed before answering. */
  answer?: { text: string; data?: unknown };
  /** Why the run failed, when it did (an A2A/JSON-RPC error or a failed task's status). */
  error?: { code: string; message: string };
  /** The run's stop reason (`completed`, `max_steps`, `wall_clock`, ...). */
  stopReason: string;
  latencyMs: number;
  usage: { inputTokens: number; outputTokens: number };
  /** Every model call of the run (route, answer, evaluate, summarise); grader calls are not counted. */
  modelCalls: number;
  toolCalls: EvalToolCall[];
  /** Hosts the run tried to reach outside its allow-list. */
  egressBlocked: string[];
  runId?: string;
  /** `sha-256:<hex>` of the run receipt's RFC 8785 canonical JSON, when the run was signed (bare hex accepted). */
  receiptDigest?: string;
}

export interface GradeRequest {
  /** What the answer must satisfy, in order (invariant texts or a rubric's lines). */
  criteria: string[];
  /** The task the answer responds to: the case's input as the agent's model sees it (runtime/agent-loop.ts `taskText`: the text, then its data part as JSON). */
  task: string;
  answer: string;
  /** The grader's name (a file grader's or `modelSet[].name`, or a pin's `modelId`); absent = the definition's `evaluator` pin. */
  grader?: string;
  /** Set when `grader` names one of the cases file's own `graders`: the model to call (else resolve `grader` in the definition's modelSet). */
  pin?: GraderPin;
}

export interface GradeResult {
  /** Undefined when the grader's reply held no readable verdict (never taken as a pass). */
  verdict?: GradeVerdict;
  /** Which grader judged: the pin name, or the model id when the pin has no name. */
  grader: string;
  /** The grader's reasoning as kept in reports: the verdict's critique and per-criterion reasons, or the raw reply. */
  reasoning: string;
  usage: { inputTokens: number; outputTokens: number };
  /** A grader call that failed (no such pin, transport error); the assertion fails with this detail. */
  error?: { code: string; message: string };
}

/** Judges an answer against criteria with a grader model. Must not throw: failures go in `error`. */
export type Grade = (request: GradeRequest) => Promise<GradeResult>;
