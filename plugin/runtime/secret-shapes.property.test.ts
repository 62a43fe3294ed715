/**
 * Properties of the one secret-shape detector. Generated credentials of every family it claims
 * (JWK private members with and without a key type, assignments to secret-named variables in
 * dotenv, shell, YAML, JSON and header form, AWS secret access keys bare and in context, PEM
 * private keys in any case and with or without whitespace, headerless DER keys, prefixed provider
 * tokens, JWTs, URL passwords, Authorization headers), in random surrounding text, are detected and
 * their secret part is gone after scrubbing. And the repository's own prose (docs/, the examples,
 * the README) holds no false positive, line by line and whole.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretKinds, withoutSecretShapes } from './secret-shapes';

const REPO = join(__dirname, '..', '..');
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A deterministic random string from a seed (mulberry32): random-looking whatever the seed, so shrinking keeps it a key. */
function randomString(seed: number, alphabet: string, length: number): string {
  let a = seed >>> 0;
  let out = '';
  while (out.length < length) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}

/** A key body that mixes lower, upper and digits (what every real key of that alphabet does). */
function keyBody(seed: number, alphabet: string, length: number): string {
  for (let s = seed; ; s++) {
    const body = randomString(s, alphabet, length);
    if (/[a-z]/.test(body) && /[A-Z]/.test(body) && /[0-9]/.test(body)) return body;
  }
}

/** [family, the generated text, the part that must not survive scrubbing]. */
type Shape = [string, string, string];

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const pickOf = <T>(items: readonly T[]) => fc.constantFrom(...items);

const shapes: fc.Arbitrary<Shape> = fc.oneof(
  fc
    .tuple(
      seed,
      pickOf([
        ['d', 43],
        ['d', 64],
        ['d', 88],
        ['d', 342],
        ['p', 171],
        ['qi', 86],
        ['k', 22],
        ['k', 43],
      ] as const),
      fc.boolean(),
      pickOf(['"', "'"]),
    )
    .map(([s, [member, length], typed, q]): Shape => {
      const value = keyBody(s, B64URL, length);
      const kty = typed ? `${q}kty${q}: ${q}EC${q}, ` : '';
      return [
        'JWK member',
        `{${kty}${q}${member}${q}: ${q}${value}${q}, ${q}x${q}: ${q}${keyBody((s ^ 0x5bd1e995) >>> 1, B64URL, 43)}${q}}`,
        value,
      ];
    }),
  fc
    .tuple(
      seed,
      pickOf([
        'AWS_SECRET_ACCESS_KEY',
        'X_SECRET',
        'GITHUB_TOKEN',
        'DB_PASSWORD',
        'apiKey',
        'client_secret',
        'x-api-key',
        'SIGNING_KEY',
      ]),
      pickOf(['%n=%v', 'export %n=%v', 'export %n="%v"', "%n='%v'", '%n: %v', '"%n": "%v"', 'set %n=%v']),
      fc.integer({ min: 12, max: 48 }),
    )
    .map(([s, name, form, length]): Shape => {
      const value = keyBody(s, ALNUM, length);
      return ['assignment', form.replace('%n', name).replace('%v', value), value];
    }),
  fc
    .tuple(seed, pickOf(['', 'aws ', 'AKIAZ3Q7R2M9K4P8W1N6 ', 'aws_secret_access_key = ']))
    .map(([s, context]): Shape => {
      let key = keyBody(s, B64, 40);
      if (!/[/+]/.test(key)) key = `${key.slice(0, 20)}/${key.slice(21)}`;
      return ['AWS secret access key', `${context}${key}`, key];
    }),
  fc
    .tuple(seed, pickOf(['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', '', 'DSA ']), fc.boolean(), fc.boolean())
    .map(([s, type, lower, stripped]): Shape => {
      const body = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${keyBody(s, B64, 64)}`;
      let header = `-----BEGIN ${type}PRIVATE KEY-----`;
      let footer = `-----END ${type}PRIVATE KEY-----`;
      if (stripped) [header, footer] = [header.replace(/ /g, ''), footer.replace(/ /g, '')];
      if (lower) [header, footer] = [header.toLowerCase(), footer.toLowerCase()];
      return ['PEM private key', `${header}${stripped ? '' : '\n'}${body}${stripped ? '' : '\n'}${footer}`, body];
    }),
  fc
    .tuple(seed, pickOf(['MC4CAQAwBQYDK2VwBCIEI', 'MHcCAQEEI', 'MIIEpAIBAAKCAQEA', 'b3BlbnNzaC1rZXktdjE']))
    .map(([s, prefix]): Shape => {
      const body = `${prefix}${keyBody(s, B64, 40)}`;
      return ['DER private key', body, body];
    }),
  fc
    .tuple(
      seed,
      pickOf([
        ['sk-ant-api03-', 40],
        ['sk-proj-', 40],
        ['ghp_', 36],
        ['github_pat_', 60],
        ['glpat-', 20],
        ['xoxb-', 40],
        ['hf_', 34],
        ['AIza', 35],
        ['gsk_', 52],
        ['GOCSPX-', 28],
        ['dckr_pat_', 27],
      ] as const),
    )
    .map(([s, [prefix, length]]): Shape => {
      const token = `${prefix}${keyBody(s, ALNUM, length)}`;
      return ['prefixed token', token, token];
    }),
  seed.map((s): Shape => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${keyBody(s, B64URL, 30)}.${keyBody((s ^ 0x5bd1e995) >>> 1, B64URL, 43)}`;
    return ['JWT', jwt, jwt];
  }),
  fc.tuple(seed, pickOf(['https', 'postgres', 'redis', 'amqp'])).map(([s, scheme]): Shape => {
    const password = keyBody(s, ALNUM, 16);
    return ['URL password', `${scheme}://svc:${password}@db.internal:5432/app`, password];
  }),
  fc.tuple(seed, pickOf(['Bearer', 'Basic', 'Token'])).map(([s, scheme]): Shape => {
    const token = keyBody(s, B64, 32);
    return ['Authorization header', `Authorization: ${scheme} ${token}`, token];
  }),
);

const WORDS = [
  'the',
  'deploy',
  'key',
  'is',
  'stored',
  'in',
  'Vault',
  'see',
  'docs',
  'token',
  '2024',
  'OK',
  '—',
  'café',
];
const SEPARATORS = [' ', '\n', ' "', '" ', ', ', '\t', ' (', ') '];
const surrounding = fc
  .array(fc.tuple(pickOf(WORDS), pickOf(SEPARATORS)), { maxLength: 8 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

describe('generated secret shapes in random text are detected and scrubbed', () => {
  it('property', () => {
    fc.assert(
      fc.property(
        shapes,
        surrounding,
        surrounding,
        pickOf(SEPARATORS),
        ([family, shape, secret], before, after, sep) => {
          const text = `${before}${sep}${shape}${sep}${after}`;
          expect(secretKinds(text), `${family}: ${text}`).not.toEqual([]);
          const scrubbed = withoutSecretShapes(text, '[redacted]');
          expect(scrubbed, family).not.toContain(secret);
          expect(scrubbed).toContain('[redacted]');
        },
      ),
      { numRuns: 1500 },
    );
  });
});

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesBelow(path));
    else if (/\.(?:md|json|ya?ml|ts|txt)$/.test(name)) out.push(path);
  }
  return out;
}

describe('ordinary text gives no false positive', () => {
  const files = [...filesBelow(join(REPO, 'docs')), ...filesBelow(join(REPO, 'examples')), join(REPO, 'README.md')];

  it('has a corpus', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it("the repository's docs, examples and README: no file and no line looks like a secret", () => {
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const where = relative(REPO, file);
      if (secretKinds(text).length > 0) found.push(`${where}: ${secretKinds(text).join(', ')}`);
      text.split('\n').forEach((line, i) => {
        if (secretKinds(line).length > 0) found.push(`${where}:${i + 1}: ${secretKinds(line).join(', ')}`);
      });
      expect(withoutSecretShapes(text, '[redacted]')).toBe(text);
    }
    expect(found).toEqual([]);
  });
});
