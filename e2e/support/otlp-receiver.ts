/**
 * A loopback OTLP/HTTP receiver (127.0.0.1): accepts `POST /v1/traces` and `POST /v1/logs` with
 * JSON bodies, answers `200 {}` as a collector does, and keeps every request it got (path,
 * headers, parsed body) for the test to decode.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  text: string;
}

export interface OtlpReceiver {
  url: string;
  received: ReceivedExport[];
  /** Resolves once `count` exports arrived. */
  waitFor(count: number): Promise<ReceivedExport[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !['/v1/traces', '/v1/logs'].includes(req.url ?? '')) {
        res.writeHead(404).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      received.push({ path: req.url ?? '', headers: req.headers, body, text });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiters.splice(0))
        if (received.length >= w.count) w.resolve();
        else waiters.push(w);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(received) }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
