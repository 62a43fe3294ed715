/**
 * The process-wide network guard of a compiled Node host: every connection the process opens, from
 * agentdef's own code or from a tool module's, goes through the egress allow-list of the agents the
 * process hosts (model endpoints after overrides, tool endpoints, `egress.allow`).
 *
 * - the global `fetch` becomes the runtime's egress fetch (every redirect hop checked, `manual` and
 *   `error` as the Fetch standard says, userinfo refused without being repeated);
 * - `net.Socket.prototype.connect`, which `net`, `tls`, `http`, `https`, `http2`, Node's own fetch,
 *   undici and `ws` all go through, lets a socket connect only to a `host:port` of the allow-list,
 *   resolving names with the `dns.lookup` of the moment the guard was installed (a tool cannot
 *   swap the resolver or pass its own `lookup`); unix sockets and pipes are refused;
 * - DNS (`dns`, `dns.promises`, their `Resolver`s) answers only for the host names of the
 *   allow-list (a query for any other name leaves the machine too); reverse lookups and changing
 *   the resolver's servers are refused;
 * - UDP (`dgram`), raw bindings (`process.binding('tcp_wrap')` and kin), worker threads,
 *   `cluster` and `module.register` (its hooks run in a thread of their own) — each a way around
 *   an in-process guard — are refused. Processes: see spawn-guard.ts.
 * The replacements cannot be reassigned or deleted.
 *
 * `installNetworkGuard` runs first in the bundled entry (`network-guard-install.ts` is its first
 * import), before any tool module is evaluated, and refuses everything until `armNetworkGuard`
 * gives it the allow-list (process-host.ts does, before anything of the host connects). The first
 * allow-list armed is the one that holds.
 */
import cluster from 'node:cluster';
import dgram from 'node:dgram';
import dns from 'node:dns';
import Module, { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { hostname } from 'node:os';
import workerThreads from 'node:worker_threads';
import { nativeUrl, setHas } from '../../runtime/captured-intrinsics';
import { createEgressFetch, EgressBlockedError, originOf } from '../../runtime/egress';
import { RuntimeError } from '../../runtime/errors';
import { isLoopbackHost } from './loopback-fetch';

export interface ArmOptions {
  /** Called with the host of every refused connection (the host only). */
  onBlocked?: (host: string) => void;
  /** `host:port` of the host's own connections (its task store's database), for `hostSocket` sockets only. */
  hostEndpoints?: readonly string[];
}

/**
 * Raw bindings that open sockets, resolve names or start processes without going through `net`,
 * `dns` or `child_process`, and the inspector's (it opens a port that runs any code sent to it).
 */
const REFUSED_BINDINGS = new Set([
  'tcp_wrap',
  'pipe_wrap',
  'udp_wrap',
  'tls_wrap',
  'stream_wrap',
  'js_stream',
  'cares_wrap',
  'process_wrap',
  'spawn_sync',
  'inspector',
]);

/** Redirects the guarded global fetch follows (the Fetch standard's limit). */
const MAX_REDIRECTS = 20;

interface GuardState {
  installed: boolean;
  /** `host:port` pairs a socket may connect to; undefined until armed (nothing may connect). */
  endpoints?: ReadonlySet<string>;
  /** Host names of the allow-list: the only names DNS may be asked about (a query for any other name leaves the machine too). */
  names?: ReadonlySet<string>;
  fetch?: typeof fetch;
  /** The fetch of the process before the guard replaced it. */
  originalFetch?: typeof fetch;
  onBlocked: (host: string) => void;
  /**
   * `host:port` pairs the host's own sockets (`hostSocket`) may connect to: its task store's
   * database. Not the agent's egress: no other socket, no fetch and no DNS query of a tool reaches them.
   */
  hostEndpoints?: ReadonlySet<string>;
}

const state: GuardState = { installed: false, onBlocked: () => undefined };

/** Sockets made by `hostSocket` (checked with the WeakSet#has of before any tool module). */
const hostSockets = new WeakSet<object>();
const weakHas = WeakSet.prototype.has;

/** `Reflect.apply` as it was when this module was evaluated (before any tool module). */
const apply = Reflect.apply;

function locked(owner: object, name: string | symbol, value: unknown): void {
  Object.defineProperty(owner, name, { value, writable: false, configurable: false, enumerable: true });
}

/** A host name or address in the form URL parsing gives it (lower case, IPv4 numbers normalised, IPv6 without brackets). */
export function canonicalHost(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  try {
    return nativeUrl
      .hostname(nativeUrl.parse(`http://${bare.includes(':') ? `[${bare}]` : bare}/`))
      .replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/** The `host:port` pairs of allow-listed origins (the scheme's default port when none is given). */
export function socketEndpoints(allow: Iterable<string>): Set<string> {
  const endpoints = new Set<string>();
  for (const entry of allow) {
    const url = nativeUrl.parse(originOf(entry));
    const port = nativeUrl.port(url) || (nativeUrl.protocol(url) === 'https:' ? '443' : '80');
    endpoints.add(`${nativeUrl.hostname(url).replace(/^\[|\]$/g, '')}:${port}`);
  }
  return endpoints;
}

function blocked(host: string): EgressBlockedError {
  state.onBlocked(host);
  return new EgressBlockedError(host);
}

/** How a connect call is described by Node (`connect(options)`, `connect(port, host)`, `connect(path)`, or Node's normalised array). */
function connectOptions(args: unknown[]): { options: Record<string, unknown>; callback?: unknown } {
  const first = args[0];
  if (Array.isArray(first)) return { options: { ...(first[0] as Record<string, unknown>) }, callback: first[1] };
  const normalize = (net as unknown as { _normalizeArgs?: (a: unknown[]) => [Record<string, unknown>, unknown] })
    ._normalizeArgs;
  if (typeof normalize === 'function') {
    const [options, callback] = normalize(args);
    return { options: { ...options }, callback };
  }
  if (first !== null && typeof first === 'object')
    return { options: { ...(first as Record<string, unknown>) }, callback: args[1] };
  return { options: {}, callback: undefined };
}

/**
 * Why a socket may not connect with these options (a copy, read once), as the host to name;
 * undefined when it may. The host and port checked are written back as a string and a number, so
 * what Node connects to is what was checked (a value that reads differently twice cannot pass).
 */
function refusal(options: Record<string, unknown>, endpoints: ReadonlySet<string> | undefined): string | undefined {
  if (options['path']) return 'a local socket'; // Node connects to a pipe exactly when `path` is truthy
  const given = options['host'];
  if (given && typeof given !== 'string') return 'a host that is not a string';
  const rawHost = typeof given === 'string' && given !== '' ? given : 'localhost';
  const port =
    typeof options['port'] === 'number' || typeof options['port'] === 'string' ? Number(options['port']) : Number.NaN;
  const host = canonicalHost(rawHost);
  const shown = `${rawHost.includes(':') && !rawHost.startsWith('[') ? `[${rawHost}]` : rawHost}:${Number.isFinite(port) ? port : '?'}`;
  if (host === undefined || !Number.isInteger(port) || port <= 0 || port > 65535) return shown;
  if (endpoints === undefined || !setHas(endpoints, `${host}:${port}`)) return shown;
  // Node connects to exactly the host and port that were checked.
  options['host'] = host;
  options['port'] = port;
  return undefined;
}

function guardSockets(): void {
  const proto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
  const originalConnect = proto.connect;
  const originalLookup = dns.lookup;
  const pinnedLookup = (...args: unknown[]) => apply(originalLookup as (...a: unknown[]) => unknown, dns, args);
  locked(proto, 'connect', function connect(this: net.Socket, ...args: unknown[]) {
    const { options, callback } = connectOptions(args);
    const host = refusal(options, apply(weakHas, hostSockets, [this]) ? state.hostEndpoints : state.endpoints);
    if (host !== undefined) {
      const error = blocked(host);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    options['lookup'] = pinnedLookup;
    return apply(originalConnect, this, typeof callback === 'function' ? [options, callback] : [options]);
  });

  const dgramProto = dgram.Socket.prototype as unknown as Record<string, unknown>;
  for (const name of ['send', 'connect']) {
    locked(dgramProto, name, () => {
      throw blocked('UDP');
    });
  }

  const originalBinding = (process as unknown as { binding: (name: string) => unknown }).binding.bind(process);
  locked(process, 'binding', (given: unknown) => {
    // Read once (as Node reads it) and checked with the Set#has of before any tool module.
    const name = String(given);
    if (setHas(REFUSED_BINDINGS, name))
      throw new RuntimeError(
        'egress_blocked',
        `egress_blocked: process.binding('${name}') is refused in an agentdef host`,
      );
    return originalBinding(name);
  });
}

/** `dns` functions that take a host name first: allowed for the names of the allow-list only. */
const DNS_BY_NAME = [
  'lookup',
  'resolve',
  'resolve4',
  'resolve6',
  'resolveAny',
  'resolveCaa',
  'resolveCname',
  'resolveMx',
  'resolveNaptr',
  'resolveNs',
  'resolvePtr',
  'resolveSoa',
  'resolveSrv',
  'resolveTxt',
];
/** `dns` functions refused outright: reverse lookups, and pointing the resolver at another server. */
const DNS_REFUSED = ['lookupService', 'reverse', 'setServers', 'setLocalAddress'];

/** Names `dns.lookup` answers on this machine (an address, loopback names, the machine's own name): Node's own `listen` asks it. */
function answeredLocally(host: string): boolean {
  return net.isIP(host) !== 0 || isLoopbackHost(host) || host === canonicalHost(hostname());
}

/** The name DNS may be asked about (the checked, canonical one), or a refusal. */
function checkName(name: unknown, lookup: boolean): string {
  const host = typeof name === 'string' ? canonicalHost(name) : undefined;
  if (
    host !== undefined &&
    ((state.names !== undefined && setHas(state.names, host)) || (lookup && answeredLocally(host)))
  )
    return host;
  throw blocked(typeof name === 'string' ? name : 'DNS');
}

/** Wraps the DNS functions of `target` (a module object or a prototype) that it or its prototypes own (once each: the resolvers share a base). */
function guardDnsObject(target: object, promises: boolean, done: Map<object, Set<string>>): void {
  for (const name of [...DNS_BY_NAME, ...DNS_REFUSED]) {
    const owner = ownerOf(target, name);
    if (!owner || done.get(owner)?.has(name)) continue;
    done.set(owner, (done.get(owner) ?? new Set()).add(name));
    const original = (owner as Record<string, unknown>)[name];
    if (typeof original !== 'function') continue;
    const refusedOutright = DNS_REFUSED.includes(name);
    locked(owner, name, function guardedDns(this: unknown, ...args: unknown[]) {
      try {
        if (refusedOutright) throw blocked('DNS');
        // DNS is asked about exactly the name that was checked.
        args[0] = checkName(args[0], name === 'lookup');
      } catch (error) {
        if (promises) return Promise.reject(error);
        throw error;
      }
      return apply(original as (...a: unknown[]) => unknown, this, args);
    });
  }
}

function ownerOf(start: object, name: string): object | undefined {
  for (
    let current: object | null = start;
    current !== null && current !== Object.prototype;
    current = Object.getPrototypeOf(current) as object | null
  ) {
    if (Object.hasOwn(current, name)) return current;
  }
  return undefined;
}

function guardDns(): void {
  const done = new Map<object, Set<string>>();
  guardDnsObject(dns, false, done);
  guardDnsObject(dns.Resolver.prototype, false, done);
  guardDnsObject(dns.promises, true, done);
  guardDnsObject(dns.promises.Resolver.prototype, true, done);
}

function guardThreads(): void {
  const refuse = (what: string) =>
    function refused(): never {
      throw new RuntimeError(
        'egress_blocked',
        `egress_blocked: ${what} is refused in an agentdef host (it would run outside the egress guard): declare a native tool instead`,
      );
    };
  locked(workerThreads, 'Worker', refuse('a worker thread'));
  locked(cluster, 'fork', refuse('cluster.fork'));
  locked(cluster, 'setupPrimary', refuse('cluster.setupPrimary'));
  // Module customization hooks run in a thread of their own, outside the guard.
  locked(Module, 'register', refuse('module.register'));
}

function guardFetch(): void {
  const originalFetch = globalThis.fetch.bind(globalThis);
  const guarded = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!state.fetch) {
      let host = 'the network';
      try {
        host = new URL(input instanceof Request ? input.url : String(input)).host || host;
      } catch {
        // not a URL: refused all the same
      }
      return Promise.reject(blocked(host));
    }
    return state.fetch(input, init);
  };
  state.originalFetch = originalFetch;
  locked(globalThis, 'fetch', guarded);
}

/**
 * A socket of the host's own (its task store's database connection): it may connect only to the
 * `hostEndpoints` the guard was armed with, which no other socket may reach. Without the guard,
 * a plain socket.
 */
export function hostSocket(): net.Socket {
  const socket = new net.Socket();
  hostSockets.add(socket);
  return socket;
}

/** Installs the guard; until it is armed, every connection is refused. A second call changes nothing. */
export function installNetworkGuard(): void {
  if (state.installed) return;
  state.installed = true;
  guardFetch();
  guardSockets();
  guardDns();
  guardThreads();
  syncBuiltinESMExports();
}

/** Whether this process runs with the guard (a compiled host does; a test process importing the host's modules does not). */
export function networkGuardInstalled(): boolean {
  return state.installed;
}

/**
 * Gives the installed guard the allow-list of the agents this process hosts. The first call wins:
 * a later call (from anything the process runs) cannot widen it. Without the guard, nothing happens.
 */
export function armNetworkGuard(allow: readonly string[], options: ArmOptions = {}): void {
  if (!state.installed || state.endpoints !== undefined) return;
  const onBlocked = options.onBlocked;
  state.onBlocked = (host) => {
    try {
      onBlocked?.(host);
    } catch {
      // logging never changes the verdict
    }
  };
  state.endpoints = socketEndpoints(allow);
  state.hostEndpoints = new Set(
    (options.hostEndpoints ?? []).flatMap((endpoint) => {
      const at = endpoint.lastIndexOf(':');
      const host = canonicalHost(endpoint.slice(0, at));
      return host === undefined ? [] : [`${host}:${Number(endpoint.slice(at + 1))}`];
    }),
  );
  state.names = new Set([...state.endpoints].map((endpoint) => endpoint.slice(0, endpoint.lastIndexOf(':'))));
  state.fetch = createEgressFetch({
    allow,
    fetch: state.originalFetch!,
    onBlocked: state.onBlocked,
    maxRedirects: MAX_REDIRECTS,
  });
}
