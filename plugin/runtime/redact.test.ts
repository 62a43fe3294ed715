/**
 * The redactor, encoding by encoding: a known secret written as is, in another case, as hex (lower
 * and upper), base64 and base64url at each byte alignment, with JSON `\uXXXX` escapes (every
 * character, some of them, mixed with `\xXX` and `\u{…}`), percent-encoded (every byte, upper and
 * lower hex, partly), as HTML references (decimal, hex, named), in fullwidth forms, interleaved with
 * each invisible character, and nested (JSON text inside JSON, percent-encoded escapes). Each time
 * the span that encodes the secret is replaced and the text around it survives; ordinary text and
 * short values are left alone; a 1 MiB hostile text is handled in linear time.
 */
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, REDACTED, createRedactor } from './redact';
import { skeletonOf } from './text-skeleton';

const SECRET = 'sk-ant-' + 'Q7vR2mX9kL4pT8wZ';

const bytes = (s: string) => [...new TextEncoder().encode(s)];
const hex = (s: string) =>
  bytes(s)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
const eachChar = (s: string, f: (c: string, i: number) => string) => [...s].map(f).join('');
const u4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const pct = (c: string) =>
  bytes(c)
    .map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`)
    .join('');

/** The part of base64(prefix + secret) that depends on the secret alone. */
function base64Core(prefix: string, secret: string, url = false): string {
  const b64 = Buffer.from(`${prefix}${secret}`).toString(url ? 'base64url' : 'base64');
  return b64.slice(Math.ceil((prefix.length * 8) / 6), Math.floor(((prefix.length + secret.length) * 8) / 6));
}

const ENCODINGS: readonly [string, (s: string) => string][] = [
  ['as is', (s) => s],
  ['upper case', (s) => s.toUpperCase()],
  ['lower case', (s) => s.toLowerCase()],
  ['alternating case', (s) => eachChar(s, (c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase()))],
  ['hex, lower', hex],
  ['hex, UPPER', (s) => hex(s).toUpperCase()],
  ['base64', (s) => Buffer.from(s).toString('base64')],
  ['base64 after one byte', (s) => Buffer.from(`x${s}`).toString('base64')],
  ['base64 after two bytes', (s) => Buffer.from(`xy${s}`).toString('base64')],
  ['base64url', (s) => Buffer.from(s).toString('base64url')],
  ['base64url after one byte', (s) => Buffer.from(`x${s}`).toString('base64url')],
  ['base64url after two bytes', (s) => Buffer.from(`xy${s}`).toString('base64url')],
  ['JSON string escaping', (s) => JSON.stringify(s).slice(1, -1)],
  ['\\uXXXX for every character', (s) => eachChar(s, u4)],
  ['\\uXXXX for every character, upper hex', (s) => eachChar(s, (c) => u4(c).toUpperCase().replace('\\U', '\\u'))],
  ['\\uXXXX for every other character', (s) => eachChar(s, (c, i) => (i % 2 ? u4(c) : c))],
  [
    '\\uXXXX, \\xXX and \\u{…} mixed',
    (s) =>
      eachChar(s, (c, i) =>
        i % 3 === 0
          ? u4(c)
          : i % 3 === 1
            ? `\\x${c.charCodeAt(0).toString(16)}`
            : `\\u{${c.charCodeAt(0).toString(16)}}`,
      ),
  ],
  ['percent-encoding of every byte, upper hex', (s) => eachChar(s, pct)],
  ['percent-encoding of every byte, lower hex', (s) => eachChar(s, (c) => pct(c).toLowerCase())],
  ['percent-encoding of some bytes', (s) => eachChar(s, (c, i) => (i % 3 === 0 ? pct(c) : c))],
  ['encodeURIComponent', encodeURIComponent],
  ['HTML decimal references', (s) => eachChar(s, (c) => `&#${c.charCodeAt(0)};`)],
  ['HTML hex references', (s) => eachChar(s, (c) => `&#x${c.charCodeAt(0).toString(16)};`)],
  [
    // Without the `;` a reference ends at the first non-digit (as in HTML): a digit after it takes the `;`.
    'HTML references without semicolons',
    (s) => eachChar(s, (c, i) => `&#${c.charCodeAt(0)}${/[0-9]/.test(s[i + 1] ?? '') ? ';' : ''}`),
  ],
  ['HTML named references', (s) => s.replace(/-/g, '&#45;').replace(/_/g, '&lowbar;').replace(/\//g, '&sol;')],
  ['fullwidth forms', (s) => eachChar(s, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))],
  ['fullwidth, some', (s) => eachChar(s, (c, i) => (i % 2 ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))],
  ...['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'].map(
    (zw) =>
      [
        `interleaved with U+${zw.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
        (s: string) => [...s].join(zw),
      ] as [string, (s: string) => string],
  ),
  ['JSON text inside a JSON string', (s) => JSON.stringify(JSON.stringify(eachChar(s, u4))).slice(1, -1)],
  ['percent-encoded \\u escapes', (s) => encodeURIComponent(eachChar(s, u4))],
  ['HTML-escaped percent-encoding', (s) => eachChar(s, pct).replace(/%/g, '&#37;')],
  [
    'fullwidth, upper case, zero-width joined',
    (s) => [...s.toUpperCase()].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('\u200d'),
  ],
];

describe('a known secret is redacted in every encoding', () => {
  it.each(ENCODINGS)('%s: the encoding span goes, the text around it stays', (_name, encode) => {
    const redactor = createRedactor([SECRET]);
    const encoded = encode(SECRET);
    const text = `before «${encoded}» after`;
    const out = redactor.text(text);
    expect(out).toContain(REDACTED);
    expect(out.startsWith('before «')).toBe(true);
    expect(out.endsWith('» after')).toBe(true);
    expect(redactor.leaks(out)).toBe(false);
    expect(redactor.leaks(text)).toBe(true);
    // A base64 form keeps what encodes its neighbours: the prefix's characters, an edge one each side, padding.
    const left = out.replace('before «', '').replace('» after', '').replace(REDACTED, '');
    expect(left.length, `left over: ${JSON.stringify(left)}`).toBeLessThanOrEqual(7);
  });

  it('each base64 and base64url core at each alignment, alone', () => {
    const redactor = createRedactor([SECRET]);
    for (const prefix of ['', 'a', 'ab'])
      for (const url of [false, true]) {
        const core = base64Core(prefix, SECRET, url);
        expect(redactor.text(`[${core}]`)).toBe(`[${REDACTED}]`);
      }
  });

  it('inside JSON values and property names', () => {
    const redactor = createRedactor([SECRET]);
    const value = { [eachChar(SECRET, pct)]: [`k=${hex(SECRET).toUpperCase()}`, { deep: eachChar(SECRET, u4) }] };
    expect(redactor.json(value)).toEqual({ [REDACTED]: [`k=${REDACTED}`, { deep: REDACTED }] });
  });

  it('two secrets, overlapping and adjacent spans become one redaction each run', () => {
    const other = 'mcp-token-' + '7f3a9c2e4b1d';
    const redactor = createRedactor([SECRET, other]);
    expect(redactor.text(`${SECRET}${other} ${SECRET}`)).toBe(`${REDACTED} ${REDACTED}`);
  });
});

describe('what is left alone', () => {
  it('ordinary text, and text with encodings that decode to something else, is unchanged', () => {
    const redactor = createRedactor([SECRET]);
    for (const text of [
      'An answer with 100% of the facts &amp; a \\n newline, caf\u00e9, &#65;BC and %41BC.',
      'sk-ant-', // a prefix of the secret is not the secret
      SECRET.slice(0, -1),
      '%%%%\\\\\\u12&#;&#x;&unknown;%u12',
      hex(SECRET).slice(2),
    ])
      expect(redactor.text(text)).toBe(text);
  });

  it(`values under ${MIN_SECRET_LENGTH} characters are not secrets to the redactor`, () => {
    const redactor = createRedactor(['abc12']);
    expect(redactor.text('abc12 ABC12')).toBe('abc12 ABC12');
  });

  it('the skeleton maps every decoded character back to where its encoding starts', () => {
    const skeleton = skeletonOf('a%41&#66;\\u0043\u200bＤ');
    expect(skeleton.text).toBe('aABCD');
    expect([...(skeleton.starts ?? [])]).toEqual([0, 1, 4, 9, 16, 17]);
  });
});

describe('bounded', () => {
  it('1 MiB of hostile text (every decoder triggered, near misses everywhere) costs linear time', () => {
    const redactor = createRedactor([SECRET, 'second-secret-' + 'Zx81']);
    const unit = `&#${SECRET.charCodeAt(0)};${eachChar(SECRET.slice(1, -1), pct)}\\u00&&#x;%\u200b`;
    const big = unit.repeat(Math.ceil((1 << 20) / unit.length)).slice(0, 1 << 20);
    const ampersands = '&'.repeat(1 << 20);
    const small = unit.repeat(Math.ceil((1 << 16) / unit.length)).slice(0, 1 << 16);
    const time = (text: string) => {
      const started = performance.now();
      const out = redactor.text(text);
      return { ms: performance.now() - started, out };
    };
    time(small); // warm up
    const a = time(small);
    const b = time(big);
    const c = time(ampersands);
    expect(b.out.length).toBeGreaterThan(0);
    expect(c.out).toBe(ampersands);
    // 16 times the text; a quadratic scan would be ~256 times slower. Generous for a loaded machine.
    expect(b.ms).toBeLessThan(Math.max(50, a.ms) * 16 * 8);
    expect(c.ms).toBeLessThan(Math.max(50, a.ms) * 16 * 8);
  });
});
