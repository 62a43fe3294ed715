/**
 * An oracle for "the secret never leaves in any decoded form", independent of the redactor: it
 * decodes with Buffer, NFKC and regular expressions (backslash escapes, percent-encoding, HTML
 * references, invisible characters, fullwidth forms; up to four times), then looks for the secret
 * in any case, as hex, and inside every base64 or base64url run at every offset. Used by the
 * redactor's property test and by the "secrets never leave" tests on every host. Also the list of
 * encoded forms those tests make a model or tool repeat.
 */
import { MIN_ENCODED_LENGTH, MIN_HEX_LENGTH } from '../redact';

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  lowbar: '_',
  plus: '+',
  equals: '=',
  period: '.',
};

function decodeOnce(s: string): string {
  return (
    s
      // Backslash escapes, left to right in one scan (`\\\\u0041` is a backslash and `u0041`).
      .replace(/\\(?:u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4})|x([0-9a-f]{2})|(["\\/'bfnrt]))/gi, (_m, a, b, c, d) =>
        a
          ? String.fromCodePoint(Number.parseInt(a, 16))
          : b || c
            ? String.fromCharCode(Number.parseInt(b ?? c, 16))
            : (({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[d] ?? d),
      )
      .replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
        const decoded = Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');
        return decoded.includes('\ufffd') ? run : decoded;
      })
      .replace(/&#x([0-9a-f]+);?|&#([0-9]+);?|&([a-z]+);/gi, (m, h, d, n) =>
        h ? String.fromCodePoint(Number.parseInt(h, 16)) : d ? String.fromCodePoint(Number(d)) : (NAMED[n] ?? m),
      )
      .replace(/[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]/g, '')
      .normalize('NFKC')
  );
}

function views(s: string): string[] {
  const out = [s];
  let current = s;
  for (let i = 0; i < 4; i++) {
    const next = decodeOnce(current);
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

function base64Decodings(view: string): string[] {
  const out: string[] = [];
  for (const run of view.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [])
    for (let offset = 0; offset < 4; offset++) {
      const part = run.slice(offset).replace(/-/g, '+').replace(/_/g, '/');
      out.push(Buffer.from(part.slice(0, part.length - (part.length % 4)), 'base64').toString('latin1'));
    }
  return out;
}

/** Whether `text`, decoded every way the redactor claims to undo (independently of it), holds `secret`. */
export function holdsSecret(text: string, secret: string): boolean {
  const utf8AsLatin1 = Buffer.from(secret, 'utf8').toString('latin1');
  const hex = Buffer.from(secret).toString('hex');
  for (const view of views(text)) {
    const lower = view.toLowerCase();
    if (lower.includes(secret.toLowerCase())) return true;
    if (secret.length >= MIN_HEX_LENGTH && lower.includes(hex)) return true;
    if (secret.length >= MIN_ENCODED_LENGTH && base64Decodings(view).some((d) => d.includes(utf8AsLatin1))) return true;
  }
  return false;
}

/** The secret in each encoding the redactor claims, for a stub model or tool to repeat. */
export function encodedForms(secret: string): string[] {
  const hex = Buffer.from(secret).toString('hex');
  const each = (f: (c: string, i: number) => string) => [...secret].map(f).join('');
  const u4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return [
    secret.toUpperCase(),
    secret.toLowerCase(),
    hex,
    hex.toUpperCase(),
    Buffer.from(`a${secret}`).toString('base64'),
    Buffer.from(`ab${secret}`).toString('base64url'),
    each(u4),
    each((c, i) => (i % 2 ? u4(c) : c)),
    each((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
    each((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
    each((c) => `&#${c.charCodeAt(0)};`),
    each((c) => `&#x${c.charCodeAt(0).toString(16)};`),
    each((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
    [...secret].join('\u200b'),
    [...secret].join('\u2060'),
  ];
}
