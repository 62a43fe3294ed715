/**
 * Checks an OTLP/JSON document against the official protocol definitions
 * (e2e/fixtures/conformance/opentelemetry-proto, loaded with protobufjs), by the OTLP JSON
 * mapping: every member must be a field of its message (camelCase), trace and span ids are
 * lowercase hex of 16 and 8 bytes (turned into bytes before `fromObject`), enums are integers,
 * 64-bit integers are decimal strings. `Type.verify` must accept the converted message, and it
 * must survive a binary encode/decode round trip unchanged.
 */
import { join } from 'node:path';
import protobuf from 'protobufjs';

const PROTO_ROOT = join(__dirname, '..', 'fixtures', 'conformance', 'opentelemetry-proto');

let root: protobuf.Root | undefined;
function protoRoot(): protobuf.Root {
  if (root) return root;
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  r.loadSync(
    [
      'opentelemetry/proto/collector/trace/v1/trace_service.proto',
      'opentelemetry/proto/collector/logs/v1/logs_service.proto',
    ],
    { keepCase: false },
  );
  r.resolveAll();
  root = r;
  return r;
}

export function otlpType(name: 'ExportTraceServiceRequest' | 'ExportLogsServiceRequest'): protobuf.Type {
  const pkg = name === 'ExportTraceServiceRequest' ? 'trace' : 'logs';
  return protoRoot().lookupType(`opentelemetry.proto.collector.${pkg}.v1.${name}`);
}

const ID_BYTES: Record<string, number> = { traceId: 16, spanId: 8, parentSpanId: 8 };

/** The problems of `json` as a `type` message in OTLP/JSON (empty: valid), and the message converted for protobufjs. */
function convert(type: protobuf.Type, json: unknown, at: string, problems: string[]): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    problems.push(`${at}: a ${type.name} must be a JSON object`);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    const field = type.fields[key];
    if (!field) {
      problems.push(`${at}/${key}: ${type.name} has no field ${key}`);
      continue;
    }
    const one = (v: unknown, where: string): unknown => {
      if (field.resolvedType instanceof protobuf.Type) return convert(field.resolvedType, v, where, problems);
      if (field.resolvedType instanceof protobuf.Enum) {
        if (!Number.isInteger(v) || !Object.values(field.resolvedType.values).includes(v as number))
          problems.push(
            `${where}: ${String(v)} is not a value of ${field.resolvedType.name} (OTLP/JSON sends enums as integers)`,
          );
        return v;
      }
      if (field.type === 'bytes') {
        const size = ID_BYTES[key];
        if (size !== undefined) {
          if (typeof v !== 'string' || !new RegExp(`^[0-9a-f]{${size * 2}}$`).test(v) || /^0+$/.test(v)) {
            problems.push(`${where}: an id of ${size} bytes as lowercase hex (not all zero), got ${JSON.stringify(v)}`);
            return '';
          }
          return Buffer.from(v, 'hex').toString('base64');
        }
        return v;
      }
      if (['fixed64', 'uint64', 'int64', 'sint64', 'sfixed64'].includes(field.type)) {
        if (typeof v !== 'string' || !/^-?\d+$/.test(v)) {
          problems.push(`${where}: a 64-bit integer as a decimal string, got ${JSON.stringify(v)}`);
          return 0;
        }
        const unsigned = field.type === 'fixed64' || field.type === 'uint64';
        const long = (protobuf.util.Long as unknown as typeof import('long')).fromString(v, unsigned, 10);
        if (long.toString(10) !== v.replace(/^(-?)0+(?=\d)/, '$1'))
          problems.push(`${where}: ${v} does not fit a ${field.type}`);
        return long;
      }
      return v;
    };
    if (field.repeated) {
      if (!Array.isArray(value)) {
        problems.push(`${at}/${key}: must be an array`);
        continue;
      }
      out[key] = value.map((v, i) => one(v, `${at}/${key}/${i}`));
    } else out[key] = one(value, `${at}/${key}`);
  }
  return out;
}

export interface OtlpCheck {
  problems: string[];
  /** The decoded message (protobufjs `toObject`, longs and enums as strings, bytes as base64). */
  decoded: Record<string, unknown>;
}

export function checkOtlpJson(
  name: 'ExportTraceServiceRequest' | 'ExportLogsServiceRequest',
  json: unknown,
): OtlpCheck {
  const type = otlpType(name);
  const problems: string[] = [];
  const converted = convert(type, json, '', problems);
  const verified = type.verify(converted as Record<string, unknown>);
  if (verified) problems.push(`protobufjs verify: ${verified}`);
  const message = type.fromObject(converted as Record<string, unknown>);
  const bytes = type.encode(message).finish();
  const decoded = type.toObject(type.decode(bytes), { longs: String, enums: Number, bytes: String, defaults: false });
  const again = type.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false });
  if (JSON.stringify(decoded) !== JSON.stringify(again))
    problems.push('the message does not survive a binary round trip');
  return { problems, decoded };
}

/** A flat view of a span's attributes (`AnyValue` unwrapped: strings, booleans, int strings, doubles). */
export function attributeMap(
  attributes: { key: string; value: Record<string, unknown> }[] | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of attributes ?? []) out[a.key] = Object.values(a.value)[0];
  return out;
}

export interface SpanView {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status: { code: number; message?: string };
  attrs: Record<string, unknown>;
}

/** Every span of a trace request, with its attributes flattened. */
export function spansOf(request: any): SpanView[] {
  const out: SpanView[] = [];
  for (const rs of request.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) out.push({ ...s, attrs: attributeMap(s.attributes) });
  return out;
}
