/**
 * The process hosts' event stream: one JSON object per line (the runtime's log events plus the
 * host's own: `host.ready`, `host.stopping`, `host.stopped`, `weights.loaded`, `mcp.ready`).
 * Events never carry secrets, prompts or answers. A supervisor reads the lines back to learn the
 * serving URL and when each run starts and ends (to enforce the wall clock from outside).
 *
 * Composed children that run in the same process log their own `run.start` / `run.end` under the
 * parent's run id, so a run is open from its first `run.start` until as many `run.end`s arrived.
 */
export interface HostEvent {
  event: string;
  runId?: string;
  [field: string]: unknown;
}

export function formatEvent(event: HostEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/** Parses one line; anything that is not a JSON object with an `event` string is ignored. */
export function parseEvent(line: string): HostEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (value !== null && typeof value === 'object' && typeof (value as HostEvent).event === 'string')
      return value as HostEvent;
  } catch {
    // not an event line
  }
  return undefined;
}

export interface RunChange {
  kind: 'started' | 'finished';
  runId: string;
  /** The skill asked for (on `started`), when the caller named one. */
  skill?: string;
}

/** Follows runs of one agent (`slug@version`) through its event stream. */
export interface RunTracker {
  /** Feeds one event; says when a run of the agent opened or closed. */
  push(event: HostEvent): RunChange | undefined;
  /** Run ids open now. */
  open(): string[];
}

export function createRunTracker(agent: string): RunTracker {
  const depth = new Map<string, number>();
  return {
    push(event) {
      const runId = event.runId;
      if (typeof runId !== 'string' || runId === '') return undefined;
      if (event.event === 'run.start') {
        const current = depth.get(runId);
        if (current === undefined) {
          if (event['agent'] !== agent) return undefined; // a child's run seen without its parent's
          depth.set(runId, 1);
          return { kind: 'started', runId, ...(typeof event['skill'] === 'string' ? { skill: event['skill'] } : {}) };
        }
        depth.set(runId, current + 1);
        return undefined;
      }
      if (event.event === 'run.end') {
        const current = depth.get(runId);
        if (current === undefined) return undefined;
        if (current > 1) {
          depth.set(runId, current - 1);
          return undefined;
        }
        depth.delete(runId);
        return { kind: 'finished', runId };
      }
      return undefined;
    },
    open: () => [...depth.keys()],
  };
}

/** Splits a byte stream into lines, calling `onLine` for each complete one. */
export function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; end(): void } {
  let buffered = '';
  return {
    push(chunk) {
      buffered += chunk.toString();
      let index: number;
      while ((index = buffered.indexOf('\n')) >= 0) {
        onLine(buffered.slice(0, index));
        buffered = buffered.slice(index + 1);
      }
    },
    end() {
      if (buffered !== '') onLine(buffered);
      buffered = '';
    },
  };
}
