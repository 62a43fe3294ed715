/**
 * Egress policy: a fetch wrapper that lets a request through only when its origin (scheme, host,
 * port) is on the allow-list: the model providers the pins name, the endpoints the tools declare,
 * and the config's extra origins. Anything else rejects with `egress_blocked`, naming the host only
 * (never the path or query, which may carry tokens). Redirects are followed by hand so a redirect
 * cannot escape the list.
 */
import { RuntimeError } from './errors';
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

/** `scheme://host[:port]` of a URL or origin string; throws on anything that is not http(s). */
export function originOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`egress: unsupported scheme ${parsed.protocol}`);
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

export function createEgressFetch(options: EgressOptions): typeof fetch {
  const allowed = new Set([...options.allow].map(originOf));
  const inner = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const maxRedirects = options.maxRedirects ?? 5;
  const check = (url: URL) => {
    if (!allowed.has(url.origin) || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      const host = url.host || url.protocol;
      options.onBlocked?.(host);
      throw new EgressBlockedError(host);
    }
  };
  const egressFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const first = new Request(input, init);
    let url = new URL(first.url);
    check(url); // before reading anything, so a blocked call has no side effect
    let method = first.method;
    const headers = new Headers(first.headers);
    let body: ArrayBuffer | undefined = first.body ? await first.arrayBuffer() : undefined;
    const follow = (init?.redirect ?? (input instanceof Request ? input.redirect : 'follow')) === 'follow';
    for (let hop = 0; ; hop++) {
      check(url);
      const response = await inner(url.toString(), { method, headers, ...(body !== undefined ? { body } : {}), signal: first.signal, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!follow || response.status < 300 || response.status >= 400 || location === null) return response;
      if (hop >= maxRedirects) throw new RuntimeError('egress_blocked', 'egress_blocked: too many redirects');
      const next = new URL(location, url);
      if (next.origin !== url.origin) for (const name of ['authorization', 'x-api-key', 'cookie', 'proxy-authorization']) headers.delete(name);
      if (response.status !== 307 && response.status !== 308 && method !== 'GET' && method !== 'HEAD') {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      url = next;
    }
  };
  return egressFetch as typeof fetch;
}
