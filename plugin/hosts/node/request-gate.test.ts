/**
 * The request gate on its own (a real server on 127.0.0.1, raw sockets): its default time limits
 * cut a stalled body off well before 45 s, every header that must appear once is refused when
 * repeated, a refused request never reaches `accept`, and the time limits a person sets in the
 * environment are read strictly (gate-time-limits.ts). The full table of hostile requests runs
 * against the real servers in e2e/cross-host/request-gate-conformance.test.ts.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { gateTimeLimits, HEADERS_TIMEOUT_ENV, REQUEST_TIMEOUT_ENV } from './gate-time-limits';
import { GATE_DEFAULTS, GATE_METHODS, openRequestGate } from './request-gate';

/** Writes `bytes` and resolves with everything the server sent once it closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.write(bytes, 'latin1');
  });
}

describe('the request gate', () => {
  it('cuts a stalled body off well before 45 s by default, and a header wait before that', () => {
    expect(GATE_DEFAULTS.requestTimeoutMs).toBeLessThanOrEqual(20_000);
    expect(GATE_DEFAULTS.headersTimeoutMs).toBeLessThan(GATE_DEFAULTS.requestTimeoutMs);
    expect(GATE_METHODS).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('refuses each single header when repeated, and a stalled body with 408, without reaching accept', async () => {
    const accepted: string[] = [];
    const gate = await openRequestGate(
      { host: '127.0.0.1', port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 },
      ({ req, res, body }) => {
        accepted.push(`${req.method} ${body.length}`);
        res.end('ok');
      },
    );
    try {
      const own = `127.0.0.1:${gate.port}`;
      for (const [name, value] of [
        ['Host', own],
        ['Origin', `http://${own}`],
        ['Content-Type', 'application/json'],
        ['Authorization', 'Bearer x'],
        ['Expect', '100-continue'],
      ] as const) {
        const answer = await exchange(
          gate.port,
          `POST / HTTP/1.1\r\nHost: ${own}\r\n${name === 'Host' ? '' : `${name}: ${value}\r\n`}${name}: ${value}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        );
        expect(answer, name).toMatch(/^HTTP\/1\.1 400 /);
        expect(answer, name).toContain(`the ${name.toLowerCase()} header appears more than once`);
      }
      const started = Date.now();
      const stalled = await exchange(gate.port, `POST / HTTP/1.1\r\nHost: ${own}\r\nContent-Length: 100\r\n\r\n{"a":`);
      expect(stalled).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(accepted).toEqual([]);
      // The gate still serves: an ordinary request reaches accept with its body.
      const fine = await exchange(
        gate.port,
        `POST / HTTP/1.1\r\nHost: ${own}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(fine).toMatch(/^HTTP\/1\.1 200 /);
      expect(accepted).toEqual(['POST 2']);
    } finally {
      await gate.close(0);
    }
  });

  it('keeps its refusal of a body it will not read: the client gets the 413, never only a reset (lingering close)', async () => {
    const gate = await openRequestGate(
      { host: '127.0.0.1', port: 0, maxBodyBytes: 1024 },
      ({ res }) => void res.end('ok'),
    );
    try {
      const own = `127.0.0.1:${gate.port}`;
      const flood = 'x'.repeat(256 * 1024);
      const chunked = `POST / HTTP/1.1\r\nHost: ${own}\r\nTransfer-Encoding: chunked\r\n\r\n${flood.length.toString(16)}\r\n${flood}\r\n0\r\n\r\n`;
      const declared = `POST / HTTP/1.1\r\nHost: ${own}\r\nContent-Length: ${flood.length}\r\n\r\n${flood}`;
      // Each round sends far more than the limit at once, so the answer is written while bytes
      // are still arriving: a server that closes on unread bytes resets, and the answer is lost.
      for (let round = 0; round < 30; round++) {
        const [overChunked, overDeclared] = await Promise.all([
          exchange(gate.port, chunked),
          exchange(gate.port, declared),
        ]);
        expect(overChunked.slice(0, 40), `round ${round}, chunked`).toMatch(/^HTTP\/1\.1 413 /);
        expect(overDeclared.slice(0, 40), `round ${round}, declared`).toMatch(/^HTTP\/1\.1 413 /);
      }
    } finally {
      await gate.close();
    }
  });

  it('reads the time limits from the environment strictly', () => {
    expect(gateTimeLimits({})).toEqual({ limits: {} });
    expect(gateTimeLimits({ [HEADERS_TIMEOUT_ENV]: '1000', [REQUEST_TIMEOUT_ENV]: ' 2000 ' })).toEqual({
      limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 },
    });
    for (const bad of ['0', '99', '300001', '1e3', '-5', '10.5', 'soon', '0x10', '9'.repeat(50)]) {
      const read = gateTimeLimits({ [REQUEST_TIMEOUT_ENV]: bad });
      expect(read, bad).toEqual({
        problem: expect.stringMatching(
          /^AGENTDEF_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 100 to 300000, not ".{1,41}"$/,
        ),
      });
    }
  });
});
