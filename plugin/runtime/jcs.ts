/**
 * RFC 8785 JSON Canonicalization Scheme, small enough to bundle: object keys sorted by UTF-16 code
 * units, no whitespace, numbers in the ECMAScript shortest form (which `JSON.stringify` already
 * produces), strings escaped as `JSON.stringify` escapes them (the RFC's rules). Throws on values
 * with no canonical form: NaN, ±Infinity, lone surrogates, cycles, functions, bigints.
 *
 * The one implementation agentdef ships (the compiler's digests use it too): it walks with an
 * explicit stack, so the nesting depth is bounded by memory, not by the call stack.
 */
export function canonicalize(value: unknown): string {
  const out: string[] = [];
  /** Objects on the path from the root to the value being written (a repeat is a cycle). */
  const open = new Set<object>();
  // Work still to do, last first: a value to write, text to emit, or an object whose subtree is done.
  const work: Work[] = [{ value }];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if ('text' in next) out.push(next.text);
    else if ('close' in next) open.delete(next.close);
    else writeValue(next.value, out, open, work);
  }
  return out.join('');
}

type Work = { value: unknown } | { text: string } | { close: object };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function writeString(value: string): string {
  if (LONE_SURROGATE.test(value)) throw new TypeError('canonicalize: lone surrogate in string');
  return JSON.stringify(value);
}

/** Writes a primitive to `out`, or schedules an object's members on `work` (in reverse, as `work` is a stack). */
function writeValue(value: unknown, out: string[], open: Set<object>, work: Work[]): void {
  if (value === null) return void out.push('null');
  switch (typeof value) {
    case 'boolean':
      return void out.push(value ? 'true' : 'false');
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalize: non-finite number');
      return void out.push(JSON.stringify(value));
    case 'string':
      return void out.push(writeString(value));
    case 'object':
      break;
    default:
      throw new TypeError(`canonicalize: cannot represent ${typeof value}`);
  }
  const obj = value as object;
  if (open.has(obj)) throw new TypeError('canonicalize: cycle');
  open.add(obj);
  work.push({ close: obj });
  // Boxed primitives are their values, as in JSON.stringify.
  if (obj instanceof Number || obj instanceof String || obj instanceof Boolean)
    return void work.push({ value: obj.valueOf() });
  if (Array.isArray(obj)) {
    work.push({ text: ']' });
    for (let i = obj.length - 1; i >= 0; i--) {
      const item: unknown = obj[i];
      work.push(item === undefined || typeof item === 'function' ? { text: 'null' } : { value: item });
      if (i > 0) work.push({ text: ',' });
    }
    return void work.push({ text: '[' });
  }
  const toJson = (obj as { toJSON?: () => unknown }).toJSON;
  if (typeof toJson === 'function') return void work.push({ value: toJson.call(obj) });
  const record = obj as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
    .sort(compareUtf16);
  work.push({ text: '}' });
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    work.push({ value: record[key] });
    work.push({ text: `${i > 0 ? ',' : ''}${writeString(key)}:` });
  }
  work.push({ text: '{' });
}

/** Code-unit order (what `Array.prototype.sort` does by default), spelled out. */
function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
