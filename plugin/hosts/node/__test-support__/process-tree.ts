/**
 * The processes below a pid (children, grandchildren…) from `ps`, for tests that check a host
 * leaves nothing running. Test-only.
 */
import { execFileSync } from 'node:child_process';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  args: string;
}

export function listProcesses(): ProcessInfo[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
}

export function descendantsOf(pid: number): ProcessInfo[] {
  const all = listProcesses();
  const out: ProcessInfo[] = [];
  const visit = (parent: number) => {
    for (const p of all) {
      if (p.ppid === parent && !p.args.startsWith('ps ')) {
        out.push(p);
        visit(p.pid);
      }
    }
  };
  visit(pid);
  return out;
}

/** Processes whose command line contains `marker` (e.g. a temp folder only one test uses). */
export function processesMatching(marker: string): ProcessInfo[] {
  return listProcesses().filter((p) => p.args.includes(marker) && !p.args.startsWith('ps '));
}

/** Waits until `check` returns an empty list (or the time is up) and returns the last list. */
export async function settle<T>(check: () => T[], ms = 3000): Promise<T[]> {
  const until = Date.now() + ms;
  let last = check();
  while (last.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    last = check();
  }
  return last;
}
