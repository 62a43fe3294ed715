import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HostStartError } from './host-error';
import { serveWebHandler } from './http-server';

describe('serving a web handler from node:http', () => {
  it('answers the handler, the health route, and waits for requests in flight and background work on close', async () => {
    let finishBackground!: () => void;
    let backgroundDone = false;
    let release!: () => void;
    const served = await serveWebHandler(
      async (request, perRequest) => {
        const url = new URL(request.url);
        if (url.pathname === '/slow') await new Promise<void>((r) => (release = r));
        perRequest?.waitUntil?.(
          new Promise<void>((r) => (finishBackground = r)).then(() => void (backgroundDone = true)),
        );
        return Response.json({
          method: request.method,
          body: request.method === 'POST' ? await request.text() : null,
          host: url.host,
        });
      },
      { host: '127.0.0.1', port: 0, health: () => ({ agent: 'a@1.0.0' }) },
    );
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(await (await fetch(`${served.url}/healthz`)).json()).toEqual({ status: 'ok', agent: 'a@1.0.0' });
    expect(await (await fetch(`${served.url}/x`, { method: 'POST', body: 'hello' })).json()).toEqual({
      method: 'POST',
      body: 'hello',
      host: `127.0.0.1:${served.port}`,
    });
    finishBackground();
    const slow = fetch(`${served.url}/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 50));
    let closed = false;
    const closing = served.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    expect(await slow).toMatchObject({ method: 'GET' });
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false); // the slow request's background work is still pending
    finishBackground();
    await closing;
    expect(backgroundDone).toBe(true);
  });

  it('fails with a one-line start error naming the port when it is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const attempt = serveWebHandler(async () => new Response('x'), {
        host: '127.0.0.1',
        port,
        portHint: 'pass --port <n>',
      });
      await expect(attempt).rejects.toThrow(HostStartError);
      await expect(
        serveWebHandler(async () => new Response('x'), { host: '127.0.0.1', port, portHint: 'pass --port <n>' }),
      ).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use: stop the process that holds it, or pass --port <n>`,
      );
    } finally {
      blocker.close();
    }
  });

  it('aborts the request signal when the client goes away before the answer', async () => {
    let aborted: Promise<boolean> | undefined;
    const served = await serveWebHandler(
      async (request) => {
        aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(true)));
        await new Promise((r) => setTimeout(r, 2000));
        return new Response('late');
      },
      { host: '127.0.0.1', port: 0 },
    );
    const controller = new AbortController();
    const pending = fetch(served.url, { signal: controller.signal }).catch(() => 'gone');
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await pending).toBe('gone');
    expect(await aborted).toBe(true);
    await served.close(100);
  });

  it('answers the health route whatever the Host (platform probes use the pod address)', async () => {
    const served = await serveWebHandler(async () => new Response('handler'), {
      host: '127.0.0.1',
      port: 0,
      health: () => ({ agent: 'a@1.0.0' }),
    });
    try {
      const answer = await rawExchange(
        served.port,
        `GET /healthz HTTP/1.1\r\nHost: 10.1.2.3:8080\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"agent":"a@1.0.0"');
    } finally {
      await served.close(100);
    }
  });
});

/** Writes `head` (and `body` chunks, if any, until the server answers) on a raw socket; resolves with what the server sent when it closes. */
function rawExchange(port: number, head: string, body?: { chunk: string; max: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let answered = false;
    socket.on('data', (c: Buffer) => {
      received += c.toString();
      answered = true;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => resolve(received));
    socket.write(head);
    if (body) {
      let sent = 0;
      const pump = () => {
        while (!answered && sent < body.max && socket.writable) {
          sent += body.chunk.length;
          if (!socket.write(body.chunk)) return void socket.once('drain', pump);
        }
        if (sent >= body.max) socket.end();
      };
      pump();
    }
  });
}

describe('what the server refuses as soon as the headers arrive', () => {
  const calls: string[] = [];
  const handler = async (request: Request) => {
    calls.push(new URL(request.url).host);
    return Response.json({ ok: true, length: (await request.text()).length });
  };

  it('refuses a Host that is not a loopback name with the served port or a configured origin (421), without calling the handler', async () => {
    calls.length = 0;
    const served = await serveWebHandler(handler, {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: ['http://my-agent:8080'],
    });
    try {
      const port = served.port;
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        '127.0.0.1.evil.example',
        'localhost:1@evil.example',
        `localhost:${port}@evil.example`,
        '127.0.0.1',
        `127.0.0.1:${port + 1}`,
        'my-agent',
        'my-agent:8081',
      ]) {
        const answer = await rawExchange(
          port,
          `POST /a2a/v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        );
        expect(answer, host).toMatch(/^HTTP\/1\.1 421 /);
        expect(answer).toContain(
          '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Misdirected request: the Host is not one this agent serves"}}',
        );
      }
      const missing = await rawExchange(port, `POST /a2a/v1 HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}`);
      expect(missing).toMatch(/^HTTP\/1\.1 421 /);
      expect(calls).toEqual([]);
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `[::1]:${port}`,
        'my-agent:8080',
        'MY-AGENT:8080',
      ]) {
        const answer = await rawExchange(
          port,
          `POST /a2a/v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        );
        expect(answer, host).toMatch(/^HTTP\/1\.1 200 /);
      }
      expect(calls).toEqual([
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `[::1]:${port}`,
        'my-agent:8080',
        'my-agent:8080',
      ]);
    } finally {
      await served.close(100);
    }
  });

  it('refuses a cross-site Origin (403) and an absolute-form request target (400), without calling the handler', async () => {
    calls.length = 0;
    const served = await serveWebHandler(handler, {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: ['https://console.example.com'],
    });
    try {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${served.port}.evil.example`]) {
        const response = await fetch(`${served.url}/a2a/v1`, {
          method: 'POST',
          headers: { origin, 'content-type': 'text/plain' },
          body: '{}',
        });
        expect(response.status, origin).toBe(403);
      }
      const absolute = await rawExchange(
        served.port,
        `GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
      expect(calls).toEqual([]);
      for (const origin of ['https://console.example.com', `http://localhost:${served.port}`]) {
        expect((await fetch(`${served.url}/a2a/v1`, { method: 'POST', headers: { origin }, body: '{}' })).status).toBe(
          200,
        );
      }
    } finally {
      await served.close(100);
    }
  });

  it('answers a declared Content-Length over the limit with 413 before any body byte is sent', async () => {
    calls.length = 0;
    const served = await serveWebHandler(handler, { host: '127.0.0.1', port: 0, maxBodyBytes: 1000 });
    try {
      const answer = await rawExchange(
        served.port,
        `POST /a2a/v1 HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('Request payload too large (the limit is 1000 bytes)');
      expect(calls).toEqual([]);
    } finally {
      await served.close(100);
    }
  });

  it('stops reading a chunked body once it passes the limit, answers 413 and closes the connection', async () => {
    calls.length = 0;
    const served = await serveWebHandler(handler, { host: '127.0.0.1', port: 0, maxBodyBytes: 10_000 });
    try {
      const chunk = `400\r\n${'x'.repeat(0x400)}\r\n`;
      const answer = await rawExchange(
        served.port,
        `POST /a2a/v1 HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        { chunk, max: 200_000_000 },
      );
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(calls).toEqual([]);
    } finally {
      await served.close(100);
    }
  });

  it('drops a client that sends its body too slowly, freeing its slot', async () => {
    calls.length = 0;
    const served = await serveWebHandler(handler, {
      host: '127.0.0.1',
      port: 0,
      requestTimeoutMs: 300,
      maxRequestsInFlight: 1,
    });
    try {
      const started = Date.now();
      const answer = await rawExchange(
        served.port,
        `POST /a2a/v1 HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"slow":`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      // Well under Node's own request timeout (300 s), the only other timer that could answer 408.
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(calls).toEqual([]);
      expect((await fetch(`${served.url}/a2a/v1`, { method: 'POST', body: '{}' })).status).toBe(200);
    } finally {
      await served.close(100);
    }
  });

  it('answers 503 with Retry-After beyond the requests in flight, before reading the body, and serves again once one ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    const served = await serveWebHandler(
      async () => {
        entered++;
        await gate;
        return Response.json({ ok: true });
      },
      { host: '127.0.0.1', port: 0, maxRequestsInFlight: 2, health: () => ({}) },
    );
    try {
      const running = [
        fetch(`${served.url}/a`, { method: 'POST', body: '{}' }),
        fetch(`${served.url}/b`, { method: 'POST', body: '{}' }),
      ];
      while (entered < 2) await new Promise((r) => setTimeout(r, 10));
      const refused = await fetch(`${served.url}/c`, { method: 'POST', body: '{}' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32000);
      expect((await fetch(`${served.url}/healthz`)).status).toBe(200); // health is never refused as busy
      release();
      for (const r of await Promise.all(running)) expect(r.status).toBe(200);
      expect((await fetch(`${served.url}/d`, { method: 'POST', body: '{}' })).status).toBe(200);
      expect(entered).toBe(3);
    } finally {
      await served.close(100);
    }
  });

  it('does not count an open event stream as a request in flight: held streams leave other requests served', async () => {
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const served = await serveWebHandler(
      async (request) => {
        if (new URL(request.url).pathname !== '/stream') return Response.json({ ok: true });
        const body = new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
      { host: '127.0.0.1', port: 0, maxRequestsInFlight: 1 },
    );
    const held = [new AbortController(), new AbortController(), new AbortController()];
    // The Responses are kept: undici cancels the body of one garbage-collected unread, closing its stream.
    const responses: Response[] = [];
    try {
      for (const controller of held) {
        const response = await fetch(`${served.url}/stream`, { method: 'POST', body: '{}', signal: controller.signal });
        expect(response.status).toBe(200);
        responses.push(response);
      }
      expect(streams).toHaveLength(3);
      // One slot, three streams held open: a plain request is still answered.
      const plain = await fetch(`${served.url}/plain`, { method: 'POST', body: '{}' });
      expect(plain.status).toBe(200);
      expect(await plain.json()).toEqual({ ok: true });
      expect(responses.every((response) => !response.bodyUsed)).toBe(true);
    } finally {
      for (const controller of held) controller.abort();
      for (const stream of streams) stream.close();
      await served.close(100);
    }
  });
});
