/**
 * What `agentdef eval` learns from the served host's own event lines (`agentdef dev --log-format
 * json` prints each as one JSON object on standard error) that the A2A wire does not carry: the
 * hosts a run tried to reach outside its egress allow-list (`egress.blocked`,
 * `egress.blocked_off_machine`), by run id, and when each run's events are all in (`run.end`). Every other line is handed on as it came (an error the
 * host printed stays visible); event lines are kept out of eval's output.
 */

const BLOCKED_EVENTS = new Set(['egress.blocked', 'egress.blocked_off_machine']);

export interface HostEventLog {
  /** Takes what the host printed on standard error (any chunking); returns what is not an event line. */
  write(text: string): string;
  /** The hosts run `runId` was refused, in the order first seen, each once. */
  blockedHosts(runId: string): string[];
  /**
   * Resolves once the host's `run.end` line of `runId` has been read (its lines and its A2A answer
   * travel apart, so the answer may come first); at once when the host prints no event lines at all
   * (none seen so far: a host that does not print them).
   */
  runEnded(runId: string): Promise<void>;
}

export function hostEventLog(): HostEventLog {
  const blocked = new Map<string, string[]>();
  const ended = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  let seenEvents = false;
  let pending = '';
  const take = (line: string): boolean => {
    if (!line.startsWith('{')) return false;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return false;
    }
    if (event === null || typeof event !== 'object' || typeof (event as { event?: unknown }).event !== 'string')
      return false;
    const { event: name, runId, host } = event as { event: string; runId?: unknown; host?: unknown };
    seenEvents = true;
    if (name === 'run.end' && typeof runId === 'string') {
      ended.add(runId);
      for (const done of waiting.get(runId) ?? []) done();
      waiting.delete(runId);
    }
    if (BLOCKED_EVENTS.has(name) && typeof runId === 'string') {
      const hosts = blocked.get(runId) ?? [];
      const shown = typeof host === 'string' && host !== '' ? host : '(unnamed host)';
      if (!hosts.includes(shown)) hosts.push(shown);
      blocked.set(runId, hosts);
    }
    return true;
  };
  return {
    write(text) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      return lines
        .filter((line) => !take(line.trim()))
        .map((line) => `${line}\n`)
        .join('');
    },
    blockedHosts: (runId) => [...(blocked.get(runId) ?? [])],
    runEnded: (runId) =>
      !seenEvents || ended.has(runId)
        ? Promise.resolve()
        : new Promise<void>((done) => waiting.set(runId, [...(waiting.get(runId) ?? []), done])),
  };
}
