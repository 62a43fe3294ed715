/**
 * A `Grade` that asks a grader model: the runtime evaluator pin's prompt (runtime/hybrid/grade.ts
 * `gradingMessages`) through a `ModelClient` (`complete` with no tools), and its verdict read with
 * `readVerdict`, so recordings made by either replay for the other. The runner chooses the client
 * for each request (a file grader's pin, a named modelSet pin, or the evaluator pin) and keeps it
 * in its replay/record session. The grader's reasoning kept is the verdict's critique and
 * per-criterion reasons, or, when the reply holds no readable verdict, the reply itself (capped);
 * an unreadable verdict is never a pass. Never throws: a failed call is `error` (its code only;
 * a provider's error text can name URLs or echo keys).
 */
import { gradingMessages, readVerdict } from '../runtime/hybrid/grade';
import type { ModelClient } from '../runtime/providers/model-turn';
import type { Grade, GradeRequest, GradeResult } from './observation';

export type GraderChoice =
  | { client: ModelClient /** How reports name the grader (pin name or model id). */; grader: string }
  | { error: { code: string; message: string } };

const MAX_RAW_REASONING = 4000;

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

export function modelGrade(choose: (request: GradeRequest) => GraderChoice): Grade {
  return async (request): Promise<GradeResult> => {
    const named = request.grader ?? 'evaluator';
    const none = { inputTokens: 0, outputTokens: 0 };
    let choice: GraderChoice;
    try {
      choice = choose(request);
    } catch {
      return {
        grader: named,
        reasoning: '',
        usage: none,
        error: { code: 'grader_unavailable', message: `no grader ${named}` },
      };
    }
    if ('error' in choice) return { grader: named, reasoning: '', usage: none, error: choice.error };
    const { system, messages } = gradingMessages({
      criteria: request.criteria,
      task: request.task,
      answer: request.answer,
    });
    try {
      const turn = await choice.client.complete({ system, messages, tools: [] });
      const usage = { inputTokens: count(turn.usage?.inputTokens), outputTokens: count(turn.usage?.outputTokens) };
      const verdict = readVerdict(turn.text, request.criteria.length);
      if (verdict === undefined)
        return { grader: choice.grader, reasoning: turn.text.slice(0, MAX_RAW_REASONING), usage };
      const reasons = verdict.criteria.map(
        (c) => `[${c.index}] ${c.pass ? 'pass' : 'fail'}${c.reason ? `: ${c.reason}` : ''}`,
      );
      const reasoning = [verdict.critique, ...reasons].filter((line) => line !== '').join('\n');
      return { verdict, grader: choice.grader, reasoning, usage };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return {
        grader: choice.grader,
        reasoning: '',
        usage: none,
        error: {
          code: typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'grader_failed',
          message: `the grader call failed (${(error as Error)?.name ?? 'Error'})`,
        },
      };
    }
  };
}
