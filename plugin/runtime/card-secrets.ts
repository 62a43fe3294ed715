/**
 * The public AgentCard never carries key material. Its strings come from the definition
 * (descriptions, skill examples, the provider URL); validation refuses a definition that holds a
 * credential, and this is the last line behind it, for configs that did not come through the
 * compiler: every credential shape the definition's scanner knows (secret-shapes.ts, the same
 * detector: private JWK members with or without a key type, PEM and DER private keys, provider
 * tokens, passwords in URLs, secret-named assignments, AWS secret access keys, …) has its secret
 * part replaced by `[redacted]` in every string of the card, at any depth, and a JWK object with
 * private members keeps only its public ones. Pure and deterministic.
 */
import { JWK_PRIVATE_MEMBERS, isPrivateJwk, withoutSecretShapes } from './secret-shapes';

const REDACTED = '[redacted]';
const PRIVATE_MEMBERS: ReadonlySet<string> = /* @__PURE__ */ new Set(JWK_PRIVATE_MEMBERS);

/** `text` without the secret part of any credential shape. */
export function withoutKeyMaterial(text: string): string {
  return withoutSecretShapes(text, REDACTED);
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
    const privateKey = isPrivateJwk(value);
    for (const [key, child] of Object.entries(value)) {
      // An object that is itself a private JWK keeps only its public members.
      if (privateKey && PRIVATE_MEMBERS.has(key)) continue;
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
