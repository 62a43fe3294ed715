/**
 * The public AgentCard never carries key material. Its strings come from the definition
 * (descriptions, skill examples, the provider URL); validation refuses a definition that holds a
 * credential, and this is the last line behind it, for configs that did not come through the
 * compiler: private or symmetric JWK members inside JSON text (`"d": "..."` next to a `kty` or
 * `crv`) and passwords in URLs (`https://user:password@host`) are replaced by `[redacted]` in
 * every string of the card, at any depth. Pure and deterministic.
 */

const REDACTED = '[redacted]';

/** `"d": "<value>"` and the other private members (d, p, q, dp, dq, qi, k), quoted, escaped or bare. */
const JWK_PRIVATE_MEMBER =
  /((?<![A-Za-z0-9_$])\\?["']?(?:d|p|q|dp|dq|qi|k)\\?["']?\s*[:=]\s*\\?["']?)([A-Za-z0-9_+/-]{4,}={0,2})/g;
const NAMES_KEY_TYPE = /(?<![A-Za-z0-9_])\\?["']?(?:kty|crv)\\?["']?\s*[:=]/;
/** `scheme://user:password@` (the password is what goes). */
const URL_PASSWORD = /((?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:]*:)([^\s/?#@]+)(@)/g;

/** `text` without private JWK members or URL passwords. */
export function withoutKeyMaterial(text: string): string {
  let out = text;
  if (NAMES_KEY_TYPE.test(out)) out = out.replace(JWK_PRIVATE_MEMBER, (_m, lead: string) => `${lead}${REDACTED}`);
  if (out.includes('://'))
    out = out.replace(URL_PASSWORD, (_m, lead: string, _password: string, at: string) => `${lead}${REDACTED}${at}`);
  return out;
}

/** A deep copy of a JSON value (an AgentCard) with `withoutKeyMaterial` applied to every string and property name. */
export function scrubKeyMaterial<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return withoutKeyMaterial(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      // An object that is itself a private JWK keeps only its public members.
      if (JWK_PRIVATE_MEMBERS.has(key) && isKeyObject(value)) continue;
      Object.defineProperty(out, withoutKeyMaterial(key), {
        value: scrub(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);

function isKeyObject(value: object): boolean {
  const record = value as Record<string, unknown>;
  return typeof record['kty'] === 'string' || typeof record['crv'] === 'string';
}
