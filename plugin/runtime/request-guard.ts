/**
 * What every host checks about an HTTP request before an agent reads its body, and the answers it
 * gives when a check fails, so a Node host's server and the A2A handler (every host) refuse the
 * same requests with the same bytes:
 * - `Host` (process hosts: loopback names with the served port, plus the configured origins;
 *   anything else is a DNS-rebinding or misrouted request) → 421;
 * - `Origin`, when a browser sends one: only an allowed origin, else a cross-site page is driving
 *   the agent → 403;
 * - a JSON-RPC POST must say it is JSON (`application/json` or `application/a2a+json`, any
 *   parameters): the simple-request content types a page can send without a preflight → 415;
 * - the body's size (declared `Content-Length` first, then the bytes read) → 413;
 * - a body that cannot be read (its stream fails, or gives something other than bytes) → 400;
 * - too many requests at once → 503 with `Retry-After` and the error `-32000` (JSON-RPC's
 *   implementation-defined server error range; A2A defines no "busy" error) carrying a
 *   `google.rpc.RetryInfo` detail.
 * Refusals are JSON-RPC error objects with id `null` and code `-32600` (the request itself is not
 * acceptable), so a JSON-RPC client reads them like any other error.
 */

/** JSON-RPC code of the "too many requests in flight" answer. */
export const SERVER_BUSY_CODE = -32000;
/** Seconds a client is told to wait after a busy answer. */
export const BUSY_RETRY_AFTER_SECONDS = 1;
/** JSON-RPC POSTs may carry these media types. */
export const JSON_RPC_MEDIA_TYPES = ['application/json', 'application/a2a+json'] as const;

const INVALID_REQUEST = -32600;

function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown[],
): Response {
  const error: Record<string, unknown> = { code, message };
  if (data) error['data'] = data;
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The statuses a request can be refused with (the request gate's framing, method, time and version refusals included). */
export type RefusalStatus = 400 | 403 | 405 | 408 | 413 | 415 | 421 | 431 | 501 | 505;

/** The body of a refusal: a JSON-RPC `-32600` error object with id `null`. */
export function refusalText(message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message } });
}

/** A refused request: a JSON-RPC `-32600` error with this HTTP status. */
export function refusal(status: RefusalStatus, message: string, headers: Record<string, string> = {}): Response {
  return new Response(refusalText(message), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function tooLarge(maxBodyBytes: number): Response {
  return refusal(413, `Request payload too large (the limit is ${maxBodyBytes} bytes)`);
}

export function busy(limit: number): Response {
  return rpcError(
    503,
    SERVER_BUSY_CODE,
    `The agent is busy (${limit} requests in flight); retry after ${BUSY_RETRY_AFTER_SECONDS} s`,
    { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
    [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${BUSY_RETRY_AFTER_SECONDS}s` }],
  );
}

/** The loopback origins of a port: what a process host on this machine is reached by. */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/**
 * An origin as configured (`https://agents.example.com`, `http://splice-resolver:8080`): the
 * normalised origin, or why it is not one (a path, query, userinfo or non-http scheme).
 */
export function parseOrigin(text: string): { origin: string } | { problem: string } {
  const shown = quoteSetting(text);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `${shown} is not a URL (write it like https://agents.example.com or http://my-service:8080)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${shown} must use http or https` };
  if (url.username !== '' || url.password !== '')
    return { problem: `${shown} must not contain a user name or password` };
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return { problem: `${shown} must be an origin only (scheme, host and port, no path)` };
  return { origin: url.origin };
}

/** A setting as a message may show it: quoted with control characters escaped, any userinfo hidden, at most 120 characters. */
function quoteSetting(text: string): string {
  const hidden = text.trim().replace(/^(([a-z][a-z0-9+.-]*:)?\/\/)?[^/?#]*@/i, '$1…@');
  return JSON.stringify(hidden.length > 120 ? `${hidden.slice(0, 120)}…` : hidden);
}

/** A comma-separated list of origins (an environment setting): the origins, or the first problem. */
export function parseOriginList(text: string | undefined): { origins: string[] } | { problem: string } {
  const origins: string[] = [];
  for (const item of (text ?? '').split(',')) {
    if (item.trim() === '') continue;
    const parsed = parseOrigin(item);
    if ('problem' in parsed) return parsed;
    if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
  }
  return { origins };
}

/** The `Host` header values that name an origin: `host:port`, and `host` alone for the scheme's default port. */
function hostValues(origin: string): string[] {
  const url = new URL(origin);
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return url.port === '' ? [url.host, `${url.host}:${defaultPort}`] : [url.host];
}

/**
 * Whether a `Host` header names one of the allowed origins: an exact, case-insensitive match of
 * `host[:port]` (no parsing, so `localhost:1@evil.example` or `127.0.0.1.evil.example` never match).
 */
export function hostAllowed(host: string | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (!host) return false;
  const wanted = host.toLowerCase();
  return allowedOrigins.some((origin) => hostValues(origin).includes(wanted));
}

/** Whether an `Origin` header is acceptable: absent (not a browser, or same-origin GET), or exactly an allowed origin. */
export function originAllowed(origin: string | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === null || origin === undefined) return true;
  const wanted = origin.trim().toLowerCase();
  return allowedOrigins.some((allowed) => allowed.toLowerCase() === wanted);
}

/** Whether a `Content-Type` header says JSON (`application/json`, `application/a2a+json`, with any parameters). */
export function isJsonContentType(header: string | null | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return (JSON_RPC_MEDIA_TYPES as readonly string[]).includes(mediaType);
}

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder();

/**
 * Reads a request body as UTF-8 text, at most `maxBytes`: stops reading (and cancels the stream)
 * as soon as it passes the limit, so a chunked body without `Content-Length` is bounded too.
 * The declared `Content-Length` is not trusted for the bound: on workerd a caller reaching the
 * Worker through a service binding can declare 10 bytes and send a megabyte, and `request.text()`
 * reads all of it. A body that arrives in one chunk (the usual small request) is decoded in place.
 * Invalid UTF-8 becomes U+FFFD and a leading BOM is dropped, as `request.text()` does.
 * `unreadable`: the stream failed (the client went away mid-body) or gave something other than
 * bytes (a `Request` built over a JavaScript stream of strings, whose `byteLength` would count
 * nothing and so bound nothing); `request.text()` rejects both.
 */
// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const readBodyText = (async function readBodyText(request: Request, maxBytes: number): Promise<string | 'too-large' | 'unreadable'> {
  if (!request.body) return '';
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    return 'unreadable';
  }
  const stop = async (outcome: 'too-large' | 'unreadable') => {
    await reader.cancel().catch(() => undefined);
    return outcome;
  };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      return stop('unreadable');
    }
    if (next.done) break;
    const value: unknown = next.value;
    if (!(value instanceof Uint8Array)) return stop('unreadable');
    // An empty chunk adds nothing: not kept, so a stream of them holds no memory.
    if (value.byteLength === 0) continue;
    size += value.byteLength;
    if (size > maxBytes) return stop('too-large');
    chunks.push(value);
  }
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return UTF8.decode(bytes);
});
