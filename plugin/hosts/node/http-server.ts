/**
 * Serves a web-standard `(Request) => Promise<Response>` handler (the runtime's A2A handler) from
 * `node:http`, with what a process host needs around it: a health route, the background work
 * handed to `waitUntil` (receipt delivery) kept so shutdown can await it, the requests in flight
 * counted so shutdown can drain them, and a clear start error when the port is taken.
 * It guards what reaches the handler as soon as a request's headers arrive, before any body byte
 * is read (request-guard.ts): a `Host` that is not a loopback name with the served port or a
 * configured origin (DNS rebinding) → 421, an `Origin` that is not allowed → 403, more than
 * `maxRequestsInFlight` requests at once → 503 with `Retry-After`, a declared `Content-Length` over
 * the limit → 413; a body without a declared length stops being read once it passes the limit
 * (413). `/healthz` is exempt from the Host check (platform probes use the pod's address).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { busy, hostAllowed, loopbackOrigins, originAllowed, refusal, tooLarge } from '../../runtime/request-guard';
import { HostStartError } from './host-error';
import type { HostListen } from './listen-guard';

export type WebHandler = (
  request: Request,
  perRequest?: { waitUntil?: (p: Promise<unknown>) => void },
) => Promise<Response>;

export interface ServeOptions {
  host: string;
  port: number;
  /** `GET /healthz` answers 200 with this JSON. */
  health?: () => unknown;
  /** How to tell a person to pick another port (for the port-in-use error). */
  portHint?: string;
  /** Largest request body read (bytes); default 1 MiB. */
  maxBodyBytes?: number;
  /** Requests (other than `/healthz`) served at once; more are answered 503 before their body is read; default 32. */
  maxRequestsInFlight?: number;
  /** Origins clients may reach the host at besides its loopback names (`Host` and `Origin` checks). */
  allowedOrigins?: readonly string[];
  /** How long a client may take to send a whole request (headers and body); default 30 s. Slow senders cannot hold the slots. */
  requestTimeoutMs?: number;
  /**
   * How the server listens in a compiled host, where the listen guard refuses `listen` to everyone
   * else: the capability the host's main claimed (listen-guard.ts). Absent: `server.listen`.
   */
  listen?: HostListen;
}

export interface ServedHost {
  /** `http://host:port` (no trailing slash). */
  url: string;
  port: number;
  /** The origins the host accepts in `Host` and `Origin`: its loopback origins and the configured ones. */
  allowedOrigins: readonly string[];
  /** Stops accepting connections, waits for requests in flight (up to `graceMs`), then for background work. */
  close(graceMs?: number): Promise<void>;
  /** Resolves when every background promise so far has settled. */
  settled(): Promise<void>;
}

function toRequest(req: IncomingMessage, body: Buffer | undefined, origin: string, signal: AbortSignal): Request {
  // A Buffer is a Uint8Array: handed over as it is, not copied.
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) for (const item of v) headers.append(k, item);
  }
  return new Request(`${origin}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(body && body.length > 0
      ? { body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength) }
      : {}),
  });
}

/**
 * Writes a web Response to a Node response. A stream (`text/event-stream`) is written chunk by chunk
 * as the handler produces it, waiting for the socket to drain, and cancelled when the client goes.
 */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => undefined);
  res.once('close', gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value))
        await new Promise<void>((resolve) =>
          res.destroyed ? resolve() : res.once('drain', resolve).once('close', resolve),
        );
    }
  } finally {
    res.off('close', gone);
    res.end();
  }
}

export async function serveWebHandler(handler: WebHandler, options: ServeOptions): Promise<ServedHost> {
  const background = new Set<Promise<unknown>>();
  let inFlight = 0;
  let serving = 0;
  let drained: (() => void) | undefined;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxServing = options.maxRequestsInFlight ?? 32;
  let allowedOrigins: string[] = [];
  /**
   * Answers a refused request without keeping its body: one that declares a length within the
   * limit is drained (the connection stays usable), any other closes the connection after the answer.
   */
  const refuse = (req: IncomingMessage, res: ServerResponse, response: Response) => {
    if (Number(req.headers['content-length'] ?? Number.NaN) <= maxBody) req.resume();
    else res.shouldKeepAlive = false;
    void send(res, response).catch(() => res.destroy());
  };
  /** The refusal due as soon as the headers are in, or undefined. */
  const refuseEarly = (req: IncomingMessage): Response | undefined => {
    if (!req.url?.startsWith('/')) return refusal(400, 'Bad request: the request target must be a path');
    if (!hostAllowed(req.headers.host, allowedOrigins))
      return refusal(421, 'Misdirected request: the Host is not one this agent serves');
    if (!originAllowed(req.headers.origin, allowedOrigins))
      return refusal(403, 'Cross-origin requests are not accepted: the Origin is not one this agent serves');
    const declared = req.headers['content-length'];
    if (declared !== undefined && !(Number(declared) <= maxBody)) return tooLarge(maxBody);
    if (serving >= maxServing) return busy(maxServing);
    return undefined;
  };
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const timeouts = {
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 10_000),
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeout / 3))),
  };
  const server = createServer(timeouts, (req, res) => {
    inFlight++;
    // The client going away before the answer aborts the run (the runtime ends it as `aborted`).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    if (req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      req.resume();
      return void send(res, Response.json({ status: 'ok', ...(options.health?.() as object | undefined) })).catch(() =>
        res.destroy(),
      );
    }
    const refused = refuseEarly(req);
    if (refused) return refuse(req, res, refused);
    // A request counts against `maxServing` while it is read and run; an event stream the handler
    // answered with is bounded by the handler's own open-stream limit instead, so held streams do
    // not make every other request busy.
    serving++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      serving--;
    };
    res.once('close', release);
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= maxBody) return void chunks.push(c);
      // Past the limit (a chunked body declares no length): stop reading, answer 413, close.
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      res.shouldKeepAlive = false;
      void send(res, tooLarge(maxBody)).catch(() => res.destroy());
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size > maxBody) return;
      void (async () => {
        try {
          // Host passed the allow-list: the request URL names an origin the host serves.
          const origin = `http://${req.headers.host}`;
          const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
          const response = await handler(toRequest(req, body, origin, gone.signal), {
            waitUntil: (p) => {
              const tracked = p.catch(() => undefined).finally(() => background.delete(tracked));
              background.add(tracked);
            },
          });
          if (response.headers.get('content-type')?.startsWith('text/event-stream')) release();
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
        reject(
          new HostStartError(
            `port ${options.port} on ${options.host} is already in use: stop the process that holds it, or ${options.portHint ?? 'choose another port'}`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new HostStartError(
            `port ${options.port} on ${options.host} cannot be opened (permission denied): ${options.portHint ?? 'choose a port above 1023'}`,
          ),
        );
      } else
        reject(new HostStartError(`cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`));
    });
    if (options.listen) options.listen(server, options.port, options.host, () => resolve());
    else server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedOrigins = [...loopbackOrigins(port), ...(options.allowedOrigins ?? [])];
  const shownHost =
    options.host === '0.0.0.0' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const settled = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };
  return {
    url: `http://${shownHost}:${port}`,
    port,
    allowedOrigins,
    settled,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      }
      server.closeAllConnections();
      await closed;
      await settled();
    },
  };
}
