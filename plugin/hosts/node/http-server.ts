/**
 * Serves a web-standard `(Request) => Promise<Response>` handler (the runtime's A2A handler) from
 * `node:http`, with what a process host needs around it: a health route, the background work
 * handed to `waitUntil` (receipt delivery) kept so shutdown can await it, the requests in flight
 * counted so shutdown can drain them, and a clear start error when the port is taken.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostStartError } from './host-error';

export type WebHandler = (request: Request, perRequest?: { waitUntil?: (p: Promise<unknown>) => void }) => Promise<Response>;

export interface ServeOptions {
  host: string;
  port: number;
  /** `GET /healthz` answers 200 with this JSON. */
  health?: () => unknown;
  /** How to tell a person to pick another port (for the port-in-use error). */
  portHint?: string;
  /** Largest request body read (bytes); default 2 MiB. */
  maxBodyBytes?: number;
}

export interface ServedHost {
  /** `http://host:port` (no trailing slash). */
  url: string;
  port: number;
  /** Stops accepting connections, waits for requests in flight (up to `graceMs`), then for background work. */
  close(graceMs?: number): Promise<void>;
  /** Resolves when every background promise so far has settled. */
  settled(): Promise<void>;
}

function toRequest(req: IncomingMessage, body: Buffer | undefined, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) for (const item of v) headers.append(k, item);
  }
  return new Request(`${origin}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, signal, ...(body && body.length > 0 ? { body: Uint8Array.from(body) } : {}) });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function serveWebHandler(handler: WebHandler, options: ServeOptions): Promise<ServedHost> {
  const background = new Set<Promise<unknown>>();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const maxBody = options.maxBodyBytes ?? 2 * 1024 * 1024;
  const server = createServer((req, res) => {
    inFlight++;
    // The client going away before the answer aborts the run (the runtime ends it as `aborted`).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBody) chunks.push(c);
    });
    req.on('end', () => {
      void (async () => {
        try {
          const origin = `http://${req.headers.host ?? `${options.host}:${options.port}`}`;
          if (size > maxBody) return void (await send(res, Response.json({ error: 'request too large' }, { status: 413 })));
          if (req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
            return void (await send(res, Response.json({ status: 'ok', ...(options.health?.() as object | undefined) })));
          }
          const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
          const response = await handler(toRequest(req, body, origin, gone.signal), {
            waitUntil: (p) => {
              const tracked = p.catch(() => undefined).finally(() => background.delete(tracked));
              background.add(tracked);
            },
          });
          await send(res, response);
        } catch {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":"internal error"}');
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new HostStartError(`port ${options.port} on ${options.host} is already in use: stop the process that holds it, or ${options.portHint ?? 'choose another port'}`));
      } else if (error.code === 'EACCES') {
        reject(new HostStartError(`port ${options.port} on ${options.host} cannot be opened (permission denied): ${options.portHint ?? 'choose a port above 1023'}`));
      } else reject(new HostStartError(`cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`));
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = options.host === '0.0.0.0' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const settled = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };
  return {
    url: `http://${shownHost}:${port}`,
    port,
    settled,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      }
      server.closeAllConnections();
      await closed;
      await settled();
    },
  };
}
