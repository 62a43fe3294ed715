/**
 * OTLP/HTTP with JSON bodies (`Content-Type: application/json`): each signal is one POST to its
 * path under the collector's base URL (`/v1/traces`), or to the URL given for that signal. The
 * headers (often a collector's API key) are sent and never repeated in an error: a refused export
 * fails with the HTTP status only.
 */
import type { TelemetryExporter, TelemetrySignal } from './run-telemetry';

export interface OtlpHttpOptions {
  /** Where spans go (`<endpoint>/v1/traces`, or the signal's own endpoint). */
  tracesUrl: string;
  headers?: Record<string, string>;
  fetch: typeof fetch;
}

/** `<base>/v1/<signal>`: the base's path kept, one slash between. */
export function signalUrl(base: string, signal: 'traces' | 'logs'): string {
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

export function otlpHttpExporter(options: OtlpHttpOptions): TelemetryExporter {
  return {
    async export(signal: TelemetrySignal) {
      const response = await options.fetch(options.tracesUrl, {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json' },
        body: JSON.stringify(signal.body),
      });
      // The body is read so the connection is released; it is not kept.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`the collector answered HTTP ${response.status}`);
    },
  };
}
