/**
 * The request rounds' scheduling and comparisons (interleaved-rounds.ts): every server holds the
 * same mean position over two rounds, paired ratios pair values of the same round (a busy round
 * cannot decide the figure alone), the percentile is the nearest rank, and `settled` returns as
 * soon as the reader shows an idle interval, and never waits past its bound.
 */
import { describe, expect, it } from 'vitest';
import { pairedMedian, percentile, roundOrder, settled } from './interleaved-rounds';

describe('roundOrder', () => {
  it('gives every server the same mean position over two rounds', () => {
    const servers = ['a', 'b', 'c', 'd', 'e', 'f'];
    const positions = new Map<string, number>();
    for (const round of [0, 1])
      roundOrder(servers, round).forEach((name, position) =>
        positions.set(name, (positions.get(name) ?? 0) + position),
      );
    expect(new Set(positions.values())).toEqual(new Set([servers.length - 1]));
    expect(roundOrder(servers, 2)).toEqual(servers);
    expect(servers).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});

describe('pairedMedian', () => {
  it('divides values of the same round and takes the median of the ratios', () => {
    // Round 2 was busy for the candidate only: it is one ratio of five, not a pooled tail.
    expect(pairedMedian([10, 11, 90, 10, 12], [10, 10, 10, 10, 10])).toBeCloseTo(1.1);
    // A round busy for both sides cancels out.
    expect(pairedMedian([10, 100], [10, 100])).toBe(1);
  });

  it('refuses figures that are not one per round on both sides', () => {
    expect(() => pairedMedian([1, 2], [1])).toThrow(/one value per round/);
    expect(() => pairedMedian([], [])).toThrow(/one value per round/);
  });
});

describe('percentile', () => {
  it('is the nearest rank', () => {
    const values = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(percentile(values, 99)).toBe(198);
    expect(percentile(values, 100)).toBe(200);
    expect(percentile([7], 99)).toBe(7);
    expect(values[0]).toBe(200);
  });
});

describe('settled', () => {
  it('returns after the first interval in which the reader grew by less than the idle share', async () => {
    const readings = [0, 40e6, 80e6, 80.01e6];
    let read = 0;
    const waited = await settled(() => readings[Math.min(read++, readings.length - 1)], {
      intervalMs: 1,
      idleShare: 0.05,
      maxIntervals: 10,
    });
    expect(read).toBe(4);
    expect(waited).toBe(3);
  });

  it('never waits past its bound for a reader that stays busy, and not at all without one', async () => {
    let busy = 0;
    expect(await settled(() => (busy += 1e9), { intervalMs: 1, maxIntervals: 5 })).toBe(5);
    expect(busy).toBe(6e9);
    expect(await settled(() => undefined)).toBe(0);
  });
});
