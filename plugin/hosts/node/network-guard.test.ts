/**
 * The network guard's pure parts (host canonicalisation, the host:port pairs of an allow-list), and
 * that importing the host's modules installs nothing: only a compiled entry installs the guard
 * (e2e/cross-host/egress-bypass.test.ts attacks it in real host processes).
 */
import { describe, expect, it } from 'vitest';
import { armNetworkGuard, canonicalHost, networkGuardInstalled, socketEndpoints } from './network-guard';

describe('the network guard', () => {
  it('canonicalises hosts the way URL parsing does, so another spelling of an address is the same host', () => {
    expect(canonicalHost('127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalHost('0x7f.0.0.1')).toBe('127.0.0.1');
    expect(canonicalHost('2130706433')).toBe('127.0.0.1');
    expect(canonicalHost('API.Example.COM.')).toBe('api.example.com');
    expect(canonicalHost('::1')).toBe('::1');
    expect(canonicalHost('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(canonicalHost('bad host')).toBeUndefined();
  });

  it("turns an allow-list into host:port pairs, with the scheme's default port", () => {
    expect(
      [
        ...socketEndpoints([
          'https://api.openai.com',
          'http://127.0.0.1:11434',
          'http://[::1]:8080/x',
          'http://example.com',
        ]),
      ].sort(),
    ).toEqual(['127.0.0.1:11434', '::1:8080', 'api.openai.com:443', 'example.com:80']);
  });

  it('is installed only by a compiled entry: importing it (as this test does) changes nothing, and arming then is a no-op', async () => {
    const fetchBefore = globalThis.fetch;
    expect(networkGuardInstalled()).toBe(false);
    armNetworkGuard(['http://127.0.0.1:1']);
    expect(networkGuardInstalled()).toBe(false);
    expect(globalThis.fetch).toBe(fetchBefore);
  });
});
