/**
 * How hosts reach agentdef's model record/replay server (`agentdef dev --record/--replay`,
 * `AGENTDEF_RECORD` / `AGENTDEF_REPLAY`), and the variables the supervisor (`agentdef dev`,
 * `agentdef run`) hands its hosts:
 * - `AGENTDEF_MODEL_PROXY`: the server's loopback URL. A process host then sends every pin to
 *   `<proxy>/m/<wire>/<base64url of the pin's settled base URL>`; the client appends its own path
 *   (`/v1/messages`, `/chat/completions`, `/api/chat`), which is the path the exchange records.
 * - `AGENTDEF_MODEL_PROXY_MODE`: `replay` or `record`. In `replay`, a secret the hosts need only
 *   as a model pin's API key is not read: it is `REPLAY_PLACEHOLDER_KEY`, which never leaves this
 *   machine (the replay server answers every request itself and forwards none).
 * Pure: no Node built-ins, so the hosts bundled into outputs can import it.
 */
import type { ProviderWire } from '../../runtime/runtime-config';

export const MODEL_PROXY_ENV = 'AGENTDEF_MODEL_PROXY';
export const MODEL_PROXY_MODE_ENV = 'AGENTDEF_MODEL_PROXY_MODE';
/** What a user sets for `agentdef run`, `agentdef dev` and the Nx targets: the recording folder. */
export const REPLAY_ENV = 'AGENTDEF_REPLAY';
export const RECORD_ENV = 'AGENTDEF_RECORD';
/** The API key a pin gets in replay mode: not a key, and it reaches only the replay server. */
export const REPLAY_PLACEHOLDER_KEY = 'agentdef-replay-no-key';

export type ProxyMode = 'record' | 'replay';

const WIRES: readonly ProviderWire[] = ['anthropic-messages', 'openai-chat', 'ollama-chat'];

function base64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The base URL a pin of `wire` whose own base is `upstreamBase` gets behind the proxy at `proxyUrl`. */
export function proxiedBaseUrl(proxyUrl: string, wire: ProviderWire, upstreamBase: string): string {
  return `${proxyUrl.replace(/\/+$/, '')}/m/${wire}/${base64Url(upstreamBase.replace(/\/+$/, ''))}`;
}

/** A request path of the proxy split into its route and the path relative to the pin's base, or undefined. */
export function parseProxyPath(
  pathWithQuery: string,
): { wire: ProviderWire; upstreamBase: string; path: string } | undefined {
  const match = /^\/m\/([a-z-]+)\/([A-Za-z0-9_-]+)(\/[^?#]*)?(\?[^#]*)?$/.exec(pathWithQuery);
  if (!match) return undefined;
  const wire = match[1] as ProviderWire;
  if (!WIRES.includes(wire)) return undefined;
  const upstreamBase = fromBase64Url(match[2]!);
  if (upstreamBase === undefined || !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(upstreamBase)) return undefined;
  const path = `${match[3] ?? '/'}${match[4] ?? ''}`;
  return { wire, upstreamBase, path };
}

/** The proxy the supervisor set for this host, if any: its URL and mode. */
export function modelProxyOf(env: Record<string, string | undefined>): { url: string; mode: ProxyMode } | undefined {
  const url = env[MODEL_PROXY_ENV]?.trim();
  const mode = env[MODEL_PROXY_MODE_ENV];
  if (!url || (mode !== 'record' && mode !== 'replay')) return undefined;
  return { url, mode };
}
