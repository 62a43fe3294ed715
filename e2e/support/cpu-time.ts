/**
 * Work bounds that machine load cannot break. A guard that must refuse hostile input "quickly"
 * (a YAML alias bomb, a 50 MB file, a pathological regex input) is held to a budget of CPU time,
 * which counts the work the guard does, instead of wall time, which also counts every other
 * process the machine runs: the same test passes on a quiet laptop and on a CI machine running two
 * suites at once, and still fails when the guard stops working (the work grows by orders of
 * magnitude, far past any budget here).
 *
 * - {@link cpuTimeOf} / {@link cpuTimeOfAsync}: this process's CPU time (user + system) while
 *   `work` runs. Async work shares the process with whatever else the test file runs at the same
 *   time; test files run their tests one at a time, so that is the work itself.
 * - {@link spawnNodeWithCpuTime}: a Node child's own CPU time, reported by the child as it exits
 *   (a `-r` preload), so a command run through the real binary is measured the same way.
 */
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** `work()`'s value and the CPU milliseconds this process spent on it. */
export function cpuTimeOf<T>(work: () => T): { value: T; cpuMs: number } {
  const before = process.cpuUsage();
  const value = work();
  return { value, cpuMs: cpuMs(process.cpuUsage(before)) };
}

/** Like {@link cpuTimeOf}, for work that awaits. */
export async function cpuTimeOfAsync<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const value = await work();
  return { value, cpuMs: cpuMs(process.cpuUsage(before)) };
}

const PRELOAD = `'use strict';
const { writeFileSync } = require('node:fs');
const file = process.env.AGENTDEF_TEST_CPU_REPORT;
delete process.env.AGENTDEF_TEST_CPU_REPORT;
process.on('exit', () => { try { writeFileSync(file, JSON.stringify(process.cpuUsage())); } catch {} });
`;

export interface TimedRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The child's own CPU milliseconds; Infinity when it did not exit normally (killed, crashed). */
  cpuMs: number;
}

/** `node <args>` to its end, with the CPU time the child itself spent. */
export function spawnNodeWithCpuTime(args: string[], options: SpawnSyncOptions = {}): TimedRun {
  const dir = mkdtempSync(join(tmpdir(), 'agentdef-cpu-'));
  try {
    const preload = join(dir, 'report-cpu.cjs');
    const report = join(dir, 'cpu.json');
    writeFileSync(preload, PRELOAD);
    const run = spawnSync(process.execPath, ['-r', preload, ...args], {
      ...options,
      encoding: 'utf8',
      env: { ...(options.env ?? process.env), AGENTDEF_TEST_CPU_REPORT: report },
    });
    let cpu = Number.POSITIVE_INFINITY;
    try {
      cpu = cpuMs(JSON.parse(readFileSync(report, 'utf8')) as NodeJS.CpuUsage);
    } catch {
      // no report: the child did not exit through Node's exit path
    }
    return { status: run.status, stdout: String(run.stdout ?? ''), stderr: String(run.stderr ?? ''), cpuMs: cpu };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
