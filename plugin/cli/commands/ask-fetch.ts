/**
 * The fetches `agentdef ask` hands the A2A SDK, each bounded:
 * - the card: at most `MAX_CARD_BYTES` read (a larger card is refused once that much has come,
 *   or at once when its Content-Length says so) and a time bound for the whole fetch, body included;
 * - an event stream (a request that accepts `text/event-stream`): refused when it sends nothing
 *   for the idle bound, from the request on (a stream that stops sending, or never starts);
 * - one origin, the card's: an RPC URL or a redirect to another origin (another scheme, host or
 *   port: a card naming http://169.254.169.254/ say) is refused, naming both origins, unless
 *   `follow` is set. Redirects are followed by hand (at most `MAX_REDIRECTS`) so each hop is checked.
 * A refusal is an `AskRefusal`, whose message is meant to be shown as it is.
 */

export const MAX_CARD_BYTES = 1024 * 1024;
export const MAX_REDIRECTS = 5;

/** Why `ask` stopped a fetch: a bound was reached or an origin is not the card's. */
export class AskRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AskRefusal';
  }
}

/** The refusal in `error` or its causes, if any (the SDK may wrap what a fetch throws). */
export function askRefusalIn(error: unknown): AskRefusal | undefined {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
    if (at instanceof AskRefusal) return at;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface OriginRule {
  /** The card's origin, `scheme://host:port`. */
  readonly origin: string;
  /** Talk to another origin all the same (`--follow`). */
  readonly follow: boolean;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function checkOrigin(target: URL, rule: OriginRule, what: string): void {
  if (!rule.follow && target.origin !== rule.origin)
    throw new AskRefusal(
      `${what} is at another origin, ${target.origin}, than the agent card's, ${rule.origin}: not followed (pass --follow to go there)`,
    );
}

/** `fetch`, following redirects one hop at a time so that each hop's origin is checked. */
async function fetchWithinOrigin(
  input: string | URL | Request,
  init: RequestInit | undefined,
  rule: OriginRule,
  what: string,
): Promise<Response> {
  let target = new URL(input instanceof Request ? input.url : input.toString());
  checkOrigin(target, rule, what);
  if (rule.follow) return fetch(target, init);
  for (let hop = 0; ; hop++) {
    const response = await fetch(target, { ...init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) throw new AskRefusal(`${what} redirects more than ${MAX_REDIRECTS} times`);
    target = new URL(location, target);
    checkOrigin(target, rule, `${what} redirects to a URL that`);
  }
}

/** The body of `response`, at most `max` bytes: more is refused as soon as it arrives. */
async function readAtMost(response: Response, max: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new AskRefusal(`${what} is larger than ${max / (1024 * 1024)} MiB; reading stopped there`);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** The card fetch: one origin, at most `MAX_CARD_BYTES`, all of it within `timeoutMs`. */
export function cardFetch(rule: OriginRule, timeoutMs: number): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const timer = new AbortController();
    const timeout = setTimeout(
      () => timer.abort(new AskRefusal(`the agent card did not arrive within ${seconds(timeoutMs)} (--card-timeout)`)),
      timeoutMs,
    );
    try {
      const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
      const response = await fetchWithinOrigin(input, { ...init, signal }, rule, 'the agent card');
      const body = await readAtMost(response, MAX_CARD_BYTES, 'the agent card');
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      throw timer.signal.aborted ? timer.signal.reason : error;
    } finally {
      clearTimeout(timeout);
    }
  }) as typeof fetch;
}

function acceptsEventStream(init: RequestInit | undefined): boolean {
  return new Headers(init?.headers).get('accept')?.includes('text/event-stream') === true;
}

/**
 * The RPC fetch: one origin (the card's) unless `rule.follow`; a request for an event stream is
 * aborted when nothing arrives for `idleMs`, waiting for its answer included.
 */
export function rpcFetch(rule: OriginRule, idleMs: number): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    if (!acceptsEventStream(init)) return fetchWithinOrigin(input, init, rule, "the agent's RPC URL");
    const idle = new AbortController();
    const silence = () =>
      idle.abort(new AskRefusal(`the event stream sent nothing for ${seconds(idleMs)} (--idle-timeout)`));
    let timer = setTimeout(silence, idleMs);
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(silence, idleMs);
      timer.unref();
    };
    timer.unref();
    const signal = init?.signal ? AbortSignal.any([init.signal, idle.signal]) : idle.signal;
    let response: Response;
    try {
      response = await fetchWithinOrigin(input, { ...init, signal }, rule, "the agent's RPC URL");
    } catch (error) {
      clearTimeout(timer);
      throw idle.signal.aborted ? idle.signal.reason : error;
    }
    if (response.body === null) {
      clearTimeout(timer);
      return response;
    }
    rearm();
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            clearTimeout(timer);
            controller.close();
            return;
          }
          rearm();
          controller.enqueue(value);
        } catch (error) {
          clearTimeout(timer);
          controller.error(idle.signal.aborted ? idle.signal.reason : error);
        }
      },
      async cancel(reason) {
        clearTimeout(timer);
        await reader.cancel(reason).catch(() => {});
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
}
