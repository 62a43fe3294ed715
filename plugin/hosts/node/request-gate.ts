/**
 * The one request gate every HTTP server agentdef starts stands behind (the Node hosts' A2A server,
 * the Worker under `agentdef dev` in front of miniflare). It is a `node:http` server that decides,
 * as soon as a request's headers are in and before any body byte reaches what it guards:
 * - framing: what Node's parser refuses (a negative, non-numeric, overflowing, listed or repeated
 *   `Content-Length`; `Transfer-Encoding` with `Content-Length`; a malformed chunk; an invalid
 *   header line, method token or version) → 400; a transfer coding other than `chunked` → 501;
 *   an HTTP version other than 1.0 and 1.1 → 505; more than {@link MAX_HEADER_LINES} header lines or
 *   more than 16 KiB of them → 431; a header that must appear once (`Host`, `Origin`,
 *   `Content-Type`, `Authorization`, …) appearing twice → 400 (RFC 9112 §3.2 for `Host`); a
 *   request target that is not a path (absolute form, `*`) → 400;
 * - where it is from: a `Host` that is not a loopback name with the served port or a configured
 *   origin (DNS rebinding) → 421 (also when an HTTP/1.0 request names none), a `Host` missing from
 *   an HTTP/1.1 request → 400; an `Origin` that is not allowed (a foreign page, `null`) → 403;
 * - methods: only GET, HEAD and POST are served; anything else (TRACE, PUT, PROPFIND, …) → 405 with
 *   `Allow`; CONNECT → 405; a request asking to upgrade is served as a plain request (no upgrade);
 * - size: a declared `Content-Length` over the limit → 413 at once; a chunked body is read until
 *   it passes the limit (413, connection closed);
 * - time: the headers must arrive within `headersTimeoutMs`, the whole request (headers and body)
 *   within `requestTimeoutMs` (Node's own timers) → 408 and the connection closed; a stalled body
 *   never reaches the guarded handler;
 * - load: more than `maxRequestsInFlight` requests at once → 503 with `Retry-After`.
 * `Expect: 100-continue` is answered only once every check passed. Paths named in `probePaths`
 * (the health route) skip the `Host`, `Origin` and busy checks for GET and HEAD: platform probes use
 * the pod's address. Refusals are the JSON-RPC error objects of request-guard.ts, so every server
 * refuses with the same bytes; a request the gate accepts reaches `accept` with its whole body.
 */
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HostListen } from './listen-guard';
import {
  busy,
  hostAllowed,
  loopbackOrigins,
  originAllowed,
  type RefusalStatus,
  refusal,
  refusalText,
  tooLarge,
} from '../../runtime/request-guard';
import { HostStartError } from './host-error';

/** The methods served; everything else is answered 405 with this list in `Allow`. */
export const GATE_METHODS = ['GET', 'HEAD', 'POST'] as const;
/** Header lines a request may carry (their bytes are bounded by Node's 16 KiB `maxHeaderSize` too). */
export const MAX_HEADER_LINES = 100;
/** Headers a request may carry once only: a second line is a smuggling or confusion attempt. */
const SINGLE_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'content-type',
  'origin',
  'authorization',
  'expect',
]);

export const GATE_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  maxRequestsInFlight: 32,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
} as const;

/** The gate's limits a server may set (each has a default in {@link GATE_DEFAULTS}). */
export interface GateLimits {
  /** Largest request body read (bytes). */
  maxBodyBytes?: number;
  /** Requests (other than probes) served at once; more are answered 503 before their body is read. */
  maxRequestsInFlight?: number;
  /** How long a client may take to send a request's headers. */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request (headers and body): a stalled body is cut off then. */
  requestTimeoutMs?: number;
}

export interface GateOptions extends GateLimits {
  host: string;
  port: number;
  /** How to tell a person to pick another port (for the port-in-use error). */
  portHint?: string;
  /** Origins clients may reach the server at besides its loopback names (`Host` and `Origin` checks). */
  allowedOrigins?: readonly string[];
  /** Paths whose GET and HEAD requests skip the `Host`, `Origin` and busy checks (the health route). */
  probePaths?: readonly string[];
  /** How the server listens where the listen guard refuses `listen` to everyone else (listen-guard.ts). Absent: `server.listen`. */
  listen?: HostListen;
}

/** A request the gate let through, with its whole body read. */
export interface AcceptedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The body as sent (empty when there was none). */
  body: Buffer;
  /** `http://<Host>`: one of the origins the server serves (a probe's may be any). */
  origin: string;
  /** Aborted when the client goes away before the answer is finished. */
  signal: AbortSignal;
  /** The request stops counting against `maxRequestsInFlight` (an event stream, bounded by its handler). */
  release(): void;
}

export interface Gate {
  /** `http://host:port` (no trailing slash). */
  url: string;
  port: number;
  /** The origins accepted in `Host` and `Origin`: the loopback origins of the port and the configured ones. */
  allowedOrigins: readonly string[];
  /** Stops accepting connections, waits for requests in flight (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/** A refusal with the client still sending: how long its connection keeps reading (and dropping) what comes, at most. */
const LINGER_MS = 2000;

/**
 * Closes a refused request's connection the way a careful server does (a lingering close): the
 * answer goes out, then this side ends (FIN), and whatever the client is still sending is read and
 * dropped (at most `lingerBytes` of it) until its body ends, it ends the connection, or `LINGER_MS`
 * pass. Closing with unread bytes would send a reset, and the client's kernel would then drop the
 * answer it had not read yet (a loaded machine lost a 413 that way).
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse, lingerBytes: number): void {
  res.shouldKeepAlive = false;
  const socket = req.socket as Socket & { destroySoon?: () => void };
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    // Enough dropped: stop reading; the linger's end (or the client's) closes the connection.
    if (dropped > lingerBytes) req.pause();
  });
  req.resume();
  const destroySoon = socket.destroySoon;
  socket.destroySoon = () => {
    if (req.complete || typeof destroySoon !== 'function') return void (destroySoon ?? socket.end).call(socket);
    socket.end();
    const stop = () => socket.destroy();
    setTimeout(stop, LINGER_MS).unref();
    socket.once('end', stop);
    req.once('end', stop);
  };
}

/** Writes a web Response (a refusal: small, whole) to a Node response. */
async function sendWhole(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  const body = Buffer.from(await response.arrayBuffer());
  if (res.headersSent || res.destroyed) return;
  res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

/** A refusal written straight to a socket (the request could not be parsed, or took too long), then the socket closed. */
function refuseOnSocket(socket: Duplex, status: RefusalStatus, message: string): void {
  const body = refusalText(message);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...(status === 405 ? [`allow: ${GATE_METHODS.join(', ')}`] : []),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** What a parse error (Node's `clientError`) is answered with, or undefined when nothing is (the client went away). */
function parseRefusal(error: NodeJS.ErrnoException): [RefusalStatus, string] | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request timeout: the request was not received in time'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request header fields too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Request chunk extensions too large'];
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'Bad request: the Content-Length is invalid or repeated'];
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return [400, 'Bad request: the Transfer-Encoding is invalid or comes with a Content-Length'];
    case 'HPE_INVALID_METHOD':
      return [400, 'Bad request: the method is not a valid token'];
    default:
      return [400, 'Bad request: the request is not well-formed HTTP/1.1'];
  }
}

/** The refusal a request's form earns, whatever its path: framing, header lines, version, target. */
function formRefusal(req: IncomingMessage): Response | undefined {
  if (req.httpVersion !== '1.1' && req.httpVersion !== '1.0')
    return refusal(505, `HTTP version ${req.httpVersion} is not supported (use HTTP/1.1)`);
  if (req.rawHeaders.length / 2 > MAX_HEADER_LINES)
    return refusal(431, `Request header fields too large (at most ${MAX_HEADER_LINES} lines)`);
  const seen = new Set<string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name)) return refusal(400, `Bad request: the ${name} header appears more than once`);
    seen.add(name);
  }
  if (req.httpVersion === '1.1' && req.headers.host === undefined)
    return refusal(400, 'Bad request: an HTTP/1.1 request must carry a Host header');
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked')
    return refusal(501, 'Not implemented: the only transfer coding accepted is chunked');
  if (!req.url?.startsWith('/')) return refusal(400, 'Bad request: the request target must be a path');
  return undefined;
}

function methodRefusal(): Response {
  return refusal(405, `Method not allowed: use ${GATE_METHODS.join(', ')}`, { allow: GATE_METHODS.join(', ') });
}

/** Opens the gate on `host:port`; `accept` gets every request that passes, with its body. */
export async function openRequestGate(
  options: GateOptions,
  accept: (request: AcceptedRequest) => void | Promise<void>,
): Promise<Gate> {
  const maxBody = options.maxBodyBytes ?? GATE_DEFAULTS.maxBodyBytes;
  const maxServing = options.maxRequestsInFlight ?? GATE_DEFAULTS.maxRequestsInFlight;
  const requestTimeout = options.requestTimeoutMs ?? GATE_DEFAULTS.requestTimeoutMs;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? GATE_DEFAULTS.headersTimeoutMs, requestTimeout);
  const probePaths = new Set(options.probePaths ?? []);
  let allowedOrigins: string[] = [];
  let inFlight = 0;
  let serving = 0;
  let drained: (() => void) | undefined;

  const isProbe = (req: IncomingMessage) =>
    probePaths.has(req.url ?? '') && (req.method === 'GET' || req.method === 'HEAD');

  /** The refusal due as soon as the headers are in, or undefined. */
  const refuseEarly = (req: IncomingMessage): Response | undefined => {
    const form = formRefusal(req);
    if (form) return form;
    if (isProbe(req)) return undefined;
    if (!hostAllowed(req.headers.host, allowedOrigins))
      return refusal(421, 'Misdirected request: the Host is not one this agent serves');
    if (!originAllowed(req.headers.origin, allowedOrigins))
      return refusal(403, 'Cross-origin requests are not accepted: the Origin is not one this agent serves');
    if (!(GATE_METHODS as readonly string[]).includes(req.method ?? '')) return methodRefusal();
    const declared = req.headers['content-length'];
    if (declared !== undefined && !(Number(declared) <= maxBody)) return tooLarge(maxBody);
    if (serving >= maxServing) return busy(maxServing);
    return undefined;
  };

  /**
   * Answers a refused request without keeping its body: one that declares a length within the
   * limit (and nothing else wrong with its framing) is drained so the connection stays usable; any
   * other closes the connection after the answer.
   */
  const refuse = (req: IncomingMessage, res: ServerResponse, response: Response) => {
    const declared = req.headers['content-length'];
    const drainable =
      response.status !== 400 &&
      response.status !== 501 &&
      req.headers['transfer-encoding'] === undefined &&
      (declared === undefined || Number(declared) <= maxBody);
    if (drainable) req.resume();
    else closeAfterAnswer(req, res, maxBody);
    void sendWhole(res, response).catch(() => res.destroy());
  };

  const server = createServer({
    requestTimeout,
    headersTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    // Checked by the gate (formRefusal), so the 400 carries the same body as every other refusal.
    requireHostHeader: false,
    joinDuplicateHeaders: false,
  });
  // Every header line is kept (Node drops those past 2,000 by default), so a repeated Host late in
  // a flood is still seen; their bytes stay bounded by `maxHeaderSize`.
  server.maxHeadersCount = 0;

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = parseRefusal(error);
    // Only when no answer is under way on this connection (a pipelined request's error after an answer began closes it).
    const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (answer && socket.writable && !current?.headersSent) refuseOnSocket(socket, ...answer);
    else socket.destroy();
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    refuseOnSocket(socket, 405, `Method not allowed: use ${GATE_METHODS.join(', ')}`),
  );
  const onRequest = (req: IncomingMessage, res: ServerResponse, continueWanted: boolean) => {
    inFlight++;
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    const refused = refuseEarly(req);
    if (refused) return refuse(req, res, refused);
    if (continueWanted) res.writeContinue();
    // A probe does not count against `maxServing`; every other request does while it is read and run.
    let released = isProbe(req);
    if (!released) serving++;
    const release = () => {
      if (released) return;
      released = true;
      serving--;
    };
    res.once('close', release);
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBody) return void chunks.push(chunk);
      // Past the limit (a chunked body declares no length): drop the rest, answer 413, close.
      chunks.length = 0;
      closeAfterAnswer(req, res, maxBody);
      void sendWhole(res, tooLarge(maxBody)).catch(() => res.destroy());
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size > maxBody || res.destroyed) return;
      void (async () => {
        try {
          await accept({
            req,
            res,
            body: Buffer.concat(chunks),
            origin: `http://${req.headers.host}`,
            signal: gone.signal,
            release,
          });
        } catch {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":"internal error"}');
        }
      })();
    });
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, false));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, true));

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
  return {
    url: `http://${shownHost}:${port}`,
    port,
    allowedOrigins,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0 && graceMs > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
