/**
 * Each assertion kind of an eval case, judged against what the run did (observation.ts):
 * deterministic kinds here are pure and synchronous; `invariant` and `rubric` ask a `Grade`
 * (the same prompt and verdict format as the runtime's evaluator pin: runtime/hybrid/grade.ts) and
 * keep the grader's reasoning. A detail says what was found in words, quoting at most a short
 * excerpt of the answer; the scorer (score-case.ts) scrubs secrets from every detail and reasoning.
 * Nothing here throws: a grader that throws or answers nothing readable fails its assertion.
 */
import { taskText } from '../runtime/agent-loop';
import { canonicalize } from '../runtime/jcs';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import type {
  Assertion,
  AssertInvariant,
  AssertRubric,
  EvalCase,
  GraderPin,
} from '../schema/generated/eval-cases.types';
import { defaultGrader, fileGraderPin, invariantIndex } from './eval-definition-checks';
import type { EvalObservation, Grade, GradeResult } from './observation';
import { checkOutput, compileOutputSchema } from './output-schema';
import { compileSafeRegex } from './safe-regex';

export interface AssertionOutcome {
  passed: boolean;
  /** 0..1 */
  score: number;
  detail: string;
  /** Model-graded: who judged, and what they said. */
  grader?: string;
  reasoning?: string;
  /** Model-graded: what the grader call cost. */
  graderUsage?: { inputTokens: number; outputTokens: number };
}

/** Answers longer than this are not parsed as JSON for `equals` and `json-schema`. */
export const MAX_JSON_ANSWER = 1_000_000;
const EXCERPT = 80;

/** A short, single-line excerpt of a text for a detail. */
export function excerpt(text: string, max = EXCERPT): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

const pass = (detail: string): AssertionOutcome => ({ passed: true, score: 1, detail });
const fail = (detail: string): AssertionOutcome => ({ passed: false, score: 0, detail });

function noAnswer(observation: EvalObservation): AssertionOutcome {
  return fail(
    observation.error !== undefined
      ? `the run gave no answer (${observation.error.code})`
      : `the run gave no answer (stopped: ${observation.stopReason})`,
  );
}

type Data = { ok: true; value: unknown } | { ok: false; detail: string };

/** The answer as JSON: its data part, else its text parsed as JSON. */
function answerData(answer: { text: string; data?: unknown }): Data {
  if (answer.data !== undefined) return { ok: true, value: answer.data };
  if (answer.text.length > MAX_JSON_ANSWER)
    return { ok: false, detail: `the answer is longer than ${MAX_JSON_ANSWER} characters; it is not read as JSON` };
  try {
    return { ok: true, value: JSON.parse(answer.text) };
  } catch {
    return { ok: false, detail: 'the answer has no data part and its text is not JSON' };
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
}

function checkEquals(value: unknown, answer: { text: string; data?: unknown }): AssertionOutcome {
  if (typeof value === 'string')
    return answer.text === value
      ? pass('the answer equals the expected text')
      : fail(`the answer ${excerpt(answer.text)} is not the expected text ${excerpt(value)}`);
  const data = answerData(answer);
  if (!data.ok) return fail(data.detail);
  return sameJson(data.value, value)
    ? pass('the answer equals the expected data')
    : fail("the answer's data differs from the expected data");
}

function contains(text: string, value: string, caseSensitive: boolean | undefined): boolean {
  return caseSensitive === false ? text.toLowerCase().includes(value.toLowerCase()) : text.includes(value);
}

/** A deterministic assertion's outcome (not `invariant` or `rubric`). */
export function checkDeterministic(
  assertion: Exclude<Assertion, AssertInvariant | AssertRubric>,
  evalCase: EvalCase,
  observation: EvalObservation,
): AssertionOutcome {
  const answer = observation.answer;
  switch (assertion.type) {
    case 'equals': {
      if (answer === undefined) return noAnswer(observation);
      const expected = evalCase.expected as { text?: string; data?: unknown } | undefined;
      const value = assertion.value !== undefined ? (assertion.value as unknown) : (expected?.text ?? expected?.data);
      if (value === undefined) return fail('nothing to compare with: no `value` and no `expected`');
      return checkEquals(value, answer);
    }
    case 'contains':
    case 'not-contains': {
      if (answer === undefined) return noAnswer(observation);
      const found = contains(answer.text, assertion.value, assertion.caseSensitive);
      const wanted = assertion.type === 'contains';
      if (found === wanted)
        return pass(`the answer ${found ? 'contains' : 'does not contain'} ${excerpt(assertion.value)}`);
      return fail(`the answer ${found ? 'contains' : 'does not contain'} ${excerpt(assertion.value)}`);
    }
    case 'regex': {
      if (answer === undefined) return noAnswer(observation);
      const compiled = compileSafeRegex(assertion.pattern, assertion.flags ?? '');
      if (!compiled.ok) return fail(compiled.message);
      const { regex, maxInput, engine } = compiled.value;
      if (answer.text.length > maxInput)
        return fail(
          `the answer has ${answer.text.length} characters; this pattern (${engine} engine) is matched against at most ${maxInput}`,
        );
      return regex.test(answer.text)
        ? pass(`the answer matches /${assertion.pattern}/${assertion.flags ?? ''}`)
        : fail(`the answer ${excerpt(answer.text)} does not match /${assertion.pattern}/${assertion.flags ?? ''}`);
    }
    case 'json-schema': {
      if (answer === undefined) return noAnswer(observation);
      const compiled = compileOutputSchema(assertion.schema);
      if (!compiled.ok) return fail(compiled.problems[0]?.message ?? 'the schema does not compile');
      const data = answerData(answer);
      if (!data.ok) return fail(data.detail);
      const checked = checkOutput(compiled.validate, data.value);
      return checked.ok ? pass(checked.detail) : fail(checked.detail);
    }
    case 'max-length': {
      if (answer === undefined) return noAnswer(observation);
      let chars = 0;
      for (const _ of answer.text) chars++;
      return chars <= assertion.chars
        ? pass(`the answer has ${chars} characters (at most ${assertion.chars})`)
        : fail(`the answer has ${chars} characters, more than ${assertion.chars}`);
    }
    case 'max-latency':
      return observation.latencyMs <= assertion.ms
        ? pass(`the run took ${observation.latencyMs} ms (at most ${assertion.ms})`)
        : fail(`the run took ${observation.latencyMs} ms, more than ${assertion.ms}`);
    case 'max-cost': {
      const tokens = observation.usage.inputTokens + observation.usage.outputTokens;
      const over: string[] = [];
      if (assertion.tokens !== undefined && tokens > assertion.tokens)
        over.push(`${tokens} tokens, more than ${assertion.tokens}`);
      if (assertion.modelCalls !== undefined && observation.modelCalls > assertion.modelCalls)
        over.push(`${observation.modelCalls} model calls, more than ${assertion.modelCalls}`);
      return over.length === 0
        ? pass(`the run used ${tokens} tokens in ${observation.modelCalls} model calls`)
        : fail(`the run used ${over.join(' and ')}`);
    }
    case 'tool-called': {
      const calls = observation.toolCalls.filter((c) => c.name === assertion.tool).length;
      const ok = assertion.times === undefined ? calls > 0 : calls === assertion.times;
      const wanted = assertion.times === undefined ? 'at least once' : `exactly ${assertion.times} time(s)`;
      return ok
        ? pass(`${excerpt(assertion.tool)} was called ${calls} time(s)`)
        : fail(`${excerpt(assertion.tool)} was called ${calls} time(s), not ${wanted}`);
    }
    case 'tool-not-called': {
      const calls = observation.toolCalls.filter((c) => c.name === assertion.tool).length;
      return calls === 0
        ? pass(`${excerpt(assertion.tool)} was not called`)
        : fail(`${excerpt(assertion.tool)} was called ${calls} time(s)`);
    }
    case 'no-egress-outside-allowlist': {
      const hosts = [...new Set(observation.egressBlocked)].sort();
      return hosts.length === 0
        ? pass('the run reached no host outside its allow-list')
        : fail(
            `the run tried to reach ${hosts.length} host(s) outside its allow-list: ${hosts
              .slice(0, 5)
              .map((h) => excerpt(h, 100))
              .join(', ')}`,
          );
    }
  }
}

/** The criteria a model-graded assertion asks the grader to judge. */
export function gradedCriteria(assertion: AssertInvariant | AssertRubric, definition: AgentDefinition): string[] {
  if (assertion.type === 'rubric') return typeof assertion.rubric === 'string' ? [assertion.rubric] : assertion.rubric;
  const index = invariantIndex(definition, assertion.invariant);
  return index === undefined ? [] : [definition.capabilityContract.invariants[index]!];
}

/** A model-graded assertion's outcome: the grader's verdict against the threshold (or its own pass). */
export async function checkModelGraded(
  assertion: AssertInvariant | AssertRubric,
  evalCase: EvalCase,
  observation: EvalObservation,
  grade: Grade,
  definition: AgentDefinition,
  fileGrader?: string,
  fileGraders?: readonly GraderPin[],
): Promise<AssertionOutcome> {
  const answer = observation.answer;
  if (answer === undefined) return noAnswer(observation);
  const criteria = gradedCriteria(assertion, definition);
  if (criteria.length === 0) return fail('the invariant it names is not in the definition');
  const grader = assertion.grader ?? fileGrader;
  let result: GradeResult;
  try {
    const pin = fileGraderPin(grader, fileGraders);
    // The task as the agent's model saw it (and as the runtime's evaluator pin grades it).
    const input = evalCase.input as { text: string; data?: unknown };
    const task = taskText(input.data === undefined ? { text: input.text } : { text: input.text, data: input.data });
    result = await grade({
      criteria,
      task,
      answer: answer.text,
      ...(grader ? { grader } : {}),
      ...(pin ? { pin } : {}),
    });
  } catch {
    return fail(`the grader ${grader ?? defaultGrader(definition) ?? '(evaluator)'} could not be asked`);
  }
  const graded = {
    grader: String(result.grader),
    reasoning: String(result.reasoning ?? ''),
    graderUsage: {
      inputTokens: Number(result.usage?.inputTokens) || 0,
      outputTokens: Number(result.usage?.outputTokens) || 0,
    },
  };
  if (result.error !== undefined) return { ...fail(`the grader failed (${String(result.error.code)})`), ...graded };
  const verdict = result.verdict;
  if (verdict === undefined) return { ...fail("the grader's reply held no readable verdict"), ...graded };
  const score = Number.isFinite(verdict.score) ? Math.min(1, Math.max(0, verdict.score)) : 0;
  const passed = assertion.threshold !== undefined ? score >= assertion.threshold : verdict.pass === true;
  const met = verdict.criteria.filter((c) => c.pass).length;
  const rule = assertion.threshold !== undefined ? `threshold ${assertion.threshold}` : 'the verdict';
  const detail = `${graded.grader} scored ${round(score)} (${met} of ${criteria.length} criteria met); ${passed ? 'passes' : 'fails'} by ${rule}`;
  return { passed, score, detail, ...graded };
}

export function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
