/**
 * The fast path's JSON parse: plain `JSON.parse`, then one walk of its value that proves the
 * strict, position-keeping parser (parse-json.ts, with parse-document.ts's checks) would accept
 * the same text without a diagnostic and build the same value. Anything the walk cannot prove
 * returns `undefined`, and the caller takes the strict path, which reports it as it always has:
 *  - syntax errors: `JSON.parse` throws on all of them (the grammar is RFC 8259 for both);
 *  - duplicate keys (`JSON.parse` keeps the last one silently): see {@link quotesAccountedFor};
 *  - nesting deeper than {@link FAST_MAX_DEPTH} (well under the strict parser's limit);
 *  - numbers out of range (`1e400` is `Infinity` to `JSON.parse`);
 *  - unpaired surrogates in strings or property names;
 *  - a top-level value that is not an object;
 *  - any property name or string equal to a member of `Object.prototype` (`__proto__`,
 *    `constructor`, ...), so that the plain value, which has a prototype, answers every lookup
 *    a validator or rule makes exactly as the null-prototype value does.
 * Pure, never throws.
 */
import { unpairedSurrogateIndex } from './unpaired-surrogates';

/** Deeper documents are left to the strict parser (and its limit, MAX_DEPTH). */
export const FAST_MAX_DEPTH = 64;

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

export interface FastParsedJson {
  /** `JSON.parse`'s value: ordinary objects, fast for the validator and the rules to read. */
  plain: Record<string, unknown>;
  /** The same value with null-prototype objects, as the strict parser builds it. */
  value: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

/** The parsed value when the strict parser is proven to agree without a diagnostic; else undefined. */
export function parseJsonWithoutPositions(text: string): FastParsedJson | undefined {
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return undefined;
  const counts = { strings: 0, quotes: 0 };
  const value = nullPrototypeCopy(plain, 1, counts);
  if (value === undefined || !quotesAccountedFor(text, counts)) return undefined;
  return { plain: plain as JsonObject, value: value as JsonObject };
}

/** Strings (property names and values) seen, and the `"` characters they hold once decoded. */
interface StringCounts {
  strings: number;
  quotes: number;
}

/** Unset when the value holds anything the strict path must judge (see the file header). */
const REJECT = undefined;

function nullPrototypeCopy(value: unknown, depth: number, counts: StringCounts): unknown {
  if (typeof value === 'string') return acceptString(value, counts) ? value : REJECT;
  if (typeof value === 'number') return Number.isFinite(value) ? value : REJECT;
  if (typeof value !== 'object' || value === null) return value; // booleans and null
  if (depth > FAST_MAX_DEPTH) return REJECT;
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = nullPrototypeCopy(value[i], depth + 1, counts);
      if (item === REJECT) return REJECT;
      items[i] = item;
    }
    return items;
  }
  const copy = Object.create(null) as JsonObject;
  for (const key of Object.keys(value)) {
    if (!acceptString(key, counts)) return REJECT;
    const member = nullPrototypeCopy((value as JsonObject)[key], depth + 1, counts);
    if (member === REJECT) return REJECT;
    copy[key] = member;
  }
  return copy;
}

function acceptString(text: string, counts: StringCounts): boolean {
  if (PROTOTYPE_NAMES.has(text) || unpairedSurrogateIndex(text) >= 0) return false;
  counts.strings++;
  for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) counts.quotes++;
  return true;
}

/**
 * Proves that no member was lost to a duplicate key. Every `"` in JSON text either delimits a
 * string or is escaped as `\"`; a decoded `"` came from `\"` or from `\u0022`. So, with S the
 * strings of the parsed value and D the `"` they hold decoded, the text holds exactly
 * 2·S + D − (decoded quotes written `\u0022`) quote characters when nothing was lost, and
 * `quotes + occurrences of "\u0022"` ≥ 2·S + D, equal when every `\u0022` in the text is an escape.
 * A lost member adds at least its key's two delimiters (and whatever its value held) to the
 * text and nothing to S or D, so equality is impossible then. Equality proves no duplicates; a
 * literal `\\u0022` (an escaped backslash) only sends the document to the strict path.
 */
function quotesAccountedFor(text: string, counts: StringCounts): boolean {
  return occurrences(text, '"') + occurrences(text, '\\u0022') === 2 * counts.strings + counts.quotes;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
