/**
 * Secret scrubbing. The runtime knows every secret value it resolved for a run (provider API keys,
 * signing keys); anything it is about to put in a result, receipt, error or log goes through the
 * run's redactor first, so a provider that echoes a key back in an error body cannot leak it.
 */
export interface Redactor {
  /** Remembers a secret value; short values (under 6 characters) are too ambiguous to scrub. */
  add(secret: string | undefined): void;
  /** `text` with every remembered secret replaced by `[redacted]`. */
  text(text: string): string;
  /** A deep copy of a JSON value with every string scrubbed. */
  json<T>(value: T): T;
}

export function createRedactor(initial: Iterable<string | undefined> = []): Redactor {
  const secrets = new Set<string>();
  const redactor: Redactor = {
    add(secret) {
      if (typeof secret === 'string' && secret.length >= 6) secrets.add(secret);
    },
    text(text) {
      let out = text;
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
      return out;
    },
    json<T>(value: T): T {
      if (secrets.size === 0) return value;
      return scrub(value, redactor.text) as T;
    },
  };
  for (const secret of initial) redactor.add(secret);
  return redactor;
}

function scrub(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, text));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[text(key)] = scrub(child, text);
    return out;
  }
  return value;
}
