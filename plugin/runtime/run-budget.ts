/**
 * The run's termination budget, shared by the loop, the composition runner and every call they
 * make: a wall clock (an AbortController armed with `setTimeout(wallClockMs)`, at once or at the
 * run's first wait), a subrequest
 * counter, and `race()`, which stops waiting the moment the clock runs out even when the awaited
 * thing ignores its AbortSignal (a hanging provider, a tool that never settles).
 */
import type { ResolvedLimits } from './runtime-config';

export type LimitReason = 'limit:wallClock' | 'limit:subrequests' | 'limit:steps';

export class LimitReached extends Error {
  readonly reason: LimitReason;
  constructor(reason: LimitReason) {
    super(reason);
    this.name = 'LimitReached';
    this.reason = reason;
  }
}

/** The external signal (the client went away) fired: the run ends as an `aborted` error. */
export class RunAborted extends Error {
  constructor() {
    super('the run was aborted by its caller');
    this.name = 'RunAborted';
  }
}

export interface RunBudget {
  readonly limits: ResolvedLimits;
  /** Aborts when the wall clock runs out or the caller aborts. */
  readonly signal: AbortSignal;
  readonly subrequests: number;
  /** Counts one outbound call; throws `LimitReached('limit:subrequests')` when none is left. */
  spendSubrequest(): void;
  /** Settles like `promise`, or rejects with the limit/abort as soon as the budget's signal fires. */
  race<T>(promise: Promise<T> | T): Promise<T>;
  /** Throws the limit/abort if the signal already fired. */
  check(): void;
  elapsedMs(): number;
  dispose(): void;
}

export interface RunBudgetOptions {
  now?: () => number;
  /** The caller's signal (a client disconnect); aborts the run as `RunAborted`. */
  signal?: AbortSignal;
  /**
   * When the wall clock's timer is armed: `start` (default) at once; `first-wait` when `race` is
   * first given something to wait for (a promise or other thenable), for what is left of the
   * clock then. A run that only ever races values already there ends within one turn of the event
   * loop, where no timer could fire, so it needs no timer. Either way the clock counts from the start.
   */
  clock?: 'start' | 'first-wait';
  /** Told once, when the timer is armed (at once with `clock: 'start'`): the run may now wait. */
  onFirstWait?: () => void;
}

/** Whether awaiting `value` could wait (a promise or other thenable); a `then` that cannot be read counts as one, so `Promise.resolve` meets it as before. */
function isThenable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return true;
  }
}

// biome-ignore format: in parentheses, V8 compiles it with the code around it (at the isolate's start), not on the first request: decision 0015
export const createRunBudget = (function createRunBudget(limits: ResolvedLimits, options: RunBudgetOptions = {}): RunBudget {
  const now = options.now ?? (() => Date.now());
  const started = now();
  const controller = new AbortController();
  let used = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listening = false;
  const onOuterAbort = () => controller.abort(new RunAborted());
  if (options.signal?.aborted) onOuterAbort();
  const arm = (ms: number) => {
    timer = setTimeout(() => controller.abort(new LimitReached('limit:wallClock')), ms);
    // The caller's signal is listened to from the first wait on (at once with the default clock);
    // before it, `stopped()` reads it wherever the budget is checked.
    if (options.signal && !controller.signal.aborted) {
      options.signal.addEventListener('abort', onOuterAbort, { once: true });
      listening = true;
    }
    options.onFirstWait?.();
  };
  if (options.clock !== 'first-wait') arm(limits.wallClockMs);
  /** Whether the run must stop: the clock ran out, or the caller went away (listened to or not yet). */
  const stopped = (): boolean => {
    if (!controller.signal.aborted && options.signal?.aborted) onOuterAbort();
    return controller.signal.aborted;
  };
  const reason = (): Error => {
    const r: unknown = controller.signal.reason;
    return r instanceof Error ? r : new LimitReached('limit:wallClock');
  };
  return {
    limits,
    signal: controller.signal,
    get subrequests() {
      return used;
    },
    spendSubrequest() {
      if (stopped()) throw reason();
      if (used >= limits.maxSubrequests) throw new LimitReached('limit:subrequests');
      used++;
    },
    race<T>(value: Promise<T> | T): Promise<T> {
      if (stopped()) return Promise.reject(reason());
      // A value already there (a synchronous tool) cannot outlast the clock: no abort listener, the same check a tick later.
      if (!isThenable(value))
        return Promise.resolve().then(() => {
          if (stopped()) throw reason();
          return value;
        });
      if (timer === undefined) arm(Math.max(0, limits.wallClockMs - (now() - started)));
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => reject(reason());
        controller.signal.addEventListener('abort', onAbort, { once: true });
        Promise.resolve(value).then(
          (v) => {
            controller.signal.removeEventListener('abort', onAbort);
            if (controller.signal.aborted) reject(reason());
            else resolve(v);
          },
          (e: unknown) => {
            controller.signal.removeEventListener('abort', onAbort);
            reject(controller.signal.aborted ? reason() : e);
          },
        );
      });
    },
    check() {
      if (stopped()) throw reason();
    },
    elapsedMs() {
      return Math.max(0, now() - started);
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      if (listening) options.signal?.removeEventListener('abort', onOuterAbort);
    },
  };
});
