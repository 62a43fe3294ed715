/**
 * The one reading of a URL-valued field (endpoint-url.ts): a table of malformed URLs that the
 * definition schema's pattern lets through (issue 23: `https://web.archive.org^1.2.3`,
 * `https://[::1`, `http://a:99999`, and their kin) is refused with a reason that never repeats
 * the value; well-formed ones give the origin the egress allow-lists hold. The verdicts are the
 * WHATWG parser's in Node and, bundled as the runtime is, in workerd (miniflare): validation
 * (Node) and a Worker read every URL alike.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import fc from 'fast-check';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPATIBILITY_DATE } from '../targets/cloudflare-dynamic-worker/worker-constants';
import { originOf } from './egress';
import { parseAbsoluteUrl, parseEndpointUrl } from './endpoint-url';
import { MALFORMED_ENDPOINTS } from './__test-support__/malformed-urls';

const WELL_FORMED: readonly [string, string][] = [
  ['https://web.archive.org', 'https://web.archive.org'],
  ['https://Fetch.ACME.dev/v1/x?y=1', 'https://fetch.acme.dev'],
  ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ['http://[::1]:8080/', 'http://[::1]:8080'],
  ['https://api.example.com:443', 'https://api.example.com'],
  ['http://a:65535', 'http://a:65535'],
  ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ['https://0x7f.1', 'https://127.0.0.1'],
];

describe('parseEndpointUrl', () => {
  it('refuses every malformed endpoint of the table, saying why and what to write, never repeating it', () => {
    for (const { url, problem } of MALFORMED_ENDPOINTS) {
      const parsed = parseEndpointUrl(url);
      expect(parsed.ok, url).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.problem, url).toMatch(/^is not a URL the WHATWG URL parser accepts: /);
      expect(parsed.problem, url).toMatch(problem);
      expect(parsed.suggestion.length, url).toBeGreaterThan(20);
      expect(`${parsed.problem} ${parsed.suggestion}`, url).not.toContain(url);
      // The runtime's reading is the same: the egress allow-list refuses it as validation does.
      expect(() => originOf(url), url).toThrow(/^egress: an endpoint is not a URL the WHATWG URL parser accepts/);
      // And it is the WHATWG parser's verdict.
      expect(URL.canParse(url), url).toBe(false);
    }
  });

  it('gives the WHATWG origin of well-formed endpoints, as the egress allow-list holds it', () => {
    for (const [url, origin] of WELL_FORMED) {
      const parsed = parseEndpointUrl(url);
      expect(parsed.ok && parsed.origin, url).toBe(origin);
      expect(originOf(url)).toBe(origin);
    }
  });

  it('refuses other schemes, and non-strings, and reports credentials without refusing them', () => {
    expect(parseEndpointUrl('ftp://a.example')).toMatchObject({ ok: false, problem: expect.stringMatching(/ftp:/) });
    expect(parseEndpointUrl(42)).toMatchObject({ ok: false, problem: 'is not a string' });
    expect(parseEndpointUrl('https://u:p@a.example')).toMatchObject({ ok: true, hasCredentials: true });
    expect(parseAbsoluteUrl('urn:isbn:0451450523')).toMatchObject({ ok: true });
    expect(parseAbsoluteUrl('https://[::1')).toMatchObject({ ok: false });
  });

  it('agrees with the WHATWG parser on any string: ok exactly when it parses as http(s)', () => {
    const hostish = fc.stringMatching(/^[a-z0-9.\-[\]:%^|<>@_]{0,20}$/);
    const candidate = fc.oneof(
      fc
        .tuple(fc.constantFrom('http://', 'https://', 'ftp://', 'HTTP://', ''), hostish, fc.string({ maxLength: 8 }))
        .map(([s, h, rest]) => `${s}${h}${rest}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(candidate, (text) => {
        const parsed = parseEndpointUrl(text);
        const whatwg = URL.canParse(text) ? new URL(text) : undefined;
        const expected = whatwg !== undefined && (whatwg.protocol === 'http:' || whatwg.protocol === 'https:');
        expect(parsed.ok).toBe(expected);
        if (parsed.ok) expect(parsed.origin).toBe(whatwg!.origin);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('in workerd, the runtime reads the same URLs the same way', () => {
  let mf: Miniflare;
  beforeAll(async () => {
    const code = (
      await build({
        stdin: {
          contents: `import { parseEndpointUrl } from ${JSON.stringify(join(__dirname, 'endpoint-url.ts'))};
export default { async fetch(request) {
  const urls = await request.json();
  return Response.json(urls.map((u) => { const p = parseEndpointUrl(u); return p.ok ? p.origin : null; }));
} };`,
          resolveDir: __dirname,
          loader: 'ts',
        },
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'neutral',
        target: 'es2022',
        logLevel: 'silent',
      })
    ).outputFiles[0]!.text;
    mf = new Miniflare({ modules: true, script: code, compatibilityDate: COMPATIBILITY_DATE });
    await mf.ready;
  });
  afterAll(async () => mf?.dispose());

  it('refuses the malformed table and gives the same origins for the well-formed ones', async () => {
    const urls = [...MALFORMED_ENDPOINTS.map((m) => m.url), ...WELL_FORMED.map(([u]) => u)];
    const response = await mf.dispatchFetch('http://worker/', { method: 'POST', body: JSON.stringify(urls) });
    const inWorkerd = (await response.json()) as (string | null)[];
    const inNode = urls.map((u) => {
      const p = parseEndpointUrl(u);
      return p.ok ? p.origin : null;
    });
    expect(inWorkerd).toEqual(inNode);
    expect(inWorkerd.slice(0, MALFORMED_ENDPOINTS.length).every((o) => o === null)).toBe(true);
  });
});
