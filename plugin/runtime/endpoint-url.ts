/**
 * The one reading of a URL-valued field, shared by validation (plugin/definition), the emitters
 * (through the runtime's egress allow-list) and the runtime and hosts themselves: the WHATWG `URL`
 * parser, captured before any tool code ran (captured-intrinsics.ts). A URL one of them accepts is
 * accepted by all of them; one they would refuse is refused at validation, located, instead of
 * failing an emit ("internal error") or a host's start.
 *
 * This file and captured-intrinsics.ts are a layer of their own (e2e/architecture/layers.ts:
 * `runtime-url`) that imports nothing, so the definition layer may read it without reaching the
 * rest of the runtime. A problem never repeats the URL (it may carry a token in a query or a
 * password): it says what is wrong and what to write instead.
 */
import { nativeUrl } from './captured-intrinsics';

export type ParsedUrl =
  | {
      ok: true;
      url: URL;
      /** `scheme://host[:port]` (WHATWG's serialisation: default port dropped, host lower-cased). */
      origin: string;
      /** The URL names a user or a password before its host (`https://user:password@host`). */
      hasCredentials: boolean;
    }
  | { ok: false; problem: string; suggestion: string };

const PROBLEM_PREFIX = 'is not a URL the WHATWG URL parser accepts';

/** Why the parser refused `text`, as far as a cheap look at its authority can tell. */
function refusalOf(text: string): { problem: string; suggestion: string } {
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(text)?.[1];
  if (authority !== undefined) {
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    if (hostPort === '')
      return {
        problem: `${PROBLEM_PREFIX}: it has no host`,
        suggestion: 'write the host after `//`, e.g. https://api.example.com',
      };
    if (hostPort.startsWith('[') && !hostPort.includes(']'))
      return {
        problem: `${PROBLEM_PREFIX}: its IPv6 address is not closed with \`]\``,
        suggestion: 'write an IPv6 host in brackets, closed, e.g. http://[::1]:8080',
      };
    const port = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(hostPort)?.[1];
    if (port !== undefined && Number(port) > 65_535)
      return {
        problem: `${PROBLEM_PREFIX}: its port is above 65535`,
        suggestion: 'give a port from 1 to 65535, or none for the scheme default',
      };
  }
  return {
    problem: `${PROBLEM_PREFIX}: its host is not a valid domain, IPv4 or bracketed IPv6 address (or a port is not a number)`,
    suggestion:
      'write an absolute URL such as https://api.example.com or http://127.0.0.1:8080: a host of letters, digits, `-` and `.`, then an optional :port',
  };
}

/** `text` read by the WHATWG URL parser as an absolute URL of any scheme (a card's provider URL, a URN). */
export function parseAbsoluteUrl(text: unknown): ParsedUrl {
  if (typeof text !== 'string')
    return { ok: false, problem: 'is not a string', suggestion: 'write an absolute URL as a string' };
  let url: URL;
  try {
    url = nativeUrl.parse(text);
  } catch {
    return { ok: false, ...refusalOf(text) };
  }
  return {
    ok: true,
    url,
    origin: nativeUrl.origin(url),
    hasCredentials: nativeUrl.username(url) !== '' || nativeUrl.password(url) !== '',
  };
}

/**
 * `text` as an endpoint an agent may reach: an absolute http(s) URL the WHATWG parser accepts.
 * Its origin is what the egress allow-lists hold (runtime/egress.ts, the Worker's egress gateway,
 * the Node hosts' network guard).
 */
export function parseEndpointUrl(text: unknown): ParsedUrl {
  const parsed = parseAbsoluteUrl(text);
  if (!parsed.ok) return parsed;
  const protocol = nativeUrl.protocol(parsed.url);
  if (protocol !== 'http:' && protocol !== 'https:')
    return {
      ok: false,
      problem: `is not an http(s) URL (its scheme is ${protocol.slice(0, 32)})`,
      suggestion: 'an endpoint is reached over HTTP: write https://host or http://host:port',
    };
  return parsed;
}
