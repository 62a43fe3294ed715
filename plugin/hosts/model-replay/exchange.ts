/**
 * One recorded model exchange (`agentdef-model-exchange/v1`): the request a host sent to a model
 * provider and the answer it got, stored as one file `<hex>.json` in a recording folder, where
 * `<hex>` is the request's digest.
 *
 * The digest is SHA-256 over the RFC 8785 canonical JSON of `{ wire, method, path, body }`: the
 * provider's wire format (`anthropic-messages`, `openai-chat`, `ollama-chat`), the HTTP method,
 * the path (with its query) relative to the pin's base URL, and the request body as JSON (a body
 * that is not JSON is its text; none is null). Headers never go in: not in the digest, not in
 * the file. The file text is deterministic: sorted keys, two-space indentation, a final newline,
 * and nothing about the machine (no clock, path or host name).
 */
import { createHash } from 'node:crypto';
import { canonicalize } from '../../runtime/jcs';
import type { ProviderWire } from '../../runtime/runtime-config';
import { parseStrictJson } from '../../runtime/strict-json';

export const EXCHANGE_FORMAT = 'agentdef-model-exchange/v1';
export const WIRES: readonly ProviderWire[] = ['anthropic-messages', 'openai-chat', 'ollama-chat'];
/** The largest exchange file a recording may hold, and the largest body the proxy reads or forwards. */
export const MAX_EXCHANGE_BYTES = 4 * 1024 * 1024;
/** `<64 hex>.json`: the only file names a recording folder's exchanges have. */
export const EXCHANGE_FILE = /^([0-9a-f]{64})\.json$/;
/** JSON nesting a request (tool schemas) or an exchange file may have. */
const MAX_DEPTH = 256;

/** What the digest covers. */
export interface ModelRequestKey {
  wire: ProviderWire;
  method: string;
  /** Relative to the pin's base URL, with the query: `/v1/messages`, `/chat/completions`, `/api/chat`. */
  path: string;
  /** The JSON body, or its text when it is not JSON, or null when there is none. */
  body: unknown;
}

export interface ModelExchange {
  format: typeof EXCHANGE_FORMAT;
  /** `sha-256:<hex>` of the request. */
  digest: string;
  request: ModelRequestKey;
  response: { status: number; body: unknown };
}

export function requestDigest(request: ModelRequestKey): string {
  const canonical = canonicalize({
    wire: request.wire,
    method: request.method,
    path: request.path,
    body: request.body,
  });
  return `sha-256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

export function exchangeFileName(digest: string): string {
  return `${digest.replace(/^sha-256:/, '')}.json`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      Object.defineProperty(out, key, {
        value: sortedKeys((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/** The file text of an exchange: sorted keys, two spaces, final newline. */
export function exchangeText(exchange: ModelExchange): string {
  return `${JSON.stringify(sortedKeys(exchange), null, 2)}\n`;
}

/** A body as the digest sees it: JSON when it parses, else its text; empty is null. */
export function bodyValue(text: string): unknown {
  if (text === '') return null;
  const parsed = parseStrictJson(text, MAX_DEPTH);
  return parsed.ok ? parsed.value : text;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const hasOnly = (value: Record<string, unknown>, keys: string[]) =>
  Object.keys(value).every((key) => keys.includes(key));

/**
 * The exchange a recording file holds, or what is wrong with it: strict JSON (no duplicated
 * property), exactly the members of the format, a digest that is the file's name and its
 * request's own digest (an answer filed under another request's digest is refused), a method, a
 * path relative to the base, a status. The caller bounds the size before reading.
 */
export function parseExchange(
  text: string,
  fileName: string,
): { ok: true; exchange: ModelExchange } | { ok: false; problem: string } {
  const bad = (problem: string) => ({ ok: false as const, problem });
  const parsed = parseStrictJson(text, MAX_DEPTH + 4);
  if (!parsed.ok) return bad(`not strict JSON (${parsed.reason})`);
  const value = parsed.value;
  if (!isObject(value) || !hasOnly(value, ['format', 'digest', 'request', 'response']))
    return bad('not a model exchange: an object with format, digest, request and response is expected');
  if (value['format'] !== EXCHANGE_FORMAT) return bad(`format is not ${EXCHANGE_FORMAT}`);
  const digest = value['digest'];
  if (typeof digest !== 'string' || !/^sha-256:[0-9a-f]{64}$/.test(digest))
    return bad('digest is not sha-256:<64 hex digits>');
  if (exchangeFileName(digest) !== fileName) return bad(`its digest ${digest} is not its file name`);
  const request = value['request'];
  if (!isObject(request) || !hasOnly(request, ['wire', 'method', 'path', 'body']) || !('body' in request))
    return bad('request must hold wire, method, path and body only');
  if (!WIRES.includes(request['wire'] as ProviderWire)) return bad(`request.wire must be one of ${WIRES.join(', ')}`);
  if (typeof request['method'] !== 'string' || !/^[A-Z]{3,10}$/.test(request['method']))
    return bad('request.method is not an HTTP method');
  const path = request['path'];
  if (
    typeof path !== 'string' ||
    !path.startsWith('/') ||
    path.startsWith('//') ||
    path.length > 2048 ||
    [...path].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)
  )
    return bad('request.path is not a path relative to the base URL');
  const key: ModelRequestKey = {
    wire: request['wire'] as ProviderWire,
    method: request['method'],
    path,
    body: request['body'],
  };
  if (requestDigest(key) !== digest)
    return bad(
      `the request it holds does not have its digest ${digest} (an answer filed under another request, or an edited request)`,
    );
  const response = value['response'];
  if (!isObject(response) || !hasOnly(response, ['status', 'body']) || !('body' in response))
    return bad('response must hold status and body only');
  const status = response['status'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    return bad('response.status is not an HTTP status (200-599)');
  return {
    ok: true,
    exchange: { format: EXCHANGE_FORMAT, digest, request: key, response: { status, body: response['body'] } },
  };
}
