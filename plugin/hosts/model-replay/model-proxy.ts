/**
 * The model record/replay server: one per `agentdef dev` / `agentdef run` session, on 127.0.0.1,
 * speaking each provider's own wire format because it only ever relays or repeats what a
 * provider said. Hosts reach it through the routes of proxy-routes.ts.
 *
 * - `replay`: every request is answered from the recording: the exchange whose digest is the
 *   request's (exchange.ts), with its status and body and the `x-agentdef-model-replay` header
 *   (the run then records that its models were replayed). A request the recording does not hold
 *   is answered `404` with the error type `model_request_not_recorded` (the run fails with that
 *   provider error) and reported through `onEvent`. Nothing is ever forwarded: no key is needed
 *   and none can reach a provider. Ollama's `GET /api/tags` (the launcher's start check) lists the
 *   models the recording holds answers of.
 * - `record`: every request is forwarded, with the caller's headers, to the pin's own base URL
 *   (only to a base in `upstreams`, the base URLs a pin can have on this machine; for a local-only
 *   agent, only loopback ones) and the answer is returned as it came; the exchange is then written
 *   to the folder, once per digest per session. What is written is redacted first: every secret
 *   value the session knows (`secrets`: the environment's `AGENTDEF_SECRET_*`, the keychain values
 *   the hosts use) and every credential a request header carried (`authorization`, `x-api-key`,
 *   …) is replaced by `[redacted]` wherever it appears (bodies, the path and query, in its JSON,
 *   URL and base64 forms); an exchange that still holds something shaped like a credential
 *   (`credentialShapes`) is not written at all. Headers are never written. Fields that are
 *   clocks (Ollama's `created_at` and durations, OpenAI's `created`) are dropped from answers.
 * The digest is taken of the request as it would be written (redacted), on both sides, so a
 * replay matches the recording whatever key the replaying session has (none).
 * Like every agentdef loopback server it cannot be driven from a web page: a `Host` other than its
 * own loopback address is refused (421, so DNS rebinding fails) and so is any request with an
 * `Origin` (403: hosts send none, browsers always do on a cross-site request).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MODEL_REPLAY_HEADER } from '../../runtime/providers/post-json';
import { createRedactor } from '../../runtime/redact';
import type { ProviderWire } from '../../runtime/runtime-config';
import type { ModelExchange, ModelRequestKey } from './exchange';
import {
  EXCHANGE_FORMAT,
  MAX_EXCHANGE_BYTES,
  bodyValue,
  exchangeFileName,
  exchangeText,
  requestDigest,
} from './exchange';
import { type ProxyMode, parseProxyPath } from './proxy-routes';
import { writeExchange } from './recording-folder';
import { openRequestGate } from '../node/request-gate';

export const NOT_RECORDED_TYPE = 'model_request_not_recorded';

export type ProxyEvent =
  | { kind: 'replayed'; wire: ProviderWire; method: string; path: string; digest: string }
  | { kind: 'not-recorded'; wire: ProviderWire; method: string; path: string; digest: string }
  | { kind: 'recorded'; wire: ProviderWire; method: string; path: string; digest: string; file: string }
  | { kind: 'not-written'; wire: ProviderWire; method: string; path: string; digest: string; reason: string }
  | { kind: 'refused'; wire?: ProviderWire; method: string; path: string; reason: string };

export interface ModelProxyOptions {
  mode: ProxyMode;
  /** The recording folder (absolute, checked by recording-folder.ts) and how messages name it. */
  folder: string;
  display: string;
  /** Replay: the recording's exchanges by digest (loadRecording). */
  exchanges?: ReadonlyMap<string, ModelExchange>;
  /** Record: the base URLs requests may be forwarded to (a pin's settled base, without a trailing slash). */
  upstreams?: readonly string[];
  /** Record: forward to loopback bases only (a local-only agent's session). */
  loopbackOnly?: boolean;
  /** Secret values of the session, never written. */
  secrets?: readonly (string | undefined)[];
  /** The kinds of credential a text looks like it holds (the definition layer's detectors). */
  credentialShapes?: (text: string) => string[];
  onEvent?: (event: ProxyEvent) => void;
  /** Record: the fetch used to reach upstreams (tests). */
  fetch?: typeof fetch;
}

export interface ModelProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'proxy-connection',
  'te',
  'trailer',
]);
/** Request headers whose values are credentials: redacted wherever they show up in an exchange. */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|cookie|password|credential/i;
/** Answer fields that are clocks, by wire: dropped from what is written. */
const CLOCK_FIELDS: Readonly<Record<ProviderWire, readonly string[]>> = {
  'ollama-chat': ['created_at', 'total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration'],
  'openai-chat': ['created'],
  'anthropic-messages': [],
};

function isLoopbackBase(base: string): boolean {
  try {
    const host = new URL(base).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** An error body every provider client reads the type of (`error.type`), with the message beside it. */
function proxyError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, code: type, message } });
}

function withoutClocks(wire: ProviderWire, body: unknown): unknown {
  const fields = CLOCK_FIELDS[wire];
  if (fields.length === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    if (!fields.includes(key))
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Every string of a JSON value: values and property names. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) {
      out.push(key);
      stringsOf(child, out);
    }
  return out;
}

/** The credential kinds found in any string of the exchange or in its text (a JWK spread over members). */
function credentialShapesIn(
  exchange: ModelExchange,
  text: string,
  detect: ((text: string) => string[]) | undefined,
): string[] {
  if (!detect) return [];
  for (const one of [...stringsOf(exchange), text]) {
    const kinds = detect(one);
    if (kinds.length > 0) return kinds;
  }
  return [];
}

/** The models a recording answers for, by wire: what Ollama's `GET /api/tags` lists under replay. */
function recordedModels(exchanges: ReadonlyMap<string, ModelExchange>, wire: ProviderWire): string[] {
  const names = new Set<string>();
  for (const exchange of exchanges.values()) {
    const model = (exchange.request.body as { model?: unknown } | null)?.model;
    if (exchange.request.wire === wire && typeof model === 'string') names.add(model);
  }
  return [...names].sort();
}

export async function startModelProxy(options: ModelProxyOptions): Promise<ModelProxy> {
  const upstreams = new Set((options.upstreams ?? []).map((base) => base.replace(/\/+$/, '')));
  const exchanges = options.exchanges ?? new Map<string, ModelExchange>();
  const written = new Set<string>();
  const emit = (event: ProxyEvent) => options.onEvent?.(event);
  const fetchFn = options.fetch ?? fetch;

  let hosts = new Set<string>();
  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    // Hosts and their clients only, never a web page: the exact loopback Host (no DNS rebinding) and no Origin (no browser).
    if (!hosts.has(req.headers.host ?? ''))
      return proxyError(res, 421, 'agentdef_replay_wrong_host', 'this server answers on its loopback address only');
    if (req.headers.origin !== undefined)
      return proxyError(res, 403, 'agentdef_replay_browser_refused', 'this server does not answer web pages');
    const route = parseProxyPath(req.url ?? '/');
    // A request carries its key in a header: that value (and the bare token of `Bearer <token>`) is scrubbed from what is written.
    const redactor = createRedactor(options.secrets ?? []);
    for (const [name, value] of Object.entries(req.headers)) {
      if (!CREDENTIAL_HEADER.test(name)) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        if (typeof one !== 'string') continue;
        redactor.add(one);
        redactor.add(/^\s*\S+\s+(\S+)\s*$/.exec(one)?.[1]);
      }
    }
    if (!route) {
      emit({
        kind: 'refused',
        method,
        path: redactor.text((req.url ?? '/').split('?')[0] ?? '/'),
        reason: 'not a route of the model replay server',
      });
      return proxyError(
        res,
        404,
        'agentdef_replay_unknown_route',
        'this is agentdef model replay server: hosts reach it at /m/<wire>/<base>/…',
      );
    }
    const key: ModelRequestKey = redactor.json({
      wire: route.wire,
      method,
      path: route.path,
      body: bodyValue(body.toString('utf8')),
    });
    const digest = requestDigest(key);
    const shown = { wire: route.wire, method, path: key.path.split('?')[0] ?? key.path };

    if (options.mode === 'replay') {
      if (method === 'GET' && route.wire === 'ollama-chat' && key.path === '/api/tags') {
        return sendJson(
          res,
          200,
          { models: recordedModels(exchanges, 'ollama-chat').map((name) => ({ name, model: name })) },
          { [MODEL_REPLAY_HEADER]: 'tags' },
        );
      }
      const exchange = exchanges.get(digest);
      if (!exchange) {
        emit({ kind: 'not-recorded', ...shown, digest });
        return proxyError(
          res,
          404,
          NOT_RECORDED_TYPE,
          `${route.wire} ${method} ${shown.path} (${digest}) is not in the recording ${options.display}`,
        );
      }
      emit({ kind: 'replayed', ...shown, digest });
      const answer = exchange.response.body;
      if (typeof answer === 'string') {
        res.writeHead(exchange.response.status, {
          'content-type': 'text/plain; charset=utf-8',
          [MODEL_REPLAY_HEADER]: digest,
        });
        res.end(answer);
        return;
      }
      return sendJson(res, exchange.response.status, answer, { [MODEL_REPLAY_HEADER]: digest });
    }

    // record
    const base = route.upstreamBase.replace(/\/+$/, '');
    if (!upstreams.has(base) || (options.loopbackOnly === true && !isLoopbackBase(base))) {
      emit({
        kind: 'refused',
        ...shown,
        reason: `${new URL(base).origin} is not where a model pin of this session is reached`,
      });
      return proxyError(
        res,
        403,
        'agentdef_replay_upstream_refused',
        'the record server forwards only to the base URL of a model pin of this session',
      );
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (HOP_BY_HOP.has(name) || name.startsWith('x-agentdef-') || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    let upstream: Response;
    let answerText: string;
    try {
      upstream = await fetchFn(`${base}${route.path}`, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
        redirect: 'manual',
      });
      const bytes = Buffer.from(await upstream.arrayBuffer());
      if (bytes.length > MAX_EXCHANGE_BYTES) {
        emit({ kind: 'not-written', ...shown, digest, reason: `the answer is over ${MAX_EXCHANGE_BYTES} bytes` });
        return proxyError(
          res,
          502,
          'agentdef_replay_answer_too_large',
          `the provider's answer is over ${MAX_EXCHANGE_BYTES} bytes`,
        );
      }
      answerText = bytes.toString('utf8');
    } catch (error) {
      emit({
        kind: 'refused',
        ...shown,
        reason: `the provider could not be reached (${error instanceof Error ? error.name : 'error'})`,
      });
      return proxyError(res, 502, 'agentdef_replay_upstream_unreachable', 'the provider could not be reached');
    }
    // The answer goes back as it came (the replay header never passes through from upstream).
    const contentType = upstream.headers.get('content-type') ?? 'application/json';
    res.writeHead(upstream.status, { 'content-type': contentType });
    res.end(answerText);

    if (method === 'GET' && route.wire === 'ollama-chat' && key.path === '/api/tags') return; // a start check, not an exchange
    if (written.has(digest)) return; // one answer per request per session: the first
    if (upstream.status < 200 || upstream.status > 599) return;
    const exchange: ModelExchange = {
      format: EXCHANGE_FORMAT,
      digest,
      request: key,
      response: { status: upstream.status, body: redactor.json(withoutClocks(route.wire, bodyValue(answerText))) },
    };
    const text = exchangeText(exchange);
    const shapes = credentialShapesIn(exchange, text, options.credentialShapes);
    if (redactor.leaks(text) || shapes.length > 0) {
      emit({
        kind: 'not-written',
        ...shown,
        digest,
        reason: `it holds what looks like ${shapes[0] ?? 'a secret'}, so it is not written (${exchangeFileName(digest)})`,
      });
      return;
    }
    const outcome = writeExchange(options.folder, exchange, options.display);
    if (outcome.written) {
      written.add(digest);
      emit({ kind: 'recorded', ...shown, digest, file: outcome.file });
    } else emit({ kind: 'not-written', ...shown, digest, reason: outcome.reason });
  };

  // Behind the request gate every agentdef server stands behind (framing, methods, Host, Origin,
  // size, time); the checks above are stricter still (its own loopback Host, no Origin at all).
  const gate = await openRequestGate(
    {
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: MAX_EXCHANGE_BYTES,
      // A session's hosts may have many model calls under way at once.
      maxRequestsInFlight: 256,
    },
    ({ req, res, body }) =>
      handle(req, res, body).catch((error: unknown) => {
        if (!res.headersSent)
          proxyError(
            res,
            500,
            'agentdef_replay_failed',
            `the replay server failed (${error instanceof Error ? error.name : 'error'})`,
          );
        else res.destroy();
      }),
  );
  hosts = new Set([`127.0.0.1:${gate.port}`, `localhost:${gate.port}`]);
  return {
    url: gate.url,
    close: () => gate.close(0),
  };
}
