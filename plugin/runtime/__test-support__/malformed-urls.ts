/**
 * Endpoint URLs that pass the definition schema's pattern (`^https?://[^\\s/@]+(?:/\\S*)?$`) and
 * that the WHATWG URL parser refuses: the class of issue 23's `https://web.archive.org^1.2.3`,
 * `https://[::1` and `http://a:99999`. Each with the reason endpoint-url.ts gives. Shared by the
 * parser's, the validation rule's and the compile tests.
 */
export const MALFORMED_ENDPOINTS: readonly { url: string; problem: RegExp }[] = [
  { url: 'https://web.archive.org^1.2.3', problem: /host is not a valid domain/ },
  { url: 'https://[::1', problem: /IPv6 address is not closed/ },
  { url: 'https://[::1/path', problem: /IPv6 address is not closed/ },
  { url: 'http://a:99999', problem: /port is above 65535/ },
  { url: 'http://a:65536', problem: /port is above 65535/ },
  { url: 'http://[::1]:70000', problem: /port is above 65535/ },
  { url: 'http://a:12x', problem: /host is not a valid domain.*port is not a number/ },
  { url: 'https://a<b', problem: /host is not a valid domain/ },
  { url: 'https://a|b.example', problem: /host is not a valid domain/ },
  { url: 'https://exa%mple.com', problem: /host is not a valid domain/ },
  { url: 'https://%00', problem: /host is not a valid domain/ },
  { url: 'https://1.2.3.4.5', problem: /host is not a valid domain/ },
  { url: 'https://0x100000000', problem: /host is not a valid domain/ },
  { url: 'https://256.256.256.256', problem: /host is not a valid domain/ },
  { url: 'https://[1:2:3]', problem: /host is not a valid domain/ },
  { url: 'https://[::1]x', problem: /host is not a valid domain/ },
  { url: 'https://xn--', problem: /host is not a valid domain/ },
  { url: 'https://a\u0000b', problem: /host is not a valid domain/ },
  { url: 'https://a%2fb', problem: /host is not a valid domain/ },
  { url: 'https://:443', problem: /host is not a valid domain/ },
  { url: 'http://a:b:c', problem: /host is not a valid domain/ },
];
