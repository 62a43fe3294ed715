/**
 * What `agentdef eval` learns from the served host's own event lines (`agentdef dev --log-format
 * json` prints each as one JSON object on standard error) that the A2A wire does not carry: the
 * hosts a run tried to reach outside its egress allow-list (`egress.blocked`,
 * `egress.blocked_off_machine`), by run id. Every other line is handed on as it came (an error the
 * host printed stays visible); event lines are kept out of eval's output.
 */

const BLOCKED_EVENTS = new Set(['egress.blocked', 'egress.blocked_off_machine']);

export interface HostEventLog {
  /** Takes what the host printed on standard error (any chunking); returns what is not an event line. */
  write(text: string): string;
  /** The hosts run `runId` was refused, in the order first seen, each once. */
  blockedHosts(runId: string): string[];
}

export function hostEventLog(): HostEventLog {
  const blocked = new Map<string, string[]>();
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
  };
}
