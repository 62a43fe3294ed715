/**
 * A round-robin HTTP proxy on loopback, as a load balancer in front of replicas: each JSON-RPC
 * request (a POST) goes to the next backend in turn, anything else (the card, health) to the
 * first; bodies and answers are streamed through unchanged (Server-Sent Events included). It
 * records which backend answered which JSON-RPC method, so a test can show that a task sent
 * through one replica was read, followed or canceled through the other. `backends` may change
 * while it runs (a replica killed is taken out, as a balancer's health check would).
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoutedCall {
  method: string;
  /** The backend's URL. */
  backend: string;
}

export interface RoundRobinProxy {
  url: string;
  backends: string[];
  /** Every JSON-RPC call routed, in order. */
  calls: RoutedCall[];
  /** The backend the next JSON-RPC call goes to. */
  upNext(): string;
  /** Passes the turn to the following backend. */
  skip(): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const calls: RoutedCall[] = [];
  let next = 0;
  const proxy: RoundRobinProxy = {
    url: '',
    backends: [...backends],
    calls,
    upNext: () => proxy.backends[next % proxy.backends.length]!,
    skip: () => {
      next++;
    },
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isRpc = req.method === 'POST';
      const backend = isRpc ? proxy.backends[next++ % proxy.backends.length]! : proxy.backends[0]!;
      if (isRpc) calls.push({ method: rpcMethod(body), backend });
      const target = new URL(req.url ?? '/', backend);
      const upstream = httpRequest(
        target,
        { method: req.method, headers: forwardedHeaders(req, body.length), agent: false },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
      });
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

function rpcMethod(body: Buffer): string {
  try {
    const method = (JSON.parse(body.toString('utf8')) as { method?: unknown }).method;
    return typeof method === 'string' ? method : '';
  } catch {
    return '';
  }
}

/** The client's headers, with the body's real length (the Host header stays the proxy's: the public origin). */
function forwardedHeaders(req: IncomingMessage, length: number): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection')
      continue;
    headers[name] = value;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') headers['content-length'] = String(length);
  return headers;
}
