/**
 * Grading an answer against criteria (a definition's invariants, or an eval case's rubric) with a
 * model: the one prompt and the one verdict format both the runtime's `evaluator` pin and
 * `agentdef eval`'s model-graded assertions use, so a recording made by one replays for the other.
 *
 * The grader is asked for a JSON object `{"pass": boolean, "score": number, "critique": string,
 * "criteria": [{"index": n, "pass": boolean, "reason": string}]}`. `readVerdict` accepts exactly
 * that (inside a fenced block or surrounded by prose too), fills what it can derive (a missing
 * score from the criteria, a missing per-criterion list from `pass`) and answers `undefined` for
 * anything it cannot read: an unreadable verdict is never taken as a pass.
 */
import type { ChatMessage } from '../providers/model-turn';

export interface CriterionVerdict {
  /** 0-based index into the criteria the grader was given. */
  index: number;
  pass: boolean;
  reason: string;
}

export interface Verdict {
  pass: boolean;
  /** 0..1: the share of criteria met, unless the grader gave its own score. */
  score: number;
  /** What to fix, in the grader's words ('' on a pass with nothing to say). */
  critique: string;
  criteria: CriterionVerdict[];
}

export interface GradingInput {
  /** What the answer must satisfy, in order (invariants or a rubric's lines). */
  criteria: string[];
  /** The task the answer responds to. */
  task: string;
  answer: string;
}

/** The grader's instructions (a pure join: a Worker without a hybrid leaf drops it). */
export const GRADER_SYSTEM_PROMPT = /* @__PURE__ */ [
  'You are an evaluator. You judge whether an answer satisfies every criterion listed.',
  'Reply with one JSON object and nothing else:',
  '{"pass": <true only if every criterion is met>, "score": <0..1>, "critique": "<what to fix, or empty>",',
  ' "criteria": [{"index": <0-based criterion index>, "pass": <true|false>, "reason": "<one sentence>"}]}',
].join('\n');

/** The grader's request: the criteria numbered from 0, the task and the answer. */
export function gradingMessages(input: GradingInput): { system: string; messages: ChatMessage[] } {
  const criteria = input.criteria.map((c, i) => `${i}. ${c}`).join('\n');
  const content = `Criteria:\n${criteria}\n\nTask:\n${input.task}\n\nAnswer:\n${input.answer}`;
  return { system: GRADER_SYSTEM_PROMPT, messages: [{ role: 'user', content }] };
}

/** The verdict in a grader's reply, or undefined when the reply holds none that can be trusted. */
export function readVerdict(text: string, criteriaCount: number): Verdict | undefined {
  const value = firstJsonObject(text);
  if (value === undefined || typeof value.pass !== 'boolean') return undefined;
  const critique = typeof value.critique === 'string' ? value.critique.slice(0, 4000) : '';
  const criteria: CriterionVerdict[] = [];
  if (Array.isArray(value.criteria)) {
    const seen = new Set<number>();
    for (const item of value.criteria) {
      if (item === null || typeof item !== 'object') return undefined;
      const { index, pass, reason } = item as Record<string, unknown>;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= criteriaCount)
        return undefined;
      if (typeof pass !== 'boolean' || seen.has(index)) return undefined;
      seen.add(index);
      criteria.push({ index, pass, reason: typeof reason === 'string' ? reason.slice(0, 1000) : '' });
    }
    criteria.sort((a, b) => a.index - b.index);
  }
  if (criteria.length === 0)
    for (let index = 0; index < criteriaCount; index++) criteria.push({ index, pass: value.pass, reason: '' });
  // A verdict that passes overall while failing a criterion it lists is not a pass.
  const pass = value.pass && criteria.every((c) => c.pass);
  const met = criteria.filter((c) => c.pass).length;
  const own = typeof value.score === 'number' && value.score >= 0 && value.score <= 1 ? value.score : undefined;
  const score = own ?? (criteria.length === 0 ? (pass ? 1 : 0) : met / criteria.length);
  return { pass, score: pass ? score : Math.min(score, met / Math.max(1, criteria.length)), critique, criteria };
}

function firstJsonObject(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  // Bounded: a reply with many closing braces costs at most 32 parses.
  let tries = 0;
  for (let end = text.lastIndexOf('}'); end > start && tries < 32; end = text.lastIndexOf('}', end - 1), tries++) {
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      return undefined;
    } catch {
      // try a shorter span
    }
  }
  return undefined;
}
