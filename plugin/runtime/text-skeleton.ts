/**
 * The canonical skeleton of a text: what it reads as once the encodings a secret is commonly
 * smuggled in are undone, with a map from every skeleton character back to where its encoding
 * starts in the original, so a match in the skeleton names a span of the original to replace.
 *
 * Undone, in passes until nothing changes (at most {@link MAX_PASSES}, so `%255C` and JSON text
 * inside a JSON string come out too):
 * - backslash escapes of JSON and JavaScript: `\uXXXX`, `\u{X…}`, `\xXX`, `\"`, `\\`, `\/`, `\'`,
 *   `\n`, `\r`, `\t`, `\b`, `\f`;
 * - percent-encoding, upper or lower hex digits, a byte or a whole UTF-8 sequence (`%XX…`), and
 *   the legacy `%uXXXX`;
 * - HTML character references: decimal `&#NN;`, hex `&#xNN;` (the `;` optional), and the named
 *   references of ASCII punctuation (`&amp;`, `&sol;`, `&equals;`, …);
 * - fullwidth forms (U+FF01–U+FF5E) read as their ASCII twins, the ideographic space as a space;
 * - invisible characters dropped: zero-width space, non-joiner and joiner (U+200B–U+200D), the
 *   direction marks U+200E/U+200F, word joiner and invisible operators (U+2060–U+2064), the byte
 *   order mark U+FEFF, the soft hyphen U+00AD, U+180E and the combining grapheme joiner U+034F.
 *
 * Each pass is one left-to-right scan, and a pass never lengthens the text, so a skeleton costs at
 * most MAX_PASSES linear scans and one index array of the text's length. Pure; no dependencies.
 */

export interface Skeleton {
  /** The decoded text. */
  readonly text: string;
  /**
   * `starts[i]` is where, in the original, the encoding of skeleton character `i` begins;
   * `starts[text.length]` is the original's length. Absent when the skeleton is the original.
   */
  readonly starts?: Int32Array;
}

export const MAX_PASSES = 4;

/** A character any pass would change; text without one is its own skeleton. */
const DECODABLE = /[\\%&\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff\u3000\uff01-\uff5e]|\u034f/;

/** Named HTML references of the ASCII characters (HTML's table, the printable ASCII part). */
const NAMED: Readonly<Record<string, number>> = {
  excl: 0x21,
  quot: 0x22,
  QUOT: 0x22,
  num: 0x23,
  dollar: 0x24,
  percnt: 0x25,
  amp: 0x26,
  AMP: 0x26,
  apos: 0x27,
  lpar: 0x28,
  rpar: 0x29,
  ast: 0x2a,
  midast: 0x2a,
  plus: 0x2b,
  comma: 0x2c,
  period: 0x2e,
  sol: 0x2f,
  colon: 0x3a,
  semi: 0x3b,
  lt: 0x3c,
  LT: 0x3c,
  equals: 0x3d,
  gt: 0x3e,
  GT: 0x3e,
  quest: 0x3f,
  commat: 0x40,
  lsqb: 0x5b,
  lbrack: 0x5b,
  bsol: 0x5c,
  rsqb: 0x5d,
  rbrack: 0x5d,
  Hat: 0x5e,
  lowbar: 0x5f,
  UnderBar: 0x5f,
  grave: 0x60,
  DiacriticalGrave: 0x60,
  lcub: 0x7b,
  lbrace: 0x7b,
  verbar: 0x7c,
  vert: 0x7c,
  VerticalLine: 0x7c,
  rcub: 0x7d,
  rbrace: 0x7d,
  nbsp: 0xa0,
  NonBreakingSpace: 0xa0,
};
const LONGEST_NAME = 16;

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '"': 0x22,
  '\\': 0x5c,
  '/': 0x2f,
  "'": 0x27,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  b: 0x08,
  f: 0x0c,
};

function isInvisible(c: number): boolean {
  return (
    c === 0xad ||
    c === 0x34f ||
    c === 0x180e ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2060 && c <= 0x2064) ||
    c === 0xfeff
  );
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** The index of `char` within `limit` characters from `from`, or -1 (a bounded scan keeps every pass linear). */
function boundedIndexOf(s: string, char: string, from: number, limit: number): number {
  const end = Math.min(s.length, from + limit);
  for (let at = from; at < end; at++) if (s[at] === char) return at;
  return -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(s: string, at: number, count: number): number {
  if (at + count > s.length) return -1;
  let v = 0;
  for (let i = 0; i < count; i++) {
    const h = hexValue(s.charCodeAt(at + i));
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

/** A decoded unit: the code point and how many source characters its encoding took, or undefined. */
type Decoded = { cp: number; length: number } | undefined;

function backslashAt(s: string, i: number): Decoded {
  const next = s[i + 1];
  if (next === undefined) return undefined;
  if (next === 'u') {
    if (s[i + 2] === '{') {
      const close = boundedIndexOf(s, '}', i + 3, 7);
      if (close < 0 || close === i + 3) return undefined;
      const cp = hexAt(s, i + 3, close - (i + 3));
      return cp >= 0 && cp <= 0x10ffff ? { cp, length: close + 1 - i } : undefined;
    }
    const cp = hexAt(s, i + 2, 4);
    return cp >= 0 ? { cp, length: 6 } : undefined;
  }
  if (next === 'x') {
    const cp = hexAt(s, i + 2, 2);
    return cp >= 0 ? { cp, length: 4 } : undefined;
  }
  const simple = SIMPLE_ESCAPES[next];
  return simple === undefined ? undefined : { cp: simple, length: 2 };
}

/** `%XX` (one ASCII byte or a whole well-formed UTF-8 sequence) or `%uXXXX`. */
function percentAt(s: string, i: number): Decoded {
  if (s[i + 1] === 'u' || s[i + 1] === 'U') {
    const cp = hexAt(s, i + 2, 4);
    return cp >= 0 ? { cp, length: 6 } : undefined;
  }
  const lead = hexAt(s, i + 1, 2);
  if (lead < 0) return undefined;
  if (lead < 0x80) return { cp: lead, length: 3 };
  const count =
    lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
  if (count < 0) return undefined;
  let cp = lead & (count === 1 ? 0x1f : count === 2 ? 0x0f : 0x07);
  for (let k = 1; k <= count; k++) {
    const at = i + 3 * k;
    if (s[at] !== '%') return undefined;
    const b = hexAt(s, at + 1, 2);
    if (b < 0x80 || b > 0xbf) return undefined;
    cp = (cp << 6) | (b & 0x3f);
  }
  const min = count === 1 ? 0x80 : count === 2 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return { cp, length: 3 * (count + 1) };
}

function referenceAt(s: string, i: number): Decoded {
  if (s[i + 1] === '#') {
    const hex = s[i + 2] === 'x' || s[i + 2] === 'X';
    let at = i + (hex ? 3 : 2);
    let cp = 0;
    let digits = 0;
    for (; at < s.length && digits < 8; at++, digits++) {
      const c = s.charCodeAt(at);
      const v = hex ? hexValue(c) : c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
      if (v < 0) break;
      cp = cp * (hex ? 16 : 10) + v;
    }
    if (digits === 0 || cp > 0x10ffff) return undefined;
    if (s[at] === ';') at++;
    return { cp, length: at - i };
  }
  const semi = boundedIndexOf(s, ';', i + 1, LONGEST_NAME + 1);
  if (semi < 0) return undefined;
  const name = s.slice(i + 1, semi);
  const cp = Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
  return cp === undefined ? undefined : { cp, length: semi + 1 - i };
}

/** One decoding pass; undefined when it changes nothing. */
function decodeOnce(s: string): { text: string; starts: Int32Array } | undefined {
  const n = s.length;
  const units = new Uint16Array(n);
  const starts = new Int32Array(n + 1);
  let out = 0;
  let changed = false;
  const emit = (cp: number, from: number) => {
    if (cp > 0xffff) {
      const v = cp - 0x10000;
      starts[out] = from;
      units[out++] = 0xd800 + (v >> 10);
      starts[out] = from;
      units[out++] = 0xdc00 + (v & 0x3ff);
    } else {
      starts[out] = from;
      units[out++] = cp;
    }
  };
  for (let i = 0; i < n; ) {
    const c = s.charCodeAt(i);
    let decoded: Decoded;
    if (c === 0x5c) decoded = backslashAt(s, i);
    else if (c === 0x25) decoded = percentAt(s, i);
    else if (c === 0x26) decoded = referenceAt(s, i);
    if (decoded !== undefined) {
      emit(decoded.cp, i);
      i += decoded.length;
      changed = true;
    } else if (isInvisible(c)) {
      i++;
      changed = true;
    } else if (c >= 0xff01 && c <= 0xff5e) {
      emit(c - 0xfee0, i++);
      changed = true;
    } else if (c === 0x3000) {
      emit(0x20, i++);
      changed = true;
    } else {
      starts[out] = i;
      units[out++] = c;
      i++;
    }
  }
  if (!changed) return undefined;
  starts[out] = n;
  let text = '';
  for (let at = 0; at < out; at += 8192)
    text += String.fromCharCode.apply(null, units.subarray(at, Math.min(out, at + 8192)) as unknown as number[]);
  return { text, starts: starts.subarray(0, out + 1) };
}

/** The skeleton of `text` (see the module comment). */
export function skeletonOf(text: string): Skeleton {
  let current = text;
  let starts: Int32Array | undefined;
  for (let pass = 0; pass < MAX_PASSES && DECODABLE.test(current); pass++) {
    const next = decodeOnce(current);
    if (next === undefined) break;
    if (starts === undefined) starts = next.starts;
    else {
      const composed = new Int32Array(next.starts.length);
      for (let i = 0; i < next.starts.length; i++) composed[i] = starts[next.starts[i] ?? 0] ?? text.length;
      starts = composed;
    }
    current = next.text;
  }
  return starts === undefined ? { text } : { text: current, starts };
}

/** `text` with ASCII letters in lower case (length-preserving, unlike `toLowerCase` on all of Unicode). */
export function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}
