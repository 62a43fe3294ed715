/**
 * A hybrid leaf: several pins in one run (the seed's "router + specialist + evaluator").
 * 1. Route: the router (or classifier) pin is shown the routing rule's labels and names one; the
 *    label's pin answers, the rule's default when the reply names none (route.ts).
 * 2. Answer: the chosen pin runs the agentic loop (tools, compaction) on the one run budget.
 * 3. Judge: the evaluator pin grades the answer against the invariants (grade.ts). A pass ends the
 *    run with the answer. A fail asks the same pin again with the critique, up to `maxRetries`
 *    times, then the `escalateTo` pin once; when those are spent too the task fails with
 *    `evaluation_failed`. A verdict that cannot be read fails it with `evaluator_unreadable`,
 *    never as a pass.
 * Every call counts: one subrequest each, and `maxSteps` counts route and evaluation turns with the
 * answering turns (the loop numbers its steps on from the ones before). Every call is recorded with
 * its pin (model-calls.ts), and the route and verdicts are in `result.hybrid`.
 */
import type { AgenticLoop, AgentInput, LoopEnv, LoopResult } from '../agent-loop';
import { emptyLoopResult, findSkill, runAgentLoopWithParts, runLogger, settleLoopError, taskText } from '../agent-loop';
import { RuntimeError } from '../errors';
import type { ModelClient, ModelRequest, ModelTurn } from '../providers/model-turn';
import { createRedactor } from '../redact';
import type { RunBudget } from '../run-budget';
import { LimitReached } from '../run-budget';
import type { RuntimeConfig, RuntimeHybrid } from '../runtime-config';
import { gradingMessages, readVerdict } from './grade';
import type { HybridTrace } from './hybrid-trace';
import { readRoute, routingMessages } from './route';

export interface HybridLeafEnv extends Omit<LoopEnv, 'model' | 'budget'> {
  /** The client of `config.models[index]` (recording its calls). */
  clientFor: (index: number) => ModelClient;
  budget: RunBudget;
  agenticLoop: AgenticLoop;
}

export type HybridLeafRunner = (
  config: RuntimeConfig,
  hybrid: RuntimeHybrid,
  input: AgentInput,
  env: HybridLeafEnv,
) => Promise<LoopResult>;

/** The text an answering pin is asked again with after a failed verdict. */
export function retryText(task: string, critique: string, previous: string): string {
  return [
    task,
    '',
    'A reviewer rejected your previous answer.',
    `Reviewer: ${critique || 'the answer does not meet every requirement.'}`,
    '',
    'Your previous answer:',
    previous,
    '',
    'Answer the task again, fixing what the reviewer found.',
  ].join('\n');
}

export function pinLabel(config: RuntimeConfig, index: number): string {
  return config.models[index]?.name ?? `models[${index}]`;
}

export const runHybridLeaf: HybridLeafRunner = async (config, hybrid, input, env) => {
  const redactor = env.redactor ?? createRedactor();
  const { budget } = env;
  const log = runLogger(env.log, env.runId, redactor);
  const result = emptyLoopResult(input.skillId ?? config.skills[0]?.id ?? '');
  const trace: HybridTrace = { verdicts: [] };
  result.hybrid = trace;

  // One model turn outside the agentic loop (the route, a verdict), counted like the loop's.
  const turnOf = async (index: number, request: Omit<ModelRequest, 'tools' | 'signal'>): Promise<ModelTurn> => {
    if (result.steps >= budget.limits.maxSteps) throw new LimitReached('limit:steps');
    const client = env.clientFor(index);
    budget.spendSubrequest();
    log('model.call', { purpose: request.purpose, step: result.steps + 1, model: client.model, wire: client.wire });
    const turn = await budget.race(client.complete({ ...request, tools: [], signal: budget.signal }));
    result.steps += 1;
    result.usage.inputTokens += turn.usage?.inputTokens ?? 0;
    result.usage.outputTokens += turn.usage?.outputTokens ?? 0;
    if (turn.replayed) result.modelsReplayed = true;
    return turn;
  };

  try {
    const skill = findSkill(config, input.skillId);
    result.skillId = skill.id;
    const task = taskText(input);
    let answering = hybrid.answer;
    if (hybrid.route) {
      const { routes } = hybrid.route;
      const turn = await turnOf(hybrid.route.by, { ...routingMessages(routes, task), purpose: 'route' });
      const choice = readRoute(turn.text, routes);
      const route = choice.label === undefined ? undefined : routes.find((r) => r.label === choice.label);
      answering = route?.to ?? hybrid.route.default;
      trace.route = { ...(route ? { label: route.label } : {}), pin: pinLabel(config, answering) };
      log('route.chosen', {
        label: route?.label ?? '',
        pin: pinLabel(config, answering),
        recognised: choice.recognised,
      });
    }
    if (answering === undefined) throw new RuntimeError('config_invalid', 'the hybrid config names no answering pin');

    let attempt: AgentInput = input;
    let retries = 0;
    let escalated = false;
    for (;;) {
      const sub = await runAgentLoopWithParts(config, attempt, {
        ...env,
        model: env.clientFor(answering),
        budget,
        redactor,
        stepOffset: result.steps,
      });
      absorb(result, sub);
      if (sub.stopReason !== 'answer' || sub.answer === undefined) {
        result.stopReason = sub.stopReason;
        if (sub.error) result.error = sub.error;
        return finish(result, budget);
      }
      const answer = sub.answer;
      const evaluate = hybrid.evaluate;
      if (!evaluate) {
        result.answer = answer;
        result.stopReason = 'answer';
        return finish(result, budget);
      }
      const turn = await turnOf(evaluate.by, {
        // The evaluator may be another provider: no secret of the run reaches it inside the answer.
        ...gradingMessages({ criteria: evaluate.invariants, task, answer: redactor.text(answer.text) }),
        purpose: 'evaluate',
      });
      const verdict = readVerdict(turn.text, evaluate.invariants.length);
      if (!verdict) throw new RuntimeError('evaluator_unreadable', "the evaluator's reply holds no verdict");
      const failed = verdict.criteria.filter((c) => !c.pass).map((c) => c.index);
      trace.verdicts.push({
        pin: pinLabel(config, answering),
        pass: verdict.pass,
        score: verdict.score,
        critique: verdict.critique,
        failed,
      });
      log('answer.judged', { pin: pinLabel(config, answering), pass: verdict.pass, score: verdict.score });
      if (verdict.pass) {
        result.answer = answer;
        result.stopReason = 'answer';
        return finish(result, budget);
      }
      if (retries < evaluate.maxRetries) retries++;
      else if (evaluate.escalateTo !== undefined && !escalated) {
        escalated = true;
        answering = evaluate.escalateTo;
      } else
        throw new RuntimeError(
          'evaluation_failed',
          `the answer failed the evaluator ${trace.verdicts.length} time(s); unmet invariants: ${failed.join(', ') || 'none named'}`,
        );
      attempt = { ...input, text: retryText(input.text, redactor.text(verdict.critique), redactor.text(answer.text)) };
    }
  } catch (error) {
    settleLoopError(result, error, redactor);
  }
  return finish(result, budget);
};

/** One answering loop's steps, calls, usage and compactions, added to the run's. */
function absorb(result: LoopResult, sub: LoopResult): void {
  result.steps = Math.max(result.steps, sub.steps);
  const offset = result.toolCalls.length;
  for (const call of sub.toolCalls) result.toolCalls.push({ ...call, seq: offset + call.seq });
  result.compactions.push(...sub.compactions);
  result.quarantined.push(...sub.quarantined);
  result.usage.inputTokens += sub.usage.inputTokens;
  result.usage.outputTokens += sub.usage.outputTokens;
  if (sub.modelsReplayed) result.modelsReplayed = true;
}

function finish(result: LoopResult, budget: RunBudget): LoopResult {
  result.subrequests = budget.subrequests;
  return result;
}
