/**
 * Serves a web-standard `(Request) => Promise<Response>` handler (the runtime's A2A handler) from
 * `node:http`, with what a process host needs around it: a health route, the background work
 * handed to `waitUntil` (receipt delivery) kept so shutdown can await it, the requests in flight
 * drained on shutdown, and a clear start error when the port is taken.
 * It stands behind the request gate (request-gate.ts), the same one the Worker under `agentdef dev`
 * stands behind: framing, header lines, version, methods, `Host` (DNS rebinding) and `Origin`,
 * size, header and whole-request time limits and the requests in flight are decided there, before
 * any body byte reaches the handler. `/healthz` is exempt from the Host, Origin and busy checks
 * (platform probes use the pod's address).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostListen } from './listen-guard';
import { type GateLimits, openRequestGate } from './request-gate';

/** The health route: answered whatever the Host (platform probes use the pod's address). */
export const HEALTH_PATH = '/healthz';

export type WebHandler = (
  request: Request,
  perRequest?: { waitUntil?: (p: Promise<unknown>) => void },
) => Promise<Response>;

export interface ServeOptions extends GateLimits {
  host: string;
  port: number;
  /** `GET /healthz` answers 200 with this JSON. */
  health?: () => unknown;
  /** How to tell a person to pick another port (for the port-in-use error). */
  portHint?: string;
  /** Origins clients may reach the host at besides its loopback names (`Host` and `Origin` checks). */
  allowedOrigins?: readonly string[];
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
  const gate = await openRequestGate(
    {
      host: options.host,
      port: options.port,
      ...(options.portHint !== undefined ? { portHint: options.portHint } : {}),
      ...(options.allowedOrigins !== undefined ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.maxRequestsInFlight !== undefined ? { maxRequestsInFlight: options.maxRequestsInFlight } : {}),
      ...(options.headersTimeoutMs !== undefined ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.listen !== undefined ? { listen: options.listen } : {}),
      probePaths: [HEALTH_PATH],
    },
    async ({ req, res, body, origin, signal, release }) => {
      if (req.url === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD'))
        return send(res, Response.json({ status: 'ok', ...(options.health?.() as object | undefined) }));
      try {
        const response = await handler(
          toRequest(req, req.method === 'GET' || req.method === 'HEAD' ? undefined : body, origin, signal),
          {
            waitUntil: (p) => {
              const tracked = p.catch(() => undefined).finally(() => background.delete(tracked));
              background.add(tracked);
            },
          },
        );
        // An event stream is bounded by the handler's own open-stream limit: held streams do not
        // make every other request busy.
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) release();
        await send(res, response);
      } catch {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":"internal error"}');
      }
    },
  );
  const settled = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };
  return {
    url: gate.url,
    port: gate.port,
    allowedOrigins: gate.allowedOrigins,
    settled,
    async close(graceMs = 10_000) {
      await gate.close(graceMs);
      await settled();
    },
  };
}
