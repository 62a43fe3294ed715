/**
 * The in-isolate egress guard: makes the whole isolate obey its allow-list, not only the code that
 * uses the runtime's egress-checked fetch. It replaces `fetch` (on `globalThis` and on every object
 * of its prototype chain that owns one, so neither `self.fetch`, `globalThis['fet' + 'ch']` nor
 * `Object.getPrototypeOf(globalThis).fetch` reach the original) with the runtime's egress fetch
 * (every redirect hop checked), and `WebSocket` and `EventSource` with constructors that check the
 * origin first (`ws:`/`wss:` are checked as `http:`/`https:`), and `navigator.sendBeacon` with a post
 * through the guarded fetch. The replacements cannot be reassigned or deleted.
 * `connect` of `cloudflare:sockets` is refused at bundle time (bundle.ts), so it never runs here.
 *
 * The generated entry of every isolate imports its guard module FIRST: ES modules evaluate in
 * import order, so tool modules that capture `fetch` at top level already get the guarded one.
 */
import { nativeUrl, setHas } from '../../runtime/captured-intrinsics';
import { createEgressFetch, EgressBlockedError } from '../../runtime/egress';

export interface EgressGuardOptions {
  /** Called with the host of every blocked request (the host only). */
  onBlocked?: (host: string) => void;
}

/** Redirects a guarded global fetch follows (the Fetch standard's limit). */
const MAX_REDIRECTS = 20;

const INSTALLED = Symbol.for('agentdef.egressGuard');

/** `Reflect.construct` as it was when this module was evaluated (before any tool module). */
const construct = Reflect.construct;

/** Globals whose constructor opens a connection to the URL it is given. */
const CONNECTING_CONSTRUCTORS = ['WebSocket', 'EventSource'] as const;

function lockedProperty(owner: object, name: string, value: unknown): void {
  Object.defineProperty(owner, name, { value, writable: false, configurable: false, enumerable: false });
}

/** Every object from `start` up its prototype chain that owns `name`. */
function owners(start: object, name: string): object[] {
  const found: object[] = [];
  for (
    let current: object | null = start;
    current !== null;
    current = Object.getPrototypeOf(current) as object | null
  ) {
    if (Object.hasOwn(current, name)) found.push(current);
  }
  return found;
}

/** The URL an argument names, read once (never echoed: it may carry a password or a token). */
function parsedUrl(url: unknown): URL {
  try {
    return nativeUrl.parse(`${url as string}`);
  } catch {
    throw new SyntaxError('invalid URL');
  }
}

/** The scheme and origin the policy checks for `url`: `ws:`/`wss:` as `http:`/`https:` (same default ports). */
export function policyOrigin(url: URL): { protocol: string; origin: string } {
  const protocol = nativeUrl.protocol(url);
  const http = protocol === 'ws:' ? 'http:' : protocol === 'wss:' ? 'https:' : protocol;
  return { protocol: http, origin: http === protocol ? nativeUrl.origin(url) : `${http}//${nativeUrl.host(url)}` };
}

/** Throws `egress_blocked` (naming the host only) unless `target`'s origin is allowed; a URL with credentials is refused without repeating them. */
function refuseUnlessAllowed(
  target: URL,
  allow: ReadonlySet<string>,
  onBlocked: (host: string) => void,
  what: string,
): void {
  const { protocol, origin } = policyOrigin(target);
  if (!setHas(allow, origin) || (protocol !== 'http:' && protocol !== 'https:')) {
    const host = nativeUrl.host(target) || protocol;
    onBlocked(host);
    throw new EgressBlockedError(host);
  }
  if (nativeUrl.username(target) !== '' || nativeUrl.password(target) !== '')
    throw new SyntaxError(`${what}: a URL with credentials (user:password@${nativeUrl.host(target)}) is refused`);
}

/**
 * A replacement for a constructor that opens a connection to the URL it is given first
 * (`WebSocket`, `EventSource`): it checks the origin, then constructs the original. Instances stay
 * instances of the original; the original's prototype names the replacement as its constructor.
 */
function guardedConstructor<T extends new (...args: never[]) => object>(
  original: T,
  allow: ReadonlySet<string>,
  onBlocked: (host: string) => void,
): T {
  const name = original.name;
  const Guarded = function (this: unknown, ...args: unknown[]): object {
    if (!new.target) throw new TypeError(`Failed to construct '${name}': use new`);
    const checked = parsedUrl(args[0]);
    refuseUnlessAllowed(checked, allow, onBlocked, name);
    // The URL checked is the URL used: an argument that reads differently twice cannot pass.
    const href = nativeUrl.href(checked);
    return construct(
      original,
      args.length > 1 ? [href, args[1]] : [href],
      new.target === Guarded ? original : new.target,
    ) as object;
  };
  Object.defineProperty(Guarded, 'name', { value: name });
  Object.defineProperty(Guarded, 'prototype', { value: original.prototype, writable: false });
  for (const key of Object.getOwnPropertyNames(original)) {
    if (key === 'prototype' || key === 'name' || key === 'length' || key === 'caller' || key === 'arguments') continue;
    const value = (original as unknown as Record<string, unknown>)[key];
    if (typeof value === 'number') lockedProperty(Guarded, key, value);
  }
  // Every instance (a client WebSocket, a WebSocketPair's) names its constructor: it must be this one.
  try {
    lockedProperty(original.prototype, 'constructor', Guarded);
  } catch {
    // a prototype that cannot be changed keeps its constructor; the global is still replaced
  }
  return Guarded as unknown as T;
}

/**
 * `navigator.sendBeacon` posts to any URL (and follows redirects) outside `fetch`: it becomes a
 * post through the guarded fetch, refused with `egress_blocked` before anything is queued.
 */
function guardSendBeacon(
  guardedFetch: typeof fetch,
  allow: ReadonlySet<string>,
  onBlocked: (host: string) => void,
): void {
  const navigator = (globalThis as { navigator?: object }).navigator;
  if (navigator === undefined || navigator === null) return;
  const beaconOwners = owners(navigator, 'sendBeacon');
  if (beaconOwners.length === 0) return;
  const sendBeacon = (url: string | URL, data?: BodyInit | null): boolean => {
    const target = parsedUrl(url);
    refuseUnlessAllowed(target, allow, onBlocked, 'sendBeacon');
    const pending = guardedFetch(nativeUrl.href(target), {
      method: 'POST',
      ...(data !== undefined && data !== null ? { body: data } : {}),
    });
    pending.catch(() => undefined);
    return true;
  };
  for (const owner of beaconOwners) lockedProperty(owner, 'sendBeacon', sendBeacon);
}

/**
 * Installs the guard on this isolate's global scope (once; a second call changes nothing). `allow`
 * is the union of the allow-lists of the agents that run in the isolate; empty: no network at all.
 */
export function installEgressGuard(allow: readonly string[], options: EgressGuardOptions = {}): void {
  const scope = globalThis as unknown as Record<string | symbol, unknown>;
  if (scope[INSTALLED]) return;
  const onBlocked = (host: string) => {
    try {
      options.onBlocked?.(host);
    } catch {
      // logging never changes the verdict
    }
  };
  const originalFetch = globalThis.fetch.bind(globalThis);
  const guardedFetch = createEgressFetch({ allow, fetch: originalFetch, onBlocked, maxRedirects: MAX_REDIRECTS });
  const fetchOwners = owners(globalThis, 'fetch');
  for (const owner of fetchOwners.length > 0 ? fetchOwners : [globalThis]) lockedProperty(owner, 'fetch', guardedFetch);
  if (!fetchOwners.includes(globalThis)) lockedProperty(globalThis, 'fetch', guardedFetch);

  const allowed = new Set(allow.map((origin) => nativeUrl.origin(nativeUrl.parse(origin))));
  for (const name of CONNECTING_CONSTRUCTORS) {
    const original = scope[name];
    if (typeof original !== 'function') continue;
    const replacement = guardedConstructor(original as new (...args: never[]) => object, allowed, onBlocked);
    for (const owner of owners(globalThis, name)) lockedProperty(owner, name, replacement);
  }
  guardSendBeacon(guardedFetch, allowed, onBlocked);
  lockedProperty(globalThis, INSTALLED as unknown as string, true);
}
