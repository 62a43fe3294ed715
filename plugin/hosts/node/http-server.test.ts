import { createServer } from 'node:net';
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
        perRequest?.waitUntil?.(new Promise<void>((r) => (finishBackground = r)).then(() => void (backgroundDone = true)));
        return Response.json({ method: request.method, body: request.method === 'POST' ? await request.text() : null, host: url.host });
      },
      { host: '127.0.0.1', port: 0, health: () => ({ agent: 'a@1.0.0' }) },
    );
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
    expect(await (await fetch(`${served.url}/healthz`)).json()).toEqual({ status: 'ok', agent: 'a@1.0.0' });
    expect(await (await fetch(`${served.url}/x`, { method: 'POST', body: 'hello' })).json()).toEqual({ method: 'POST', body: 'hello', host: `127.0.0.1:${served.port}` });
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
      const attempt = serveWebHandler(async () => new Response('x'), { host: '127.0.0.1', port, portHint: 'pass --port <n>' });
      await expect(attempt).rejects.toThrow(HostStartError);
      await expect(serveWebHandler(async () => new Response('x'), { host: '127.0.0.1', port, portHint: 'pass --port <n>' })).rejects.toThrow(
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
});
