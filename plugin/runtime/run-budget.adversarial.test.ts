/**
 * The run budget's `race` against hostile values: thenables that throw, call back twice or
 * synchronously, `then` getters, Proxies, and aborts before and after the value arrives. Whatever
 * the value, a race settles once, and one still pending when the budget runs out ends as the limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LimitReached, RunAborted, createRunBudget } from './run-budget';
import type { ResolvedLimits } from './runtime-config';

const LIMITS: ResolvedLimits = { wallClockMs: 40, maxSubrequests: 2, maxSteps: 1 };

/** An object whose `then` is given by `then` (not a literal property, which biome and TypeScript frown on). */
const withThen = (then: unknown, extra: Record<string, unknown> = {}): Promise<unknown> =>
  Object.defineProperty({ ...extra }, 'then', { value: then, enumerable: true }) as unknown as Promise<unknown>;

describe('race against hostile thenables', () => {
  it('takes the first of two callbacks, a synchronous resolve, and a then that throws after resolving', async () => {
    const budget = createRunBudget(LIMITS);
    const twice = withThen((resolve: (v: string) => void, reject: (e: unknown) => void) => {
      resolve('first');
      resolve('second');
      reject(new Error('late'));
    });
    expect(await budget.race(twice as Promise<string>)).toBe('first');
    const resolvesThenThrows = withThen((resolve: (v: string) => void) => {
      resolve('kept');
      throw new Error('ignored: already resolved');
    });
    expect(await budget.race(resolvesThenThrows as Promise<string>)).toBe('kept');
    const throws = withThen(() => {
      throw new Error('then broke');
    });
    await expect(budget.race(throws as Promise<string>)).rejects.toThrow('then broke');
    budget.dispose();
  });

  it('a thenable that never calls back, or calls back after the clock ran out, ends as the wall-clock limit', async () => {
    const budget = createRunBudget(LIMITS);
    const silent = withThen(() => undefined);
    await expect(budget.race(silent as Promise<string>)).rejects.toBeInstanceOf(LimitReached);
    const late = createRunBudget(LIMITS);
    const afterClock = withThen((resolve: (v: string) => void) =>
      setTimeout(() => resolve('too late'), LIMITS.wallClockMs * 3),
    );
    await expect(late.race(afterClock as Promise<string>)).rejects.toMatchObject({ reason: 'limit:wallClock' });
    budget.dispose();
    late.dispose();
  });

  it('a Proxy whose then is always a function is a thenable; one without is a value, returned as is', async () => {
    const budget = createRunBudget(LIMITS);
    const chainable: object = new Proxy(function chain() {}, { get: () => () => undefined });
    await expect(budget.race(chainable as Promise<unknown>)).rejects.toBeInstanceOf(LimitReached);
    const fresh = createRunBudget(LIMITS);
    const plain = new Proxy({ words: 3 }, {});
    expect(await fresh.race(plain)).toBe(plain);
    budget.dispose();
    fresh.dispose();
  });

  it('refuses a value or a settled promise when the caller aborts after it arrived but before it is taken', async () => {
    for (const value of [
      'answer',
      Promise.resolve('answer'),
      withThen((resolve: (v: string) => void) => resolve('answer')),
    ]) {
      const caller = new AbortController();
      const budget = createRunBudget(LIMITS, { signal: caller.signal });
      const raced = budget.race(value as Promise<string>);
      caller.abort();
      await expect(raced).rejects.toBeInstanceOf(RunAborted);
      budget.dispose();
    }
    const caller = new AbortController();
    caller.abort();
    const budget = createRunBudget(LIMITS, { signal: caller.signal });
    await expect(budget.race('before')).rejects.toBeInstanceOf(RunAborted);
    expect(() => budget.check()).toThrow(RunAborted);
    budget.dispose();
  });

  it('any value, then-getter or thenable settles once: as itself, its resolution, its error, or the limit', async () => {
    const hostileValue = fc.oneof(
      fc.anything().map((value) => ({ value, expect: 'value' as const })),
      fc.constantFrom(
        { value: withThen((resolve: (v: number) => void) => resolve(1)), expect: 'resolves' as const },
        {
          value: withThen((_: unknown, reject: (e: unknown) => void) => reject(new Error('no'))),
          expect: 'rejects' as const,
        },
        { value: withThen(() => undefined), expect: 'limit' as const },
        {
          value: Object.defineProperty({}, 'then', {
            get() {
              throw new Error('getter');
            },
          }),
          expect: 'rejects' as const,
        },
      ),
    );
    await fc.assert(
      fc.asyncProperty(hostileValue, async ({ value, expect: outcome }) => {
        const budget = createRunBudget(LIMITS);
        const settled = await budget.race(value as Promise<unknown>).then(
          (v) => ({ ok: true as const, v }),
          (e: unknown) => ({ ok: false as const, e }),
        );
        budget.dispose();
        if (outcome === 'value') expect(settled).toEqual({ ok: true, v: value });
        else if (outcome === 'resolves') expect(settled).toEqual({ ok: true, v: 1 });
        else if (outcome === 'rejects') expect(settled.ok).toBe(false);
        else expect(settled.ok === false && settled.e instanceof LimitReached).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
