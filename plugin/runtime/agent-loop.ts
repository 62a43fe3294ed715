/**
 * The one agent loop.
 * - Tool-only configs (no model pins): the skill routes straight to its tool; one call, no model.
 * - Agentic configs: the primary (else router) model is called with the tools; the tool calls it
 *   asks for run in order and their results go back to it, until it answers or a limit stops it:
 *   `wallClockMs` (the run budget's AbortController), `maxSubrequests` (model and tool calls
 *   counted together), `maxSteps` (model turns; default 8). Before each model call the context is
 *   compacted by `compactionPolicy` if it would exceed `contextWindowBudget`.
 * The result always says why the run stopped. Deterministic given deterministic models and tools.
 */
import type { CompactionEvent, Compactor, QuarantinedStep } from './compaction';
import { compactIfNeeded } from './compaction';
import { egressBlockedCause } from './egress';
import { RuntimeError, describeError, isRuntimeError } from './errors';
import type { ChatMessage, ModelClient, ModelTurn, ToolCall, ToolSpec } from './providers/model-turn';
import type { Redactor } from './redact';
import { createRedactor } from './redact';
import type { LimitReason, RunBudget } from './run-budget';
import { LimitReached, RunAborted, createRunBudget } from './run-budget';
import type { RuntimeConfig, RuntimeSkill, RuntimeTool } from './runtime-config';
import { resolveLimits } from './runtime-config';
import { newTranscript, renderMessages } from './transcript';
import type { HybridTrace } from './hybrid/hybrid-trace';
import type { ModelCallRecord } from './hybrid/model-calls';

export type StopReason = 'answer' | LimitReason | 'error';

/** What a run is asked: which skill, the user's text and optional structured data. */
export interface AgentInput {
  skillId?: string;
  text: string;
  data?: unknown;
}

export interface AgentAnswer {
  text: string;
  /** Structured output: the tool's object result, or the model's answer when it is JSON. */
  data?: unknown;
}

export interface ToolContext {
  runId: string;
  tool: RuntimeTool;
  /** Aborts when the run's wall clock runs out. */
  signal: AbortSignal;
  /** The run's egress-checked fetch. */
  fetch: typeof fetch;
}

export type ToolHandler = (args: Record<string, unknown>, context: ToolContext) => unknown;

export interface ToolCallRecord {
  /** 1-based order across the run. */
  seq: number;
  step: number;
  name: string;
  toolId?: string;
  ok: boolean;
  errorCode?: string;
}

export interface RuntimeLogEvent {
  event: string;
  runId: string;
  [field: string]: string | number | boolean | undefined;
}

export interface LoopResult {
  stopReason: StopReason;
  skillId: string;
  answer?: AgentAnswer;
  error?: { code: string; message: string };
  toolCalls: ToolCallRecord[];
  /** Model turns taken (1 for a tool-only run). */
  steps: number;
  subrequests: number;
  compactions: CompactionEvent[];
  quarantined: QuarantinedStep[];
  usage: { inputTokens: number; outputTokens: number };
  /** Set when a model answer of the run (its own, or a composed child's) came from a recording, not a live model. */
  modelsReplayed?: true;
  /** Every model call of the run, in order (run-agent.ts records them; the receipt carries them). */
  modelCalls?: ModelCallRecord[];
  /** A hybrid leaf's route and verdicts (hybrid/hybrid-leaf.ts). */
  hybrid?: HybridTrace;
}

export interface LoopEnv {
  runId: string;
  /** The primary model's client (agentic configs). */
  model?: ModelClient;
  /** Tool implementations by tool id. */
  tools: Record<string, ToolHandler>;
  /** The fetch tools get (egress-checked by the caller). */
  fetch: typeof fetch;
  /** A shared budget (composition passes its own); absent: the loop makes one from the config. */
  budget?: RunBudget;
  /** The caller's abort signal, when the loop makes its own budget. */
  signal?: AbortSignal;
  redactor?: Redactor;
  log?: (event: RuntimeLogEvent) => void;
  /**
   * The model-driven loop of agentic configs (`runAgenticLoop`); `runAgentLoop` supplies it, a
   * generated Worker passes it only to agents with models, so a tool-only bundle leaves it out.
   */
  agenticLoop?: AgenticLoop;
  /** Model turns the run took before this loop (a hybrid leaf's route, earlier attempts): steps number on from it and `maxSteps` counts them all. */
  stepOffset?: number;
  /**
   * When each tool call started and ended, one entry per `toolCalls` record in the same order
   * (telemetry spans); kept beside the records so results and receipts do not change.
   */
  toolTimings?: CallTiming[];
  /** The clock of `toolTimings` (the run's). */
  now?: () => number;
}

/** When one call started and ended (milliseconds of the run's clock). */
export interface CallTiming {
  startMs: number;
  endMs: number;
}

/** The model-driven part of the loop: model turns, tool calls, compaction (`runAgenticLoop`). */
export type AgenticLoop = (
  config: RuntimeConfig,
  skill: RuntimeSkill,
  input: AgentInput,
  env: LoopEnv,
  budget: RunBudget,
  result: LoopResult,
  log: Log,
  redactor: Redactor,
) => Promise<void>;

const SUMMARISER_PROMPT =
  'You compress the working notes of an AI agent. Summarise the steps below: keep every fact, number, identifier and tool result the agent may still need; drop chatter. Reply with the summary only.';

/** A result with nothing done yet; runs fill it in. */
export function emptyLoopResult(skillId: string): LoopResult {
  return {
    stopReason: 'error',
    skillId,
    toolCalls: [],
    steps: 0,
    subrequests: 0,
    compactions: [],
    quarantined: [],
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

export type LogFields = Record<string, string | number | boolean | undefined>;

/** A logger bound to one run whose string fields pass through the run's redactor. */
export function runLogger(
  sink: ((event: RuntimeLogEvent) => void) | undefined,
  runId: string,
  redactor: Redactor,
): (event: string, fields?: LogFields) => void {
  return (event, fields = {}) => {
    if (!sink) return;
    const safe: RuntimeLogEvent = { event, runId };
    for (const [k, v] of Object.entries(fields)) safe[k] = typeof v === 'string' ? redactor.text(v) : v;
    sink(safe);
  };
}

export function findSkill(config: RuntimeConfig, skillId: string | undefined): RuntimeSkill {
  const skill = skillId === undefined ? config.skills[0] : config.skills.find((s) => s.id === skillId);
  if (!skill)
    throw new RuntimeError(
      'config_invalid',
      skillId === undefined ? 'the agent declares no skill' : `unknown skill ${JSON.stringify(skillId)}`,
    );
  return skill;
}

/** The tool a tool-only skill routes to. */
export function skillTool(config: RuntimeConfig, skill: RuntimeSkill): RuntimeTool {
  const tool =
    (skill.toolId !== undefined ? config.tools.find((t) => t.id === skill.toolId) : undefined) ??
    (config.tools.length === 1 ? config.tools[0] : undefined) ??
    config.tools.find((t) => t.id === skill.id || t.name === skill.id);
  if (!tool) throw new RuntimeError('tool_unavailable', `skill ${skill.id} routes to no tool`);
  return tool;
}

export function toolSpecs(config: RuntimeConfig): ToolSpec[] {
  return config.tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? tool.name,
    inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
  }));
}

export function systemPrompt(config: RuntimeConfig, skill: RuntimeSkill): string {
  if (config.instructions !== undefined) return config.instructions;
  return [
    `You are ${config.agent.name}. ${config.agent.description}`,
    `Skill: ${skill.name} (${skill.id}@${skill.version}): ${skill.description}`,
    'Use the tools when they help; when you have the answer, reply with it directly.',
  ].join('\n');
}

export function taskText(input: AgentInput): string {
  return input.data === undefined
    ? input.text
    : `${input.text}${input.text ? '\n\n' : ''}Input data (JSON):\n${JSON.stringify(input.data)}`;
}

/** Tool arguments for a tool-only run: the data part if it is an object, else a JSON-object text, else `{ text }`. */
export function toolArguments(input: AgentInput): Record<string, unknown> {
  if (input.data !== null && typeof input.data === 'object' && !Array.isArray(input.data))
    return input.data as Record<string, unknown>;
  const parsed = parseJsonObject(input.text);
  return parsed ?? { text: input.text };
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The answer's structured view: JSON object/array text parses; anything else stays text only. */
export function answerFromText(text: string): AgentAnswer {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text, data: JSON.parse(trimmed) as unknown };
    } catch {
      // plain text
    }
  }
  return { text };
}

export function answerFromValue(value: unknown): AgentAnswer {
  if (typeof value === 'string') return answerFromText(value);
  // A value with no JSON text (a function, a symbol) answers nothing rather than an undefined text.
  const text = value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
  if (text === undefined) return { text: '' };
  return { text, data: JSON.parse(text) as unknown };
}

function toolContent(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** The loop with every part: tool-only and agentic configs alike. */
export function runAgentLoop(config: RuntimeConfig, input: AgentInput, env: LoopEnv): Promise<LoopResult> {
  return runAgentLoopWithParts(config, input, { ...env, agenticLoop: env.agenticLoop ?? runAgenticLoop });
}

/** The loop with the parts `env` supplies: an agentic config without `env.agenticLoop` ends in `config_invalid`. */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const runAgentLoopWithParts = (async function runAgentLoopWithParts(
  config: RuntimeConfig,
  input: AgentInput,
  env: LoopEnv,
): Promise<LoopResult> {
  const budget = env.budget ?? createRunBudget(resolveLimits(config.limits), env.signal ? { signal: env.signal } : {});
  const redactor = env.redactor ?? createRedactor();
  const log = runLogger(env.log, env.runId, redactor);
  const result = emptyLoopResult(input.skillId ?? config.skills[0]?.id ?? '');
  try {
    const skill = findSkill(config, input.skillId);
    result.skillId = skill.id;
    if (config.models.length === 0) await runToolOnly(config, skill, input, env, budget, result, log);
    else if (env.agenticLoop) await env.agenticLoop(config, skill, input, env, budget, result, log, redactor);
    else throw new RuntimeError('config_invalid', 'this build of the runtime has no agentic loop');
  } catch (error) {
    settleLoopError(result, error, redactor);
  } finally {
    result.subrequests = budget.subrequests;
    if (!env.budget) budget.dispose();
  }
  log('loop.end', {
    stopReason: result.stopReason,
    steps: result.steps,
    subrequests: result.subrequests,
    errorCode: result.error?.code,
  });
  return result;
});

export type Log = (event: string, fields?: LogFields) => void;

/** How a loop that threw ends: a limit's stop reason, or an error with a safe code and message; never an answer. */
export function settleLoopError(result: LoopResult, error: unknown, redactor: Redactor): void {
  if (error instanceof LimitReached) result.stopReason = error.reason;
  else if (error instanceof RunAborted) {
    result.stopReason = 'error';
    result.error = { code: 'aborted', message: error.message };
  } else {
    result.stopReason = 'error';
    const described = describeError(error);
    result.error = { code: described.code, message: redactor.text(described.message) };
  }
  delete result.answer;
}

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
const runToolOnly = (async function runToolOnly(
  config: RuntimeConfig,
  skill: RuntimeSkill,
  input: AgentInput,
  env: LoopEnv,
  budget: RunBudget,
  result: LoopResult,
  log: Log,
) {
  const tool = skillTool(config, skill);
  const handler = env.tools[tool.id];
  result.steps = 1;
  const record: ToolCallRecord = { seq: 1, step: 1, name: tool.name, toolId: tool.id, ok: false };
  result.toolCalls.push(record);
  const now = env.now ?? Date.now;
  const timing: CallTiming = { startMs: now(), endMs: 0 };
  timing.endMs = timing.startMs;
  env.toolTimings?.push(timing);
  if (!handler) {
    record.errorCode = 'tool_unavailable';
    throw new RuntimeError('tool_unavailable', `no implementation for tool ${tool.id} (${tool.kind}) on this host`);
  }
  budget.spendSubrequest();
  log('tool.call', { step: 1, tool: tool.name });
  let value: unknown;
  try {
    value = await budget.race(
      handler(toolArguments(input), { runId: env.runId, tool, signal: budget.signal, fetch: env.fetch }),
    );
  } catch (error) {
    timing.endMs = now();
    const blocked = isRuntimeError(error) ? undefined : egressBlockedCause(error);
    if (blocked) {
      record.errorCode = blocked.code;
      throw blocked;
    }
    if (isRuntimeError(error)) record.errorCode = error.code;
    if (error instanceof LimitReached || error instanceof RunAborted || isRuntimeError(error)) throw error;
    record.errorCode = 'tool_failed';
    throw new RuntimeError(
      'tool_failed',
      `tool ${tool.name} failed (${error instanceof Error ? error.name : 'error'})`,
    );
  }
  timing.endMs = now();
  record.ok = true;
  result.answer = answerFromValue(value);
  result.stopReason = 'answer';
});

/**
 * The agentic loop compacting with `compact` (a generated Worker passes its agent's policy, or
 * nothing for an agent with no `contextWindowBudget`; a config with a budget and no compactor is
 * refused as `config_invalid`).
 */
export function createAgenticLoop(compact?: Compactor): AgenticLoop {
  return (config, skill, input, env, budget, result, log, redactor) =>
    agenticLoop(config, skill, input, env, budget, result, log, redactor, compact);
}

/** Model turns, the tool calls they ask for and compaction (every policy), until an answer or a limit. */
export const runAgenticLoop: AgenticLoop = /* @__PURE__ */ createAgenticLoop(compactIfNeeded);

async function agenticLoop(
  config: RuntimeConfig,
  skill: RuntimeSkill,
  input: AgentInput,
  env: LoopEnv,
  budget: RunBudget,
  result: LoopResult,
  log: Log,
  redactor: Redactor,
  compact: Compactor | undefined,
): Promise<void> {
  const model = env.model;
  if (!model) throw new RuntimeError('config_invalid', 'an agentic run needs a model client');
  const tools = toolSpecs(config);
  const toolsByName = new Map(config.tools.map((t) => [t.name, t]));
  const system = systemPrompt(config, skill);
  const transcript = newTranscript(taskText(input));
  const stepNumbers: number[] = [];
  const contextBudget = config.memory.contextWindowBudget;
  const policy = config.memory.compactionPolicy ?? 'drop';
  const addUsage = (turn: ModelTurn) => {
    result.usage.inputTokens += turn.usage?.inputTokens ?? 0;
    result.usage.outputTokens += turn.usage?.outputTokens ?? 0;
    if (turn.replayed) result.modelsReplayed = true;
  };

  for (let step = (env.stepOffset ?? 0) + 1; ; step++) {
    if (contextBudget !== undefined) {
      if (!compact) throw new RuntimeError('config_invalid', 'this build of the runtime has no context compaction');
      const event = await compact(transcript, {
        budget: contextBudget,
        policy,
        system,
        tools,
        quarantine: result.quarantined,
        stepNumbers,
        summarise: async (text) => {
          budget.spendSubrequest();
          log('model.call', { purpose: 'summarise', step, model: model.model });
          const turn = await budget.race(
            model.complete({
              system: SUMMARISER_PROMPT,
              messages: [{ role: 'user', content: text }],
              tools: [],
              signal: budget.signal,
              purpose: 'summarise',
            }),
          );
          addUsage(turn);
          return turn.text;
        },
      });
      if (event) {
        result.compactions.push(event);
        log('context.compacted', {
          policy: event.policy,
          beforeTokens: event.beforeTokens,
          afterTokens: event.afterTokens,
          stepsRemoved: event.stepsRemoved,
        });
      }
    }
    // Turns taken before this loop (a hybrid leaf's route, earlier attempts) count against maxSteps too.
    if (step > budget.limits.maxSteps) throw new LimitReached('limit:steps');
    budget.spendSubrequest();
    log('model.call', { purpose: 'step', step, model: model.model, wire: model.wire });
    const turn = await budget.race(
      model.complete({ system, messages: renderMessages(transcript), tools, signal: budget.signal }),
    );
    addUsage(turn);
    result.steps = step;
    if (turn.toolCalls.length === 0) {
      result.answer = answerFromText(turn.text);
      result.stopReason = 'answer';
      return;
    }
    if (step >= budget.limits.maxSteps) throw new LimitReached('limit:steps');
    const group: ChatMessage[] = [{ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls }];
    transcript.groups.push(group);
    stepNumbers.push(step);
    for (const call of turn.toolCalls) {
      budget.spendSubrequest();
      const now = env.now ?? Date.now;
      const startMs = now();
      const outcome = await executeToolCall(call, toolsByName, env, budget, redactor);
      env.toolTimings?.push({ startMs, endMs: now() });
      result.toolCalls.push({
        seq: result.toolCalls.length + 1,
        step,
        name: call.name,
        ...(outcome.toolId ? { toolId: outcome.toolId } : {}),
        ok: outcome.ok,
        ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
      });
      log('tool.call', { step, tool: call.name, ok: outcome.ok, errorCode: outcome.errorCode });
      group.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: outcome.content,
        ...(outcome.ok ? {} : { isError: true }),
      });
    }
  }
}

interface ToolOutcome {
  ok: boolean;
  content: string;
  toolId?: string;
  errorCode?: string;
}

async function executeToolCall(
  call: ToolCall,
  toolsByName: Map<string, RuntimeTool>,
  env: LoopEnv,
  budget: RunBudget,
  redactor: Redactor,
): Promise<ToolOutcome> {
  const fail = (errorCode: string, message: string, toolId?: string): ToolOutcome => ({
    ok: false,
    errorCode,
    content: JSON.stringify({ error: redactor.text(message) }),
    ...(toolId ? { toolId } : {}),
  });
  const tool = toolsByName.get(call.name);
  if (!tool) return fail('tool_unavailable', `unknown tool ${call.name}`);
  if (call.arguments === undefined) return fail('tool_bad_arguments', 'the arguments are not a JSON object', tool.id);
  const handler = env.tools[tool.id];
  if (!handler) return fail('tool_unavailable', `tool ${call.name} has no implementation on this host`, tool.id);
  try {
    // A model that repeats a key into a tool call cannot hand it to the tool (and on to the tool's origin).
    const args = redactor.json(call.arguments);
    const value = await budget.race(handler(args, { runId: env.runId, tool, signal: budget.signal, fetch: env.fetch }));
    return { ok: true, toolId: tool.id, content: redactor.text(toolContent(value)) };
  } catch (error) {
    if (error instanceof LimitReached || error instanceof RunAborted) throw error;
    if (isRuntimeError(error)) return fail(error.code, error.message, tool.id);
    // A client library's wrapper (undici's `fetch failed`) around the egress guard's refusal.
    const blocked = egressBlockedCause(error);
    if (blocked) return fail(blocked.code, blocked.message, tool.id);
    const message = error instanceof Error ? error.message.slice(0, 500) : 'the tool failed';
    return fail('tool_failed', message, tool.id);
  }
}
