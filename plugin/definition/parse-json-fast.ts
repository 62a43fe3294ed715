/**
 * The fast path's JSON parse: plain `JSON.parse`, then one walk of its value that proves the
 * strict, position-keeping parser (parse-json.ts, with parse-document.ts's checks) would accept
 * the same text without a diagnostic and build the same value, and makes it that value (each
 * object's prototype set to null, in place). Anything the walk cannot prove
 * returns `undefined`, and the caller takes the strict path, which reports it as it always has:
 *  - syntax errors: `JSON.parse` throws on all of them (the grammar is RFC 8259 for both);
 *  - duplicate keys (`JSON.parse` keeps the last one silently): see {@link quotesAccountedFor};
 *  - nesting deeper than {@link FAST_MAX_DEPTH} (well under the strict parser's limit);
 *  - numbers out of range (`1e400` is `Infinity` to `JSON.parse`);
 *  - unpaired surrogates in strings or property names;
 *  - a top-level value that is not an object;
 *  - any property name or string equal to a member of `Object.prototype` (`__proto__`,
 *    `constructor`, ...): such documents are rare, and the strict path has always judged them.
 * Pure, never throws.
 */
import { isAsciiText } from './ascii-text';
import { unpairedSurrogateIndex } from './unpaired-surrogates';

/** Deeper documents are left to the strict parser (and its limit, MAX_DEPTH). */
export const FAST_MAX_DEPTH = 64;

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

export interface FastParsedJson {
  /**
   * `JSON.parse`'s value with every object's prototype set to null, in place, as the strict parser
   * builds it (objects made by `JSON.parse` stay fast for the validator and the rules to read).
   */
  value: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

/** `JSON.parse`'s value of `text` when it is an object (not an array); undefined for anything else, never a throw. */
export function parseJsonObject(text: string): JsonObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value !== 'object' || value === null || Array.isArray(value) ? undefined : (value as JsonObject);
}

/** The parsed value when the strict parser is proven to agree without a diagnostic; else undefined. */
export function parseJsonWithoutPositions(text: string): FastParsedJson | undefined {
  const value = parseJsonObject(text);
  if (value === undefined) return undefined;
  const counts: StringCounts = { strings: 0, quotes: 0, ...stringChecksFor(text) };
  if (!acceptTree(value, 1, counts) || !quotesAccountedFor(text, counts)) return undefined;
  return { value };
}

/** Strings (property names and values) seen, and the `"` characters they hold once decoded. */
interface StringCounts {
  strings: number;
  quotes: number;
  /** False when the text proves no string can hold a surrogate: no surrogate code unit, no `\u` escape. */
  surrogates: boolean;
  /** False when the text proves no string holds a decoded `"`: no `\"` and no `\u` escape. */
  decodedQuotes: boolean;
}

/**
 * What the text proves of every string in it, with one scan each: a decoded string holds only
 * code units written literally or through an escape, so without any surrogate code unit and any
 * `\u` escape no string holds a surrogate (an ASCII text holds none), and without `\"` and `\u`
 * none holds a `"`.
 */
function stringChecksFor(text: string): Pick<StringCounts, 'surrogates' | 'decodedQuotes'> {
  const unicodeEscapes = text.includes('\\u');
  return {
    surrogates: unicodeEscapes || (!isAsciiText(text) && SURROGATE.test(text)),
    decodedQuotes: unicodeEscapes || text.includes('\\"'),
  };
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * True when nothing in `value` needs the strict path's judgement (see the file header); sets the
 * prototype of every object it accepts to null on the way (a rejected value is thrown away).
 */
function acceptTree(value: unknown, depth: number, counts: StringCounts): boolean {
  if (typeof value === 'string') return acceptString(value, counts);
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true; // booleans and null
  if (depth > FAST_MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!acceptTree(value[i], depth + 1, counts)) return false;
    return true;
  }
  for (const key of Object.keys(value)) {
    if (!acceptString(key, counts) || !acceptTree((value as JsonObject)[key], depth + 1, counts)) return false;
  }
  Object.setPrototypeOf(value, null);
  return true;
}

function acceptString(text: string, counts: StringCounts): boolean {
  if (PROTOTYPE_NAMES.has(text) || (counts.surrogates && unpairedSurrogateIndex(text) >= 0)) return false;
  counts.strings++;
  if (counts.decodedQuotes) for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) counts.quotes++;
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
