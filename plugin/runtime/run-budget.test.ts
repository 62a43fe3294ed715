/**
 * The run budget's `race`: a value already there (a synchronous tool) and a promise settle alike,
 * both refused once the budget has run out or the caller went away, and a hanging promise stops
 * waiting the moment the clock runs out; with `clock: 'first-wait'` the timer is armed at the first
 * promise raced, for what is left of the clock.
 */
import { describe, expect, it } from 'vitest';
import { createRunBudget, LimitReached, RunAborted } from './run-budget';
import type { ResolvedLimits } from './runtime-config';

const LIMITS: ResolvedLimits = { wallClockMs: 50, maxSubrequests: 2, maxSteps: 1 };

describe('race', () => {
  it('answers a plain value, a promise and a thenable, with no listener left behind', async () => {
    const budget = createRunBudget(LIMITS);
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a Promise is what this test races
    const thenable = { then: (resolve: (value: string) => void) => resolve('thenable') };
    expect(await budget.race({ words: 3 })).toEqual({ words: 3 });
    expect(await budget.race(7)).toBe(7);
    expect(await budget.race(null)).toBe(null);
    expect(await budget.race(Promise.resolve('promise'))).toBe('promise');
    expect(await budget.race(thenable as unknown as PromiseLike<string> as Promise<string>)).toBe('thenable');
    await expect(budget.race(Promise.reject(new Error('tool broke')))).rejects.toThrow('tool broke');
    budget.dispose();
  });

  it('refuses a plain value when the caller aborts before it is taken', async () => {
    const caller = new AbortController();
    const budget = createRunBudget(LIMITS, { signal: caller.signal });
    const raced = budget.race('answer');
    caller.abort();
    await expect(raced).rejects.toBeInstanceOf(RunAborted);
    await expect(budget.race('late')).rejects.toBeInstanceOf(RunAborted);
    budget.dispose();
  });

  it('treats a value whose then cannot be read as Promise.resolve does: a rejection', async () => {
    const budget = createRunBudget(LIMITS);
    const hostile = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('no then');
      },
    });
    await expect(budget.race(hostile)).rejects.toThrow('no then');
    budget.dispose();
  });

  it('stops waiting for a hanging promise when the wall clock runs out', async () => {
    const budget = createRunBudget(LIMITS);
    await expect(budget.race(new Promise<never>(() => undefined))).rejects.toBeInstanceOf(LimitReached);
    budget.dispose();
  });
});

describe("clock: 'first-wait'", () => {
  it('arms no timer for plain values, and tells onFirstWait once, at the first promise', async () => {
    let told = 0;
    const budget = createRunBudget(LIMITS, { clock: 'first-wait', onFirstWait: () => told++ });
    expect(await budget.race({ words: 3 })).toEqual({ words: 3 });
    expect(await budget.race('plain')).toBe('plain');
    expect(told).toBe(0);
    expect(await budget.race(Promise.resolve('promise'))).toBe('promise');
    expect(await budget.race(Promise.resolve('again'))).toBe('again');
    expect(told).toBe(1);
    budget.dispose();
  });

  it('counts the clock from the start: a hanging promise raced late gets only what is left', async () => {
    let clock = 0;
    const budget = createRunBudget({ ...LIMITS, wallClockMs: 600_000 }, { clock: 'first-wait', now: () => clock });
    clock = 600_000; // the whole wall clock spent before the first wait
    await expect(budget.race(new Promise<never>(() => undefined))).rejects.toBeInstanceOf(LimitReached);
    budget.dispose();
  });

  it('tells onFirstWait at once with the default clock', () => {
    let told = 0;
    const budget = createRunBudget(LIMITS, { onFirstWait: () => told++ });
    expect(told).toBe(1);
    budget.dispose();
  });

  it('refuses a plain value, a check and a subrequest once the caller went away, listened to or not', async () => {
    const caller = new AbortController();
    const budget = createRunBudget(LIMITS, { clock: 'first-wait', signal: caller.signal });
    const raced = budget.race('answer');
    caller.abort();
    await expect(raced).rejects.toBeInstanceOf(RunAborted);
    expect(() => budget.check()).toThrow(RunAborted);
    expect(() => budget.spendSubrequest()).toThrow(RunAborted);
    expect(budget.signal.aborted).toBe(true);
    budget.dispose();
  });

  it('still answers the caller going away before any wait', async () => {
    const caller = new AbortController();
    const budget = createRunBudget(LIMITS, { clock: 'first-wait', signal: caller.signal });
    caller.abort();
    await expect(budget.race(Promise.resolve('late'))).rejects.toBeInstanceOf(RunAborted);
    budget.dispose();
  });
});
