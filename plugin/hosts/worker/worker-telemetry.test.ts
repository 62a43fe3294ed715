/**
 * A Worker whose egress allow-list is empty gets `workerTelemetryWithoutEgress`, which bundles no
 * OTLP exporter: it must answer every environment exactly as `workerTelemetry` does for that
 * config (no telemetry without an endpoint; `telemetry.blocked` with the collector's host only,
 * never its path, query or headers), and neither may send anything. An allow-listed collector
 * still gets the spans from `workerTelemetry`, which is what a config with a non-empty list uses.
 */
import { describe, expect, it } from 'vitest';
import { toolOnlyConfig } from '../../runtime/__test-support__/configs';
import type { RuntimeLogEvent } from '../../runtime/agent-loop';
import { egressAllowList } from '../../runtime/egress';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import type { RunTelemetry } from '../../runtime/telemetry/run-telemetry';
import {
  OTLP_ENDPOINT_BINDING,
  OTLP_HEADERS_BINDING,
  workerTelemetry,
  workerTelemetryWithoutEgress,
} from './worker-telemetry';

const TOKEN = 'otlp-token-9f8e7d6c5b4a';

/** A config no collector can be reached from: no model, no tool endpoint, nothing allowed. */
function noEgressConfig(collector?: string): RuntimeConfig {
  const config = toolOnlyConfig();
  return collector === undefined ? config : { ...config, telemetry: { kinds: [], definitionDigest: 'd', collector } };
}

const RUN = { result: { runId: 'run-1' } } as unknown as Parameters<RunTelemetry['record']>[0];

/** What a telemetry does with one run: the log lines it writes and the requests it sends. */
async function outcome(
  make: (log: (event: RuntimeLogEvent) => void, fetchFn: typeof fetch) => ReturnType<typeof workerTelemetry>,
) {
  const logs: RuntimeLogEvent[] = [];
  const sent: string[] = [];
  const fetchFn = (async (input: RequestInfo | URL) => {
    sent.push(String(input));
    return new Response('{}');
  }) as typeof fetch;
  const telemetry = make((event) => logs.push(event), fetchFn);
  const pending: Promise<unknown>[] = [];
  telemetry?.record(RUN, (promise) => pending.push(promise));
  await Promise.all(pending);
  return { made: telemetry !== undefined, logs, sent };
}

const ENVIRONMENTS: Record<string, unknown>[] = [
  {},
  { [OTLP_ENDPOINT_BINDING]: '' },
  { [OTLP_ENDPOINT_BINDING]: `https://collector.example.com/otlp?token=${TOKEN}` },
  { [OTLP_ENDPOINT_BINDING]: 'https://collector.example.com/v1/traces', [OTLP_HEADERS_BINDING]: `x-api-key=${TOKEN}` },
  { [OTLP_ENDPOINT_BINDING]: `https://user:${TOKEN}@collector.example.com` },
  { [OTLP_ENDPOINT_BINDING]: 'not a url' },
  { [OTLP_ENDPOINT_BINDING]: 42 },
];

describe('the telemetry of a Worker with an empty egress allow-list', () => {
  it('answers every environment as workerTelemetry does, sends nothing and logs no credential', async () => {
    for (const collector of [undefined, 'https://otel.example.com']) {
      const config = noEgressConfig(collector);
      expect(egressAllowList(config)).toEqual([]);
      for (const env of ENVIRONMENTS) {
        const full = await outcome((log, fetchFn) => workerTelemetry(env, config, log, fetchFn));
        const lean = await outcome((log) => workerTelemetryWithoutEgress(env, config, log));
        expect(lean).toEqual(full);
        expect(full.sent).toEqual([]);
        expect(JSON.stringify(full.logs)).not.toContain(TOKEN);
        const endpoint = env[OTLP_ENDPOINT_BINDING];
        const configured = (typeof endpoint === 'string' && endpoint !== '') || collector !== undefined;
        expect(full.made).toBe(configured);
        if (configured) expect(full.logs.map((e) => e.event)).toEqual(['telemetry.blocked']);
      }
    }
  });

  it('an allow-listed collector is not blocked by workerTelemetry (what a config with a non-empty list uses)', async () => {
    const config = { ...noEgressConfig('https://otel.example.com'), egress: { allow: ['https://otel.example.com'] } };
    const full = await outcome((log, fetchFn) => workerTelemetry({}, config, log, fetchFn));
    expect(full.made).toBe(true);
    expect(full.logs.map((e) => e.event)).not.toContain('telemetry.blocked');
    const lean = await outcome((log) => workerTelemetryWithoutEgress({}, config, log));
    expect(lean.logs.map((e) => e.event)).toEqual(['telemetry.blocked']);
  });
});
