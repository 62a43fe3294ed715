/**
 * The egress gateway: the `globalOutbound` of every dynamically loaded isolate. Every `fetch()` the
 * isolate makes arrives here; requests to an allowed origin go out, anything else is answered
 * `403` with a JSON body naming the host only (never the path or query, which may carry tokens).
 * This is the platform-level half of the egress policy; the runtime's own egress-checked fetch
 * inside the isolate is the other half.
 */
import type { EgressProps } from './host-types';

export const EGRESS_BLOCKED_STATUS = 403;

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

export function egressAllows(allow: readonly string[], url: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && allow.some((entry) => originOf(entry) === origin);
}

export async function gatewayFetch(
  request: Request,
  props: EgressProps | undefined,
  upstream: (request: Request) => Promise<Response> = (r) => fetch(r),
): Promise<Response> {
  const allow = props?.allow ?? [];
  if (!egressAllows(allow, request.url)) {
    let host = '';
    try {
      host = new URL(request.url).host;
    } catch {
      host = 'an invalid URL';
    }
    return new Response(
      JSON.stringify({
        error: 'egress_blocked',
        message: `egress_blocked: ${host} is not on this agent's egress allow-list`,
      }),
      {
        status: EGRESS_BLOCKED_STATUS,
        headers: { 'content-type': 'application/json', 'x-agentdef-egress': 'blocked' },
      },
    );
  }
  return upstream(request);
}
