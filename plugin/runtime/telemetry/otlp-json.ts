/**
 * The OTLP/JSON shapes agentdef writes: an `ExportTraceServiceRequest` (and the logs request of
 * the session-report and experiment records) as the OTLP JSON mapping spells them: trace and span
 * ids as lowercase hex, 64-bit integers and nanosecond times as decimal strings, enums as their
 * integers, attribute values as `AnyValue` objects. Only the fields agentdef sets are typed.
 */

export type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number };

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** `Span.SpanKind`: INTERNAL 1, SERVER 2, CLIENT 3. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
/** `Status.StatusCode`: UNSET 0, OK 1, ERROR 2. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** `Span.Event`: a named, timed record on a span (agentdef's session-report and experiment). */
export interface OtlpSpanEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  status: { code: number; message?: string };
  events?: OtlpSpanEvent[];
}

export interface OtlpResource {
  attributes: OtlpKeyValue[];
}

export interface OtlpScope {
  name: string;
  version: string;
}

export interface OtlpTraceRequest {
  resourceSpans: {
    resource: OtlpResource;
    scopeSpans: { scope: OtlpScope; spans: OtlpSpan[] }[];
  }[];
}

export interface OtlpLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  /** `SeverityNumber`: INFO 9. */
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: OtlpAnyValue;
  attributes: OtlpKeyValue[];
  traceId?: string;
  spanId?: string;
}

export interface OtlpLogsRequest {
  resourceLogs: {
    resource: OtlpResource;
    scopeLogs: { scope: OtlpScope; logRecords: OtlpLogRecord[] }[];
  }[];
}

/** Milliseconds since the epoch as OTLP's decimal nanoseconds (no BigInt: a whole number of ms, six zeros). */
export function unixNanos(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return whole === 0 ? '0' : `${whole}000000`;
}

/** One attribute; a number that is a safe integer is an `intValue`, any other number a `doubleValue`. */
export function attribute(key: string, value: string | number | boolean): OtlpKeyValue {
  if (typeof value === 'string') return { key, value: { stringValue: value } };
  if (typeof value === 'boolean') return { key, value: { boolValue: value } };
  return Number.isSafeInteger(value)
    ? { key, value: { intValue: String(value) } }
    : { key, value: { doubleValue: value } };
}

/** Attributes from a record, in its key order, leaving out `undefined` values. */
export function attributes(fields: Record<string, string | number | boolean | undefined>): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out.push(attribute(key, value));
  return out;
}

/** `bytes` random bytes as lowercase hex, never all zero (an invalid trace or span id). */
export function randomHexId(bytes: number, random: (b: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>): string {
  const buffer = random(new Uint8Array(bytes));
  if (buffer.every((b) => b === 0)) buffer[bytes - 1] = 1;
  let hex = '';
  for (const b of buffer) hex += b.toString(16).padStart(2, '0');
  return hex;
}
