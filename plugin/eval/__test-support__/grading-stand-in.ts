/**
 * A scripted grader for the test suite's stand-in model servers (stub-provider.ts, stub-ollama.ts):
 * it recognises the grading request `agentdef eval` and the runtime's evaluator pin send
 * (`gradingMessages` of plugin/runtime/hybrid/grade.ts: that system prompt, then the numbered
 * criteria, the task and the answer) and answers it the way a grader model is asked to, with one
 * verdict JSON object. Its judgement is scripted, not a model's: a criterion passes when
 * `judge(criterion, answer)` says so (by default every criterion passes), and each reason says
 * which rule decided. Not a grading request: undefined, so the stand-in answers as the agent.
 */
import { GRADER_SYSTEM_PROMPT } from '../../runtime/hybrid/grade';

export type Judge = (criterion: string, answer: string) => { pass: boolean; reason: string };

const everyCriterionMet: Judge = () => ({ pass: true, reason: 'the scripted stand-in grader passes every criterion' });

/** The parts of a grading request's user message: the criteria in order, the task and the answer. */
export function readGradingRequest(user: string): { criteria: string[]; task: string; answer: string } | undefined {
  const match = /^Criteria:\n([\s\S]*?)\n\nTask:\n([\s\S]*?)\n\nAnswer:\n([\s\S]*)$/.exec(user);
  if (!match) return undefined;
  const criteria = match[1]!.split('\n').map((line) => line.replace(/^\d+\. /, ''));
  return { criteria, task: match[2]!, answer: match[3]! };
}

/** The verdict text for a grading request (`system`, the user message), or undefined for any other request. */
export function scriptedVerdict(
  system: string | undefined,
  user: string,
  judge: Judge = everyCriterionMet,
): string | undefined {
  if (system !== GRADER_SYSTEM_PROMPT) return undefined;
  const request = readGradingRequest(user);
  if (!request) return undefined;
  const criteria = request.criteria.map((criterion, index) => ({ index, ...judge(criterion, request.answer) }));
  const pass = criteria.every((c) => c.pass);
  return JSON.stringify({
    pass,
    score: criteria.filter((c) => c.pass).length / Math.max(1, criteria.length),
    critique: pass
      ? ''
      : criteria
          .filter((c) => !c.pass)
          .map((c) => c.reason)
          .join(' '),
    criteria,
  });
}
