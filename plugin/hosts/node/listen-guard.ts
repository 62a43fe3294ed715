/**
 * The listen guard of a compiled Node host: nothing in the process accepts connections or
 * datagrams but the host's own A2A server, so tool code cannot open an inbound channel around the
 * egress guard (serve the process's environment on a port of its choosing).
 *
 * - `net.Server.prototype.listen`, which `net`, `http`, `https`, `http2` and `tls` servers all use
 *   (a TCP port, a unix socket or pipe, a handle or a file descriptor), is refused;
 *   `net.Server.prototype._listen2` (Node's internal step that makes the listening handle, public by
 *   name) is refused to any server but the one the host lets listen.
 * - The raw handles under them: `bind`, `bind6` and `listen` of the `TCP` class and `bind` and
 *   `listen` of the `Pipe` class (reachable from any socket's `_handle.constructor`) work only
 *   inside the host's own listen; every operation of the `UDP` class that binds, sends or receives,
 *   and `dgram.Socket#bind`, are refused outright (the host uses no UDP).
 * - The host's own server listens through `claimHostListen`: the host's main claims it first thing,
 *   synchronously, while the entry is evaluated and before any tool module is (they are evaluated
 *   on the first tool call); a later claim gets nothing. The capability listens once.
 *
 * Decisions use built-ins captured when this module is evaluated (before any tool module).
 * The replacements cannot be reassigned or deleted. A refusal is a `RuntimeError('egress_blocked')`.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { RuntimeError } from '../../runtime/errors';

/** Makes `server` listen on `port` at `host` (once per process): the host's own server only. */
export type HostListen = (server: net.Server, port: number, host: string, onListening: () => void) => void;

interface ListenGuardState {
  installed: boolean;
  claimed: boolean;
  /** Set while the host's own server makes its listening handle (synchronously, inside `_listen2`). */
  hostListening: boolean;
  originalListen?: (this: net.Server, ...args: unknown[]) => unknown;
}

const state: ListenGuardState = { installed: false, claimed: false, hostListening: false };

// Captured now: a tool module evaluated later cannot change what these are.
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const NativeWeakSet = WeakSet;
const weakSetAdd = WeakSet.prototype.add;
const weakSetHas = WeakSet.prototype.has;
const weakSetDelete = WeakSet.prototype.delete;

/** Servers the host let listen, until their listening handle is made. */
const permitted = new NativeWeakSet<object>();

function locked(owner: object, name: string | symbol, value: unknown): void {
  defineProperty(owner, name, { value, writable: false, configurable: false, enumerable: true });
}

function refused(what: string): RuntimeError {
  return new RuntimeError(
    'egress_blocked',
    `egress_blocked: ${what} is refused in an agentdef host (only the host's own server accepts connections)`,
  );
}

function refuser(what: string) {
  return function refusedOperation(): never {
    throw refused(what);
  };
}

interface HandleClass {
  prototype: Record<string, unknown>;
}

/** Replaces `names` of a raw handle class so they run only inside the host's own listen. */
function hostOnly(handleClass: HandleClass | undefined, className: string, names: readonly string[]): void {
  if (handleClass === undefined) return;
  const proto = handleClass.prototype;
  for (const name of names) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    locked(proto, name, function hostOnlyHandle(this: unknown, ...args: unknown[]): unknown {
      if (!state.hostListening) throw refused(`${className}#${name} (a raw listening handle)`);
      return apply(original as (...a: unknown[]) => unknown, this, args);
    });
  }
}

/**
 * Replaces `names` of a raw handle class with refusals that cannot be deleted. They stay writable:
 * Node gives a UDP6 handle its `bind6` as an own `bind` (an assignment a non-writable prototype
 * property would make throw), and whatever is written there is not Node's native function, which
 * only this module's closures held.
 */
function refuseAll(handleClass: HandleClass | undefined, className: string, names: readonly string[]): void {
  if (handleClass === undefined) return;
  for (const name of names)
    if (typeof handleClass.prototype[name] === 'function')
      defineProperty(handleClass.prototype, name, {
        value: refuser(`${className}#${name} (a raw UDP handle)`),
        writable: true,
        configurable: false,
        enumerable: true,
      });
}

function bindingClass(binding: (name: string) => unknown, module: string, name: string): HandleClass | undefined {
  try {
    const found = (binding(module) as Record<string, unknown>)[name];
    return typeof found === 'function' ? (found as unknown as HandleClass) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Installs the guard, given `process.binding` as it was (the network guard refuses the raw
 * bindings to everyone else). Idempotent.
 */
export function installListenGuard(binding: (name: string) => unknown): void {
  if (state.installed) return;
  state.installed = true;
  const serverProto = net.Server.prototype as unknown as Record<string, (this: net.Server, ...a: unknown[]) => unknown>;
  state.originalListen = serverProto['listen'];
  const originalListen2 = serverProto['_listen2']!;
  locked(serverProto, 'listen', refuser('listening for connections (net.Server#listen)'));
  locked(serverProto, '_listen2', function _listen2(this: net.Server, ...args: unknown[]): unknown {
    if (!apply(weakSetHas, permitted, [this])) throw refused('listening for connections (net.Server#_listen2)');
    apply(weakSetDelete, permitted, [this]);
    state.hostListening = true;
    try {
      return apply(originalListen2, this, args);
    } finally {
      state.hostListening = false;
    }
  });
  hostOnly(bindingClass(binding, 'tcp_wrap', 'TCP'), 'TCP', ['bind', 'bind6', 'listen']);
  hostOnly(bindingClass(binding, 'pipe_wrap', 'Pipe'), 'Pipe', ['bind', 'listen']);
  refuseAll(bindingClass(binding, 'udp_wrap', 'UDP'), 'UDP', [
    'open',
    'bind',
    'bind6',
    'connect',
    'connect6',
    'send',
    'send6',
    'recvStart',
  ]);
  locked(dgram.Socket.prototype, 'bind', refuser('binding a UDP socket (dgram.Socket#bind)'));
}

export function listenGuardInstalled(): boolean {
  return state.installed;
}

/**
 * The capability to make the host's own server listen, to the first caller (the host's main, before
 * any tool module is evaluated); undefined to every later caller and when the guard is not
 * installed (a test process: `server.listen` is Node's own). It listens once.
 */
export function claimHostListen(): HostListen | undefined {
  if (!state.installed || state.claimed) return undefined;
  state.claimed = true;
  const originalListen = state.originalListen!;
  let used = false;
  return (server, port, host, onListening) => {
    if (used) throw refused('listening a second time');
    used = true;
    apply(weakSetAdd, permitted, [server]);
    apply(originalListen, server, [port, host, onListening]);
  };
}
