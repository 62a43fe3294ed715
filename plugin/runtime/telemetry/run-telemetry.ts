/**
 * The `telemetry` dependency of a run: after the run's receipt, its signals (spans, and the
 * session-report and experiment records its `telemetryKinds` ask for) are built and handed to an
 * exporter in the background (`waitUntil`). An export that fails is reported through `onError`
 * (an event without the collector's address) and never changes the run or its result.
 */
import type { OtlpTraceRequest } from './otlp-json';
import type { TelemetryRun } from './run-trace';
import { buildRunTrace } from './run-trace';

export type TelemetrySignal = { kind: 'traces'; body: OtlpTraceRequest };

export interface TelemetryExporter {
  export(signal: TelemetrySignal): Promise<void>;
}

export interface RunTelemetry {
  /** Called once per run, after its receipt; never throws, never blocks the run. */
  record(run: TelemetryRun, waitUntil?: (promise: Promise<unknown>) => void): void;
}

export interface RunTelemetryOptions {
  exporter: TelemetryExporter;
  /** Called when an export failed (the run id only: no address, no header, no body). */
  onError?: (runId: string) => void;
}

export function createRunTelemetry(options: RunTelemetryOptions): RunTelemetry {
  return {
    record(run, waitUntil) {
      let pending: Promise<void>;
      try {
        const signal: TelemetrySignal = { kind: 'traces', body: buildRunTrace(run) };
        pending = options.exporter.export(signal);
      } catch (error) {
        pending = Promise.reject(error);
      }
      const settled = pending.catch(() => {
        try {
          options.onError?.(run.result.runId);
        } catch {
          // reporting a failed export never fails the run
        }
      });
      waitUntil?.(settled);
    },
  };
}
