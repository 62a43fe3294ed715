/** Small helpers shared by the benchmarks: timing, medians, `name: value` lines. */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { HUNG_CHILD_MS } from '../support/hung-child';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function report(name: string, value: number | string, unit = ''): void {
  const shown = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(3)) : value;
  process.stdout.write(`${name}: ${shown}${unit ? ` ${unit}` : ''}\n`);
}

export function timeCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: HUNG_CHILD_MS });
  const elapsed = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return elapsed;
}

export async function timeAsync(run: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
