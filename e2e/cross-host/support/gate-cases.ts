/**
 * The request gate's conformance table: raw HTTP/1.1 byte sequences, each with the statuses every
 * server agentdef starts must answer with (the Node hosts, the Worker under `agentdef dev`), and
 * how many model calls it may cause (0 for every refused request: nothing refused reaches the
 * agent). The requests are a real A2A SendMessage to the served agent, so one that got through
 * would call the model. Cases cover Host (missing, foreign, repeated, userinfo, other IPv4 and
 * IPv6 spellings), Origin, Content-Length, Transfer-Encoding and chunk framing, methods, request
 * target forms, versions, header floods and malformed header lines, slow headers, a stalled body,
 * oversized bodies, `Expect`, upgrades, pipelining and miniflare's own control headers.
 * Run by e2e/cross-host/request-gate-conformance.test.ts over `net.connect` to 127.0.0.1.
 */

/** What a case knows about the server it is sent to. */
export interface GateTarget {
  port: number;
  /** `127.0.0.1:<port>`. */
  own: string;
}

export interface GateCase {
  name: string;
  /**
   * The bytes to send, in parts written in order. The client never half-closes (a Node server
   * drops a request whose client did): every case ends with `Connection: close`, a refusal that
   * closes, or a stall the server must cut off, so the server closes the connection each time.
   */
  send: (target: GateTarget) => { parts: string[] };
  /** The statuses answered, in order (pipelined requests answer one each; an interim 100 counts). */
  statuses: number[];
  /** Model calls the case causes (default 0). */
  modelCalls?: number;
  /** Whether the case waits on the gate's time limits (the test sets them short). */
  timed?: boolean;
  /** More to check in the answer bytes. */
  check?: (answer: string, target: GateTarget) => string | undefined;
}

/** A SendMessage the served agent (fallback-writer) answers by calling its model once. */
export const SEND_MESSAGE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'gate-1',
  method: 'SendMessage',
  params: {
    message: {
      messageId: 'm-gate',
      role: 'ROLE_USER',
      parts: [{ data: { path: 'src/a.ts', source: 'a', instruction: 'rename a' } }],
    },
  },
});

interface Shape {
  method?: string;
  target?: string;
  version?: string;
  /** The Host line's value; null: no Host line; an array: one line each. */
  host?: string | null | string[];
  /** Extra header lines, verbatim (`Name: value`). */
  lines?: string[];
  /** The body; with `length` (default) a Content-Length line is added. */
  body?: string;
  framing?: 'length' | 'none';
  /** `Connection: close` (default true). */
  close?: boolean;
}

/** One request's bytes: the SendMessage POST to `/a2a/v1` unless told otherwise. */
export function httpRequest(target: GateTarget, shape: Shape = {}): string {
  const method = shape.method ?? 'POST';
  const body = shape.body ?? (method === 'POST' ? SEND_MESSAGE : undefined);
  const hosts = shape.host === undefined ? [target.own] : shape.host === null ? [] : [shape.host].flat();
  const lines = [
    `${method} ${shape.target ?? '/a2a/v1'} ${shape.version ?? 'HTTP/1.1'}`,
    ...hosts.map((h) => `Host: ${h}`),
    ...(method === 'POST' ? ['Content-Type: application/json', 'A2A-Version: 1.0'] : []),
    ...(shape.lines ?? []),
    ...(body !== undefined && (shape.framing ?? 'length') === 'length'
      ? [`Content-Length: ${Buffer.byteLength(body)}`]
      : []),
    ...((shape.close ?? true) ? ['Connection: close'] : []),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

const one =
  (shape: Shape = {}) =>
  (t: GateTarget) => ({ parts: [httpRequest(t, shape)] });
const chunked = (chunks: string) => (t: GateTarget) => ({
  parts: [httpRequest(t, { framing: 'none', lines: ['Transfer-Encoding: chunked'], body: chunks })],
});
const card = (shape: Shape = {}) => one({ method: 'GET', target: '/.well-known/agent-card.json', ...shape });

/** The card must not name a foreign origin anywhere. */
const noForeignOrigin = (answer: string) =>
  answer.includes('evil.example') ? 'the answer names evil.example' : undefined;

export const GATE_CASES: GateCase[] = [
  // Host
  { name: 'Host: own 127.0.0.1:port', send: one(), statuses: [200], modelCalls: 1 },
  {
    name: 'Host: localhost:port',
    send: (t) => one({ host: `localhost:${t.port}` })(t),
    statuses: [200],
    modelCalls: 1,
  },
  { name: 'Host: [::1]:port', send: (t) => one({ host: `[::1]:${t.port}` })(t), statuses: [200], modelCalls: 1 },
  {
    name: 'Host: LOCALHOST:port (case)',
    send: (t) => one({ host: `LOCALHOST:${t.port}` })(t),
    statuses: [200],
    modelCalls: 1,
  },
  { name: 'Host missing (HTTP/1.1)', send: one({ host: null }), statuses: [400] },
  { name: 'Host missing (HTTP/1.0)', send: one({ host: null, version: 'HTTP/1.0' }), statuses: [421] },
  { name: 'Host empty', send: one({ host: '' }), statuses: [421] },
  {
    name: 'Host foreign with the port (DNS rebinding)',
    send: (t) => one({ host: `evil.example:${t.port}` })(t),
    statuses: [421],
  },
  { name: 'Host foreign without a port', send: one({ host: 'evil.example' }), statuses: [421] },
  { name: 'Host 127.0.0.1 without the port', send: one({ host: '127.0.0.1' }), statuses: [421] },
  {
    name: 'Host loopback with another port',
    send: (t) => one({ host: `127.0.0.1:${t.port + 1}` })(t),
    statuses: [421],
  },
  { name: 'Host with userinfo', send: (t) => one({ host: `localhost:${t.port}@evil.example` })(t), statuses: [421] },
  {
    name: 'Host loopback as a subdomain',
    send: (t) => one({ host: `127.0.0.1.evil.example:${t.port}` })(t),
    statuses: [421],
  },
  { name: 'Host IPv6 long form', send: (t) => one({ host: `[0:0:0:0:0:0:0:1]:${t.port}` })(t), statuses: [421] },
  { name: 'Host IPv4-mapped IPv6', send: (t) => one({ host: `[::ffff:127.0.0.1]:${t.port}` })(t), statuses: [421] },
  { name: 'Host IPv6 without brackets', send: (t) => one({ host: `::1:${t.port}` })(t), statuses: [421] },
  { name: 'Host short IPv4 (127.1)', send: (t) => one({ host: `127.1:${t.port}` })(t), statuses: [421] },
  { name: 'Host decimal IPv4', send: (t) => one({ host: `2130706433:${t.port}` })(t), statuses: [421] },
  { name: 'Host with a trailing dot', send: (t) => one({ host: `localhost.:${t.port}` })(t), statuses: [421] },
  { name: 'Host with a path', send: (t) => one({ host: `127.0.0.1:${t.port}/x` })(t), statuses: [421] },
  {
    name: 'Host twice: own, then foreign',
    send: (t) => one({ host: [t.own, `evil.example:${t.port}`] })(t),
    statuses: [400],
  },
  {
    name: 'Host twice: foreign, then own',
    send: (t) => one({ host: [`evil.example:${t.port}`, t.own] })(t),
    statuses: [400],
  },
  { name: 'Host twice: own both times', send: (t) => one({ host: [t.own, t.own] })(t), statuses: [400] },
  // Origin
  {
    name: 'Origin: own loopback origin',
    send: (t) => one({ lines: [`Origin: http://${t.own}`] })(t),
    statuses: [200],
    modelCalls: 1,
  },
  { name: 'Origin: foreign page', send: one({ lines: ['Origin: https://evil.example'] }), statuses: [403] },
  { name: 'Origin: null (sandboxed page, file:)', send: one({ lines: ['Origin: null'] }), statuses: [403] },
  {
    name: 'Origin: loopback with another port',
    send: (t) => one({ lines: [`Origin: http://127.0.0.1:${t.port + 1}`] })(t),
    statuses: [403],
  },
  {
    name: 'Origin twice',
    send: (t) => one({ lines: [`Origin: http://${t.own}`, `Origin: http://${t.own}`] })(t),
    statuses: [400],
  },
  {
    name: 'the issue case: Host and Origin both evil.example with the port',
    send: (t) => one({ host: `evil.example:${t.port}`, lines: [`Origin: http://evil.example:${t.port}`] })(t),
    statuses: [421],
    check: noForeignOrigin,
  },
  // Content-Length
  { name: 'Content-Length negative', send: one({ framing: 'none', lines: ['Content-Length: -1'] }), statuses: [400] },
  {
    name: 'Content-Length twice, the same value',
    send: (t) =>
      one({
        framing: 'none',
        lines: [`Content-Length: ${SEND_MESSAGE.length}`, `Content-Length: ${SEND_MESSAGE.length}`],
      })(t),
    statuses: [400],
  },
  {
    name: 'Content-Length twice, conflicting',
    send: (t) => one({ framing: 'none', lines: [`Content-Length: ${SEND_MESSAGE.length}`, 'Content-Length: 5'] })(t),
    statuses: [400],
  },
  {
    name: 'Content-Length as a list',
    send: one({ framing: 'none', lines: [`Content-Length: ${SEND_MESSAGE.length}, ${SEND_MESSAGE.length}`] }),
    statuses: [400],
  },
  {
    name: 'Content-Length non-numeric',
    send: one({ framing: 'none', lines: ['Content-Length: abc'] }),
    statuses: [400],
  },
  {
    name: 'Content-Length with a sign',
    send: one({ framing: 'none', lines: [`Content-Length: +${SEND_MESSAGE.length}`] }),
    statuses: [400],
  },
  {
    name: 'Content-Length overflowing 64 bits',
    send: one({ framing: 'none', lines: ['Content-Length: 99999999999999999999999'] }),
    statuses: [400],
  },
  {
    name: 'Content-Length huge (declared over the limit)',
    send: one({ framing: 'none', lines: ['Content-Length: 100000000'], body: '' }),
    statuses: [413],
  },
  // Transfer-Encoding and chunks
  {
    name: 'Transfer-Encoding chunked',
    send: chunked(`${SEND_MESSAGE.length.toString(16)}\r\n${SEND_MESSAGE}\r\n0\r\n\r\n`),
    statuses: [200],
    modelCalls: 1,
  },
  {
    name: 'Transfer-Encoding with Content-Length',
    send: (t) => ({
      parts: [
        httpRequest(t, {
          framing: 'none',
          lines: ['Transfer-Encoding: chunked', `Content-Length: ${SEND_MESSAGE.length}`],
          body: `${SEND_MESSAGE.length.toString(16)}\r\n${SEND_MESSAGE}\r\n0\r\n\r\n`,
        }),
      ],
    }),
    statuses: [400],
  },
  {
    name: 'Transfer-Encoding gzip (not chunked last)',
    send: one({ framing: 'none', lines: ['Transfer-Encoding: gzip'] }),
    statuses: [400],
  },
  {
    name: 'Transfer-Encoding gzip, chunked (unknown coding)',
    send: (t) => ({
      parts: [
        httpRequest(t, { framing: 'none', lines: ['Transfer-Encoding: gzip, chunked'], body: '2\r\n{}\r\n0\r\n\r\n' }),
      ],
    }),
    statuses: [501],
  },
  {
    name: 'Transfer-Encoding twice',
    send: (t) => ({
      parts: [
        httpRequest(t, {
          framing: 'none',
          lines: ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
          body: '2\r\n{}\r\n0\r\n\r\n',
        }),
      ],
    }),
    statuses: [400],
  },
  { name: 'chunk size not hex', send: chunked('zz\r\n{}\r\n0\r\n\r\n'), statuses: [400] },
  { name: 'chunk size overflowing', send: chunked('fffffffffffffffffffff\r\n{}\r\n0\r\n\r\n'), statuses: [400] },
  { name: 'chunk data longer than its size', send: chunked('2\r\n{}xx\r\n0\r\n\r\n'), statuses: [400] },
  {
    name: 'chunked body over the limit',
    send: (t) => ({
      parts: [
        httpRequest(t, { framing: 'none', lines: ['Transfer-Encoding: chunked'], body: '' }),
        ...Array.from({ length: 20 }, () => `10000\r\n${'x'.repeat(0x10000)}\r\n`),
        '0\r\n\r\n',
      ],
    }),
    statuses: [413],
  },
  // Methods
  {
    name: 'TRACE',
    send: one({ method: 'TRACE', target: '/' }),
    statuses: [405],
    check: (a) => (/\r\nallow: GET, HEAD, POST\r\n/i.test(a) ? undefined : 'no Allow: GET, HEAD, POST'),
  },
  { name: 'TRACE on the JSON-RPC path', send: one({ method: 'TRACE', body: '' }), statuses: [405] },
  {
    name: 'CONNECT',
    send: (t) => ({ parts: [`CONNECT evil.example:443 HTTP/1.1\r\nHost: ${t.own}\r\n\r\n`] }),
    statuses: [405],
    check: (a) => (/\r\nallow: GET, HEAD, POST\r\n/i.test(a) ? undefined : 'no Allow: GET, HEAD, POST'),
  },
  { name: 'PUT', send: one({ method: 'PUT', body: SEND_MESSAGE }), statuses: [405] },
  { name: 'DELETE', send: one({ method: 'DELETE' }), statuses: [405] },
  {
    name: 'OPTIONS (preflight)',
    send: one({ method: 'OPTIONS', lines: ['Origin: https://evil.example', 'Access-Control-Request-Method: POST'] }),
    statuses: [403],
  },
  { name: 'OPTIONS from no page', send: one({ method: 'OPTIONS' }), statuses: [405] },
  { name: 'PROPFIND (a method Node knows)', send: one({ method: 'PROPFIND' }), statuses: [405] },
  { name: 'an unknown method token', send: one({ method: 'FOO' }), statuses: [400] },
  { name: 'a lower-case method', send: one({ method: 'post', body: SEND_MESSAGE }), statuses: [400] },
  // Request target and version
  { name: 'absolute-form target, foreign', send: one({ target: 'http://evil.example/a2a/v1' }), statuses: [400] },
  { name: 'absolute-form target, own', send: (t) => one({ target: `http://${t.own}/a2a/v1` })(t), statuses: [400] },
  { name: 'asterisk-form target', send: one({ method: 'OPTIONS', target: '*' }), statuses: [400] },
  { name: 'HTTP/2.0 in a request line', send: one({ version: 'HTTP/2.0' }), statuses: [505] },
  { name: 'HTTP/1.2', send: one({ version: 'HTTP/1.2' }), statuses: [400] },
  { name: 'the HTTP/2 preface', send: () => ({ parts: ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'] }), statuses: [400] },
  { name: 'HTTP/1.0 with its Host', send: one({ version: 'HTTP/1.0' }), statuses: [200], modelCalls: 1 },
  // Header lines
  {
    name: 'header flood: 150 short lines',
    send: one({ lines: Array.from({ length: 150 }, (_, i) => `X-F${i}: ${i}`) }),
    statuses: [431],
  },
  { name: 'header bytes over 16 KiB', send: one({ lines: [`X-Big: ${'a'.repeat(17_000)}`] }), statuses: [431] },
  { name: 'obsolete line folding', send: one({ lines: ['X-A: a', '  b'] }), statuses: [400] },
  { name: 'space before the colon', send: one({ lines: ['Origin : https://evil.example'] }), statuses: [400] },
  { name: 'NUL in a header value', send: one({ lines: ['X-A: a\0b'] }), statuses: [400] },
  { name: 'bare LF line ends', send: (t) => ({ parts: [`GET / HTTP/1.1\nHost: ${t.own}\n\n`] }), statuses: [400] },
  { name: 'Content-Type twice', send: one({ lines: ['Content-Type: text/plain'] }), statuses: [400] },
  // Time
  {
    name: 'slow headers (never finished)',
    send: (t) => ({ parts: [`POST /a2a/v1 HTTP/1.1\r\nHost: ${t.own}\r\nX-Slow: `] }),
    statuses: [408],
    timed: true,
  },
  {
    name: 'stalled body (100 bytes declared, 10 sent)',
    send: (t) => ({
      parts: [httpRequest(t, { framing: 'none', lines: ['Content-Length: 100'], body: SEND_MESSAGE.slice(0, 10) })],
    }),
    statuses: [408],
    timed: true,
  },
  // Expect, upgrades, pipelining, miniflare's headers
  {
    name: 'Expect: 100-continue, foreign Host: no 100 Continue',
    send: (t) => ({ parts: [httpRequest(t, { host: `evil.example:${t.port}`, lines: ['Expect: 100-continue'] })] }),
    statuses: [421],
  },
  { name: 'Expect: 100-continue', send: one({ lines: ['Expect: 100-continue'] }), statuses: [100, 200], modelCalls: 1 },
  {
    name: 'Upgrade: websocket is served as a plain request',
    send: one({
      close: false,
      lines: [
        'Connection: Upgrade, close',
        'Upgrade: websocket',
        'Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==',
        'Sec-WebSocket-Version: 13',
      ],
    }),
    statuses: [200],
    modelCalls: 1,
  },
  {
    name: 'pipelined: two card requests',
    send: (t) => ({
      parts: [
        `${httpRequest(t, { method: 'GET', target: '/.well-known/agent-card.json', close: false })}${httpRequest(t, { method: 'GET', target: '/.well-known/agent-card.json' })}`,
      ],
    }),
    statuses: [200, 200],
  },
  {
    name: 'pipelined: a card request, then a foreign Host',
    send: (t) => ({
      parts: [
        `${httpRequest(t, { method: 'GET', target: '/.well-known/agent-card.json', close: false })}${httpRequest(t, { host: `evil.example:${t.port}` })}`,
      ],
    }),
    statuses: [200, 421],
    check: (a, t) =>
      a.includes(`"url":"http://${t.own}/`) ? undefined : 'the card does not advertise the served origin',
  },
  {
    name: "card with miniflare's MF-Original-URL",
    send: card({ lines: ['MF-Original-URL: http://evil.example/.well-known/agent-card.json'] }),
    statuses: [200],
    check: (a, t) =>
      noForeignOrigin(a) ??
      (a.includes(`http://${t.own}/`) ? undefined : 'the card does not advertise the served origin'),
  },
  {
    name: 'card with a forwarded Host header',
    send: card({ lines: ['X-Forwarded-Host: evil.example', 'Forwarded: host=evil.example'] }),
    statuses: [200],
    check: noForeignOrigin,
  },
];
