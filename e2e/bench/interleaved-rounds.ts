/**
 * How the request rounds of worker-bench.ts take turns, and how their figures are compared, so no
 * server is favoured by where it sits in a round or by what ran just before it:
 * - `roundOrder`: the servers in the listed order in even rounds, reversed in odd ones, so over
 *   every two rounds each server's mean position is the same (a slow drift of the machine's load,
 *   or the tail of the server measured before, falls on every server alike);
 * - `pairedMedian`: the median over the rounds of a figure of one server divided by the same figure
 *   of another measured in the same round (a round where the machine was busy counts once, for
 *   both, instead of deciding a pooled percentile of whichever server it fell on);
 * - `freshHeap`: a full collection of this process's heap before a measurement, so no server's
 *   requests pay for the garbage of the one measured before it;
 * - `settled`: waits (a bounded while) until the workerd measured last has stopped using the CPU
 *   (its idle-time collection, the SQLite work of its object), so the next one has the cores.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './bench-support';

/** The order the servers are measured in, round `round` (0-based). */
export function roundOrder<T>(servers: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...servers] : [...servers].reverse();
}

/** The median, over the rounds, of `candidate[round] / baseline[round]`. */
export function pairedMedian(candidate: readonly number[], baseline: readonly number[]): number {
  if (candidate.length !== baseline.length || candidate.length === 0)
    throw new Error('paired figures need one value per round on both sides');
  return median(candidate.map((value, round) => value / baseline[round]!));
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

let collect: (() => void) | undefined;

/** A full garbage collection of this process (the flag is set once; `gc` is taken from a fresh context). */
export function freshHeap(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * Resolves once `cpuNs()` (the CPU nanoseconds of the workerd measured last) grows by less than
 * `idleShare` of the interval over one interval, or after `maxIntervals`; answers the milliseconds
 * waited. Without a CPU reading (not Linux) it answers at once.
 */
export async function settled(
  cpuNs: () => number | undefined,
  { intervalMs = 50, idleShare = 0.05, maxIntervals = 40 } = {},
): Promise<number> {
  let before = cpuNs();
  if (before === undefined) return 0;
  for (let interval = 1; interval <= maxIntervals; interval++) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = cpuNs();
    if (now === undefined) return interval * intervalMs;
    if (now - before < idleShare * intervalMs * 1e6) return interval * intervalMs;
    before = now;
  }
  return maxIntervals * intervalMs;
}
