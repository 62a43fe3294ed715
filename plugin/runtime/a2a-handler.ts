/**
 * The A2A server of one agent, as a web-standard `(Request) => Promise<Response>`:
 * - `GET /.well-known/agent-card.json`: the AgentCard, signed when the host sets a card signing key
 *   (served-card.ts);
 * - `POST /` (the URL the card's JSONRPC interfaces name) and `POST <card.rpcPath>` (kept for
 *   clients of the earlier cards): JSON-RPC 2.0. `SendMessage` (A2A v1.0, what `@a2a-js/sdk` 1.3
 *   sends) and `message/send` (v0.3) run the agent and return the Task: finished (`completed`
 *   with the answer as an artifact, or `failed` saying which limit or error stopped it), or, with
 *   `configuration.returnImmediately` (v0.3: `blocking: false`), `working` while the run goes on.
 *   `GetTask` / `tasks/get` read recent tasks back (`historyLength`), `ListTasks` lists them
 *   (a2a-list-tasks.ts), `CancelTask` answers not-cancelable (runs are not interrupted), a message
 *   into a known task is refused (tasks are single-turn). Streaming, push notifications and the
 *   extended card are declared unsupported in the card and answered with their A2A error codes.
 * Errors are JSON-RPC errors with safe messages: `-32700` bad JSON, `-32600` bad request (wrong or
 * missing `jsonrpc`, a missing or non-string `method`, an object or array `id`, a batch),
 * `-32601` unknown method, `-32602` bad params (the message names the parameters; the data holds
 * `google.rpc.BadRequest` field violations), `-32603` internal, and A2A's codes (`-32001`…`-32009`
 * with `google.rpc.ErrorInfo`). Never a stack trace, never a key.
 * The `A2A-Version` service parameter (header, or query parameter) is checked when present (1.0
 * and 0.3 are served, anything else is -32009); an absent header is accepted and the method name
 * decides the wire flavour.
 * Before a JSON-RPC body is read (request-guard.ts): a cross-site `Origin` is refused (403), a
 * body that is not JSON (415) or too large, declared or read (413), and a request beyond
 * `maxConcurrentRuns` in flight (background runs included) is answered 503 with `Retry-After`.
 * Tasks are kept within a count and a byte budget (task-store.ts), so memory stays bounded.
 */
import { AGENT_CARD_PATH } from './agent-card';
import type { ProtocolFlavour, TaskView } from './a2a-wire';
import { TERMINAL_TASK_STATES, isObject, messageToInput, parseMessage, renderTask, tooDeepAt, tooDeepViolation } from './a2a-wire';
import type { RuntimeLogEvent } from './agent-loop';
import { RuntimeError, describeError } from './errors';
import type { AgentRunResult, RunDeps } from './run-agent';
import { runAgent } from './run-agent';
import { newRunId, webRandom } from './run-id';
import type { RuntimeConfig } from './runtime-config';
import { checkRuntimeConfig } from './runtime-config';
import { busy, isJsonContentType, originAllowed, readBodyText, refusal, tooLarge } from './request-guard';
import { createServedCard } from './served-card';
import { createPageTokenSigner, listTasks, parseListTasksParams } from './a2a-list-tasks';
import type { TaskStore } from './task-store';
import { createTaskStore } from './task-store';

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
  /** JSON-RPC requests read or run at once (per handler instance: a Worker isolate, a Node host); more are answered 503; default 16. */
  maxConcurrentRuns?: number;
  /** The origin clients reach this agent at (the card's URLs); default the request's own origin. */
  publicOrigin?: string;
  /** Origins besides the request's own (and `card.publicUrl`'s) whose pages may call the agent. */
  allowedOrigins?: () => readonly string[];
  /** The private Ed25519 JWK the served card is signed with; absent: the `AGENTDEF_CARD_SIGNING_KEY` secret, else unsigned. */
  cardSigningKey?: JsonWebKey | string;
  /** Where tasks are kept (a Worker's Durable Object, a Node host's SQLite file); absent: in memory, within `taskMemory`/`taskMemoryBytes`. */
  taskStore?: TaskStore;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
export const DEFAULT_TASK_MEMORY_BYTES = 8 * 1024 * 1024;

/** Per-request host facilities (Workers: `ctx.waitUntil`). */
export type PerRequestDeps = Pick<RunDeps, 'waitUntil' | 'log'>;

type JsonRpcId = string | number | null;

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
  SendStreamingMessage: { op: 'stream', flavour: 'v1' },
  'message/stream': { op: 'stream', flavour: 'v03' },
  SubscribeToTask: { op: 'stream', flavour: 'v1' },
  'tasks/resubscribe': { op: 'stream', flavour: 'v03' },
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
  return new RpcError(JSON_RPC_ERRORS.invalidParams, `Invalid parameters: ${fields.join(', ')}`, [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }]);
}

function a2aError(code: number, message: string, reason: string, metadata: Record<string, string> = {}): RpcError {
  return new RpcError(code, message, [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org', metadata }]);
}

/** `1.0`, `1`, `0.3` → [major, minor]; anything unparsable → undefined. */
function parseVersion(text: string): [number, number] | undefined {
  const match = /^\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(text);
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

function stopText(result: AgentRunResult): string {
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
}

export function createA2aHandler(config: RuntimeConfig, deps: A2aHandlerDeps = {}): (request: Request, perRequest?: PerRequestDeps) => Promise<Response> {
  const problems = checkRuntimeConfig(config);
  if (problems.length > 0) throw new RuntimeError('config_invalid', `the runtime config is invalid: ${problems.join('; ')}`);
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxConcurrentRuns = deps.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS;
  const tasks = deps.taskStore ?? createTaskStore({ maxTasks: deps.taskMemory ?? 100, maxBytes: deps.taskMemoryBytes ?? DEFAULT_TASK_MEMORY_BYTES });
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
  const servedCard = createServedCard(config, { ...(deps.cardSigningKey !== undefined ? { signingKey: deps.cardSigningKey } : {}), ...(deps.secrets ? { secrets: deps.secrets } : {}) });

  const handleSend = async (flavour: ProtocolFlavour, params: Record<string, unknown>, request: Request, perRequest: PerRequestDeps | undefined) => {
    const { message, violations } = parseMessage(flavour, params['message']);
    const configuration = params['configuration'];
    if (configuration !== undefined && !isObject(configuration)) violations.push({ field: 'configuration', description: 'must be an object' });
    const historyLength = isObject(configuration) ? configuration['historyLength'] : undefined;
    if (historyLength !== undefined && historyLength !== null && (!Number.isInteger(historyLength) || (historyLength as number) < 0)) {
      violations.push({ field: 'configuration.historyLength', description: 'must be a non-negative integer' });
    }
    // v1.0 `returnImmediately: true`, v0.3 `blocking: false`: answer with the working task, the run goes on.
    const modeField = flavour === 'v1' ? 'returnImmediately' : 'blocking';
    const mode = isObject(configuration) ? configuration[modeField] : undefined;
    if (mode !== undefined && mode !== null && typeof mode !== 'boolean') violations.push({ field: `configuration.${modeField}`, description: 'must be a boolean' });
    const returnImmediately = flavour === 'v1' ? mode === true : mode === false;
    if (params['metadata'] !== undefined && !isObject(params['metadata'])) violations.push({ field: 'metadata', description: 'must be an object' });
    if (!message || violations.length > 0) throw badParams(violations);
    const skillRef = (params['metadata'] as Record<string, unknown> | undefined)?.['skillId'] ?? message.metadata?.['skillId'];
    if (skillRef !== undefined && (typeof skillRef !== 'string' || !config.skills.some((s) => s.id === skillRef))) {
      throw badParams([{ field: 'metadata.skillId', description: `unknown skill; this agent offers ${config.skills.map((s) => s.id).join(', ')}` }]);
    }
    const skill = config.skills.find((s) => s.id === skillRef) ?? config.skills[0]!;
    const accepted = skill.inputModes?.length ? skill.inputModes : config.card.defaultInputModes;
    for (const part of message.parts) {
      if (part.mediaType && accepted.length > 0 && !accepted.includes(part.mediaType) && !accepted.includes('*/*')) {
        throw a2aError(JSON_RPC_ERRORS.contentTypeNotSupported, `Content type ${part.mediaType} is not supported`, 'CONTENT_TYPE_NOT_SUPPORTED');
      }
    }
    if (message.taskId !== undefined) {
      // Every task of this agent is single-turn: a follow-up into a known task is refused (A2A §3.1.1).
      const known = await tasks.get(message.taskId);
      if (known && TERMINAL_TASK_STATES.includes(known.state))
        throw a2aError(JSON_RPC_ERRORS.unsupportedOperation, 'The task is in a terminal state and accepts no more messages', 'UNSUPPORTED_OPERATION', { taskId: message.taskId });
      if (known) throw a2aError(JSON_RPC_ERRORS.unsupportedOperation, 'The task is still working and accepts no more messages', 'UNSUPPORTED_OPERATION', { taskId: message.taskId });
      throw a2aError(JSON_RPC_ERRORS.taskNotFound, 'Task not found', 'TASK_NOT_FOUND', { taskId: message.taskId });
    }
    const input = messageToInput(message, typeof skillRef === 'string' ? skillRef : undefined);
    const contextId = message.contextId ?? newRunId(now(), deps.random ?? webRandom);
    const keep = typeof historyLength === 'number' ? historyLength : undefined;
    const reply = (task: TaskView) => {
      const rendered = renderTask(flavour, task, keep);
      return flavour === 'v1' ? { task: rendered } : rendered;
    };
    const finish = async (result: AgentRunResult): Promise<TaskView> => {
      const metadata: Record<string, unknown> = { runId: result.runId, stopReason: result.stopReason, skill: result.skillId };
      if (result.error) metadata['errorCode'] = result.error.code;
      const task: TaskView = {
        id: result.runId,
        contextId,
        state: result.stopReason === 'answer' ? 'completed' : 'failed',
        replyText: stopText(result),
        userMessage: message,
        timestamp: new Date(now()).toISOString(),
        metadata,
      };
      if (result.answer) task.answer = result.answer;
      await tasks.put(task);
      return task;
    };
    if (!returnImmediately) return reply(await finish(await runAgent(config, input, { ...deps, ...perRequest }, request.signal ? { signal: request.signal } : {})));
    // The run outlives the request (no request signal; Workers keep it alive with waitUntil) and
    // holds a concurrency slot until it ends.
    const runId = newRunId(now(), deps.random ?? webRandom);
    const working: TaskView = { id: runId, contextId, state: 'working', userMessage: message, timestamp: new Date(now()).toISOString(), metadata: { runId } };
    await tasks.put(working);
    inFlight++;
    const run = runAgent(config, input, { ...deps, ...perRequest }, { runId })
      .then(finish, async (error: unknown) => {
        (perRequest?.log ?? deps.log)?.({ event: 'rpc.internal_error', runId, errorCode: describeError(error).code });
        await tasks.put({ ...working, state: 'failed', replyText: 'The run failed: internal.', timestamp: new Date(now()).toISOString(), metadata: { runId, stopReason: 'error', errorCode: 'internal' } });
      })
      .finally(() => {
        inFlight--;
      });
    perRequest?.waitUntil?.(run);
    return reply(working);
  };

  const handleTaskRead = async (op: 'get' | 'cancel', flavour: ProtocolFlavour, params: Record<string, unknown>) => {
    const id = params['id'];
    if (typeof id !== 'string' || id === '') throw badParams([{ field: 'id', description: 'a task id is required' }]);
    const historyLength = params['historyLength'];
    if (historyLength !== undefined && (!Number.isInteger(historyLength) || (historyLength as number) < 0)) throw badParams([{ field: 'historyLength', description: 'must be a non-negative integer' }]);
    const task = await tasks.get(id);
    if (!task) throw a2aError(JSON_RPC_ERRORS.taskNotFound, 'Task not found', 'TASK_NOT_FOUND', { taskId: id });
    if (op === 'cancel') throw a2aError(JSON_RPC_ERRORS.taskNotCancelable, 'Task is already in a terminal state', 'TASK_NOT_CANCELABLE', { taskId: id });
    return renderTask(flavour, task, historyLength as number | undefined);
  };

  /** The refusal of a JSON-RPC request before its body is read, or undefined. */
  const refuseEarly = (request: Request): Response | undefined => {
    if (request.method !== 'POST') return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Use POST for JSON-RPC requests'), 405);
    const allowed = [new URL(request.url).origin, ...configuredOrigins, ...(deps.allowedOrigins?.() ?? [])];
    if (!originAllowed(request.headers.get('origin'), allowed)) return refusal(403, 'Cross-origin requests are not accepted: the Origin is not one this agent serves');
    if (!isJsonContentType(request.headers.get('content-type'))) return refusal(415, 'JSON-RPC requests must have Content-Type application/json');
    const declared = request.headers.get('content-length');
    if (declared !== null && !(Number(declared) <= maxBodyBytes)) return tooLarge(maxBodyBytes);
    return undefined;
  };

  const handleRpc = async (request: Request, perRequest: PerRequestDeps | undefined, log: (e: RuntimeLogEvent) => void): Promise<Response> => {
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

  const handleRpcBody = async (request: Request, perRequest: PerRequestDeps | undefined, log: (e: RuntimeLogEvent) => void): Promise<Response> => {
    const text = await readBodyText(request, maxBodyBytes);
    if (text === 'too-large') return tooLarge(maxBodyBytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.parseError, 'Invalid JSON payload'));
    }
    if (Array.isArray(body)) return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Batch requests are not supported'));
    if (!isObject(body)) return rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Request payload validation error'));
    const rawId = body['id'];
    const id: JsonRpcId = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    if (body['jsonrpc'] !== '2.0' || typeof body['method'] !== 'string' || (rawId !== undefined && rawId !== null && id === null)) {
      return rpcErrorResponse(id, new RpcError(JSON_RPC_ERRORS.invalidRequest, 'Request payload validation error'));
    }
    const method = body['method'];
    try {
      const version = request.headers.get('a2a-version') ?? new URL(request.url).searchParams.get('A2A-Version');
      if (version !== null && version.trim() !== '') {
        const v = parseVersion(version);
        if (!v || !((v[0] === 1 && v[1] === 0) || (v[0] === 0 && v[1] === 3))) {
          throw a2aError(JSON_RPC_ERRORS.versionNotSupported, 'A2A protocol version not supported; this agent serves 1.0 and 0.3', 'VERSION_NOT_SUPPORTED', { supported: '1.0,0.3' });
        }
      }
      const route = Object.hasOwn(FLAVOUR_BY_METHOD, method) ? FLAVOUR_BY_METHOD[method] : undefined;
      if (!route) throw new RpcError(JSON_RPC_ERRORS.methodNotFound, 'Method not found');
      const params = body['params'] ?? {};
      if (!isObject(params)) throw badParams([{ field: 'params', description: 'must be an object' }]);
      const deep = tooDeepAt(params, 'params');
      if (deep !== undefined) throw badParams([tooDeepViolation(deep)]);
      let result: unknown;
      switch (route.op) {
        case 'send':
          result = await handleSend(route.flavour, params, request, perRequest);
          break;
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
          throw a2aError(JSON_RPC_ERRORS.pushNotificationNotSupported, 'Push notifications are not supported', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
        case 'extendedCard':
          // The card declares `capabilities.extendedAgentCard: false`: A2A §3.3.4 answers UnsupportedOperation.
          throw a2aError(JSON_RPC_ERRORS.unsupportedOperation, 'This agent declares no extended agent card', 'UNSUPPORTED_OPERATION');
        default:
          throw a2aError(JSON_RPC_ERRORS.unsupportedOperation, `${method} is not supported by this agent`, 'UNSUPPORTED_OPERATION');
      }
      return json({ jsonrpc: '2.0', id, result });
    } catch (error) {
      if (error instanceof RpcError) return rpcErrorResponse(id, error);
      const described = describeError(error);
      log({ event: 'rpc.internal_error', runId: '', method, errorCode: described.code });
      return rpcErrorResponse(id, new RpcError(JSON_RPC_ERRORS.internalError, 'Internal error'));
    }
  };

  return async (request: Request, perRequest?: PerRequestDeps): Promise<Response> => {
    const log = perRequest?.log ?? deps.log ?? (() => {});
    let onRpcPath = false;
    try {
      const url = new URL(request.url);
      if (url.pathname === AGENT_CARD_PATH) {
        if (request.method !== 'GET' && request.method !== 'HEAD') return json({ error: 'method not allowed' }, 405, { allow: 'GET, HEAD' });
        // The card's URLs come from configuration when there is one; built from the request's own
        // origin, the card must not be shared by caches between origins.
        const fixed = config.card.publicUrl !== undefined || deps.publicOrigin !== undefined;
        const caching: Record<string, string> = fixed ? { 'cache-control': 'public, max-age=300' } : { 'cache-control': 'private, max-age=300', vary: 'Host' };
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
      return onRpcPath ? rpcErrorResponse(null, new RpcError(JSON_RPC_ERRORS.internalError, 'Internal error')) : json({ error: 'internal error' }, 500);
    }
  };
}
