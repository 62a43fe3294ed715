/**
 * A compiled Worker's run telemetry: OTLP/HTTP JSON through `fetch`, kept alive with
 * `ctx.waitUntil`, configured by two bindings of the Worker:
 * - `AGENTDEF_OTLP_ENDPOINT` (a var): the collector's base URL (`/v1/traces` is appended) or,
 *   ending in `/v1/traces`, the traces URL itself;
 * - `AGENTDEF_OTLP_HEADERS` (a secret): `key=value,…` headers (an API key), never logged.
 * Unset, the collector the definition names (`telemetryContract.collector`) is the endpoint.
 * The collector is reached only when its origin is on the agent's egress allow-list (the
 * compiler adds the definition's collector to it); otherwise every run logs `telemetry.blocked`
 * with the collector's host (never its path, query or credentials) and nothing is sent. No
 * endpoint: no telemetry, and the run builds no spans. A Worker whose allow-list is empty can reach
 * no collector: its entry uses `workerTelemetryWithoutEgress`, which only logs `telemetry.blocked`.
 */
import type { RuntimeLogEvent } from '../../runtime/agent-loop';
import { egressAllowList } from '../../runtime/egress';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { otlpHttpExporter, signalUrl } from '../../runtime/telemetry/otlp-http-exporter';
import type { RunTelemetry } from '../../runtime/telemetry/run-telemetry';
import { createRunTelemetry } from '../../runtime/telemetry/run-telemetry';

export const OTLP_ENDPOINT_BINDING = 'AGENTDEF_OTLP_ENDPOINT';
export const OTLP_HEADERS_BINDING = 'AGENTDEF_OTLP_HEADERS';

function headersFrom(text: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof text !== 'string') return out;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      out[decodeURIComponent(pair.slice(0, at).trim()).toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a pair that does not decode is left out
    }
  }
  return out;
}

/** The collector's traces URL (undefined when it is not a URL) and whether the Worker may reach it; undefined without an endpoint. */
function collectorOf(
  env: Record<string, unknown>,
  config: RuntimeConfig,
): { url: URL | undefined; allowed: boolean } | undefined {
  const bound = env[OTLP_ENDPOINT_BINDING];
  const endpoint = typeof bound === 'string' && bound !== '' ? bound : config.telemetry?.collector;
  if (endpoint === undefined || endpoint === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(/\/v1\/traces\/?$/.test(endpoint) ? endpoint : signalUrl(endpoint, 'traces'));
  } catch {
    url = undefined;
  }
  const allowed =
    url !== undefined &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    egressAllowList(config).includes(url.origin);
  return { url, allowed };
}

/** Telemetry that sends nothing: each run logs `telemetry.blocked` with the collector's host only. */
function blockedTelemetry(url: URL | undefined, log: (event: RuntimeLogEvent) => void): RunTelemetry {
  const host = url?.hostname ?? 'invalid-url';
  return {
    record(run) {
      log({
        event: 'telemetry.blocked',
        runId: run.result.runId,
        host,
        reason: 'collector not on the egress allow-list',
      });
    },
  };
}

/** The Worker's `RunTelemetry`, or undefined when no collector is configured. */
export function workerTelemetry(
  env: Record<string, unknown>,
  config: RuntimeConfig,
  log: (event: RuntimeLogEvent) => void,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
): RunTelemetry | undefined {
  const collector = collectorOf(env, config);
  if (collector === undefined) return undefined;
  if (!collector.allowed) return blockedTelemetry(collector.url, log);
  return createRunTelemetry({
    exporter: otlpHttpExporter({
      tracesUrl: collector.url!.toString(),
      headers: headersFrom(env[OTLP_HEADERS_BINDING]),
      fetch: fetchFn,
    }),
    onError: (runId) => log({ event: 'telemetry.export_failed', runId }),
  });
}

/**
 * `workerTelemetry` for a Worker whose egress allow-list is empty (the generator picks it then,
 * from the Worker's constant config): no collector can be on that list, so a configured endpoint
 * only ever logs `telemetry.blocked`, as `workerTelemetry` does, and the Worker bundles no OTLP
 * encoder or exporter.
 */
export function workerTelemetryWithoutEgress(
  env: Record<string, unknown>,
  config: RuntimeConfig,
  log: (event: RuntimeLogEvent) => void,
): RunTelemetry | undefined {
  const collector = collectorOf(env, config);
  return collector === undefined ? undefined : blockedTelemetry(collector.url, log);
}
