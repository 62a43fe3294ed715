/**
 * Starts a compiled Cloudflare Worker output in workerd (through miniflare) on loopback, the way
 * it is deployed; `agentdef dev` serves Worker outputs with it and the e2e tests run them with it:
 * - `loader` (default): `loader.js` bundled with its `host-plan.json` as wrangler would, with a
 *   Worker Loader binding (`workerLoaders`); the agent runs as a dynamically loaded Worker whose
 *   `globalOutbound` is the loader's egress gateway;
 * - `direct`: `worker.js` as an ordinary Worker (what `wrangler.jsonc` deploys).
 * The bindings come from the host plan (KV namespaces are local; secrets are given by the caller).
 * The task store's Durable Object (SQLite-backed, exported by both `loader.js` and `worker.js`) is
 * kept in memory: tasks last as long as the dev server, nothing is written to disk.
 * Outbound requests (recorded either way): with `outbound: 'loopback-only'` (the default, for
 * tests) there is no network: each reaches `upstreams` (an origin → a loopback server) or gets a
 * 599; with `outbound: 'internet'` (`agentdef dev`) they go out as in production, after the
 * loader's egress gateway has checked them against the host plan.
 * The served port is the request gate's (dev-worker-front.ts, the gate the Node hosts stand behind):
 * workerd listens on a loopback port of its own and is reached only through the gate, which refuses
 * a foreign `Host` or `Origin`, malformed framing, other methods, oversized and stalled requests
 * before the Worker sees them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import type { Request as MiniflareRequest, Response as MiniflareResponse } from 'miniflare';
import type { HostPlan } from '../../host-contract/worker-host-plan';
import type { GateLimits } from '../../hosts/node/request-gate';
import { CARD_SIGNING_KEY_BINDING } from '../../runtime/agent-card';
import { OTLP_ENDPOINT_BINDING, OTLP_HEADERS_BINDING } from '../../hosts/worker/worker-telemetry';
import type { Receipt } from '../../runtime/receipts';
import { parseStrictJson } from '../../runtime/strict-json';
import { openWorkerFront } from './dev-worker-front';

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);

export interface OutboundRecord {
  method: string;
  url: string;
  /** The loopback URL it was sent to, or undefined when no upstream serves the origin. */
  routedTo?: string;
}

export interface StartOptions {
  mode?: 'loader' | 'direct';
  /** Secret values by binding name (the model keys, the receipt signing key). */
  secrets?: Record<string, string>;
  /** Public origin → loopback base URL that stands in for it (e.g. `https://api.openai.com` → the stub provider). */
  upstreams?: Record<string, string>;
  /**
   * Where a request goes instead, decided per URL before `upstreams` (undefined: not rerouted):
   * `agentdef dev --record/--replay` sends model requests to its record/replay server this way.
   */
  route?: (url: URL) => string | undefined;
  /** `loopback-only` (default): only `upstreams`, 599 for anything else; `internet`: requests the egress gateway allowed go out. */
  outbound?: 'loopback-only' | 'internet';
  /** Plain Worker vars by name (what `wrangler deploy --var` sets), e.g. the unregistered-deployment mark. */
  vars?: Record<string, string>;
  /** The loopback port to serve on (default: any free one). */
  port?: number;
  /** The request gate's limits on the served port (body size, requests in flight, header and request time). */
  gate?: GateLimits;
  /** Service bindings by name (MCP servers, other Workers). */
  services?: Record<string, (request: MiniflareRequest) => Promise<MiniflareResponse> | MiniflareResponse>;
  /**
   * The caller stops the Worker itself on SIGINT and SIGTERM (`agentdef dev`): miniflare's own
   * signal listeners, which exit the process at once (130, 143) before the caller's clean stop,
   * are removed. Its exit listener stays, so workerd never outlives the process.
   */
  callerHandlesSignals?: boolean;
}

export interface StartedWorker {
  url: string;
  hostPlan: HostPlan;
  outbound: OutboundRecord[];
  /** Everything the Worker wrote to stdout and stderr. */
  logs: string[];
  /** The receipts in the receipt sink (KV), waiting up to `timeoutMs` for at least `atLeast` of them. */
  receipts(atLeast?: number, timeoutMs?: number): Promise<Receipt[]>;
  dispose(): Promise<void>;
}

/** `loader.js` as wrangler would bundle it: one module, `./host-plan.json` inlined, `cloudflare:*` left to the runtime. */
export async function bundleLoader(outDir: string): Promise<string> {
  const out = await build({
    entryPoints: [join(outDir, 'loader.js')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    external: ['cloudflare:*'],
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** The plan's Durable Object bindings (the task store) as miniflare declares them: SQLite-backed, classes of the served script. */
export function durableObjectsOf(hostPlan: HostPlan): Record<string, { className: string; useSQLite: true }> {
  const out: Record<string, { className: string; useSQLite: true }> = {};
  for (const binding of hostPlan.bindings)
    if (binding.kind === 'durable-object' && binding.className)
      out[binding.name] = { className: binding.className, useSQLite: true };
  return out;
}

/**
 * miniflare, loaded when a Worker starts: it is a development tool, not a dependency of the
 * package, so loading this module never needs it (a missing miniflare is a MODULE_NOT_FOUND error
 * from {@link startCompiledWorker}).
 */
function loadMiniflare(): typeof import('miniflare') {
  return require('miniflare') as typeof import('miniflare');
}

/** Sends `request` on to `target` from Node (hop-by-hop and runtime headers dropped); 598 when that fails. */
async function forward(request: MiniflareRequest, target: string): Promise<MiniflareResponse> {
  const headers = new Headers();
  request.headers.forEach((value, key) => {
    if (!HOP_BY_HOP.has(key) && !key.startsWith('cf-') && !key.startsWith('mf-')) headers.set(key, value);
  });
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  try {
    const response = await fetch(target, {
      method: request.method,
      headers,
      ...(body ? { body } : {}),
      redirect: 'manual',
      ...(request.signal ? { signal: request.signal as AbortSignal } : {}),
    });
    const responseHeaders = [...response.headers].filter(([key]) => !HOP_BY_HOP.has(key) && key !== 'content-encoding');
    return new (loadMiniflare().Response)(await response.arrayBuffer(), {
      status: response.status,
      headers: responseHeaders,
    });
  } catch (error) {
    return new (loadMiniflare().Response)(`the upstream failed: ${(error as Error).message}`, { status: 598 });
  }
}

export async function startCompiledWorker(outDir: string, options: StartOptions = {}): Promise<StartedWorker> {
  const hostPlan = JSON.parse(readFileSync(join(outDir, 'host-plan.json'), 'utf8')) as HostPlan;
  const mode = options.mode ?? 'loader';
  const script = mode === 'loader' ? await bundleLoader(outDir) : readFileSync(join(outDir, 'worker.js'), 'utf8');
  const outbound: OutboundRecord[] = [];
  const logs: string[] = [];
  const secrets = options.secrets ?? {};
  const kvNamespaces = hostPlan.bindings.filter((b) => b.kind === 'kv').map((b) => b.name);
  const durableObjects = durableObjectsOf(hostPlan);
  const plainBindings: Record<string, string> = { ...(options.vars ?? {}) };
  for (const binding of hostPlan.bindings)
    if (binding.kind === 'secret-ref' && secrets[binding.name] !== undefined)
      plainBindings[binding.name] = secrets[binding.name]!;
  // Optional for every agent, so no planned binding: bound when given (the served card is signed).
  if (secrets[CARD_SIGNING_KEY_BINDING] !== undefined)
    plainBindings[CARD_SIGNING_KEY_BINDING] = secrets[CARD_SIGNING_KEY_BINDING];
  // So is the telemetry collector (its var and its headers' secret).
  for (const name of [OTLP_ENDPOINT_BINDING, OTLP_HEADERS_BINDING])
    if (secrets[name] !== undefined) plainBindings[name] = secrets[name];

  const { Miniflare, Response: MiniflareResponse } = loadMiniflare();
  // The served port is taken first: when it is not free, workerd never starts.
  let workerReady: (url: URL) => void = () => {};
  const front = await openWorkerFront({
    upstream: new Promise<URL>((resolve) => (workerReady = resolve)),
    port: options.port ?? 0,
    ...(options.gate ?? {}),
  });
  const signalListenersBefore = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  let mf: InstanceType<typeof Miniflare>;
  try {
    mf = newMiniflare();
  } catch (error) {
    await front.close(0);
    throw error;
  }
  function newMiniflare() {
    return new Miniflare({
      modules: true,
      script,
      compatibilityDate: hostPlan.workerCode.compatibilityDate,
      compatibilityFlags: hostPlan.workerCode.compatibilityFlags,
      workerLoaders: { LOADER: {} },
      kvNamespaces,
      durableObjects,
      bindings: plainBindings,
      ...(options.services ? { serviceBindings: options.services } : {}),
      // workerd on a loopback port of its own, reached only through the front (the served port).
      host: '127.0.0.1',
      port: 0,
      outboundService: async (request: MiniflareRequest) => {
        const url = new URL(request.url);
        const upstream = options.upstreams?.[url.origin];
        const record: OutboundRecord = { method: request.method, url: request.url };
        outbound.push(record);
        const routed = options.route?.(url);
        if (routed !== undefined) {
          record.routedTo = routed;
          return forward(request, routed);
        }
        if (!upstream && options.outbound === 'internet') return forward(request, request.url);
        if (!upstream)
          return new MiniflareResponse(`no upstream for ${url.origin} in this test (there is no network)`, {
            status: 599,
          });
        record.routedTo = `${upstream}${url.pathname}${url.search}`;
        return forward(request, record.routedTo);
      },
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        stdout.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
        stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      },
    });
  }
  if (options.callerHandlesSignals) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      for (const listener of process.listeners(signal))
        if (!signalListenersBefore.has(listener)) process.off(signal, listener);
  }
  try {
    workerReady(await mf.ready);
  } catch (error) {
    // A Worker that could not start leaves nothing running: the front, workerd and miniflare's
    // own servers are stopped, so the caller's process can end.
    await front.close(0);
    await mf.dispose().catch(() => undefined);
    throw error;
  }
  const url = front.url;
  const sink = hostPlan.receiptSink;

  const readReceipts = async (): Promise<Receipt[]> => {
    if (sink?.kind !== 'kv') return [];
    const kv = await mf.getKVNamespace(sink.binding);
    const { keys } = await kv.list({ prefix: 'receipts/' });
    const out: Receipt[] = [];
    for (const key of keys) {
      // Strict: a stored receipt with a duplicated property name is not a receipt (verifyReceiptText's rule).
      const parsed = parseStrictJson((await kv.get(key.name)) ?? 'null');
      if (!parsed.ok) throw new Error(`receipt ${key.name} is not strict JSON: ${parsed.reason}`);
      out.push(parsed.value as Receipt);
    }
    return out;
  };

  return {
    url,
    hostPlan,
    outbound,
    logs,
    async receipts(atLeast = 0, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      let found = await readReceipts();
      while (found.length < atLeast && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        found = await readReceipts();
      }
      return found;
    },
    async dispose() {
      await front.close(0);
      await mf.dispose();
    },
  };
}
