/**
 * The A2A server of one agent, as a web-standard `(Request) => Promise<Response>`:
 * - `GET /.well-known/agent-card.json`: the AgentCard, signed when the host sets a card signing key
 *   (served-card.ts);
 * - `POST /` (the URL the card's JSONRPC interfaces name) and `POST <card.rpcPath>` (kept for
 *   clients of the earlier cards): JSON-RPC 2.0, A2A v1.0 (`SendMessage`…, what `@a2a-js/sdk` 1.3
 *   sends) and v0.3 (`message/send`…):
 *   - SendMessage runs the agent: its task is kept `working` at once, then `completed` with the
 *     answer as an artifact, or `failed` saying which limit or error stopped it, or `canceled`;
 *     the answer waits for the end, or, with `configuration.returnImmediately` (v0.3:
 *     `blocking: false`), is the working task while the run goes on. A finished task carries the
 *     run's signed receipt in `metadata.receipt`.
 *   - SendStreamingMessage and SubscribeToTask answer Server-Sent Events (a2a-sse.ts,
 *     a2a-stream-events.ts): the Task, a working status update per step of the agent loop, the
 *     answer's artifact chunks and the terminal status (with the receipt), then the stream closes.
 *     The run outlives its stream; a terminal task cannot be subscribed to.
 *   - GetTask (`historyLength`), ListTasks (a2a-list-tasks.ts), CancelTask: the canceled task is
 *     kept first (a terminal task is final in every store), then the run is interrupted — here,
 *     or, when another request or instance runs it, by the run's own poll of the store.
 *   - A message into a known task is refused (tasks are single-turn).
 *   - Push notifications and the extended card are declared unsupported in the card and answered
 *     with their A2A error codes.
 *   - A request without an `id` is a notification: carried out, answered 204 with no body.
 * Tasks live in a `TaskStore` (task-store.ts): in memory by default, a Durable Object on Workers,
 * SQLite on Node hosts when configured; the runs and streams of this instance in a2a-task-runs.ts.
 * Errors are JSON-RPC errors with safe messages: `-32700` bad JSON, `-32600` bad request (wrong or
 * missing `jsonrpc`, a missing or non-string `method`, an object or array `id`, a batch),
 * `-32601` unknown method, `-32602` bad params (the message names the parameters; the data holds
 * `google.rpc.BadRequest` field violations), `-32603` internal, and A2A's codes (`-32001`…`-32009`
 * with `google.rpc.ErrorInfo`). Never a stack trace, never a key.
 * The `A2A-Version` service parameter (header, or query parameter) is checked when present (1.0
 * and 0.3 are served, anything else is -32009) and then decides the method names served (1.0:
 * `SendMessage`…, 0.3: `message/send`…; the other version's names are -32601); an absent header
 * is accepted and the method name decides the wire flavour.
 * v1.0 parameters are read as ProtoJSON (a2a-proto-json.ts): null is an unset field, an int32 may
 * be a decimal string. A push-notification config inside SendMessage is -32003, as the
 * push-notification methods are.
 * Before a JSON-RPC body is read (request-guard.ts): a cross-site `Origin` is refused (403), a
 * body that is not JSON (415), too large, declared or read (413), or unreadable (400), and a request beyond
 * `maxConcurrentRuns` in flight (background runs included) is answered 503 with `Retry-After`, as
 * is a stream beyond `maxOpenStreams`.
 * Tasks are kept within a count and a byte budget (task-store.ts), so memory stays bounded.
 * Runs use the parts of the runtime `deps` carries (runtime-parts.ts): `createA2aHandler` supplies
 * every part, `createA2aHandlerWithParts` (a generated Worker) only the ones given.
 */
import { AGENT_CARD_PATH } from './agent-card';
import type { NeutralMessage, ProtocolFlavour, TaskView } from './a2a-wire';
import { isObject, messageToInput, parseMessage, renderTask, tooDeepAt, tooDeepViolation } from './a2a-wire';
import type { SseStream } from './a2a-sse';
import { openSseStream } from './a2a-sse';
import { progressOf, streamEnding, streamStatusUpdate, streamTask } from './a2a-stream-events';
import type { TaskRunEvent, TaskRunListener } from './a2a-task-runs';
import { createTaskRuns } from './a2a-task-runs';
import type { AgentInput, RuntimeLogEvent } from './agent-loop';
import { RuntimeError, describeError } from './errors';
import type { AgentRunResult, RunDeps } from './run-agent';
import { runAgentWithParts } from './run-agent';
import { newRunId, webRandom } from './run-id';
import type { RuntimeConfig } from './runtime-config';
import { resolveLimits } from './runtime-config';
import { busy, isJsonContentType, originAllowed, readBodyText, refusal, tooLarge } from './request-guard';
import { createServedCard } from './served-card';
import { createPageTokenSigner, listTasks, parseListTasksParams } from './a2a-list-tasks';
import type { TaskStore } from './task-store';
import { createTaskStore, isTerminalTask, TaskStoreUnavailableError } from './task-store';
import { withEveryPart } from './runtime-parts';
import { optionalInt32, withoutNullFields, withoutNullFieldsIfObject } from './a2a-proto-json';
import { isoTimestamp } from './iso-timestamp';

export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  extendedAgentCardNotConfigured: -32007,
  versionNotSupported: -32009,
} as const;

export interface A2aHandlerDeps extends RunDeps {
  /** Largest request body accepted (bytes); default 1 MiB. */
  maxBodyBytes?: number;
  /** How many finished tasks `GetTask` can read back (per handler instance); default 100. */
  taskMemory?: number;
  /** How many bytes of finished tasks are kept for `GetTask` (per handler instance); default 8 MiB. */
  taskMemoryBytes?: number;
  /**
   * How long a blocking SendMessage's run may take before its working task is put (default
   * {@link DEFERRED_WORKING_PUT_MS}); a test that needs a run to count as short sets it long.
   */
  deferredWorkingPutMs?: number;
  /** JSON-RPC requests read or run at once (per handler instance: a Worker isolate, a Node host); more are answered 503; default 16. */
  maxConcurrentRuns?: number;
  /** The origin clients reach this agent at (the card's URLs); default the request's own origin. */
  publicOrigin?: string;
  /** Origins besides the request's own (and `card.publicUrl`'s) whose pages may call the agent. */
  allowedOrigins?: () => readonly string[];
  /** The private Ed25519 JWK the served card is signed with; absent: the `AGENTDEF_CARD_SIGNING_KEY` secret, else unsigned. */
  cardSigningKey?: JsonWebKey | string;
  /** The deployment skipped the KYM gate (deploy --allow-unregistered): the served card carries the kym-registration extension saying so. */
  unregisteredDeployment?: boolean;
  /** Where tasks are kept (a Worker's Durable Object, a Node host's SQLite file); absent: in memory, within `taskMemory`/`taskMemoryBytes`. */
  taskStore?: TaskStore;
  /** Streams (SendStreamingMessage, SubscribeToTask) open at once (per handler instance); more are answered 503; default 4 × `maxConcurrentRuns`. */
  maxOpenStreams?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
export const DEFAULT_TASK_MEMORY_BYTES = 8 * 1024 * 1024;
/** How often a run reads its task back for a cancel that could not interrupt it directly. */
const CANCEL_POLL_MS = 1000;
/** How long a blocking SendMessage's run goes before its `working` task is put (shorter runs make only their final put). */
export const DEFERRED_WORKING_PUT_MS = 100;
/** How often a stream following another instance's run reads the shared store. */
const SHARED_STREAM_POLL_MS = 500;

/** Per-request host facilities (Workers: `ctx.waitUntil`). */
export type PerRequestDeps = Pick<RunDeps, 'waitUntil' | 'log'>;

type JsonRpcId = string | number | null;

/** A checked SendMessage/SendStreamingMessage request. */
interface PreparedSend {
  message: NeutralMessage;
  input: AgentInput;
  contextId: string;
  historyLength?: number;
  returnImmediately: boolean;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown[],
  ) {
    super(message);
  }
}

const FLAVOUR_BY_METHOD: Record<string, { op: string; flavour: ProtocolFlavour }> = {
  SendMessage: { op: 'send', flavour: 'v1' },
  'message/send': { op: 'send', flavour: 'v03' },
  GetTask: { op: 'get', flavour: 'v1' },
  'tasks/get': { op: 'get', flavour: 'v03' },
  CancelTask: { op: 'cancel', flavour: 'v1' },
  'tasks/cancel': { op: 'cancel', flavour: 'v03' },
  SendStreamingMessage: { op: 'sendStream', flavour: 'v1' },
  'message/stream': { op: 'sendStream', flavour: 'v03' },
  SubscribeToTask: { op: 'subscribe', flavour: 'v1' },
  'tasks/resubscribe': { op: 'subscribe', flavour: 'v03' },
  ListTasks: { op: 'list', flavour: 'v1' },
  CreateTaskPushNotificationConfig: { op: 'push', flavour: 'v1' },
  GetTaskPushNotificationConfig: { op: 'push', flavour: 'v1' },
  ListTaskPushNotificationConfigs: { op: 'push', flavour: 'v1' },
  DeleteTaskPushNotificationConfig: { op: 'push', flavour: 'v1' },
  'tasks/pushNotificationConfig/set': { op: 'push', flavour: 'v03' },
  'tasks/pushNotificationConfig/get': { op: 'push', flavour: 'v03' },
  'tasks/pushNotificationConfig/list': { op: 'push', flavour: 'v03' },
  'tasks/pushNotificationConfig/delete': { op: 'push', flavour: 'v03' },
  GetExtendedAgentCard: { op: 'extendedCard', flavour: 'v1' },
  'agent/getAuthenticatedExtendedCard': { op: 'extendedCard', flavour: 'v03' },
};

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function rpcErrorResponse(id: JsonRpcId, error: RpcError, status = 200): Response {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data) body['data'] = error.data;
  return json({ jsonrpc: '2.0', id, error: body }, status);
}

/** -32602 naming every offending parameter in the message, with `google.rpc.BadRequest` detail. */
function badParams(violations: { field: string; description: string }[]): RpcError {
  const fields = [...new Set(violations.map((v) => v.field))];
  return new RpcError(JSON_RPC_ERRORS.invalidParams, `Invalid parameters: ${fields.join(', ')}`, [
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations },
  ]);
}

function a2aError(code: number, message: string, reason: string, metadata: Record<string, string> = {}): RpcError {
  return new RpcError(code, message, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org', metadata },
  ]);
}

/** `1.0`, `1`, `0.3` → [major, minor]; anything unparsable → undefined. */
function parseVersion(text: string): [number, number] | undefined {
  const match = /^\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(text);
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
const stopText = (function stopText(result: AgentRunResult): string {
  switch (result.stopReason) {
    case 'answer':
      return result.answer?.text ?? '';
    case 'limit:wallClock':
      return 'The run stopped: limit:wallClock (the wall-clock limit was reached before an answer).';
    case 'limit:subrequests':
      return 'The run stopped: limit:subrequests (the outbound call limit was reached before an answer).';
    case 'limit:steps':
      return 'The run stopped: limit:steps (the step limit was reached before an answer).';
    case 'error':
      return `The run failed: ${result.error?.code ?? 'internal'}${result.error ? ` (${result.error.message})` : ''}.`;
  }
});

export type A2aHandler = (request: Request, perRequest?: PerRequestDeps) => Promise<Response>;

/** The handler with every part of the runtime (the hosts that serve any agent). */
export function createA2aHandler(config: RuntimeConfig, deps: A2aHandlerDeps = {}): A2aHandler {
  return createA2aHandlerWithParts(config, withEveryPart(deps));
}

/** The handler whose runs use only the parts `deps` carries (a generated Worker passes what its agent uses). */
export function createA2aHandlerWithParts(config: RuntimeConfig, deps: A2aHandlerDeps = {}): A2aHandler {
  const problems = deps.configCheck?.(config) ?? [];
  if (problems.length > 0)
    throw new RuntimeError('config_invalid', `the runtime config is invalid: ${problems.join('; ')}`);
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxConcurrentRuns = deps.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS;
  const tasks =
    deps.taskStore ??
    createTaskStore({ maxTasks: deps.taskMemory ?? 100, maxBytes: deps.taskMemoryBytes ?? DEFAULT_TASK_MEMORY_BYTES });
  const rpcPath = config.card.rpcPath;
  const now = deps.now ?? (() => Date.now());
  const pageTokens = createPageTokenSigner(tasks.pageTokenKey?.bind(tasks));
  const configuredOrigins = [config.card.publicUrl, deps.publicOrigin].flatMap((u) => {
    try {
      return u === undefined ? [] : [new URL(u).origin];
    } catch {
      return [];
    }
  });
  let inFlight = 0;
  let openStreams = 0;
  const maxOpenStreams = deps.maxOpenStreams ?? 4 * maxConcurrentRuns;
  const runs = createTaskRuns();
  const servedCard = createServedCard(config, {
    ...(deps.cardSigningKey !== undefined ? { signingKey: deps.cardSigningKey } : {}),
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    ...(deps.unregisteredDeployment === true ? { unregistered: true } : {}),
    ...(deps.cardScrub ? { scrub: deps.cardScrub } : {}),
  });

  /** A SendMessage/SendStreamingMessage request checked: what to run, or the -32602/A2A error. */
  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const prepareSend = (async function prepareSend(flavour: ProtocolFlavour, params: Record<string, unknown>): Promise<PreparedSend> {
    const { message, violations } = parseMessage(flavour, params['message']);
    const configuration =
      flavour === 'v1' ? withoutNullFieldsIfObject(params['configuration']) : params['configuration'];
    if (configuration !== undefined && !isObject(configuration))
      violations.push({ field: 'configuration', description: 'must be an object' });
    const historyLength =
      isObject(configuration) && configuration['historyLength'] !== null
        ? optionalInt32(configuration['historyLength'])
        : undefined;
    if (historyLength === 'invalid')
      violations.push({ field: 'configuration.historyLength', description: 'must be a non-negative integer' });
    // v1.0 `returnImmediately: true`, v0.3 `blocking: false`: answer with the working task, the run goes on.
    const modeField = flavour === 'v1' ? 'returnImmediately' : 'blocking';
    const mode = isObject(configuration) ? configuration[modeField] : undefined;
    if (mode !== undefined && mode !== null && typeof mode !== 'boolean')
      violations.push({ field: `configuration.${modeField}`, description: 'must be a boolean' });
    const returnImmediately = flavour === 'v1' ? mode === true : mode === false;
    if (params['metadata'] !== undefined && !isObject(params['metadata']))
      violations.push({ field: 'metadata', description: 'must be an object' });
    if (!message || violations.length > 0) throw badParams(violations);
    // The card declares `pushNotifications: false`: a push config asked for with the message is refused
    // (A2A §3.3.4), not ignored, so the client does not wait for notifications that never come.
    const pushField = flavour === 'v1' ? 'taskPushNotificationConfig' : 'pushNotificationConfig';
    if (isObject(configuration) && configuration[pushField] !== undefined && configuration[pushField] !== null) {
      throw a2aError(
        JSON_RPC_ERRORS.pushNotificationNotSupported,
        'Push notifications are not supported',
        'PUSH_NOTIFICATION_NOT_SUPPORTED',
      );
    }
    const skillRef =
      (params['metadata'] as Record<string, unknown> | undefined)?.['skillId'] ?? message.metadata?.['skillId'];
    if (skillRef !== undefined && (typeof skillRef !== 'string' || !config.skills.some((s) => s.id === skillRef))) {
      throw badParams([
        {
          field: 'metadata.skillId',
          description: `unknown skill; this agent offers ${config.skills.map((s) => s.id).join(', ')}`,
        },
      ]);
    }
    const skill = config.skills.find((s) => s.id === skillRef) ?? config.skills[0]!;
    const accepted = skill.inputModes?.length ? skill.inputModes : config.card.defaultInputModes;
    for (const part of message.parts) {
      if (part.mediaType && accepted.length > 0 && !accepted.includes(part.mediaType) && !accepted.includes('*/*')) {
        throw a2aError(
          JSON_RPC_ERRORS.contentTypeNotSupported,
          `Content type ${part.mediaType} is not supported`,
          'CONTENT_TYPE_NOT_SUPPORTED',
        );
      }
    }
    if (message.taskId !== undefined) {
      // Every task of this agent is single-turn: a follow-up into a known task is refused (A2A §3.1.1).
      const known = await tasks.get(message.taskId);
      if (known && isTerminalTask(known))
        throw a2aError(
          JSON_RPC_ERRORS.unsupportedOperation,
          'The task is in a terminal state and accepts no more messages',
          'UNSUPPORTED_OPERATION',
          { taskId: message.taskId },
        );
      if (known)
        throw a2aError(
          JSON_RPC_ERRORS.unsupportedOperation,
          'The task is still working and accepts no more messages',
          'UNSUPPORTED_OPERATION',
          { taskId: message.taskId },
        );
      throw a2aError(JSON_RPC_ERRORS.taskNotFound, 'Task not found', 'TASK_NOT_FOUND', { taskId: message.taskId });
    }
    return {
      message,
      input: messageToInput(message, typeof skillRef === 'string' ? skillRef : undefined),
      contextId: message.contextId ?? newRunId(now(), deps.random ?? webRandom),
      ...(typeof historyLength === 'number' ? { historyLength } : {}),
      returnImmediately,
    };
  });

  /** The task a finished run leaves: completed with its answer, or failed saying why; its receipt in the metadata. */
  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const finishedTask = ((working: TaskView, result: AgentRunResult): TaskView => {
    const metadata: Record<string, unknown> = {
      runId: result.runId,
      stopReason: result.stopReason,
      skill: result.skillId,
    };
    if (result.error) metadata['errorCode'] = result.error.code;
    if (result.modelsReplayed === true) metadata['modelsReplayed'] = true;
    // Token counts only (what `agentdef eval` scores a case's cost by): never a prompt or an answer.
    if (result.usage)
      metadata['usage'] = { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens };
    if (result.hybrid) metadata['hybrid'] = result.hybrid;
    if (result.receipt) metadata['receipt'] = result.receipt;
    const task: TaskView = {
      ...working,
      state: result.stopReason === 'answer' ? 'completed' : 'failed',
      replyText: stopText(result),
      timestamp: isoTimestamp(now()),
      metadata,
    };
    if (result.answer) task.answer = result.answer;
    return task;
  });

  /**
   * Starts a run for a checked request: its task is kept as `working` first (GetTask, ListTasks,
   * CancelTask and SubscribeToTask see it from then on, on every instance sharing the store), then
   * the run goes on, interruptible by CancelTask (directly, or through the store, which the run
   * polls for it). `done` resolves with the task as finally kept — the canceled one when a cancel came
   * first — and rejects only as said below. `listener` hears the run from its first step.
   *
   * `deferWorkingPut` (a blocking SendMessage, whose caller learns the task id only from the
   * answer): the `working` task is put only if the run is still going after
   * {@link DEFERRED_WORKING_PUT_MS} (its timer armed when the run may first wait, for what is left
   * of that time), so a short run makes one put, its final one; the final put
   * waits for a working put in flight, so the store never sees working after final. Until then no
   * other request can name the task, and the run polls for a cancel from its working put on. As
   * when the working put fails up front, a run whose task never reached the store (its working put,
   * if made, and its final put both failed) rejects `done`.
   */
  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const startRun = (async function startRun(
    prepared: PreparedSend,
    perRequest: PerRequestDeps | undefined,
    options: { signal?: AbortSignal; listener?: TaskRunListener; deferWorkingPut?: boolean },
  ) {
    const startedMs = now();
    const runId = newRunId(startedMs, deps.random ?? webRandom);
    const working: TaskView = {
      id: runId,
      contextId: prepared.contextId,
      state: 'working',
      userMessage: prepared.message,
      timestamp: isoTimestamp(now()),
      metadata: { runId },
    };
    if (!options.deferWorkingPut) await tasks.put(working);
    const controller = new AbortController();
    const stopOnSignal = () => controller.abort();
    // The caller's signal stops the run from the run's first wait on (at once when the working put
    // is not deferred): a run that never waits ends within this turn of the event loop, where no
    // abort event can fire, and needs no listener. One already aborted here is left as it was.
    const { signal } = options;
    const abortedAtStart = signal?.aborted === true;
    let listening = false;
    const listen = () => {
      if (!signal || listening || abortedAtStart) return;
      if (signal.aborted) return void controller.abort();
      listening = true;
      signal.addEventListener('abort', stopOnSignal, { once: true });
    };
    if (!options.deferWorkingPut) listen();
    runs.begin(runId, controller);
    if (options.listener) runs.listen(runId, options.listener);
    const log = perRequest?.log ?? deps.log;
    const runLog = (event: RuntimeLogEvent) => {
      log?.(event);
      if (!runs.heard(runId)) return;
      const progress = progressOf(event);
      if (progress)
        runs.emit(runId, {
          type: 'progress',
          task: { ...working, timestamp: isoTimestamp(now()) },
          progress,
        });
    };
    // A cancel that could not interrupt the run directly (it came through another instance sharing
    // the store, or from another request that a Worker does not let abort this one's I/O) reaches
    // it through the store.
    let cancelPoll: ReturnType<typeof setInterval> | undefined;
    const pollForCancel = () => {
      cancelPoll = setInterval(() => {
        tasks.get(runId).then(
          (kept) => kept?.state === 'canceled' && controller.abort(),
          () => undefined,
        );
      }, CANCEL_POLL_MS);
    };
    /** The deferred working put once made: whether the task reached the store by it. */
    let workingKept: Promise<boolean> | undefined;
    let deferral: ReturnType<typeof setTimeout> | undefined;
    /** Arms the deferred working put (at the run's first wait: a run that never waits ends before any timer could fire). */
    const deferWorkingPut = () => {
      const deferMs = deps.deferredWorkingPutMs ?? DEFERRED_WORKING_PUT_MS;
      deferral = setTimeout(
        () => {
          deferral = undefined;
          workingKept = tasks.put(working).then(
            () => true,
            () => false,
          );
          pollForCancel();
        },
        Math.max(0, deferMs - (now() - startedMs)),
      );
    };
    if (!options.deferWorkingPut) pollForCancel();
    /**
     * Keeps the finished task; the run's ending as answered: a terminal task kept first (a cancel)
     * wins, else the run's own ending, even when the store failed or could not fit it (its working
     * version left behind must not be answered as the end of a finished run).
     */
    const keepFinal = async (task: TaskView): Promise<TaskView> => {
      if (deferral !== undefined) {
        clearTimeout(deferral);
        deferral = undefined;
      }
      const stored = options.deferWorkingPut ? ((await workingKept) ?? false) : true;
      const put = tasks.put(task);
      const kept = stored ? await put.catch(() => false) : await put;
      if (kept) return task;
      const current = await tasks.get(runId).catch(() => undefined);
      return current && isTerminalTask(current) ? current : task;
    };
    const done = runAgentWithParts(
      config,
      prepared.input,
      { ...deps, ...perRequest, log: runLog },
      {
        runId,
        signal: controller.signal,
        ...(options.deferWorkingPut
          ? {
              onFirstWait: () => {
                listen();
                deferWorkingPut();
              },
            }
          : {}),
      },
    )
      .then(
        (result) => finishedTask(working, result),
        (error: unknown): TaskView => {
          log?.({ event: 'rpc.internal_error', runId, errorCode: describeError(error).code });
          return {
            ...working,
            state: 'failed',
            replyText: 'The run failed: internal.',
            timestamp: isoTimestamp(now()),
            metadata: { runId, stopReason: 'error', errorCode: 'internal' },
          };
        },
      )
      .then(keepFinal)
      .then((kept) => {
        runs.emit(runId, { type: 'final', task: kept });
        return kept;
      })
      .finally(() => {
        if (deferral !== undefined) clearTimeout(deferral);
        if (cancelPoll !== undefined) clearInterval(cancelPoll);
        if (listening) signal?.removeEventListener('abort', stopOnSignal);
        runs.end(runId);
      });
    return { working, done };
  });

  /**
   * Frees the slot a background run holds when it ends, whether or not the host passed `waitUntil`
   * (a caller may pass no per-request deps, and `perRequest?.waitUntil?.(x)` does not even evaluate
   * `x` then): the promise to keep alive, which never rejects.
   */
  const releaseWhenDone = (done: Promise<unknown>): Promise<void> =>
    done.then(
      () => void inFlight--,
      () => void inFlight--,
    );

  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const handleSend = (async function handleSend(
    flavour: ProtocolFlavour,
    params: Record<string, unknown>,
    request: Request,
    perRequest: PerRequestDeps | undefined,
  ) {
    const prepared = await prepareSend(flavour, params);
    const reply = (task: TaskView) => {
      const rendered = renderTask(flavour, task, prepared.historyLength);
      return flavour === 'v1' ? { task: rendered } : rendered;
    };
    if (!prepared.returnImmediately) {
      const { done } = await startRun(prepared, perRequest, {
        ...(request.signal ? { signal: request.signal } : {}),
        deferWorkingPut: true,
      });
      return reply(await done);
    }
    // The run outlives the request (no request signal; Workers keep it alive with waitUntil) and
    // holds a concurrency slot until it ends.
    inFlight++;
    const { working, done } = await startRun(prepared, perRequest, {}).catch((error: unknown) => {
      inFlight--;
      throw error;
    });
    const released = releaseWhenDone(done);
    perRequest?.waitUntil?.(released);
    return reply(working);
  });

  /** Opens a stream if the open-stream bound allows it; else the 503 to answer. */
  const streamSlot = (): Response | undefined => (openStreams >= maxOpenStreams ? busy(maxOpenStreams) : undefined);

  /**
   * SendStreamingMessage: the run starts as for `returnImmediately` (it outlives the stream; the
   * client may go away and SubscribeToTask later), and the stream carries the Task, a status
   * update per step, the answer's artifact chunks and the terminal status, then closes.
   */
  const handleSendStream = async (
    flavour: ProtocolFlavour,
    params: Record<string, unknown>,
    id: JsonRpcId,
    perRequest: PerRequestDeps | undefined,
  ): Promise<Response> => {
    const prepared = await prepareSend(flavour, params);
    const refused = streamSlot();
    if (refused) return refused;
    openStreams++;
    const stream = openSseStream(id, () => openStreams--);
    const listener = streamListener(flavour, stream);
    inFlight++;
    let started: { working: TaskView; done: Promise<TaskView> };
    try {
      started = await startRun(prepared, perRequest, { listener: (event) => listener.queue(event) });
    } catch (error) {
      inFlight--;
      stream.close();
      throw error;
    }
    const released = releaseWhenDone(started.done);
    perRequest?.waitUntil?.(released);
    listener.open(started.working, prepared.historyLength);
    return stream.response;
  };

  /**
   * Turns run events into stream events: nothing is sent until `open` has sent the Task (events
   * that come first wait), progress becomes a working status update, `final` the ending, then the
   * stream closes.
   */
  const streamListener = (flavour: ProtocolFlavour, stream: SseStream) => {
    let opened = false;
    const waiting: TaskRunEvent[] = [];
    const deliver = (event: TaskRunEvent) => {
      if (event.type === 'progress') stream.send(streamStatusUpdate(flavour, event.task, { progress: event.progress }));
      else {
        for (const ending of streamEnding(flavour, event.task)) stream.send(ending);
        stream.close();
      }
    };
    return {
      queue(event: TaskRunEvent) {
        if (opened) deliver(event);
        else waiting.push(event);
      },
      open(task: TaskView, historyLength?: number) {
        stream.send(streamTask(flavour, task, historyLength));
        opened = true;
        for (const event of waiting.splice(0)) deliver(event);
      },
    };
  };

  /**
   * SubscribeToTask: the Task as it is now, then what happens to it until it ends. A run of this
   * instance is listened to; a run of another instance sharing the store is followed by reading
   * the store (each change of state a status update) until it ends or the longest run could have.
   */
  const handleSubscribe = async (
    flavour: ProtocolFlavour,
    params: Record<string, unknown>,
    id: JsonRpcId,
  ): Promise<Response> => {
    const taskId = params['id'];
    if (typeof taskId !== 'string' || taskId === '')
      throw badParams([{ field: 'id', description: 'a task id is required' }]);
    // Listen first, read second: nothing that happens between the two is missed.
    const pending: TaskRunEvent[] = [];
    let forward: ((event: TaskRunEvent) => void) | undefined;
    const stopListening = runs.listen(taskId, (event) => (forward ? forward(event) : pending.push(event)));
    const current = await tasks.get(taskId).catch((error: unknown) => {
      stopListening?.();
      throw error;
    });
    const finalSeen = pending.find((e) => e.type === 'final');
    if (!current || isTerminalTask(current) || finalSeen) {
      stopListening?.();
      if (!current) throw a2aError(JSON_RPC_ERRORS.taskNotFound, 'Task not found', 'TASK_NOT_FOUND', { taskId });
      throw a2aError(
        JSON_RPC_ERRORS.unsupportedOperation,
        'The task is in a terminal state; read it with GetTask',
        'UNSUPPORTED_OPERATION',
        { taskId },
      );
    }
    const refused = streamSlot();
    if (refused) {
      stopListening?.();
      return refused;
    }
    if (!stopListening && !tasks.shared) {
      // Working in this instance's own store but run by no one here: the run was lost.
      throw a2aError(
        JSON_RPC_ERRORS.unsupportedOperation,
        'The task has no run to follow on this agent instance',
        'UNSUPPORTED_OPERATION',
        { taskId },
      );
    }
    openStreams++;
    let poll: ReturnType<typeof setInterval> | undefined;
    const stream = openSseStream(id, () => {
      openStreams--;
      stopListening?.();
      if (poll !== undefined) clearInterval(poll);
    });
    const listener = streamListener(flavour, stream);
    if (stopListening) {
      forward = (event) => listener.queue(event);
      for (const event of pending.splice(0)) listener.queue(event);
    } else {
      let last = current;
      const deadline = now() + resolveLimits(config.limits).wallClockMs + CANCEL_POLL_MS * 5;
      poll = setInterval(() => {
        // The deadline is checked before each read, so a store that fails or never answers ends the stream too.
        if (now() > deadline) return stream.close();
        tasks.get(taskId).then(
          (kept) => {
            if (stream.closed) return;
            if (!kept) return stream.close();
            if (kept.state !== last.state || kept.timestamp !== last.timestamp) {
              last = kept;
              if (isTerminalTask(kept)) return listener.queue({ type: 'final', task: kept });
              stream.send(streamStatusUpdate(flavour, kept));
            }
          },
          () => undefined,
        );
      }, SHARED_STREAM_POLL_MS);
    }
    listener.open(current);
    return stream.response;
  };

  const handleTaskRead = async (op: 'get' | 'cancel', flavour: ProtocolFlavour, params: Record<string, unknown>) => {
    const id = params['id'];
    if (typeof id !== 'string' || id === '') throw badParams([{ field: 'id', description: 'a task id is required' }]);
    const historyLength = optionalInt32(params['historyLength']);
    if (historyLength === 'invalid')
      throw badParams([{ field: 'historyLength', description: 'must be a non-negative integer' }]);
    if (op === 'cancel' && params['metadata'] !== undefined && !isObject(params['metadata']))
      throw badParams([{ field: 'metadata', description: 'must be an object' }]);
    const task = await tasks.get(id);
    if (!task) throw a2aError(JSON_RPC_ERRORS.taskNotFound, 'Task not found', 'TASK_NOT_FOUND', { taskId: id });
    if (op === 'get') return renderTask(flavour, task, historyLength);
    const notCancelable = () =>
      a2aError(JSON_RPC_ERRORS.taskNotCancelable, 'Task is already in a terminal state', 'TASK_NOT_CANCELABLE', {
        taskId: id,
      });
    if (isTerminalTask(task)) throw notCancelable();
    // The canceled task is kept first (terminal, so the run's own end cannot replace it), then the
    // run is interrupted: here, or by its own instance polling the shared store.
    const canceled: TaskView = {
      ...task,
      state: 'canceled',
      replyText: 'The task was canceled.',
      timestamp: isoTimestamp(now()),
      metadata: { ...task.metadata, stopReason: 'canceled' },
    };
    if (!(await tasks.put(canceled))) throw notCancelable();
    runs.emit(id, { type: 'final', task: canceled });
    runs.abort(id);
    return renderTask(flavour, canceled, historyLength);
  };

  /** The refusal of a JSON-RPC request before its body is read, or undefined. */
  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const refuseEarly = ((request: Request): Response | undefined => {
    if (request.method !== 'POST')
      return rpcErrorResponse(
        null,
        new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Use POST for JSON-RPC requests'),
        405,
      );
    const allowed = [new URL(request.url).origin, ...configuredOrigins, ...(deps.allowedOrigins?.() ?? [])];
    if (!originAllowed(request.headers.get('origin'), allowed))
      return refusal(403, 'Cross-origin requests are not accepted: the Origin is not one this agent serves');
    if (!isJsonContentType(request.headers.get('content-type')))
      return refusal(415, 'JSON-RPC requests must have Content-Type application/json');
    const declared = request.headers.get('content-length');
    if (declared !== null && !(Number(declared) <= maxBodyBytes)) return tooLarge(maxBodyBytes);
    return undefined;
  });

  const handleRpc = async (
    request: Request,
    perRequest: PerRequestDeps | undefined,
    log: (e: RuntimeLogEvent) => void,
  ): Promise<Response> => {
    const refused = refuseEarly(request);
    if (refused) return refused;
    if (inFlight >= maxConcurrentRuns) {
      await request.body?.cancel().catch(() => undefined);
      return busy(maxConcurrentRuns);
    }
    inFlight++;
    try {
      return await handleRpcBody(request, perRequest, log);
    } finally {
      inFlight--;
    }
  };

  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const handleRpcBody = (async function handleRpcBody(
    request: Request,
    perRequest: PerRequestDeps | undefined,
    log: (e: RuntimeLogEvent) => void,
  ): Promise<Response> {
    const text = await readBodyText(request, maxBodyBytes);
    if (text === 'too-large') return tooLarge(maxBodyBytes);
    if (text === 'unreadable') return refusal(400, 'The request body could not be read');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.parseError, 'Invalid JSON payload'));
    }
    if (Array.isArray(body))
      return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Batch requests are not supported'));
    if (!isObject(body))
      return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Request payload validation error'));
    const rawId = body['id'];
    const id: JsonRpcId = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    if (
      body['jsonrpc'] !== '2.0' ||
      typeof body['method'] !== 'string' ||
      (rawId !== undefined && rawId !== null && id === null)
    ) {
      return rpcErrorResponse(id, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Request payload validation error'));
    }
    const method = body['method'];
    // A request without an `id` is a notification: it is carried out and never answered (JSON-RPC 2.0 §4.1).
    const notification = !Object.hasOwn(body, 'id');
    const response = await dispatch(request, perRequest, log, method, body, id);
    if (!notification) return response;
    await response.body?.cancel().catch(() => undefined);
    return new Response(null, { status: 204 });
  });

  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  const dispatch = (async function dispatch(
    request: Request,
    perRequest: PerRequestDeps | undefined,
    log: (e: RuntimeLogEvent) => void,
    method: string,
    body: Record<string, unknown>,
    id: JsonRpcId,
  ): Promise<Response> {
    try {
      const version = request.headers.get('a2a-version') ?? new URL(request.url).searchParams.get('A2A-Version');
      let requested: ProtocolFlavour | undefined;
      if (version !== null && version.trim() !== '') {
        const v = parseVersion(version);
        if (v && v[0] === 1 && v[1] === 0) requested = 'v1';
        else if (v && v[0] === 0 && v[1] === 3) requested = 'v03';
        else
          throw a2aError(
            JSON_RPC_ERRORS.versionNotSupported,
            'A2A protocol version not supported; this agent serves 1.0 and 0.3',
            'VERSION_NOT_SUPPORTED',
            { supported: '1.0,0.3' },
          );
      }
      const route = Object.hasOwn(FLAVOUR_BY_METHOD, method) ? FLAVOUR_BY_METHOD[method] : undefined;
      // A requested version is served with its own method names only (A2A §3.6.2): `tasks/get` is no 1.0 method.
      if (!route || (requested !== undefined && route.flavour !== requested))
        throw new RpcError(JSON_RPC_ERRORS.methodNotFound, 'Method not found');
      const given = body['params'] ?? {};
      if (!isObject(given)) throw badParams([{ field: 'params', description: 'must be an object' }]);
      // v1.0 parameters are ProtoJSON: a member set to null is unset (a2a-proto-json.ts).
      const params = route.flavour === 'v1' ? withoutNullFields(given) : given;
      const deep = tooDeepAt(params, 'params');
      if (deep !== undefined) throw badParams([tooDeepViolation(deep)]);
      let result: unknown;
      switch (route.op) {
        case 'send':
          result = await handleSend(route.flavour, params, request, perRequest);
          break;
        case 'sendStream':
          return await handleSendStream(route.flavour, params, id, perRequest);
        case 'subscribe':
          return await handleSubscribe(route.flavour, params, id);
        case 'get':
        case 'cancel':
          result = await handleTaskRead(route.op, route.flavour, params);
          break;
        case 'list': {
          const { query, violations } = parseListTasksParams(params);
          if (!query) throw badParams(violations);
          const listed = await listTasks(await tasks.list(), query, pageTokens);
          if (!listed.result) throw badParams(listed.violation ? [listed.violation] : []);
          result = listed.result;
          break;
        }
        case 'push':
          throw a2aError(
            JSON_RPC_ERRORS.pushNotificationNotSupported,
            'Push notifications are not supported',
            'PUSH_NOTIFICATION_NOT_SUPPORTED',
          );
        case 'extendedCard':
          // The card declares `capabilities.extendedAgentCard: false`: A2A §3.3.4 answers UnsupportedOperation.
          throw a2aError(
            JSON_RPC_ERRORS.unsupportedOperation,
            'This agent declares no extended agent card',
            'UNSUPPORTED_OPERATION',
          );
        default:
          throw a2aError(
            JSON_RPC_ERRORS.unsupportedOperation,
            `${method} is not supported by this agent`,
            'UNSUPPORTED_OPERATION',
          );
      }
      return json({ jsonrpc: '2.0', id, result });
    } catch (error) {
      if (error instanceof RpcError) return rpcErrorResponse(id, error);
      if (error instanceof TaskStoreUnavailableError) {
        log({ event: 'rpc.internal_error', runId: '', method, errorCode: 'task_store_unavailable' });
        return rpcErrorResponse(
          id,
          a2aError(
            JSON_RPC_ERRORS.internalError,
            'The task store is unavailable; try again shortly',
            'TASK_STORE_UNAVAILABLE',
          ),
        );
      }
      const described = describeError(error);
      log({ event: 'rpc.internal_error', runId: '', method, errorCode: described.code });
      return rpcErrorResponse(id, new RpcError(JSON_RPC_ERRORS.internalError, 'Internal error'));
    }
  });

  // biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
  return (async function handleRequest(request: Request, perRequest?: PerRequestDeps): Promise<Response> {
    const log = perRequest?.log ?? deps.log ?? (() => {});
    let onRpcPath = false;
    try {
      const url = new URL(request.url);
      if (url.pathname === AGENT_CARD_PATH) {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          return json({ error: 'method not allowed' }, 405, { allow: 'GET, HEAD' });
        // The card's URLs come from configuration when there is one; built from the request's own
        // origin, the card must not be shared by caches between origins.
        const fixed = config.card.publicUrl !== undefined || deps.publicOrigin !== undefined;
        const caching: Record<string, string> = fixed
          ? { 'cache-control': 'public, max-age=300' }
          : { 'cache-control': 'private, max-age=300', vary: 'Host' };
        const served = await servedCard(deps.publicOrigin ?? url.origin);
        if ('error' in served) {
          log({ event: 'card.signing_key_unusable', runId: '', errorCode: served.error });
          return json({ error: 'the agent card signing key is unusable' }, 500);
        }
        return json(served.card, 200, { ...caching, 'access-control-allow-origin': '*' });
      }
      if (url.pathname === rpcPath || url.pathname === '/') {
        onRpcPath = true;
        return await handleRpc(request, perRequest, log);
      }
      return json({ error: 'not found' }, 404);
    } catch (error) {
      log({ event: 'http.internal_error', runId: '', errorCode: describeError(error).code });
      return onRpcPath
        ? rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.internalError, 'Internal error'))
        : json({ error: 'internal error' }, 500);
    }
  });
}
