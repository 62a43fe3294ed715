/**
 * One run as OpenTelemetry spans (OTLP/JSON): a root `invoke_agent <slug>` span with agentdef's
 * attributes (the pinning tuple, run ids, lifecycle state, agentic gate, definition id, version id
 * and digest), one `chat <model>` span per model call with the GenAI semantic conventions'
 * attributes (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.response.model`, `gen_ai.usage.*`), and one `execute_tool <name>` span per tool call
 * with `gen_ai.tool.name` and the tool taxonomy (`agentdef.tool.category`, `.tool`, `.operation`,
 * `.latency_ms`, `.ok`). Ids come from the run's random source, times from its clock.
 *
 * Nothing secret and no prompt or answer: attributes are names, versions, counts and codes, and
 * every string goes through the run's redactor.
 */
import type { CallTiming, LoopResult } from '../agent-loop';
import type { RandomFill } from '../run-id';
import type { RuntimeConfig, RuntimeModelPin } from '../runtime-config';
import type { OtlpKeyValue, OtlpSpan, OtlpSpanEvent, OtlpTraceRequest } from './otlp-json';
import { SPAN_KIND, STATUS_CODE, attributes, randomHexId, unixNanos } from './otlp-json';

/** The instrumentation scope of agentdef's spans and records. */
export const TELEMETRY_SCOPE = 'agentdef';
/** The version of what agentdef's spans and records carry (bumped when an attribute changes meaning). */
export const TELEMETRY_SCOPE_VERSION = '1.0.0';

export interface TelemetryRun {
  config: RuntimeConfig;
  result: LoopResult & { runId: string };
  startedMs: number;
  endedMs: number;
  /** One entry per `result.toolCalls` record, same order. */
  toolTimings: readonly CallTiming[];
  /** One entry per `result.modelCalls` record, same order. */
  modelTimings: readonly CallTiming[];
  /** A composed child's parent (the run id is the parent's: children carry it). */
  composedIn?: { card: string; cardVersion: string };
  /** The definition's digest, when the host knows it (plan.json). */
  definitionDigest?: string;
  redact: (text: string) => string;
  random: RandomFill;
}

type Fields = Record<string, string | number | boolean | undefined>;

/** Every string field through the redactor. */
function safe(fields: Fields, redact: (text: string) => string): OtlpKeyValue[] {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = typeof value === 'string' ? redact(value) : value;
  return attributes(out);
}

/** The resource of an agent's signals: `service.name` is the slug, `service.version` the card version. */
export function agentResource(config: RuntimeConfig, redact: (text: string) => string): OtlpKeyValue[] {
  return safe(
    {
      'service.name': config.agent.slug,
      'service.version': config.agent.version,
      'service.namespace': 'agentdef',
      'agentdef.definition.id': config.agent.id,
      'agentdef.definition.version_id': config.agent.versionId,
    },
    redact,
  );
}

/** The pinning tuple and the run's identity, shared by the root span and the records of the run. */
export function runAttributes(run: TelemetryRun): Fields {
  const { config, result } = run;
  const skill = config.skills.find((s) => s.id === result.skillId);
  return {
    'agentdef.card': config.agent.slug,
    'agentdef.card_version': config.agent.version,
    'agentdef.skill': result.skillId,
    'agentdef.skill_version': skill?.version ?? '0.0.0',
    'agentdef.run.id': result.runId,
    'agentdef.run.parent_id': run.composedIn ? result.runId : undefined,
    'agentdef.composed_in.card': run.composedIn?.card,
    'agentdef.composed_in.card_version': run.composedIn?.cardVersion,
    'agentdef.lifecycle_state': config.lifecycleState,
    'agentdef.agentic_gate': config.agenticGate,
    'agentdef.definition.id': config.agent.id,
    'agentdef.definition.version_id': config.agent.versionId,
    'agentdef.definition.digest': run.definitionDigest ?? config.telemetry?.definitionDigest,
  };
}

/** Event names of the streams `telemetryContract.telemetryKinds` may ask for. */
export const SESSION_REPORT_EVENT = 'agentdef.session_report';
export const EXPERIMENT_EVENT = 'agentdef.experiment';

/** A model pin as the experiment stream keys it: `role:providerId/model@modelVersion`. */
export function experimentPin(pin: RuntimeModelPin): string {
  return `${pin.role}:${pin.providerId}/${pin.model}@${pin.modelVersion}`;
}

/**
 * The root span's events for the streams the definition declares: `agentdef.session_report`
 * (the run's counts, tokens, latency and outcome) and `agentdef.experiment` (the exact modelSet,
 * pins in declared order, and the definition digest, with the outcome). Counts and codes only:
 * no prompt, no answer, nothing secret. None when `telemetryKinds` lists neither.
 */
export function runStreamEvents(run: TelemetryRun): OtlpSpanEvent[] {
  const { config, result, redact } = run;
  const kinds: readonly string[] = config.telemetry?.kinds ?? [];
  const time = unixNanos(Math.max(run.startedMs, run.endedMs));
  const outcome = result.stopReason === 'answer' ? 'ok' : 'error';
  const events: OtlpSpanEvent[] = [];
  if (kinds.includes('session-report'))
    events.push({
      timeUnixNano: time,
      name: SESSION_REPORT_EVENT,
      attributes: safe(
        {
          'agentdef.run.id': result.runId,
          'agentdef.session.steps': result.steps,
          'agentdef.session.model_calls': (result.modelCalls ?? []).length,
          'agentdef.session.tool_calls': result.toolCalls.length,
          'agentdef.session.input_tokens': result.usage.inputTokens,
          'agentdef.session.output_tokens': result.usage.outputTokens,
          'agentdef.session.latency_ms': Math.max(0, Math.round(run.endedMs - run.startedMs)),
          'agentdef.session.outcome': outcome,
          'agentdef.session.stop_reason': result.stopReason,
        },
        redact,
      ),
    });
  if (kinds.includes('experiment'))
    events.push({
      timeUnixNano: time,
      name: EXPERIMENT_EVENT,
      attributes: safe(
        {
          'agentdef.run.id': result.runId,
          'agentdef.experiment.model_set': config.models.map(experimentPin).join(','),
          'agentdef.experiment.definition_digest':
            config.telemetry?.definitionDigest ?? run.definitionDigest ?? 'unknown',
          'agentdef.experiment.outcome': outcome,
          'agentdef.experiment.stop_reason': result.stopReason,
        },
        redact,
      ),
    });
  return events;
}

/** The run's spans; `scopeVersion` is the version of agentdef's instrumentation scope. */
export function buildRunTrace(run: TelemetryRun, scopeVersion = TELEMETRY_SCOPE_VERSION): OtlpTraceRequest {
  const { config, result, redact } = run;
  const traceId = randomHexId(16, run.random);
  const rootId = randomHexId(8, run.random);
  const failed = result.stopReason !== 'answer';
  const spans: OtlpSpan[] = [
    {
      traceId,
      spanId: rootId,
      name: redact(`invoke_agent ${config.agent.slug}`),
      kind: SPAN_KIND.internal,
      startTimeUnixNano: unixNanos(run.startedMs),
      endTimeUnixNano: unixNanos(Math.max(run.startedMs, run.endedMs)),
      attributes: safe(
        {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.id': config.agent.id,
          'gen_ai.agent.name': config.agent.slug,
          'gen_ai.agent.version': config.agent.version,
          ...runAttributes(run),
          'agentdef.run.stop_reason': result.stopReason,
          'agentdef.run.steps': result.steps,
          'agentdef.run.subrequests': result.subrequests,
          'agentdef.run.latency_ms': Math.max(0, Math.round(run.endedMs - run.startedMs)),
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          'error.type': failed ? (result.error?.code ?? result.stopReason) : undefined,
        },
        redact,
      ),
      status: failed
        ? { code: STATUS_CODE.error, message: redact(result.error?.code ?? result.stopReason) }
        : { code: STATUS_CODE.ok },
    },
  ];
  const streamEvents = runStreamEvents(run);
  if (streamEvents.length > 0) spans[0]!.events = streamEvents;

  (result.modelCalls ?? []).forEach((call, index) => {
    const timing = run.modelTimings[index] ?? { startMs: run.startedMs, endMs: run.startedMs };
    spans.push({
      traceId,
      spanId: randomHexId(8, run.random),
      parentSpanId: rootId,
      name: redact(`chat ${call.model}`),
      kind: SPAN_KIND.client,
      startTimeUnixNano: unixNanos(timing.startMs),
      endTimeUnixNano: unixNanos(Math.max(timing.startMs, timing.endMs)),
      attributes: safe(
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': call.providerId,
          'gen_ai.system': call.providerId,
          'gen_ai.request.model': call.model,
          'gen_ai.response.model': call.ok ? call.model : undefined,
          'gen_ai.usage.input_tokens': call.inputTokens,
          'gen_ai.usage.output_tokens': call.outputTokens,
          'agentdef.model.seq': call.seq,
          'agentdef.model.role': call.role,
          'agentdef.model.pin': call.pin,
          'agentdef.model.version': call.modelVersion,
          'agentdef.model.purpose': call.purpose,
          'agentdef.model.ok': call.ok,
          'error.type': call.ok ? undefined : 'model_call_failed',
        },
        redact,
      ),
      status: call.ok ? { code: STATUS_CODE.ok } : { code: STATUS_CODE.error, message: 'model_call_failed' },
    });
  });

  result.toolCalls.forEach((call, index) => {
    const timing = run.toolTimings[index] ?? { startMs: run.startedMs, endMs: run.startedMs };
    const tool = config.tools.find((t) => t.id === call.toolId) ?? config.tools.find((t) => t.name === call.name);
    spans.push({
      traceId,
      spanId: randomHexId(8, run.random),
      parentSpanId: rootId,
      name: redact(`execute_tool ${call.name}`),
      kind: SPAN_KIND.internal,
      startTimeUnixNano: unixNanos(timing.startMs),
      endTimeUnixNano: unixNanos(Math.max(timing.startMs, timing.endMs)),
      attributes: safe(
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.name,
          'gen_ai.tool.type': 'function',
          'agentdef.tool.category': tool?.kind ?? 'unknown',
          'agentdef.tool.tool': call.toolId ?? call.name,
          'agentdef.tool.operation': call.name,
          'agentdef.tool.latency_ms': Math.max(0, Math.round(timing.endMs - timing.startMs)),
          'agentdef.tool.ok': call.ok,
          'agentdef.tool.version': tool?.version,
          'agentdef.tool.step': call.step,
          'agentdef.tool.error_code': call.errorCode,
          'error.type': call.ok ? undefined : (call.errorCode ?? 'tool_failed'),
        },
        redact,
      ),
      status: call.ok
        ? { code: STATUS_CODE.ok }
        : { code: STATUS_CODE.error, message: redact(call.errorCode ?? 'tool_failed') },
    });
  });

  return {
    resourceSpans: [
      {
        resource: { attributes: agentResource(config, redact) },
        scopeSpans: [{ scope: { name: TELEMETRY_SCOPE, version: scopeVersion }, spans }],
      },
    ],
  };
}
