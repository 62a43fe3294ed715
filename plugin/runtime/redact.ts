/**
 * Secret scrubbing. The runtime knows every secret value it resolved for a run (provider API keys,
 * the receipt signing key, every value of a secret record the host passed); anything it is about
 * to put in a result, receipt, error or log goes through the run's redactor first, so a provider
 * that echoes a key back in an error body, or a model that repeats it, cannot deliver it.
 *
 * A text is not searched for a list of pre-encoded variants: it is read as its skeleton (see
 * text-skeleton.ts: JSON and JavaScript escapes, percent-encoding, HTML references, fullwidth
 * forms and invisible characters undone, repeatedly), and the skeleton is searched for
 * - the secret's own skeleton, ASCII letters in any case (so `\u0041`, `%41`, `&#65;`, `&#x41;`,
 *   `Ａ`, `A\u200bB` and `a` all read as the secret's `A`, mixed and partial encodings included);
 * - its UTF-8 bytes in hex, upper or lower case (secrets of {@link MIN_HEX_LENGTH} characters or
 *   more);
 * - its base64 and base64url encodings at each of the three byte alignments, case-sensitive (the
 *   part of the encoding that depends on the secret alone; secrets of {@link MIN_ENCODED_LENGTH}
 *   characters or more, where a false match on ordinary text is implausible).
 * A match in the skeleton maps back to the span of the original that encodes it, and that whole
 * span is replaced by `[redacted]`. The result is checked again, and redacted again if replacing
 * made a new form appear; a text that still leaks after {@link MAX_ROUNDS} rounds becomes
 * `[redacted]` whole. Cost: a few linear scans and one index array per text.
 *
 * Values under 6 characters are not scrubbed: no provider issues keys that short, and replacing
 * a common short string everywhere would corrupt answers while telling a prober, one guess at a
 * time, what the secret is (a redaction is an oracle). Hosts must not use such values as secrets.
 * Not covered: other encodings (base32, rot13, a secret split by spaces or other visible
 * characters, reversed, compressed, encrypted, line-wrapped base64, look-alike letters of other
 * scripts); a model or tool that means to smuggle a secret out can always transform it further.
 */
import { foldAscii, type Skeleton, skeletonOf } from './text-skeleton';

export interface Redactor {
  /** Remembers a secret value; short values (under 6 characters) are too ambiguous to scrub. */
  add(secret: string | undefined): void;
  /** `text` with every remembered secret (in every form it is searched in) replaced by `[redacted]`. */
  text(text: string): string;
  /** A deep copy of a JSON value with every string (values and property names) scrubbed. */
  json<T>(value: T): T;
  /** Whether `text` still holds a remembered secret in one of its searched forms. */
  leaks(text: string): boolean;
}

export const REDACTED = '[redacted]';
export const MIN_SECRET_LENGTH = 6;
/** The hex form is searched for secrets this long (16 hex digits and more). */
export const MIN_HEX_LENGTH = 8;
/** The base64 forms are searched for secrets this long, where a false match on ordinary text is implausible. */
export const MIN_ENCODED_LENGTH = 16;
const MAX_ROUNDS = 3;

/** The forms of one or more secrets: searched in the case-folded skeleton, or in the skeleton as is. */
interface Forms {
  folded: string[];
  exact: string[];
}

function utf8Base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The part of any base64 text that is the same whenever `secret` sits at the given byte offset
 * modulo 3 inside the encoded bytes (the edge characters depend on the neighbours and are left out).
 */
function base64Cores(bytes: Uint8Array): string[] {
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const encoded = utf8Base64(padded).replace(/=+$/, '');
    // Character j covers bits [6j, 6j + 6): it depends on the secret alone when those bits are all its own.
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (core.length >= 8) cores.push(core);
  }
  return cores;
}

/** The forms `secret` is searched in (see the module comment). */
export function secretForms(secret: string): Forms {
  const bytes = new TextEncoder().encode(secret);
  const folded = [foldAscii(skeletonOf(secret).text)];
  if (secret.length >= MIN_HEX_LENGTH) {
    let hex = '';
    for (const b of bytes) hex += b.toString(16).padStart(2, '0');
    folded.push(hex);
  }
  const exact: string[] = [];
  if (secret.length >= MIN_ENCODED_LENGTH) {
    for (const core of base64Cores(bytes)) exact.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return { folded: folded.filter((f) => f.length > 0), exact };
}

/** Every [start, end) of the skeleton where a form occurs (non-overlapping per form, in no order). */
function skeletonMatches(skeleton: string, forms: Forms): number[] {
  const spans: number[] = [];
  const search = (haystack: string, needles: readonly string[]) => {
    for (const needle of needles)
      for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length))
        spans.push(at, at + needle.length);
  };
  if (forms.exact.length > 0) search(skeleton, forms.exact);
  search(foldAscii(skeleton), forms.folded);
  return spans;
}

/** The original text with the spans of `matches` (skeleton coordinates) replaced, overlapping spans merged. */
function replaceSpans(text: string, skeleton: Skeleton, matches: number[]): string {
  const pairs: [number, number][] = [];
  const at = (i: number) => (skeleton.starts === undefined ? i : (skeleton.starts[i] ?? text.length));
  for (let i = 0; i < matches.length; i += 2) pairs.push([at(matches[i] ?? 0), at(matches[i + 1] ?? 0)]);
  pairs.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (let i = 0; i < pairs.length; ) {
    const [start, first] = pairs[i++] as [number, number];
    let end = first;
    for (; i < pairs.length && (pairs[i]?.[0] ?? 0) <= end; i++) end = Math.max(end, pairs[i]?.[1] ?? 0);
    out += text.slice(done, start) + REDACTED;
    done = end;
  }
  return out + text.slice(done);
}

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const createRedactor = (function createRedactor(initial: Iterable<string | undefined> = []): Redactor {
  const secrets = new Set<string>();
  const forms: Forms = { folded: [], exact: [] };
  const redactOnce = (text: string): string | undefined => {
    const skeleton = skeletonOf(text);
    const matches = skeletonMatches(skeleton.text, forms);
    return matches.length === 0 ? undefined : replaceSpans(text, skeleton, matches);
  };
  const redactor: Redactor = {
    add(secret) {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
      secrets.add(secret);
      const more = secretForms(secret);
      // Longer forms first: one that holds another is replaced whole.
      forms.folded = [...new Set([...forms.folded, ...more.folded])].sort((a, b) => b.length - a.length);
      forms.exact = [...new Set([...forms.exact, ...more.exact])].sort((a, b) => b.length - a.length);
    },
    text(text) {
      if (typeof text !== 'string' || secrets.size === 0) return text;
      let out = text;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const next = redactOnce(out);
        if (next === undefined) return out;
        out = next;
      }
      return redactOnce(out) === undefined ? out : REDACTED;
    },
    json<T>(value: T): T {
      if (secrets.size === 0) return value;
      return scrub(value, redactor.text, new Set()) as T;
    },
    leaks(text) {
      return secrets.size > 0 && skeletonMatches(skeletonOf(text).text, forms).length > 0;
    },
  };
  for (const secret of initial) redactor.add(secret);
  return redactor;
});

function scrub(value: unknown, text: (s: string) => string, seen: Set<object>): unknown {
  if (typeof value === 'string') return text(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return undefined;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => scrub(item, text, seen));
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      Object.defineProperty(out, text(key), {
        value: scrub(child, text, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
