/**
 * The front of a Worker served on this machine (`agentdef dev`, the e2e tests): the request gate
 * (plugin/hosts/node/request-gate.ts, the one the Node hosts stand behind) on the served port, and
 * every request it accepts forwarded to workerd, which miniflare serves on a loopback port of its
 * own that nothing else is told about. What is forwarded:
 * - the method, the path and the headers as the client sent them, `Host` included (the gate allowed
 *   it: a loopback name with the served port, so the card names the front's origin), without the
 *   hop-by-hop headers and without `MF-*` and `CF-*` ones (miniflare's own controls, and what
 *   Cloudflare's edge sets); the body the gate read, with its length;
 * - the answer as workerd gives it, streamed with backpressure (an event stream is flushed as it
 *   is produced and stops counting against the requests in flight); a client that goes away
 *   aborts the request to workerd, so the Worker sees the disconnect as it would in production.
 */
import { Agent, type ClientRequest, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { pipeline } from 'node:stream';
import { type Gate, type GateLimits, openRequestGate } from '../../hosts/node/request-gate';

/** Request headers that describe one connection, not the request: never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'content-length',
  'http2-settings',
]);

/** Whether a request header goes on to workerd. */
function forwarded(name: string, connectionTokens: ReadonlySet<string>): boolean {
  const lower = name.toLowerCase();
  return !HOP_BY_HOP.has(lower) && !connectionTokens.has(lower) && !lower.startsWith('mf-') && !lower.startsWith('cf-');
}

/** The response headers workerd gave, for the client (hop-by-hop ones dropped; Node frames the body). */
function answerHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') out[name] = value;
  if (headers['content-length'] !== undefined) out['content-length'] = headers['content-length'];
  return out;
}

/** How many times one request is sent to workerd when it provably never read it. */
const MAX_ATTEMPTS = 3;

/**
 * Whether workerd provably never read the request: a kept-alive connection it closed while idle
 * (a reset or broken pipe on a reused socket, Node's documented retry case), or a refused connection.
 */
function unsent(request: ClientRequest, error: NodeJS.ErrnoException): boolean {
  if (error.code === 'ECONNREFUSED') return true;
  return request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
}

export interface WorkerFrontOptions extends GateLimits {
  /** The served port (0: any free one). */
  port: number;
  /** Where workerd serves (miniflare's loopback URL): the front takes its port first, workerd starts after. */
  upstream: Promise<URL>;
}

/** Opens the gate on 127.0.0.1 and forwards what it accepts to workerd. */
export async function openWorkerFront(options: WorkerFrontOptions): Promise<Gate> {
  const agent = new Agent({ keepAlive: true });
  const { upstream, port, ...limits } = options;
  const gate = await openRequestGate(
    { host: '127.0.0.1', port, portHint: 'pass --port <n> with a free port', ...limits },
    async ({ req, res, body, signal, release }) => {
      const worker = await upstream;
      const connectionTokens = new Set(
        (req.headers.connection ?? '')
          .split(',')
          .map((token) => token.trim().toLowerCase())
          .filter((token) => token !== ''),
      );
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        if (forwarded(req.rawHeaders[i]!, connectionTokens)) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const hasBody = body.length > 0 || req.method === 'POST';
      if (hasBody) headers.push(['content-length', String(body.length)]);
      const send = (attempt: number) =>
        new Promise<void>((done) => {
          const toWorker = httpRequest(
            {
              protocol: 'http:',
              hostname: worker.hostname,
              port: worker.port,
              method: req.method,
              path: req.url,
              headers: headers.flat(),
              agent,
              signal,
            },
            (answer) => {
              const stream = (answer.headers['content-type'] ?? '').startsWith('text/event-stream');
              res.writeHead(answer.statusCode ?? 502, answerHeaders(answer.headers));
              if (stream) {
                release();
                res.flushHeaders();
              }
              pipeline(answer, res, () => done());
            },
          );
          toWorker.on('error', (error: NodeJS.ErrnoException) => {
            if (
              !res.headersSent &&
              !res.destroyed &&
              !signal.aborted &&
              attempt < MAX_ATTEMPTS &&
              unsent(toWorker, error)
            ) {
              // workerd never read this request (it closed an idle kept-alive connection as the
              // request went out on it, or it refused the connection): sending it again is safe.
              done(send(attempt + 1));
              return;
            }
            if (!res.headersSent && !res.destroyed) {
              res.writeHead(502, { 'content-type': 'application/json' });
              res.end('{"error":"the Worker could not be reached"}');
            } else res.destroy();
            done();
          });
          toWorker.end(hasBody ? body : undefined);
        });
      return send(1);
    },
  );
  const close = gate.close;
  return {
    ...gate,
    async close(graceMs?: number) {
      await close(graceMs);
      agent.destroy();
    },
  };
}
