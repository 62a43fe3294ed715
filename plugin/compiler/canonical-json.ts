/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) and the digests built on it. Every digest in a
 * compile plan is `sha256Hex(canonicalJson(value))`, so it depends on the data only: not on key
 * order, whitespace, number spelling or the file format (JSON or YAML) the value came from.
 */
import { createHash } from 'node:crypto';
import { canonicalize } from '../runtime/jcs';

/**
 * Thrown by {@link canonicalJson} for a value JSON cannot represent canonically: the error names
 * the JSON Pointer of the offending value and never quotes it. Callers that turn inputs into
 * digests catch it and report a diagnostic; it extends TypeError, as before.
 */
export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
  constructor(
    /** JSON Pointer (RFC 6901) to the value that has no canonical form; `""` is the whole value. */
    readonly pointer: string,
    /** Why, e.g. `an unpaired UTF-16 surrogate`. */
    readonly reason: string,
  ) {
    super(
      `canonicalJson: ${pointer === '' ? 'the value' : `the value at ${pointer}`} has no canonical JSON form (${reason})`,
    );
  }
}

/**
 * The RFC 8785 canonical form of `value`. Throws a {@link CanonicalJsonError} (never another
 * error) on values JSON cannot represent canonically (NaN, Infinity, unpaired surrogates, cycles,
 * a top-level `undefined`, text too large for one string): such values never come out of a parsed
 * definition, so meeting one is a bug in the caller, reported with the value's location.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw error instanceof RangeError && !/call stack/i.test(error.message)
      ? new CanonicalJsonError('', 'the canonical text is too large')
      : (unrepresentable(value) ??
          new CanonicalJsonError('', error instanceof RangeError ? 'nested too deeply' : 'not a JSON value'));
  }
  if (text === undefined) throw new CanonicalJsonError('', 'no JSON representation');
  return text;
}

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first value inside `value` that has no canonical form, as an error; undefined when none is found. */
function unrepresentable(value: unknown): CanonicalJsonError | undefined {
  const open = new Set<object>();
  const visit = (current: unknown, pointer: string): CanonicalJsonError | undefined => {
    if (typeof current === 'string')
      return UNPAIRED_SURROGATE.test(current)
        ? new CanonicalJsonError(pointer, 'an unpaired UTF-16 surrogate')
        : undefined;
    if (typeof current === 'number')
      return Number.isFinite(current)
        ? undefined
        : new CanonicalJsonError(pointer, `${String(current)} is not a JSON number`);
    if (typeof current !== 'object' || current === null) return undefined;
    if (open.has(current)) return new CanonicalJsonError(pointer, 'a circular reference');
    open.add(current);
    try {
      if (Array.isArray(current)) {
        for (let i = 0; i < current.length; i++) {
          const found = visit(current[i], `${pointer}/${i}`);
          if (found) return found;
        }
        return undefined;
      }
      for (const key of Object.keys(current)) {
        const member = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (UNPAIRED_SURROGATE.test(key))
          return new CanonicalJsonError(member, 'an unpaired UTF-16 surrogate in a property name');
        const found = visit((current as Record<string, unknown>)[key], member);
        if (found) return found;
      }
      return undefined;
    } finally {
      open.delete(current);
    }
  };
  try {
    return visit(value, '');
  } catch {
    return undefined; // deeper than the stack: reported as such by the caller
  }
}

/** True when `value` has a canonical JSON form (what {@link canonicalJson} accepts without throwing). */
export function isCanonicalizable(value: unknown): boolean {
  try {
    canonicalJson(value);
    return true;
  } catch {
    return false;
  }
}

/** Lowercase hex SHA-256 of a string (as UTF-8) or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The content digest used throughout the compiler: hex SHA-256 of the canonical JSON of `value`. */
export function digestOf(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * Readable, stable JSON for files people read: keys sorted by UTF-16 code unit (the JCS order),
 * two-space indentation, a final newline. Parses back to a value with the same canonical form.
 */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // A null prototype keeps a `__proto__` key as data, as the definition parser does.
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) out[key] = sortKeys(child);
  }
  return out;
}
