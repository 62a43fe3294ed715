/**
 * CPU time of the workerd processes a benchmark starts (Linux `/proc`): what a Worker costs per
 * request whatever else the machine is running, where requests per second move with the load.
 * `startedWorkerd` names the workerd child of this process a start made; `cpuNs` reads the time
 * every thread of it has spent on a CPU (`schedstat`, nanoseconds). Elsewhere both answer undefined.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** The pids of this process's workerd children. */
function workerdChildren(): string[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return stat.includes('(workerd)') && afterName[1] === String(process.pid);
    } catch {
      return false;
    }
  });
}

/** Runs `start` and answers its result with the pid of the workerd child it started (if one can be told). */
export async function startedWorkerd<T>(start: () => Promise<T>): Promise<{ started: T; pid: string | undefined }> {
  const before = new Set(workerdChildren());
  const started = await start();
  const added = workerdChildren().filter((pid) => !before.has(pid));
  return { started, pid: added.length === 1 ? added[0] : undefined };
}

/** Nanoseconds every thread of `pid` has spent on a CPU, or undefined. */
export function cpuNs(pid: string | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, thread) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        return sum;
      }
    }, 0);
  } catch {
    return undefined;
  }
}
