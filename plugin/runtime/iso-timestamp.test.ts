/**
 * `isoTimestamp` is `Date.prototype.toISOString`: the same text for every millisecond it formats
 * itself, and for everything it hands to `Date` (the same text, or the same RangeError).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './iso-timestamp';

/** What `Date` says for `ms`: its text, or the name of what it threw. */
function byDate(ms: number): string {
  try {
    return new Date(ms).toISOString();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

function byUs(ms: number): string {
  try {
    return isoTimestamp(ms);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

const LAST = 253_402_300_799_999;

describe('isoTimestamp', () => {
  it('writes what Date writes at the edges: the epoch, leap days, century years, the last four-digit year and past it', () => {
    const edges = [
      0,
      1,
      999,
      1000,
      86_399_999,
      86_400_000,
      Date.UTC(1972, 1, 29),
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2026, 11, 4, 3, 23, 39, 7),
      LAST,
      LAST + 1,
      -1,
      -62_198_755_200_000,
      8.64e15,
      8.64e15 + 1,
      1.5,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ];
    for (const ms of edges) expect(byUs(ms), String(ms)).toBe(byDate(ms));
    expect(isoTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTimestamp(LAST)).toBe('9999-12-31T23:59:59.999Z');
  });

  it('writes what Date writes for any whole millisecond from 1970 to 9999, and for any number around them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: LAST }), (ms) => byUs(ms) === byDate(ms)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -1e16, max: 1e16 }), (ms) => byUs(ms) === byDate(ms)),
      { numRuns: 5_000 },
    );
  });

  it('writes what Date writes for every day of four whole 400-year cycles (each day start and end)', () => {
    const differing: string[] = [];
    for (let day = 0; day < 4 * 146_097; day++) {
      for (const ms of [day * 86_400_000, day * 86_400_000 + 86_399_999])
        if (byUs(ms) !== byDate(ms)) differing.push(`${ms}: ${byUs(ms)} against ${byDate(ms)}`);
    }
    expect(differing).toEqual([]);
  });
});
