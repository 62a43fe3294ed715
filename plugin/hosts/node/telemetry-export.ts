/**
 * Where a Node host (HB3 job, local launcher) sends its runs' OpenTelemetry signals, from the
 * standard OpenTelemetry environment:
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (with
 *   `/v1/traces` appended): OTLP/HTTP JSON POSTs there, with the headers of
 *   `OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,…`,
 *   percent-decoded). The headers are secrets: never logged, never in an error.
 * - else the collector the definition names (`telemetryContract.collector`, `/v1/traces`
 *   appended), with the same headers;
 * - else one OTLP JSON document per line appended to a local file: `AGENTDEF_TELEMETRY_FILE`, else
 *   `telemetry.jsonl` beside the host's receipts file (locally `<state dir>/<slug>/`, in a
 *   container `/var/lib/agentdef/receipts/`).
 * An export that fails logs `telemetry.export_failed` (the run id only) and never fails the run.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunTelemetry, TelemetryExporter } from '../../runtime/telemetry/run-telemetry';
import { createRunTelemetry } from '../../runtime/telemetry/run-telemetry';
import { otlpHttpExporter, signalUrl } from '../../runtime/telemetry/otlp-http-exporter';

export const TELEMETRY_FILE_ENV = 'AGENTDEF_TELEMETRY_FILE';

/** The default JSON-lines file: beside the receipts file. */
export function defaultTelemetryFile(receiptsFile: string): string {
  return join(dirname(receiptsFile), 'telemetry.jsonl');
}

export type TelemetryTarget =
  | { kind: 'otlp-http'; tracesUrl: string; origin: string; headers: Record<string, string> }
  | { kind: 'file'; path: string };

/** `key=value,key2=value2` as the OTLP exporter specification reads it (values percent-decoded); undefined when malformed. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (text === undefined || text.trim() === '') return out;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    try {
      const key = decodeURIComponent(pair.slice(0, at).trim());
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return undefined;
      out[key.toLowerCase()] = value;
    } catch {
      return undefined;
    }
  }
  return out;
}

/** The export target the environment names, or a problem (which names the variable, never its value). */
export function telemetryTarget(
  env: NodeJS.ProcessEnv,
  where: { receiptsFile: string; collector?: string },
): TelemetryTarget | { problem: string } {
  const own = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  // The environment first; else the collector the definition names (telemetryContract.collector).
  const variable = own
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : base
      ? 'OTEL_EXPORTER_OTLP_ENDPOINT'
      : 'telemetryContract.collector';
  const origin = base || where.collector;
  const raw = own || (origin ? signalUrl(origin, 'traces') : undefined);
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { problem: `${variable} is not a URL: give the collector's http(s) address` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${variable} must be an http(s) URL` };
    if (url.username || url.password)
      return { problem: `${variable} carries credentials: put them in OTEL_EXPORTER_OTLP_HEADERS instead` };
    const headersVariable = env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']
      ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'
      : 'OTEL_EXPORTER_OTLP_HEADERS';
    const headers = parseOtlpHeaders(env[headersVariable]);
    if (!headers) return { problem: `${headersVariable} is not a list of key=value pairs separated by commas` };
    return { kind: 'otlp-http', tracesUrl: url.toString(), origin: url.origin, headers };
  }
  return { kind: 'file', path: env[TELEMETRY_FILE_ENV] || defaultTelemetryFile(where.receiptsFile) };
}

/** Appends one JSON document per line, in the order given; the folder is made on first use. */
export function jsonLinesExporter(path: string): TelemetryExporter {
  let chain: Promise<void> = Promise.resolve();
  let made = false;
  return {
    export(signal) {
      const line = `${JSON.stringify(signal.body)}\n`;
      const next = chain.then(async () => {
        if (!made) {
          await mkdir(dirname(path), { recursive: true });
          made = true;
        }
        await appendFile(path, line, 'utf8');
      });
      chain = next.catch(() => undefined);
      return next;
    },
  };
}

/** The host's `RunTelemetry` for a target. */
export function hostTelemetry(
  target: TelemetryTarget,
  onError: (runId: string) => void,
  fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init),
): RunTelemetry {
  const exporter =
    target.kind === 'otlp-http'
      ? otlpHttpExporter({ tracesUrl: target.tracesUrl, headers: target.headers, fetch: fetchFn })
      : jsonLinesExporter(target.path);
  return createRunTelemetry({ exporter, onError });
}
