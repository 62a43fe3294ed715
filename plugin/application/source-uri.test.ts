/**
 * Source URIs: the three accepted forms, every invalid form the composition seed names (each a
 * case with the rule it breaks), values that are not strings, reasons that never carry more than a
 * short escaped excerpt, and properties checking the decision against an independent reading of the
 * grammar on random strings built from the characters that matter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSourceUri, excerpt, NETWORK_URN_SEGMENTS, SOURCE_URI_MAX_LENGTH } from './source-uri';

describe('checkSourceUri: accepted forms', () => {
  const valid: [string, 'workspace' | 'kgdoc' | 'urn'][] = [
    ['workspace:/a', 'workspace'],
    ['workspace:/examples/research-brief/application.json', 'workspace'],
    ['workspace:/packs/text-tools_v2/pack-1.0.0.json', 'workspace'],
    ['workspace:/0/9', 'workspace'],
    ['kgdoc:a', 'kgdoc'],
    ['kgdoc:docs/runtime-readiness.contract/v1', 'kgdoc'],
    ['urn:agentdef:a', 'urn'],
    ['urn:agentdef:pack:text-tools:1.0.0', 'urn'],
    ['urn:agentdef:httpx:evil', 'urn'],
    ['urn:agentdef:http-archive', 'urn'],
    ['urn:agentdef:application:http', 'urn'],
  ];
  for (const [uri, scheme] of valid) {
    it(`accepts ${uri}`, () => {
      expect(checkSourceUri(uri)).toEqual({ ok: true, scheme });
    });
  }

  it(`accepts ${SOURCE_URI_MAX_LENGTH} characters and refuses one more`, () => {
    const longest = `kgdoc:${'a'.repeat(SOURCE_URI_MAX_LENGTH - 6)}`;
    expect(checkSourceUri(longest)).toEqual({ ok: true, scheme: 'kgdoc' });
    const result = checkSourceUri(`${longest}a`);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toBe(
        `a source URI must be at most ${SOURCE_URI_MAX_LENGTH} characters long, this one has ${SOURCE_URI_MAX_LENGTH + 1}`,
      );
  });
});

describe('checkSourceUri: every invalid form', () => {
  const invalid: [string, RegExp][] = [
    // dot segments
    ['workspace:/a/./b', /dot segment/],
    ['workspace:/a/../b', /dot segment/],
    ['workspace:/..', /dot segment/],
    ['kgdoc:./a', /dot segment/],
    ['urn:agentdef:..:a', /dot segment/],
    // consecutive, leading or trailing punctuation
    ['workspace:/a..b', /consecutive punctuation/],
    ['kgdoc:a-_b', /consecutive punctuation/],
    ['urn:agentdef:a.-b', /consecutive punctuation/],
    ['kgdoc:a.', /trailing punctuation/],
    ['workspace:/a/b_', /trailing punctuation/],
    ['urn:agentdef:a-:b', /trailing punctuation/],
    ['kgdoc:-a', /starts with punctuation/],
    ['workspace:/_a', /starts with punctuation/],
    ['urn:agentdef:.a', /starts with punctuation/],
    // empty segments
    ['workspace:/', /empty segment/],
    ['workspace:/a//b', /empty segment/],
    ['workspace:/a/', /empty segment/],
    ['kgdoc:', /empty segment/],
    ['kgdoc:/a', /empty segment/],
    ['kgdoc:a/', /empty segment/],
    ['urn:agentdef:', /empty segment/],
    ['urn:agentdef:a::b', /empty segment/],
    ['urn:agentdef:a:', /empty segment/],
    // tilde
    ['workspace:/~user/a', /tilde/],
    ['kgdoc:a~b', /tilde/],
    ['urn:agentdef:a~', /tilde/],
    // uppercase, anywhere
    ['workspace:/A', /uppercase/],
    ['kgdoc:docs/README', /uppercase/],
    ['urn:agentdef:Pack', /uppercase/],
    ['Workspace:/a', /uppercase/],
    ['KGDOC:a', /uppercase/],
    ['urn:AGENTDEF:a', /outside the urn:agentdef: namespace/],
    ['URN:agentdef:a', /uppercase/],
    // nested schemes and network-shaped variants
    ['workspace://host', /authority/],
    ['workspace://host/a', /authority/],
    ['workspace:///a', /authority/],
    ['kgdoc:https://example.com/a', /colon/],
    ['kgdoc:http:a', /colon/],
    ['workspace:/kgdoc:a', /colon/],
    ['workspace:/a/file:b', /colon/],
    ['kgdoc:workspace:/a', /colon/],
    ['urn:agentdef:http:evil', /network scheme \(http\)/],
    ['urn:agentdef:https:evil.example', /network scheme \(https\)/],
    ['urn:agentdef:file:etc', /network scheme \(file\)/],
    ['urn:agentdef:ftp:a', /network scheme \(ftp\)/],
    ['urn:agentdef:ws:a', /network scheme \(ws\)/],
    ['urn:agentdef:wss:a', /network scheme \(wss\)/],
    ['urn:agentdef:http', /network scheme \(http\)/],
    ['urn:agentdef:a/b', /slash in a URN/],
    ['urn:agentdef:https://evil', /slash in a URN/],
    ['urn:agentic-graph:a', /outside the urn:agentdef: namespace/],
    ['urn:isbn:123', /outside the urn:agentdef: namespace/],
    ['urn:', /outside the urn:agentdef: namespace/],
    ['https://example.com/a', /scheme other than/],
    ['http:a', /scheme other than/],
    ['file:///etc/passwd', /scheme other than/],
    ['data:text/plain,a', /scheme other than/],
    ['javascript:alert(1)', /scheme other than/],
    ['/a/b', /scheme other than/],
    ['a/b', /scheme other than/],
    ['workspace', /scheme other than/],
    ['workspace:a', /without its leading slash/],
    ['kgdoc', /scheme other than/],
    ['kgdoc:user@host/a', /at sign/],
    ['workspace:/a\\b', /backslash/],
    // whitespace and control characters, anywhere
    [' workspace:/a', /whitespace or a control character/],
    ['workspace:/a ', /whitespace or a control character/],
    ['workspace:/a b', /whitespace or a control character/],
    ['kgdoc:a\n', /whitespace or a control character/],
    ['kgdoc:a\tb', /whitespace or a control character/],
    ['kgdoc:a\u0000', /whitespace or a control character/],
    ['\u0000kgdoc:a', /whitespace or a control character/],
    ['urn:agentdef:a\u007f', /whitespace or a control character/],
    ['kgdoc:a\u00a0', /whitespace or a control character/],
    ['kgdoc:a\u2028', /whitespace or a control character/],
    ['kgdoc:a\ufeff', /whitespace or a control character/],
    ['\ufeffkgdoc:a', /scheme other than/],
    // percent-encoding, query and fragment
    ['workspace:/a%2fb', /percent-encoding/],
    ['kgdoc:%2e%2e/a', /percent-encoding/],
    ['urn:agentdef:a%3Ab', /percent-encoding/],
    ['workspace:/a?b=1', /query or fragment/],
    ['kgdoc:a#b', /query or fragment/],
    ['urn:agentdef:a?', /query or fragment/],
    // other characters outside the segment alphabet
    ['kgdoc:caf\u00e9', /outside \[a-z0-9._-\]/],
    ['kgdoc:a\u202eb', /outside \[a-z0-9._-\]/],
    ['kgdoc:a\ud800', /outside \[a-z0-9._-\]/],
    ['kgdoc:\uff41', /outside \[a-z0-9._-\]/],
    ['kgdoc:a+b', /outside \[a-z0-9._-\]/],
    ['', /must not be empty/],
  ];
  for (const [uri, reason] of invalid) {
    it(`refuses ${JSON.stringify(uri)}: ${reason.source.replace(/\\/g, '')}`, () => {
      const result = checkSourceUri(uri);
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
    });
  }

  it('refuses every value that is not a string, without running any of its code', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap ran');
        },
        getPrototypeOf() {
          throw new Error('trap ran');
        },
      },
    );
    const cases: [unknown, string][] = [
      [undefined, 'undefined'],
      [null, 'null'],
      [1, 'a number'],
      [true, 'a boolean'],
      [1n, 'a bigint'],
      [Symbol('workspace:/a'), 'a symbol'],
      [['workspace:/a'], 'an object'],
      [{ toString: () => 'workspace:/a' }, 'an object'],
      [new String('workspace:/a'), 'an object'],
      [() => 'workspace:/a', 'a function'],
      [revoked.proxy, 'an object'],
      [hostile, 'an object'],
    ];
    for (const [value, kind] of cases)
      expect(checkSourceUri(value)).toEqual({ ok: false, reason: `a source URI must be a string, not ${kind}` });
  });
});

describe('checkSourceUri: reasons', () => {
  it('quote only a short excerpt ending at the offending character, never what follows', () => {
    const result = checkSourceUri('kgdoc:https://user:sk-live-0123456789abcdef@example.com/a');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('source URI has a colon (a nested scheme or port) at offset 11: "kgdoc:https:"');
    const late = checkSourceUri(`workspace:/${'a/'.repeat(40)}SECRET-TOKEN`);
    expect(late.ok).toBe(false);
    if (!late.ok) {
      expect(late.reason).not.toMatch(/ECRET|TOKEN/);
      expect(late.reason).toBe(
        'source URI has an uppercase letter (source URIs are lowercase) at offset 91: "…/a/a/a/a/a/a/a/a/a/a/a/S"',
      );
    }
  });

  it('escape control characters, bidirectional overrides, lone surrogates, quotes and backslashes', () => {
    expect(excerpt('kgdoc:a\u001b[2J\u202e"\\\ud800', 20)).toBe('kgdoc:a\\u001b[2J\\u202e\\"\\\\\\ud800');
    const result = checkSourceUri('kgdoc:a\u001b[31mred');
    expect(result).toEqual({
      ok: false,
      reason: 'source URI has whitespace or a control character at offset 7: "kgdoc:a\\u001b"',
    });
  });

  it('never contain a character outside printable ASCII and quote at most 24 characters of the URI, on any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 200 })), (uri) => {
        const result = checkSourceUri(uri);
        if (result.ok) return;
        expect(result.reason).toMatch(/^[\x20-\x7e…]*$/);
        const quoted = /: "(…?)(.*)"$/.exec(result.reason);
        if (quoted) expect(JSON.parse(`"${quoted[2] as string}"`).length).toBeLessThanOrEqual(24);
      }),
      { numRuns: 500 },
    );
  });
});

/** The grammar read independently of the implementation: split, then check each segment by hand. */
function referenceAccepts(uri: string): 'workspace' | 'kgdoc' | 'urn' | false {
  const segmentOk = (segment: string): boolean => {
    if (segment.length === 0) return false;
    const punctuation = '._-';
    for (let i = 0; i < segment.length; i++) {
      const char = segment[i] as string;
      const alnum = (char >= 'a' && char <= 'z') || (char >= '0' && char <= '9');
      if (!alnum && !punctuation.includes(char)) return false;
      if (
        punctuation.includes(char) &&
        (i === 0 || i === segment.length - 1 || punctuation.includes(segment[i - 1] as string))
      )
        return false;
    }
    return true;
  };
  if (uri.length > SOURCE_URI_MAX_LENGTH) return false;
  if (uri.startsWith('workspace:/')) return uri.slice(11).split('/').every(segmentOk) ? 'workspace' : false;
  if (uri.startsWith('kgdoc:')) return uri.slice(6).split('/').every(segmentOk) ? 'kgdoc' : false;
  if (uri.startsWith('urn:agentdef:')) {
    const segments = uri.slice(13).split(':');
    return segments.every(segmentOk) && !NETWORK_URN_SEGMENTS.includes(segments[0] as string) ? 'urn' : false;
  }
  return false;
}

describe('checkSourceUri: properties', () => {
  const prefix = fc.constantFrom(
    'workspace:/',
    'workspace://',
    'workspace:',
    'kgdoc:',
    'kgdoc:/',
    'urn:agentdef:',
    'urn:agentdef:http:',
    'urn:',
    'Kgdoc:',
    '',
  );
  const tricky = fc.string({
    unit: fc.constantFrom(
      'a',
      'b',
      'z',
      '0',
      '9',
      '.',
      '_',
      '-',
      '/',
      ':',
      '~',
      '%',
      '?',
      '#',
      'A',
      ' ',
      '\n',
      '@',
      '\u00e9',
      '\u0000',
    ),
    maxLength: 12,
  });
  const segment = fc
    .tuple(
      fc.stringMatching(/^[a-z0-9]{1,4}$/),
      fc.array(fc.tuple(fc.constantFrom('.', '_', '-'), fc.stringMatching(/^[a-z0-9]{1,4}$/)), { maxLength: 2 }),
    )
    .map(([head, tail]) => head + tail.map(([p, s]) => p + s).join(''));

  it('accepts exactly what an independent reading of the grammar accepts, and always names a specific rule', () => {
    fc.assert(
      fc.property(prefix, tricky, (head, body) => {
        const uri = head + body;
        const result = checkSourceUri(uri);
        const expected = referenceAccepts(uri);
        expect(result).toEqual(
          expected === false ? { ok: false, reason: expect.any(String) } : { ok: true, scheme: expected },
        );
        if (!result.ok) expect(result.reason).not.toMatch(/a form the source-URI grammar does not allow/);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts every URI generated from the grammar, with its scheme', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('workspace', 'kgdoc', 'urn'),
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        (scheme, segments) => {
          fc.pre(scheme !== 'urn' || !NETWORK_URN_SEGMENTS.includes(segments[0] as string));
          const uri =
            scheme === 'workspace'
              ? `workspace:/${segments.join('/')}`
              : scheme === 'kgdoc'
                ? `kgdoc:${segments.join('/')}`
                : `urn:agentdef:${segments.join(':')}`;
          expect(checkSourceUri(uri)).toEqual({ ok: true, scheme });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withDate: true,
        }),
        (value) => {
          expect(typeof checkSourceUri(value).ok).toBe('boolean');
        },
      ),
      { numRuns: 300 },
    );
  });
});
