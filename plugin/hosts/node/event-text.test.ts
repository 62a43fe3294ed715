/**
 * Every event the process hosts and the runtime emit has a line of its own in the text form
 * (found in their sources, so a new event without one fails here), each one line, showing only
 * the fields it is known to carry: a field an event does not declare (a prompt, a key) is not
 * printed for a known event. The JSON form is the host's line as it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHostEvent, eventLine } from './event-text';
import { parseEvent } from './run-events';

const pluginRoot = join(__dirname, '..', '..');

/** The event names written in the hosts' and the runtime's sources: `event: 'x.y'` and `log('x.y', …)`. */
function emittedEvents(): string[] {
  const names = new Set<string>();
  for (const folder of ['hosts/node', 'runtime']) {
    for (const file of readdirSync(join(pluginRoot, folder), { recursive: true }) as string[]) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('__test-support__')) continue;
      const source = readFileSync(join(pluginRoot, folder, file), 'utf8');
      for (const match of source.matchAll(/\bevent: '([a-z]+\.[a-z_]+)'/g)) names.add(match[1]!);
      for (const match of source.matchAll(/\blog\??\.?\('([a-z]+\.[a-z_]+)'/g)) names.add(match[1]!);
    }
  }
  return [...names].sort();
}

describe('the text form of host events', () => {
  it('gives every emitted event its own line (or none, when the supervisor already says it)', () => {
    const names = emittedEvents();
    // The finder itself works: it sees the events this file was written against.
    expect(names).toEqual(
      expect.arrayContaining([
        'host.ready',
        'run.start',
        'run.end',
        'spawn.blocked',
        'model.call',
        'tool.call',
        'mcp.ready',
        'egress.blocked',
      ]),
    );
    for (const name of names) {
      const line = describeHostEvent({ event: name, runId: 'r1' });
      if (line === undefined) {
        expect(['host.ready', 'host.tool_unimplemented'], name).toContain(name);
        continue;
      }
      expect(line.startsWith('event '), `${name} falls back to the generic line: ${line}`).toBe(false);
      expect(line, name).not.toContain('\n');
    }
  });

  it('says what the keychain lookup the process guard refused means, and names another refused program', () => {
    expect(describeHostEvent({ event: 'spawn.blocked', runId: '', executable: 'secret-tool' })).toBe(
      "note: the host's process guard refused a keychain lookup (secret-tool) made after start-up: keys come from the keys folder and secrets from AGENTDEF_SECRET_<NAME> instead",
    );
    expect(describeHostEvent({ event: 'spawn.blocked', runId: '', executable: 'curl' })).toBe(
      "warning: the host's process guard refused to start curl: only the agent's own tools and MCP servers may start",
    );
  });

  it('shows only the fields a known event carries, on one line, bounded', () => {
    const secret = 'sk-ant-api03-NOT-A-FIELD-OF-THIS-EVENT';
    const line = describeHostEvent({
      event: 'run.end',
      runId: 'r1',
      stopReason: 'answer\nINJECTED',
      latencyMs: 12,
      prompt: secret,
      apiKey: secret,
    });
    expect(line).toBe('run r1 ended: answer INJECTED after 12 ms');
    expect(
      describeHostEvent({
        event: 'tool.call',
        runId: 'r1',
        tool: 'x'.repeat(500),
        step: 2,
        ok: false,
        errorCode: 'tool_timeout',
      }),
    ).toMatch(/^run r1: tool x{157}\.\.\. \(step 2\) failed \(tool_timeout\)$/);
  });

  it('passes a line that is no event as it is, and the JSON form prints the host line itself', () => {
    const raw = '{"event":"run.start","runId":"r1","agent":"a@1.0.0"}';
    expect(eventLine(raw, parseEvent(raw), 'json')).toBe(`${raw}\n`);
    expect(eventLine(raw, parseEvent(raw), 'text')).toBe('run r1 started on a@1.0.0\n');
    expect(eventLine('agentdef: warning: something', undefined, 'text')).toBe('agentdef: warning: something\n');
    expect(
      eventLine(
        '{"event":"host.ready","runId":"","url":"http://127.0.0.1:1"}',
        parseEvent('{"event":"host.ready","runId":"","url":"http://127.0.0.1:1"}'),
        'text',
      ),
    ).toBe('');
  });
});
