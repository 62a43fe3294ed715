/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) and the digests built on it. Every digest in a
 * compile plan is `sha256Hex(canonicalJson(value))`, so it depends on the data only: not on key
 * order, whitespace, number spelling or the file format (JSON or YAML) the value came from.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The RFC 8785 canonical form of `value`. Throws on values JSON cannot represent canonically
 * (NaN, Infinity, lone surrogates, cycles, a top-level `undefined`): such values never come out of
 * a parsed definition, so meeting one is a bug in the caller.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('canonicalJson: the value has no JSON representation');
  return text;
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
