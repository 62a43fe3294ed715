import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkerFront } from './dev-worker-front';

/**
 * workerd stands behind the front on a kept-alive connection; these upstreams are plain Node
 * servers that misbehave the way workerd can under load.
 */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function upstream(handle: Parameters<typeof createServer>[1]): Promise<{ url: URL; server: Server }> {
  const server = createServer({ keepAlive: true }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), server };
}

async function front(url: URL | Promise<URL>) {
  const gate = await openWorkerFront({ port: 0, upstream: Promise.resolve(url) });
  opened.push({ close: () => gate.close(0) });
  return gate.url;
}

const post = (base: string, body: string) =>
  fetch(`${base}/a2a/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the Worker front', () => {
  it('sends a request again when workerd resets the kept-alive connection it went out on, so the client never sees a 502', async () => {
    const seen: string[] = [];
    const requestsOn = new WeakMap<Socket, number>();
    const { url } = await upstream((req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        // The second request on a connection finds it closed (what an idle-timeout close races into).
        if (count > 1) {
          req.socket.resetAndDestroy();
          return;
        }
        seen.push(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ echoed: body }));
      });
    });
    const base = await front(url);
    for (const n of [1, 2, 3, 4]) {
      const answer = await post(base, `{"n":${n}}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ echoed: `{"n":${n}}` });
    }
    // Each request reached the Worker's handler once: a reset connection is retried, an answered one never.
    expect(seen).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
  });

  it('answers 502 when workerd resets a fresh connection (it may have read the request: never sent twice)', async () => {
    let reached = 0;
    const { url } = await upstream((req) => {
      reached += 1;
      req.socket.resetAndDestroy();
    });
    const base = await front(url);
    const answer = await post(base, '{"n":1}');
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({ error: 'the Worker could not be reached' });
    expect(reached).toBe(1);
  });
});
