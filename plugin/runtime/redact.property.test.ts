/**
 * Property: a known secret, written in a random mix of the encodings the redactor claims (any
 * ASCII case, hex, base64 or base64url at any alignment, JSON and `\u` escapes, percent-encoding,
 * HTML references, fullwidth forms, invisible characters between its characters, nested), and put
 * in a random place of what a run hands out (the answer, a tool result's data or a property name,
 * a log event, a receipt's tool call, an error message), never comes out in any decoded form. The
 * oracle decodes independently of the redactor (Buffer, NFKC, regular expressions), and the
 * places that held no secret come out unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsSecret } from './__test-support__/secret-oracle';
import { createRedactor, MIN_ENCODED_LENGTH, MIN_HEX_LENGTH } from './redact';

const ASCII = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/';
const secretArb = fc
  .tuple(
    fc.constantFrom('', 'sk-ant-', 'ghp_', 'tok_'),
    fc.array(fc.constantFrom(...ASCII), { minLength: 6, maxLength: 48 }),
    fc.option(fc.constantFrom('é', '密', '€', '𝄞'), { nil: undefined }),
  )
  .map(([prefix, body, extra]) => `${prefix}${body.join('')}${extra ?? ''}`)
  // Secrets of 16 characters and more are random; shorter ones are what hosts pass as passwords.
  .filter((s) => new Set(s).size >= Math.min(6, s.length));

type Encoder = (s: string, pick: (n: number) => number) => string;
const bytes = (s: string) => [...Buffer.from(s, 'utf8')];
const cps = (s: string) => [...s];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

/** One character, encoded one of the ways the redactor undoes. */
function encodeChar(c: string, how: number): string {
  const cp = c.codePointAt(0)!;
  switch (how) {
    case 0:
      return c;
    case 1:
      // One escape per UTF-16 code unit, as JSON writes an astral character.
      return c
        .split('')
        .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
    case 2:
      return bytes(c)
        .map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`)
        .join('');
    case 3:
      return bytes(c)
        .map((b) => `%${b.toString(16).padStart(2, '0')}`)
        .join('');
    case 4:
      return `&#${cp};`;
    case 5:
      return `&#x${cp.toString(16)};`;
    case 6:
      return cp >= 0x21 && cp <= 0x7e ? String.fromCodePoint(cp + 0xfee0) : c;
    default:
      return c;
  }
}

const ENCODERS: readonly [string, Encoder][] = [
  ['as is', (s) => s],
  [
    'random ASCII case',
    (s, pick) =>
      cps(s)
        .map((c) => (/[a-z]/i.test(c) && pick(2) ? c.toUpperCase() : c.toLowerCase()))
        .join(''),
  ],
  ['hex', (s, pick) => (pick(2) ? Buffer.from(s).toString('hex') : Buffer.from(s).toString('hex').toUpperCase())],
  ['base64', (s, pick) => Buffer.from(`${'xy'.slice(0, pick(3))}${s}`).toString('base64')],
  ['base64url', (s, pick) => Buffer.from(`${'xy'.slice(0, pick(3))}${s}`).toString('base64url')],
  ['JSON', (s) => JSON.stringify(s).slice(1, -1)],
  [
    'mixed per character',
    (s, pick) =>
      cps(s)
        .map((c) => encodeChar(c, pick(8)))
        .join(''),
  ],
  ['zero-width interleaved', (s, pick) => cps(s).join(ZERO_WIDTH[pick(ZERO_WIDTH.length)]!)],
  [
    'fullwidth',
    (s) =>
      cps(s)
        .map((c) => encodeChar(c, 6))
        .join(''),
  ],
  [
    'percent-encoded JSON escapes',
    (s) =>
      encodeURIComponent(
        cps(s)
          .map((c) => encodeChar(c, 1))
          .join(''),
      ),
  ],
  [
    'JSON inside JSON',
    (s, pick) =>
      JSON.stringify(
        JSON.stringify(
          cps(s)
            .map((c) => encodeChar(c, pick(6)))
            .join(''),
        ),
      ).slice(1, -1),
  ],
];

/** What the redactor claims for a secret of this length (short secrets: no hex below 8, no base64 below 16). */
function claimed(name: string, secret: string): boolean {
  if (name === 'hex') return secret.length >= MIN_HEX_LENGTH;
  if (name.startsWith('base64')) return secret.length >= MIN_ENCODED_LENGTH;
  return true;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  return out;
}

const PLACES = ['answer', 'tool result', 'tool result key', 'log message', 'receipt field', 'error text'] as const;
const filler = fc.array(fc.constantFrom('the', 'answer', 'is', '42%', 'done;', '&amp;', 'a\\nb', 'café', '—', 'OK'), {
  minLength: 0,
  maxLength: 6,
});

function runOutput(place: (typeof PLACES)[number], slot: string) {
  const at = (p: (typeof PLACES)[number]) => (p === place ? slot : `no secret in the ${p}`);
  return {
    answer: { text: at('answer') },
    toolResults: [{ data: { value: at('tool result'), [at('tool result key')]: true } }],
    log: { event: 'egress.blocked', host: 'example.org', message: at('log message') },
    receipt: { toolCalls: [{ seq: 1, name: at('receipt field'), ok: true }] },
    error: { code: 'tool_failed', message: at('error text') },
  };
}

describe('a secret in any claimed encoding, in any place, never leaves in any decoded form', () => {
  it('the oracle sees what it must (it is not blind)', () => {
    const secret = 'sk-ant-Q7vR2mX9kL4pT8wZ';
    for (const [name, encode] of ENCODERS)
      expect(holdsSecret(`x ${encode(secret, () => 1)} y`, secret), name).toBe(true);
    expect(holdsSecret('nothing here', secret)).toBe(false);
  });

  it('property', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.constantFrom(...ENCODERS),
        fc.infiniteStream(fc.nat()),
        fc.constantFrom(...PLACES),
        filler,
        filler,
        (secret, [name, encode], stream, place, before, after) => {
          fc.pre(claimed(name, secret));
          const iterator = stream[Symbol.iterator]();
          const pick = (n: number) => (iterator.next().value as number) % n;
          const slot = `${before.join(' ')} ${encode(secret, pick)} ${after.join(' ')}`;
          const redactor = createRedactor([secret, 'another-secret-' + 'Zx81Qw']);
          const out = redactor.json(runOutput(place, slot));
          for (const text of strings(out))
            expect(holdsSecret(text, secret), `${name} in the ${place}: ${text}`).toBe(false);
          expect(JSON.stringify(out)).toContain('[redacted]');
          // The places without a secret come out as they went in.
          for (const other of PLACES.filter((p) => p !== place))
            expect(strings(out)).toContain(`no secret in the ${other}`);
        },
      ),
      { numRuns: 600 },
    );
  });
});
