/**
 * Runs a `dag` composition. Children are functions: the host injects how a child runs (an
 * in-process module, or a fresh isolate / job / process when the composition asks for quarantine)
 * through one `ChildRunner`. Nodes run in topological order (declaration order breaks ties); a
 * node runs when it is a start node (no incoming edge) or when at least one incoming edge was
 * taken. Edges are taken by gate:
 * - `deterministic`: always;
 * - `conditional`: when the value at `condition.pointer` in the source's structured output equals
 *   `condition.equals`;
 * - `llm-decides`: the router pin is asked, once per source node, which of its `llm-decides`
 *   edges to take.
 * The answer is the last executed sink's (a node none of whose outgoing edges was taken). Each
 * child run and each router call counts as one subrequest against the parent's budget, and the
 * parent's wall clock covers the whole graph.
 */
import type { AgentAnswer, AgentInput, LogFields, LoopResult, RuntimeLogEvent } from './agent-loop';
import { emptyLoopResult, runLogger } from './agent-loop';
import { RuntimeError, describeError } from './errors';
import { getByPointer } from './json-pointer';
import type { ModelClient } from './providers/model-turn';
import type { Redactor } from './redact';
import { createRedactor } from './redact';
import type { RunBudget } from './run-budget';
import { LimitReached, RunAborted, createRunBudget } from './run-budget';
import type { RuntimeChild, RuntimeConfig, RuntimeEdge } from './runtime-config';
import { resolveLimits } from './runtime-config';

export interface ChildRunContext {
  /** The parent's run id: child receipts carry it so the parent groups them. */
  runId: string;
  parent: { slug: string; version: string };
  /** True when the child must run in a fresh runtime instance with an isolated context. */
  quarantine: boolean;
  /** Aborts when the parent's wall clock runs out. */
  signal: AbortSignal;
  /** Milliseconds left on the parent's wall clock. */
  remainingMs: number;
}

/** What the composition needs back from a child run (a `LoopResult` satisfies it). */
export interface ChildResult {
  stopReason: LoopResult['stopReason'];
  answer?: AgentAnswer;
  error?: { code: string; message: string };
  /** The child's models were replayed (a recording answered): the parent's result says so too. */
  modelsReplayed?: true;
  /** The child's token usage: the parent's result counts its children's tokens with its own. */
  usage?: { inputTokens: number; outputTokens: number };
}

/** A count a child reported, if it is one (a quarantined child's reply crossed a process or isolate). */
function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

export type ChildRunner = (child: RuntimeChild, input: AgentInput, context: ChildRunContext) => Promise<ChildResult>;

export interface CompositionNodeRecord {
  slug: string;
  version: string;
  /** Execution order, 1-based; absent when the node was skipped. */
  order?: number;
  status: 'ran' | 'skipped';
  stopReason?: LoopResult['stopReason'];
}

export interface CompositionTrace {
  nodes: CompositionNodeRecord[];
  edgesTaken: { from: string; to: string; gate: RuntimeEdge['gate'] }[];
}

export interface CompositionResult extends LoopResult {
  composition: CompositionTrace;
}

export interface CompositionEnv {
  runId: string;
  runChild: ChildRunner;
  /** The router pin's client, needed when any edge is `llm-decides`. */
  router?: ModelClient;
  budget?: RunBudget;
  signal?: AbortSignal;
  redactor?: Redactor;
  log?: (event: RuntimeLogEvent) => void;
}

const ROUTER_PROMPT =
  'You route work between agents in a pipeline. Reply with exactly one of the offered agent names and nothing else.';

/** Kahn's algorithm with declaration order as the tie-break; throws on a cycle or a dangling edge. */
export function topologicalOrder(children: RuntimeChild[], edges: RuntimeEdge[]): string[] {
  const slugs = children.map((c) => c.slug);
  const known = new Set(slugs);
  const indegree = new Map(slugs.map((s) => [s, 0]));
  for (const edge of edges) {
    if (!known.has(edge.from) || !known.has(edge.to))
      throw new RuntimeError('composition_failed', `edge ${edge.from} -> ${edge.to} names an unknown node`);
    indegree.set(edge.to, (indegree.get(edge.to) ?? 0) + 1);
  }
  const order: string[] = [];
  const ready = slugs.filter((s) => indegree.get(s) === 0);
  while (ready.length > 0) {
    const slug = ready.shift()!;
    order.push(slug);
    for (const edge of edges) {
      if (edge.from !== slug) continue;
      const left = (indegree.get(edge.to) ?? 0) - 1;
      indegree.set(edge.to, left);
      if (left === 0) {
        ready.push(edge.to);
        ready.sort((a, b) => slugs.indexOf(a) - slugs.indexOf(b));
      }
    }
  }
  if (order.length !== slugs.length) throw new RuntimeError('composition_failed', 'the composition edges form a cycle');
  return order;
}

/** Whether a conditional edge is taken by the source's output. */
export function conditionHolds(edge: RuntimeEdge, answer: AgentAnswer | undefined): boolean {
  if (!edge.condition) return false;
  const value = getByPointer(answer?.data, edge.condition.pointer);
  return value !== undefined && value === edge.condition.equals;
}

/** The slug a router reply names among `candidates`, or undefined. */
export function parseRouterChoice(reply: string, candidates: string[]): string | undefined {
  const cleaned = reply.trim().replace(/^[`"'*\s]+|[`"'*.\s]+$/g, '');
  if (candidates.includes(cleaned)) return cleaned;
  const mentioned = candidates.filter((c) =>
    new RegExp(`(^|[^a-z0-9-])${c.replace(/[-]/g, '\\-')}($|[^a-z0-9-])`).test(reply),
  );
  return mentioned.length === 1 ? mentioned[0] : undefined;
}

function combineInputs(inputs: { from: string; answer: AgentAnswer }[]): AgentInput {
  if (inputs.length === 1) {
    const only = inputs[0]!.answer;
    return only.data === undefined ? { text: only.text } : { text: only.text, data: only.data };
  }
  const data: Record<string, unknown> = {};
  for (const { from, answer } of inputs) data[from] = answer.data ?? answer.text;
  return { text: inputs.map(({ from, answer }) => `[from ${from}]\n${answer.text}`).join('\n\n'), data };
}

export async function runComposition(
  config: RuntimeConfig,
  input: AgentInput,
  env: CompositionEnv,
): Promise<CompositionResult> {
  const budget = env.budget ?? createRunBudget(resolveLimits(config.limits), env.signal ? { signal: env.signal } : {});
  const redactor = env.redactor ?? createRedactor();
  const { children, edges, quarantine } = config.composition;
  const trace: CompositionTrace = {
    nodes: children.map((c) => ({ slug: c.slug, version: c.version, status: 'skipped' })),
    edgesTaken: [],
  };
  const result: CompositionResult = {
    ...emptyLoopResult(input.skillId ?? config.skills[0]?.id ?? ''),
    composition: trace,
  };
  const log = runLogger(env.log, env.runId, redactor);

  try {
    if (config.skills.length > 0 && input.skillId !== undefined && !config.skills.some((s) => s.id === input.skillId)) {
      throw new RuntimeError('config_invalid', `unknown skill ${JSON.stringify(input.skillId)}`);
    }
    if (children.length === 0) throw new RuntimeError('composition_failed', 'the composition has no children');
    const order = topologicalOrder(children, edges);
    const bySlug = new Map(children.map((c) => [c.slug, c]));
    const hasIncoming = new Set(edges.map((e) => e.to));
    const pending = new Map<string, { from: string; answer: AgentAnswer }[]>();
    const childInput: AgentInput =
      input.data === undefined ? { text: input.text } : { text: input.text, data: input.data };
    let lastSink: AgentAnswer | undefined;

    for (const slug of order) {
      const child = bySlug.get(slug)!;
      const record = trace.nodes.find((n) => n.slug === slug)!;
      const arrivals = pending.get(slug);
      if (hasIncoming.has(slug) && !arrivals) continue; // no taken edge reaches it
      budget.spendSubrequest();
      result.steps++;
      record.order = result.steps;
      record.status = 'ran';
      log('child.run', { child: `${child.slug}@${child.version}`, quarantine });
      const remainingMs = Math.max(0, budget.limits.wallClockMs - budget.elapsedMs());
      const childResult = await budget.race(
        env.runChild(child, arrivals ? combineInputs(arrivals) : childInput, {
          runId: env.runId,
          parent: { slug: config.agent.slug, version: config.agent.version },
          quarantine,
          signal: budget.signal,
          remainingMs,
        }),
      );
      record.stopReason = childResult.stopReason;
      if (childResult.modelsReplayed === true) result.modelsReplayed = true;
      if (childResult.usage) {
        result.usage.inputTokens += tokenCount(childResult.usage.inputTokens);
        result.usage.outputTokens += tokenCount(childResult.usage.outputTokens);
      }
      if (childResult.stopReason !== 'answer' || !childResult.answer) {
        const why = childResult.error
          ? `${childResult.stopReason} (${childResult.error.code})`
          : childResult.stopReason;
        throw new RuntimeError('composition_failed', `child ${child.slug}@${child.version} stopped: ${why}`);
      }
      const answer = childResult.answer;
      const outgoing = edges.filter((e) => e.from === slug);
      const taken: RuntimeEdge[] = outgoing.filter(
        (e) => e.gate === 'deterministic' || (e.gate === 'conditional' && conditionHolds(e, answer)),
      );
      const llmEdges = outgoing.filter((e) => e.gate === 'llm-decides');
      if (llmEdges.length > 0) {
        const chosen = await askRouter(
          env,
          budget,
          slug,
          answer,
          llmEdges.map((e) => e.to),
          result,
          log,
        );
        taken.push(llmEdges.find((e) => e.to === chosen)!);
      }
      for (const edge of taken) {
        trace.edgesTaken.push({ from: edge.from, to: edge.to, gate: edge.gate });
        const list = pending.get(edge.to) ?? [];
        list.push({ from: slug, answer });
        pending.set(edge.to, list);
      }
      if (taken.length === 0) lastSink = answer;
    }
    if (!lastSink) throw new RuntimeError('composition_failed', 'no node of the composition produced a final answer');
    result.answer = lastSink;
    result.stopReason = 'answer';
  } catch (error) {
    delete result.answer;
    if (error instanceof LimitReached) result.stopReason = error.reason;
    else {
      result.stopReason = 'error';
      if (error instanceof RunAborted) result.error = { code: 'aborted', message: error.message };
      else {
        const described = describeError(error);
        result.error = { code: described.code, message: redactor.text(described.message) };
      }
    }
  } finally {
    result.subrequests = budget.subrequests;
    if (!env.budget) budget.dispose();
  }
  log('composition.end', { stopReason: result.stopReason, nodesRun: result.steps, errorCode: result.error?.code });
  return result;
}

async function askRouter(
  env: CompositionEnv,
  budget: RunBudget,
  from: string,
  answer: AgentAnswer,
  candidates: string[],
  result: LoopResult,
  log: (event: string, fields?: LogFields) => void,
): Promise<string> {
  if (!env.router)
    throw new RuntimeError('config_invalid', `node ${from} has llm-decides edges but the agent pins no router model`);
  budget.spendSubrequest();
  log('model.call', { purpose: 'route', from, model: env.router.model });
  const turn = await budget.race(
    env.router.complete({
      system: ROUTER_PROMPT,
      messages: [
        {
          role: 'user',
          content: `The agent ${from} produced:\n${answer.text}\n\nChoose the next agent, one of: ${candidates.join(', ')}`,
        },
      ],
      tools: [],
      signal: budget.signal,
      purpose: 'route',
    }),
  );
  result.usage.inputTokens += turn.usage?.inputTokens ?? 0;
  result.usage.outputTokens += turn.usage?.outputTokens ?? 0;
  if (turn.replayed) result.modelsReplayed = true;
  const choice = parseRouterChoice(turn.text, candidates);
  if (choice === undefined)
    throw new RuntimeError('router_invalid_choice', `the router chose none of ${candidates.join(', ')} after ${from}`);
  return choice;
}
