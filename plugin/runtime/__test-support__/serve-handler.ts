/**
 * Serves a web-standard `(Request) => Promise<Response>` handler from a real `node:http` server on
 * loopback, as a Node host (container entrypoint, local launcher) would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedHandler {
  url: string;
  /** Promises handed to `waitUntil`, so tests can await background work. */
  background: Promise<unknown>[];
  close(): Promise<void>;
}

export async function serveHandler(
  handler: (request: Request, perRequest?: { waitUntil?: (p: Promise<unknown>) => void }) => Promise<Response>,
): Promise<ServedHandler> {
  const background: Promise<unknown>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body =
        chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      });
      const response = await handler(request, { waitUntil: (p) => background.push(p) });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    background,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
