/**
 * The local-only guard of a local-host-required agent: no request leaves the machine. Every URL
 * the agent would reach is checked at start (a model base URL, a tool endpoint), and every fetch
 * it makes goes through a wrapper that refuses any host that is not loopback (127.0.0.0/8, ::1,
 * localhost), before a connection is opened.
 */
import { HostStartError } from './host-error';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { RuntimeError } from '../../runtime/errors';
import { reachedUrls } from './model-endpoints';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Throws a start error naming the first URL of the config that is off this machine. */
export function checkLocalOnly(config: RuntimeConfig, agent: string): void {
  for (const { what, url } of reachedUrls(config)) {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      throw new HostStartError(`${agent}: ${what} has an invalid URL`);
    }
    if (!isLoopbackHost(host)) {
      const hint = what.includes('local-ollama')
        ? 'set OLLAMA_HOST to a loopback address such as http://127.0.0.1:11434'
        : 'point it at a server on this machine';
      throw new HostStartError(`${agent} is local-host-required but ${what} is at ${host}, off this machine: ${hint}`);
    }
  }
}

/** A fetch that only reaches loopback hosts; anything else fails with `egress_blocked`. */
export function loopbackOnlyFetch(
  inner: typeof fetch = (input, init) => fetch(input, init),
  onBlocked?: (host: string) => void,
): typeof fetch {
  const guarded = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!isLoopbackHost(url.hostname)) {
      onBlocked?.(url.host);
      return Promise.reject(
        new RuntimeError(
          'egress_blocked',
          `egress_blocked: ${url.host} is off this machine and this agent is local-host-required`,
          { host: url.host },
        ),
      );
    }
    return inner(input, init);
  };
  return guarded as typeof fetch;
}
