/**
 * secretKinds skips strings in two ways before it runs the detectors: strings shorter than any
 * detector can match, and strings that hold none of the detectors' telltale fragments (a cheap
 * pre-test). Both must be invisible: on strings each detector matches (generated from its own
 * pattern, inside random context), secretKinds finds exactly the kinds that running every
 * detector on the whole string finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_DETECTORS, type SecretDetector, secretKinds } from './secrets';

const DETECTOR_KINDS: ReadonlySet<string> = new Set(SECRET_DETECTORS.map((d) => d.kind));

/** What running every detector on `value`, without any shortcut, finds (in detector order, each kind once). */
function everyDetector(value: string): string[] {
  const kinds = SECRET_DETECTORS.filter((detector) => {
    if (detector.requires !== undefined && !detector.requires.test(value)) return false;
    const re = new RegExp(detector.pattern.source, `${detector.pattern.flags}g`);
    for (let m = re.exec(value); m !== null; m = re.exec(value)) {
      if (detector.accept === undefined || detector.accept(m)) return true;
      if (m[0].length === 0) re.lastIndex++;
    }
    return false;
  }).map((d) => d.kind);
  return [...new Set(kinds)];
}

/** The end of the group opened at `open`, past its `)`: escapes and character classes skipped. */
function afterGroup(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return source.length;
}

/** `source` without its lookahead and lookbehind assertions (fast-check cannot generate them). */
function withoutLookarounds(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (!inClass && /^\(\?<?[=!]/.test(source.slice(i, i + 4))) {
      i = afterGroup(source, i);
      continue;
    }
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    out += c;
    i++;
  }
  return out;
}

const context = fc.string({
  maxLength: 4,
  unit: fc.constantFrom('-', ' ', '\n', '\t', 'a', 'Z', '0', '_', ':', '/', '"', "'", '@', '.', '='),
});

function matchesOf(detector: SecretDetector): fc.Arbitrary<string> {
  const body = fc.stringMatching(new RegExp(`^(?:${withoutLookarounds(detector.pattern.source)})$`));
  return fc
    .tuple(fc.boolean(), context, body, context)
    .map(([keyType, before, match, after]) => `${keyType ? 'kty: ' : ''}${before}${match}${after}`);
}

describe('secretKinds finds what every detector finds', () => {
  it('strips lookarounds only', () => {
    expect(withoutLookarounds(String.raw`(?<![A-Za-z0-9(])a(?=[)\]]b)(x)(?!c)`)).toBe('a(x)');
  });

  it.each(SECRET_DETECTORS.map((d) => [d.kind, d] as const))(
    'on strings matching the detector of %s',
    (_, detector) => {
      fc.assert(
        fc.property(matchesOf(detector), (value) => {
          expect(secretKinds(value).filter((k) => DETECTOR_KINDS.has(k))).toEqual(everyDetector(value));
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each([
    ['a PEM header with a space after the dashes', '----- BEGIN RSA PRIVATE KEY -----\nMIIEpAIBAAKCAQEA7q9'],
    ['a PEM header with a line break after the dashes', '-----\nBEGIN PRIVATE KEY\n-----'],
    ['a PEM header with a tab after the dashes', '--\tBEGIN EC PRIVATE KEY--'],
    ['the shortest password in a URL', 'a://:b@c'],
    // Members the fragment test once missed (issue 23): a two-letter member without a key type.
    [
      'a JWK qi member without a key type',
      `{"qi": "${'i3IEUxfmBqGFDHumJGs-NpkeMSPXZX56B__GiO76gek5NboXsOcI-24BbYWEq0hBBhJhPwJM5k1BVCqtMtYvWN'}"}`,
    ],
  ])('%s', (_, value) => {
    expect(everyDetector(value).length).toBe(1);
    expect(secretKinds(value)).toEqual(everyDetector(value));
  });
});
