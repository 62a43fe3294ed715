/**
 * The request gate's time limits as a person sets them, in the environment of a host process or
 * of `agentdef dev`: `AGENTDEF_HEADERS_TIMEOUT_MS` (how long a client may take to send a request's
 * headers) and `AGENTDEF_REQUEST_TIMEOUT_MS` (the whole request, body included). Each is a whole
 * number of milliseconds from 100 to 300,000; unset, the gate's defaults hold (10 s and 20 s).
 */
import type { GateLimits } from './request-gate';

export const HEADERS_TIMEOUT_ENV = 'AGENTDEF_HEADERS_TIMEOUT_MS';
export const REQUEST_TIMEOUT_ENV = 'AGENTDEF_REQUEST_TIMEOUT_MS';
const LOWEST_MS = 100;
const HIGHEST_MS = 300_000;

/** The time limits the environment sets, or the first problem with one of them (one line, the value quoted within bounds). */
export function gateTimeLimits(
  env: Record<string, string | undefined>,
): { limits: Pick<GateLimits, 'headersTimeoutMs' | 'requestTimeoutMs'> } | { problem: string } {
  const limits: Pick<GateLimits, 'headersTimeoutMs' | 'requestTimeoutMs'> = {};
  for (const [name, key] of [
    [HEADERS_TIMEOUT_ENV, 'headersTimeoutMs'],
    [REQUEST_TIMEOUT_ENV, 'requestTimeoutMs'],
  ] as const) {
    const text = env[name];
    if (text === undefined || text.trim() === '') continue;
    const value = /^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!(value >= LOWEST_MS && value <= HIGHEST_MS))
      return {
        problem: `${name} must be a whole number of milliseconds from ${LOWEST_MS} to ${HIGHEST_MS}, not ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`,
      };
    limits[key] = value;
  }
  return { limits };
}
