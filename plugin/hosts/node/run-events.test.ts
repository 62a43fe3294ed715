import { describe, expect, it } from 'vitest';
import { createRunTracker, formatEvent, lineSplitter, parseEvent } from './run-events';

describe('host events', () => {
  it('round-trips one JSON line and ignores anything else', () => {
    expect(parseEvent(formatEvent({ event: 'host.ready', runId: '', url: 'http://127.0.0.1:1' }))).toEqual({
      event: 'host.ready',
      runId: '',
      url: 'http://127.0.0.1:1',
    });
    expect(parseEvent('agentdef: serving')).toBeUndefined();
    expect(parseEvent('{"no":"event"}')).toBeUndefined();
    expect(parseEvent('{broken')).toBeUndefined();
  });

  it('follows a run through the runs of its in-process children, which share its run id', () => {
    const tracker = createRunTracker('router@1.0.0');
    const seen = [
      { event: 'run.start', runId: 'R1', agent: 'router@1.0.0', skill: 'write' },
      { event: 'run.start', runId: 'R1', agent: 'child@1.0.0' },
      { event: 'run.end', runId: 'R1' },
      { event: 'run.start', runId: 'R2', agent: 'other@1.0.0' },
      { event: 'run.end', runId: 'R1' },
    ].map((e) => tracker.push(e));
    expect(seen).toEqual([
      { kind: 'started', runId: 'R1', skill: 'write' },
      undefined,
      undefined,
      undefined,
      { kind: 'finished', runId: 'R1' },
    ]);
    expect(tracker.open()).toEqual([]);
  });

  it('splits a byte stream into lines across chunk boundaries', () => {
    const lines: string[] = [];
    const splitter = lineSplitter((l) => lines.push(l));
    splitter.push('a\nb');
    splitter.push('c\n');
    splitter.push(Buffer.from('d'));
    expect(lines).toEqual(['a', 'bc']);
    splitter.end();
    expect(lines).toEqual(['a', 'bc', 'd']);
  });
});
