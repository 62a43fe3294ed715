/** The host's JSON event lines become the egress blocks of each run; every other line is kept, whatever the chunking. */
import { describe, expect, it } from 'vitest';
import { hostEventLog } from './host-events';

describe('hostEventLog', () => {
  it('collects the hosts each run was refused, once each, and hands on what is not an event line', () => {
    const log = hostEventLog();
    const lines = [
      JSON.stringify({ event: 'run.start', runId: 'r1' }),
      JSON.stringify({ event: 'egress.blocked', runId: 'r1', host: 'evil.example' }),
      'error: the notes MCP server wrote to stderr',
      JSON.stringify({ event: 'egress.blocked_off_machine', runId: 'r2', host: 'api.openai.com' }),
      JSON.stringify({ event: 'egress.blocked', runId: 'r1', host: 'evil.example' }),
      '{ not json',
      '',
    ].join('\n');
    const passed = [log.write(lines.slice(0, 50)), log.write(lines.slice(50, 140)), log.write(lines.slice(140))].join(
      '',
    );
    expect(passed).toBe('error: the notes MCP server wrote to stderr\n{ not json\n');
    expect(log.blockedHosts('r1')).toEqual(['evil.example']);
    expect(log.blockedHosts('r2')).toEqual(['api.openai.com']);
    expect(log.blockedHosts('r3')).toEqual([]);
  });

  it('says when a run has ended by its host, and does not wait on a host that prints no events', async () => {
    const silent = hostEventLog();
    await silent.runEnded('r1');
    const log = hostEventLog();
    log.write(`${JSON.stringify({ event: 'run.start', runId: 'r1' })}\n`);
    let ended = false;
    const waiting = log.runEnded('r1').then(() => {
      ended = true;
    });
    log.write(`${JSON.stringify({ event: 'egress.blocked', runId: 'r1', host: 'x.example' })}\n`);
    await Promise.resolve();
    expect(ended).toBe(false);
    log.write(`${JSON.stringify({ event: 'run.end', runId: 'r1', stopReason: 'answer' })}\n`);
    await waiting;
    expect(ended).toBe(true);
    expect(log.blockedHosts('r1')).toEqual(['x.example']);
    await log.runEnded('r1');
  });
});
