/**
 * One run of one agent, end to end: resolve the pins' secrets (by binding name, from the host),
 * wrap fetch in the egress policy, arm the run budget, run the loop (leaf) or the composition
 * (dag), then issue exactly one receipt, signed and handed to the sink without blocking. This is
 * the function every host calls; the A2A handler is a thin shell around it.
 *
 * The optional parts (model clients, composition, the MCP client, the agentic loop, receipt
 * signing: run-receipt.ts) come in `deps` (runtime-parts.ts): `runAgentWithParts` uses only
 * those, `runAgent` supplies every part.
 *
 * No secret leaves: every secret value the run resolved (provider keys, the receipt key, every
 * value of a secret record the host passed) is scrubbed from the whole result (answer, data,
 * error, tool-call names, compaction notes) and from every log event before they are returned,
 * and the receipt is built from the scrubbed result, so redaction happens before signing.
 */
import type { AgentInput, CallTiming, LoopResult, RuntimeLogEvent, ToolHandler } from './agent-loop';
import { emptyLoopResult, runAgentLoopWithParts } from './agent-loop';
import type { ChildRunner, CompositionTrace } from './composition';
import { createEgressFetch, egressAllowList } from './egress';
import { RuntimeError, describeError } from './errors';
import type { ModelClient } from './providers/model-turn';
import type { ModelCallRecord } from './hybrid/model-calls';
import { recordModelCalls } from './hybrid/model-calls';
import type { Receipt, ReceiptSink } from './receipts';
import { createRedactor } from './redact';
import { createRunBudget } from './run-budget';
import type { RandomFill } from './run-id';
import { newRunId, webRandom } from './run-id';
import type { RuntimeConfig, RuntimeModelPin } from './runtime-config';
import { primaryPin, resolveLimits, routerPin } from './runtime-config';
import type { RuntimeParts } from './runtime-parts';
import type { SecretSource } from './secret-source';
import { readSecret } from './secret-source';
import { withEveryPart } from './runtime-parts';
import type { RunTelemetry } from './telemetry/run-telemetry';

export type { SecretSource } from './secret-source';

export interface RunDeps extends RuntimeParts {
  /** The host's fetch (Workers global fetch, Node fetch); every call goes through the egress policy. */
  fetch?: typeof fetch;
  /** Secret values by binding name (`env` on Workers, the keychain on local hosts). */
  secrets?: SecretSource;
  /** Tool implementations by tool id. */
  tools?: Record<string, ToolHandler>;
  /** How composed children run (dag configs). */
  runChild?: ChildRunner;
  receipts?: {
    /** The Ed25519 private key (CryptoKey, JWK or JWK JSON); default: the secret named by `receipts.keyBinding`. */
    signingKey?: CryptoKey | JsonWebKey | string;
    sink?: ReceiptSink;
  };
  /** Keeps background work (receipt delivery) alive after the response: Workers `ctx.waitUntil`. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** Structured log events; they never carry secrets, prompts or answers. */
  log?: (event: RuntimeLogEvent) => void;
  now?: () => number;
  random?: RandomFill;
  /**
   * The run's OpenTelemetry signals (telemetry/run-telemetry.ts), exported in the background
   * after the receipt; absent: the run records no timings and builds no spans.
   */
  telemetry?: RunTelemetry;
  /** The definition's digest (plan.json), carried by the run's telemetry. */
  definitionDigest?: string;
}

export interface RunOptions {
  /** The caller's abort signal (client disconnect). */
  signal?: AbortSignal;
  /** A composed child's parent run id. */
  runId?: string;
  /** A composed child's parent. */
  composedIn?: { card: string; cardVersion: string };
  /**
   * Told once, when the run may first wait on something (a tool's or model's promise): a run that
   * never waits ends within one turn of the event loop. A run that reads secrets or a signing key,
   * or runs children or a hybrid leaf, is told at its start.
   */
  onFirstWait?: () => void;
}

export interface AgentRunResult extends LoopResult {
  runId: string;
  latencyMs: number;
  /** The signed receipt (absent when the config's receipts are off). */
  receipt?: Receipt;
  composition?: CompositionTrace;
}

/**
 * The host's tool implementations, plus a Streamable HTTP client (the `mcpHttpTool` part) for
 * every `mcp-http` tool whose URL the config names and the host does not implement itself.
 */
export function toolHandlers(
  config: RuntimeConfig,
  deps: Pick<RunDeps, 'tools' | 'mcpHttpTool'>,
): Record<string, ToolHandler> {
  const handlers: Record<string, ToolHandler> = {};
  const mcpHttpTool = deps.mcpHttpTool;
  for (const tool of config.tools) {
    if (tool.kind === 'mcp-http' && tool.url && mcpHttpTool)
      handlers[tool.id] = mcpHttpTool({ url: tool.url, toolName: tool.name });
  }
  return { ...handlers, ...deps.tools };
}

/** A run with every part of the runtime (the hosts that run any agent). */
export function runAgent(
  config: RuntimeConfig,
  input: AgentInput,
  deps: RunDeps = {},
  options: RunOptions = {},
): Promise<AgentRunResult> {
  return runAgentWithParts(config, input, withEveryPart(deps), options);
}

/** A run with only the parts `deps` carries: a config that needs another part ends in a `config_invalid` result. */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const runAgentWithParts = (async function runAgentWithParts(
  config: RuntimeConfig,
  input: AgentInput,
  deps: RunDeps = {},
  options: RunOptions = {},
): Promise<AgentRunResult> {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const runId = options.runId ?? newRunId(started, deps.random ?? webRandom);
  const redactor = createRedactor();
  // A record of secrets is known in full: all of its values are scrubbed, used by this run or not.
  if (deps.secrets !== undefined && typeof deps.secrets !== 'function')
    for (const value of Object.values(deps.secrets)) redactor.add(value);
  const log = (event: RuntimeLogEvent) => {
    if (!deps.log) return;
    const safe: RuntimeLogEvent = { ...event };
    for (const [k, v] of Object.entries(safe)) if (typeof v === 'string') safe[k] = redactor.text(v);
    deps.log(safe);
  };
  log({ event: 'run.start', runId, agent: `${config.agent.slug}@${config.agent.version}`, skill: input.skillId });

  let result: LoopResult = emptyLoopResult(input.skillId ?? config.skills[0]?.id ?? '');
  const modelCalls: ModelCallRecord[] = [];
  // When each call started and ended, beside the records (only with telemetry: spans need them).
  const toolTimings: CallTiming[] | undefined = deps.telemetry ? [] : undefined;
  const modelTimings: CallTiming[] = [];
  let composition: CompositionTrace | undefined;
  let signingKey: CryptoKey | undefined;
  let firstWait = options.onFirstWait;
  if (firstWait && (config.receipts.mode === 'signed' || config.models.some((pin) => pin.secretBinding))) {
    // The run awaits its keys before anything else: told at once.
    firstWait();
    firstWait = undefined;
  }
  try {
    // Secrets first: a run that cannot sign its receipt, or reach its model, does not start. The
    // signing key comes first so a missing model key still ends in a (signed) receipt.
    if (config.receipts.mode === 'signed') {
      if (!deps.receiptSigning)
        throw new RuntimeError('config_invalid', 'this build of the runtime cannot sign receipts');
      signingKey = await deps.receiptSigning.key(config, deps, redactor);
    }

    const keys = new Map<RuntimeModelPin, string | undefined>();
    for (const pin of config.models) {
      const key = pin.secretBinding ? await readSecret(deps.secrets, pin.secretBinding) : undefined;
      if (pin.secretBinding && key === undefined)
        throw new RuntimeError('missing_secret', `secret binding ${pin.secretBinding} is not set`);
      redactor.add(key);
      keys.set(pin, key);
    }
    const egressFetch = createEgressFetch({
      allow: egressAllowList(config),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      onBlocked: (host) => log({ event: 'egress.blocked', runId, host }),
    });
    const clientFor = (pin: RuntimeModelPin | undefined): ModelClient | undefined => {
      if (!pin) return undefined;
      const apiKey = keys.get(pin);
      const io = { fetch: egressFetch, ...(apiKey ? { apiKey } : {}) };
      if (!deps.modelClient) throw new RuntimeError('config_invalid', 'this build of the runtime has no model clients');
      // Every call of every pin is recorded with the pin that answered it (the receipt's modelCalls).
      const recorded = recordModelCalls(deps.modelClient(pin, io), pin, modelCalls);
      return deps.telemetry ? timedModelCalls(recorded, modelTimings, now) : recorded;
    };
    // A leaf arms its wall clock at its first wait (a tool or model promise): a run of synchronous
    // tools needs no timer. Compositions and hybrid leaves wait in more places: armed at once.
    const leaf = config.composition.kind !== 'dag' && config.hybrid === undefined;
    const budget = createRunBudget(resolveLimits(config.limits), {
      now,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(leaf ? { clock: 'first-wait' as const } : {}),
      ...(firstWait ? { onFirstWait: firstWait } : {}),
    });
    try {
      if (config.composition.kind === 'dag') {
        const runChild: ChildRunner =
          deps.runChild ??
          (async () => {
            throw new RuntimeError('composition_failed', 'this host cannot run composed children');
          });
        const router = clientFor(routerPin(config));
        if (!deps.runComposition)
          throw new RuntimeError('config_invalid', 'this build of the runtime cannot run compositions');
        const out = await deps.runComposition(config, input, {
          runId,
          runChild,
          budget,
          redactor,
          log,
          ...(router ? { router } : {}),
        });
        composition = out.composition;
        const { composition: _trace, ...rest } = out;
        result = rest;
      } else if (config.hybrid !== undefined) {
        if (!deps.hybridLeaf || !deps.agenticLoop)
          throw new RuntimeError('config_invalid', 'this build of the runtime cannot run a hybrid leaf');
        const clients = new Map<number, ModelClient>();
        result = await deps.hybridLeaf(config, config.hybrid, input, {
          runId,
          tools: toolHandlers(config, deps),
          fetch: egressFetch,
          budget,
          redactor,
          log,
          ...(toolTimings ? { toolTimings, now } : {}),
          agenticLoop: deps.agenticLoop,
          clientFor: (index) => {
            let client = clients.get(index);
            if (!client) {
              client = clientFor(config.models[index]);
              if (!client)
                throw new RuntimeError(
                  'config_invalid',
                  `the hybrid config names models[${index}], which is not pinned`,
                );
              clients.set(index, client);
            }
            return client;
          },
        });
      } else {
        const model = clientFor(primaryPin(config));
        result = await runAgentLoopWithParts(config, input, {
          runId,
          tools: toolHandlers(config, deps),
          fetch: egressFetch,
          budget,
          redactor,
          log,
          ...(toolTimings ? { toolTimings, now } : {}),
          ...(model ? { model } : {}),
          ...(deps.agenticLoop ? { agenticLoop: deps.agenticLoop } : {}),
        });
      }
    } finally {
      budget.dispose();
    }
  } catch (error) {
    const described = describeError(error);
    result = {
      ...emptyLoopResult(input.skillId ?? config.skills[0]?.id ?? ''),
      error: { code: described.code, message: redactor.text(described.message) },
    };
  }

  if (modelCalls.length > 0) result = { ...result, modelCalls };
  const latencyMs = Math.max(0, now() - started);
  // Everything that leaves goes through the redactor once, here: answer, data, error, tool calls.
  const out: AgentRunResult = { ...redactor.json(result), runId, latencyMs };
  if (composition) out.composition = redactor.json(composition);
  if (config.receipts.mode === 'signed' && signingKey !== undefined && deps.receiptSigning) {
    const meta = {
      runId,
      issuedAtMs: now(),
      latencyMs,
      ...(options.composedIn ? { composedIn: options.composedIn } : {}),
      ...(out.composition ? { composition: out.composition } : {}),
    };
    await deps.receiptSigning.issue(out, { config, deps, meta, signingKey, redactor, log });
  }
  if (deps.telemetry) {
    deps.telemetry.record(
      {
        config,
        result: out,
        startedMs: started,
        endedMs: started + latencyMs,
        toolTimings: toolTimings ?? [],
        modelTimings,
        ...(options.composedIn ? { composedIn: options.composedIn } : {}),
        ...(deps.definitionDigest !== undefined ? { definitionDigest: deps.definitionDigest } : {}),
        redact: (text) => redactor.text(text),
        random: deps.random ?? webRandom,
      },
      deps.waitUntil,
    );
  }
  log({ event: 'run.end', runId, stopReason: out.stopReason, latencyMs, errorCode: out.error?.code });
  return out;
});

/** A client that notes when each call started and ended, one entry per call in call order (as `recordModelCalls` records them). */
function timedModelCalls(client: ModelClient, timings: CallTiming[], now: () => number): ModelClient {
  return {
    wire: client.wire,
    model: client.model,
    async complete(request) {
      const timing: CallTiming = { startMs: now(), endMs: 0 };
      timing.endMs = timing.startMs;
      timings.push(timing);
      try {
        return await client.complete(request);
      } finally {
        timing.endMs = now();
      }
    },
  };
}

/**
 * A `ChildRunner` that runs children in this runtime instance (the non-quarantined case, and the
 * fallback for hosts without isolates): each child is its own `runAgent` with its own config,
 * limits and receipt, carrying the parent's run id.
 */
export function inProcessChildRunner(
  children: RuntimeConfig[],
  depsFor: RunDeps | ((config: RuntimeConfig) => RunDeps),
): ChildRunner {
  const byKey = new Map(children.map((c) => [`${c.agent.slug}@${c.agent.version}`, c]));
  return async (child, input, context) => {
    const config = byKey.get(`${child.slug}@${child.version}`);
    if (!config) throw new RuntimeError('composition_failed', `no config for child ${child.slug}@${child.version}`);
    const deps = typeof depsFor === 'function' ? depsFor(config) : depsFor;
    return runAgent(config, input, deps, {
      runId: context.runId,
      signal: context.signal,
      composedIn: { card: context.parent.slug, cardVersion: context.parent.version },
    });
  };
}
