/**
 * Egress policy: a fetch wrapper that lets a request through only when its origin (scheme, host,
 * port) is on the allow-list: the model providers the pins name, the endpoints the tools declare,
 * and the config's extra origins. Anything else rejects with `egress_blocked`, naming the host only
 * (never the path or query, which may carry tokens). Redirects are followed by hand so a redirect
 * cannot escape the list.
 */
import { NativeHeaders, NativeRequest, nativeUrl, setHas } from './captured-intrinsics';
import { RuntimeError } from './errors';
import { parseEndpointUrl } from './endpoint-url';
import type { RuntimeConfig } from './runtime-config';
import { modelBaseUrl } from './runtime-config';

export class EgressBlockedError extends RuntimeError {
  readonly host: string;
  constructor(host: string) {
    super('egress_blocked', `egress_blocked: ${host} is not on this agent's egress allow-list`, { host });
    this.name = 'EgressBlockedError';
    this.host = host;
  }
}

/**
 * `scheme://host[:port]` of a URL or origin string, read as validation reads it
 * (endpoint-url.ts); throws on anything that is not an http(s) URL. Validation refuses such a
 * value in a definition, so from a compiled config this throws only for a host's own settings.
 */
export function originOf(url: string): string {
  const parsed = parseEndpointUrl(url);
  if (!parsed.ok) throw new TypeError(`egress: an endpoint ${parsed.problem}`);
  return parsed.origin;
}

/** The origins a config may reach: every model pin's base URL, every tool endpoint and URL, plus `egress.allow`. */
export function egressAllowList(config: RuntimeConfig): string[] {
  const origins = new Set<string>();
  for (const pin of config.models) origins.add(originOf(modelBaseUrl(pin)));
  for (const tool of config.tools) {
    for (const endpoint of tool.endpoints ?? []) origins.add(originOf(endpoint));
    if (tool.url) origins.add(originOf(tool.url));
  }
  for (const origin of config.egress.allow) origins.add(originOf(origin));
  return [...origins].sort();
}

export interface EgressOptions {
  allow: Iterable<string>;
  fetch?: typeof fetch;
  /** Called with the host of every blocked request (for logs; the host only). */
  onBlocked?: (host: string) => void;
  /** Most redirects followed by hand (each hop is checked). */
  maxRedirects?: number;
}

/** The URL a fetch input names, parsed without ever echoing it (a URL may carry a password or a token). */
function requestUrl(input: RequestInfo | URL): URL {
  const text = typeof input === 'string' ? input : input instanceof NativeRequest ? input.url : `${input as URL}`;
  return parseUrl(text);
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return nativeUrl.parse(text, base);
  } catch {
    throw new TypeError('fetch: invalid URL');
  }
}

/** Whether `url` has userinfo (`user:password@`); fetch refuses such URLs, and the refusal must not repeat them. */
function hasCredentials(url: URL): boolean {
  return nativeUrl.username(url) !== '' || nativeUrl.password(url) !== '';
}

/**
 * The egress error a client library wrapped (undici's `fetch failed` keeps it as `cause`, an
 * `AggregateError` in `errors`), so a tool refused by the policy fails with `egress_blocked`
 * whichever client it used.
 */
export function egressBlockedCause(error: unknown): RuntimeError | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof RuntimeError && current.code === 'egress_blocked') return current;
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 8));
  }
  return undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch that reaches only the allow-listed origins. Every hop of a redirect is checked before it
 * is requested (`redirect: 'follow'`, the default, is followed by hand); `manual` hands the
 * redirect response back, `error` rejects on one, as the Fetch standard says. A URL with userinfo
 * is refused with a message that names the host only.
 */
export function createEgressFetch(options: EgressOptions): typeof fetch {
  const allowed = new Set([...options.allow].map(originOf));
  const inner = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const maxRedirects = options.maxRedirects ?? 5;
  // Verdicts read URLs and the list only through the built-ins captured before any tool ran.
  const check = (url: URL) => {
    const protocol = nativeUrl.protocol(url);
    if (!setHas(allowed, nativeUrl.origin(url)) || (protocol !== 'http:' && protocol !== 'https:')) {
      const host = nativeUrl.host(url) || protocol;
      options.onBlocked?.(host);
      throw new EgressBlockedError(host);
    }
  };
  const egressFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const target = requestUrl(input);
    check(target); // before reading anything, so a blocked call has no side effect
    if (hasCredentials(target))
      throw new TypeError(`fetch: a URL with credentials (user:password@${nativeUrl.host(target)}) is refused`);
    const first = new NativeRequest(input, init);
    let url = parseUrl(first.url);
    check(url);
    let method = first.method;
    const headers = new NativeHeaders(first.headers);
    // The Host header names the URL's host, never another one (a shared front-end would route by it).
    headers.delete('host');
    let body: ArrayBuffer | undefined = first.body ? await first.arrayBuffer() : undefined;
    const mode = init?.redirect ?? first.redirect ?? 'follow';
    for (let hop = 0; ; hop++) {
      check(url);
      const response = await inner(nativeUrl.href(url), {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: first.signal,
        redirect: 'manual',
      });
      const location = response.headers.get('location');
      if (!setHas(REDIRECT_STATUSES, response.status) || location === null || mode === 'manual') return response;
      if (mode === 'error') {
        await response.body?.cancel().catch(() => undefined);
        throw new TypeError('fetch: redirect refused (redirect: "error")');
      }
      if (hop >= maxRedirects) throw new RuntimeError('egress_blocked', 'egress_blocked: too many redirects');
      let next: URL;
      try {
        next = nativeUrl.parse(location, url);
      } catch {
        throw new TypeError('fetch: the redirect location is not a URL');
      }
      await response.body?.cancel().catch(() => undefined);
      check(next);
      if (hasCredentials(next))
        throw new TypeError(
          `fetch: a redirect to a URL with credentials (user:password@${nativeUrl.host(next)}) is refused`,
        );
      if (nativeUrl.origin(next) !== nativeUrl.origin(url))
        for (const name of ['authorization', 'x-api-key', 'cookie', 'proxy-authorization']) headers.delete(name);
      if (
        (response.status === 303 && method !== 'GET' && method !== 'HEAD') ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      url = next;
    }
  };
  return egressFetch as typeof fetch;
}
