/**
 * The debug guard of a compiled Node host: nothing in the process opens an inspector (a port that
 * runs any code sent to it, for any local user) or signals another process, so tool code cannot
 * open one in the host or in a process the host started.
 *
 * - `inspector.open`, `inspector.waitForDebugger`, `Session#connect` and
 *   `Session#connectToMainThread`, in `node:inspector` and `node:inspector/promises` (its own copy of
 *   the module's functions), are refused; so are the raw `inspector` binding (network-guard.ts
 *   refuses it with the other raw bindings), `process._debugProcess` (SIGUSR1 to any pid: opens
 *   that Node process's inspector), `process._debugEnd` and `process._linkedBinding`.
 * - Signals: `process.kill` (through `process._kill`, which it calls) reaches this process only,
 *   and never with SIGUSR1 (which opens its inspector); any other pid, a process group (0 or a
 *   negative pid) included, is refused. The host signals its own children through their handles,
 *   where SIGUSR1 is refused too (`Process#kill` of the `process_wrap` binding).
 * - A host started with its inspector open (`--inspect`, `--inspect-brk`, `--inspect-wait`, on the
 *   command line or in `NODE_OPTIONS`) has it closed here, before any other module is evaluated,
 *   and its main refuses to start (`startedWithInspector`).
 * Decisions use built-ins captured when this module is evaluated (before any tool module).
 * The replacements cannot be reassigned or deleted. A refusal is a `RuntimeError('egress_blocked')`.
 */
import inspector from 'node:inspector';
import * as inspectorPromises from 'node:inspector/promises';
import { constants as osConstants } from 'node:os';
import { RuntimeError } from '../../runtime/errors';

interface DebugGuardState {
  installed: boolean;
  inspectorAtStart: boolean;
}

const state: DebugGuardState = { installed: false, inspectorAtStart: false };

// Captured now: a tool module evaluated later cannot change what these are.
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const hasOwn = Object.hasOwn;
const SIGUSR1 = osConstants.signals.SIGUSR1;

function locked(owner: object, name: string | symbol, value: unknown): void {
  defineProperty(owner, name, { value, writable: false, configurable: false, enumerable: true });
}

function refused(what: string): RuntimeError {
  return new RuntimeError(
    'egress_blocked',
    `egress_blocked: ${what} is refused in an agentdef host (tool code may not debug or signal a process)`,
  );
}

function refuser(what: string) {
  return function refusedOperation(): never {
    throw refused(what);
  };
}

/** Locks each of `names` that `owner` has (own or inherited) to a refusal, on the object that owns it. */
function refuseOn(owner: object | undefined, label: string, names: readonly string[]): void {
  if (owner === undefined || owner === null) return;
  for (const name of names) {
    for (let current: object | null = owner; current !== null; current = Object.getPrototypeOf(current) as object) {
      if (current === Object.prototype || current === Function.prototype) break;
      if (hasOwn(current, name)) {
        const descriptor = Object.getOwnPropertyDescriptor(current, name);
        if (descriptor?.configurable) locked(current, name, refuser(`${label}.${name}`));
        break;
      }
    }
  }
}

function guardInspector(): void {
  const modules: [string, Record<string, unknown>][] = [
    ['inspector', inspector as unknown as Record<string, unknown>],
    // Its own copy of the module's functions; its Session extends inspector's.
    [
      'inspector/promises',
      ((inspectorPromises as { default?: unknown }).default ?? inspectorPromises) as Record<string, unknown>,
    ],
  ];
  for (const [label, module] of modules) {
    refuseOn(module, label, ['open', 'waitForDebugger']);
    const session = module['Session'] as { prototype: object } | undefined;
    refuseOn(session?.prototype, `${label}.Session`, ['connect', 'connectToMainThread']);
  }
}

function guardSignals(binding: (name: string) => unknown): void {
  const ownPid = process.pid;
  const originalKill = (process as unknown as { _kill: (pid: number, signal: number) => unknown })._kill;
  // `process.kill` checks its arguments, turns a signal name into a number, then calls `process._kill`.
  locked(process, '_kill', function _kill(pid: unknown, signal: unknown): unknown {
    if (typeof pid !== 'number' || pid !== ownPid) throw refused('signalling another process (process.kill)');
    if (signal === SIGUSR1) throw refused('SIGUSR1 (it opens the inspector)');
    return apply(originalKill, process, [pid, signal]);
  });
  try {
    const Process = (binding('process_wrap') as { Process?: { prototype: Record<string, unknown> } }).Process;
    const childKill = Process?.prototype['kill'];
    if (Process && typeof childKill === 'function') {
      locked(Process.prototype, 'kill', function kill(this: unknown, signal: unknown): unknown {
        if (signal === SIGUSR1) throw refused('SIGUSR1 to a child process (it opens its inspector)');
        return apply(childKill as (s: unknown) => unknown, this, [signal]);
      });
    }
  } catch {
    // no process_wrap binding: nothing starts, nothing to guard
  }
}

/**
 * Installs the guard, given `process.binding` as it was. Closes an inspector the process was
 * started with. Idempotent.
 */
export function installDebugGuard(binding: (name: string) => unknown): void {
  if (state.installed) return;
  state.installed = true;
  if (inspector.url() !== undefined) {
    state.inspectorAtStart = true;
    inspector.close();
  }
  guardInspector();
  refuseOn(process, 'process', ['_debugProcess', '_debugEnd', '_linkedBinding']);
  guardSignals(binding);
}

export function debugGuardInstalled(): boolean {
  return state.installed;
}

/** Whether the process was started with its inspector open (closed by the guard; the host refuses to start). */
export function startedWithInspector(): boolean {
  return state.inspectorAtStart;
}
