/**
 * RFC 8785 JSON Canonicalization Scheme, small enough to bundle: object keys sorted by UTF-16 code
 * units, no whitespace, numbers in the ECMAScript shortest form (which `JSON.stringify` already
 * produces), strings escaped as `JSON.stringify` escapes them (the RFC's rules). Throws on values
 * with no canonical form: NaN, ±Infinity, lone surrogates, cycles, functions, bigints.
 */
export function canonicalize(value: unknown): string {
  return write(value, new Set());
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function write(value: unknown, seen: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalize: non-finite number');
      return JSON.stringify(value);
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new TypeError('canonicalize: lone surrogate in string');
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalize: cannot represent ${typeof value}`);
  }
  const obj = value as object;
  if (seen.has(obj)) throw new TypeError('canonicalize: cycle');
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((item) => (item === undefined || typeof item === 'function' ? 'null' : write(item, seen))).join(',')}]`;
    }
    const toJson = (obj as { toJSON?: () => unknown }).toJSON;
    if (typeof toJson === 'function') return write(toJson.call(obj), seen);
    const record = obj as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
      .sort(compareUtf16);
    return `{${keys.map((key) => `${write(key, seen)}:${write(record[key], seen)}`).join(',')}}`;
  } finally {
    seen.delete(obj);
  }
}

/** Code-unit order (what `Array.prototype.sort` does by default), spelled out. */
function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
