/**
 * Secret scrubbing. The runtime knows every secret value it resolved for a run (provider API keys,
 * the receipt signing key, every value of a secret record the host passed); anything it is about
 * to put in a result, receipt, error or log goes through the run's redactor first, so a provider
 * that echoes a key back in an error body, or a model that repeats it, cannot deliver it.
 *
 * Each secret is scrubbed in the forms it is likely to travel in: as is, JSON-escaped (inside a
 * JSON text), percent-encoded (inside a URL or form body), and base64 / base64url encoded (inside
 * a header or a token; the three byte alignments, for secrets of 16 characters or more, where a
 * false match on ordinary text is implausible). Longer forms are replaced first.
 *
 * Values under 6 characters are not scrubbed: no provider issues keys that short, and replacing
 * a common short string everywhere would corrupt answers while telling a prober, one guess at a
 * time, what the secret is (a redaction is an oracle). Hosts must not use such values as secrets.
 */
export interface Redactor {
  /** Remembers a secret value; short values (under 6 characters) are too ambiguous to scrub. */
  add(secret: string | undefined): void;
  /** `text` with every remembered secret (and its encoded forms) replaced by `[redacted]`. */
  text(text: string): string;
  /** A deep copy of a JSON value with every string (values and property names) scrubbed. */
  json<T>(value: T): T;
  /** Whether `text` still holds a remembered secret in one of its scrubbed forms. */
  leaks(text: string): boolean;
}

export const REDACTED = '[redacted]';
export const MIN_SECRET_LENGTH = 6;
/** Encoded forms whose match could be a coincidence are only scrubbed for secrets this long. */
const MIN_ENCODED_LENGTH = 16;

function utf8Base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The part of any base64 text that is the same whenever `secret` sits at the given byte offset
 * modulo 3 inside the encoded bytes (the edge characters depend on the neighbours and are left out).
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
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

/** Every form of `secret` the redactor scrubs, longest first. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  forms.add(JSON.stringify(secret).slice(1, -1));
  // A JSON text inside a JSON string (a tool result carried in a JSON message) doubles the escapes.
  forms.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1));
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // a lone surrogate has no percent-encoding
  }
  if (secret.length >= MIN_ENCODED_LENGTH) {
    for (const core of base64Cores(secret)) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

export function createRedactor(initial: Iterable<string | undefined> = []): Redactor {
  const secrets = new Set<string>();
  let forms: string[] = [];
  const redactor: Redactor = {
    add(secret) {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
      secrets.add(secret);
      forms = [...new Set([...forms, ...secretForms(secret)])].sort((a, b) => b.length - a.length);
    },
    text(text) {
      if (typeof text !== 'string') return text;
      let out = text;
      for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
      return out;
    },
    json<T>(value: T): T {
      if (secrets.size === 0) return value;
      return scrub(value, redactor.text, new Set()) as T;
    },
    leaks(text) {
      return forms.some((form) => text.includes(form));
    },
  };
  for (const secret of initial) redactor.add(secret);
  return redactor;
}

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
