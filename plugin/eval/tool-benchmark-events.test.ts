/**
 * tool-benchmark-events/v1: a batch signed over its RFC 8785 form verifies; an edited event, an
 * added or removed one, an added member, an unsigned batch, a non-canonical signature, an
 * iteration past runsPerCase and another key's signature do not, each named where it fails. The
 * table groups the events per tool and operation with nearest-rank p50/p95.
 */
import { describe, expect, it } from 'vitest';
import { generateReceiptKeyPair } from '../runtime/receipts';
import { parseSignedJson } from '../runtime/strict-json';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import {
  buildToolBenchmarkEvents,
  signToolBenchmarkEvents,
  type ToolBenchmarkEvent,
  toolBenchmarkEventsText,
  verifyToolBenchmarkEvents,
} from './tool-benchmark-events';
import { percentile, toolBenchmarkRows, toolBenchmarkTable } from './tool-benchmark-table';

const DIGEST = `sha-256:${'1'.repeat(64)}`;

function event(i: number, change: Partial<ToolBenchmarkEvent> = {}): ToolBenchmarkEvent {
  return {
    runId: `01KQXTGGAHPQXPXEVVWRWT0${String(i).padStart(3, '0')}`,
    caseId: `case-${i % 2}`,
    iteration: 1 + Math.floor(i / 2),
    skill: 'text.stats',
    category: 'text',
    tool: 'text-metrics',
    operation: 'count_text',
    latencyMs: 10 * (i + 1),
    ok: true,
    ...change,
  };
}

async function signed(events = [event(0), event(1), event(2), event(3)]) {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  const kid = await jwkThumbprint(publicJwk);
  const batch = await signToolBenchmarkEvents(
    buildToolBenchmarkEvents({
      definition: { slug: 'text-stats', version: '1.0.0', versionId: '01KQXTGGAHPQXPXEVVWRWT04ZM', digest: DIGEST },
      casesDigest: `sha-256:${'2'.repeat(64)}`,
      runsPerCase: 2,
      events,
    }),
    privateJwk,
    kid,
  );
  return { batch, publicJwk, kid };
}

/** A fresh, mutable copy of the batch as its file reads back. */
function reread(batch: unknown): Record<string, any> {
  const parsed = parseSignedJson(toolBenchmarkEventsText(batch as never));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value as Record<string, any>;
}

describe('tool benchmark events', () => {
  it('verify when read back as written, with the signer named', async () => {
    const { batch, publicJwk, kid } = await signed();
    const check = await verifyToolBenchmarkEvents(reread(batch), (k) => (k === kid ? publicJwk : undefined));
    expect(check).toMatchObject({ verified: true, kid });
    expect(toolBenchmarkEventsText(batch)).toMatch(/^\{\n {2}"eventsVersion": "tool-benchmark-events\/v1",/);
  });

  it('are the same bytes for the same inputs (Ed25519 is deterministic, nothing reads a clock)', async () => {
    const { privateJwk, publicJwk } = await generateReceiptKeyPair();
    const kid = await jwkThumbprint(publicJwk);
    const input = {
      definition: { slug: 's', version: '1.0.0', versionId: 'v', digest: DIGEST },
      casesDigest: DIGEST,
      runsPerCase: 1,
      events: [event(0)],
    };
    const a = toolBenchmarkEventsText(await signToolBenchmarkEvents(buildToolBenchmarkEvents(input), privateJwk, kid));
    const b = toolBenchmarkEventsText(await signToolBenchmarkEvents(buildToolBenchmarkEvents(input), privateJwk, kid));
    expect(a).toBe(b);
  });

  it('do not verify once changed: each change named where it fails', async () => {
    const { batch, publicJwk } = await signed();
    const key = () => publicJwk;
    const changes: [string, (b: Record<string, any>) => void, string, string][] = [
      ['a latency changed', (b) => (b['events'][1].latencyMs = 1), '/signature/value', 'does not match'],
      ['an event removed', (b) => b['events'].pop(), '/signature/value', 'does not match'],
      ['an event added', (b) => b['events'].push(event(3)), '/signature/value', 'does not match'],
      ['the digest swapped', (b) => (b['definition'].digest = `sha-256:${'9'.repeat(64)}`), '/signature/value', ''],
      ['a member added', (b) => (b['events'][0].note = 'x'), '/events/0/note', 'is not a member'],
      ['unsigned', (b) => delete b['signature'], '/signature', 'unsigned'],
      [
        'a padded signature',
        (b) => (b['signature'].value = `${b['signature'].value.slice(0, 85)}=`),
        '/signature/value',
        '',
      ],
      ['an iteration past the runs', (b) => (b['events'][0].iteration = 3), '/events/0/iteration', 'ran 2 times'],
      [
        'an ok call with an error code',
        (b) => (b['events'][0].errorCode = 'x'),
        '/events/0/errorCode',
        'no error code',
      ],
    ];
    for (const [what, change, pointer, words] of changes) {
      const copy = reread(batch);
      change(copy);
      const check = await verifyToolBenchmarkEvents(copy, key);
      expect(check.verified, what).toBe(false);
      if (check.verified) continue;
      expect(
        check.failures.map((f) => f.pointer),
        what,
      ).toContain(pointer);
      expect(check.failures.map((f) => f.message).join(' '), what).toContain(words);
    }
  });

  it('signed by another key do not verify with this one, nor with no key', async () => {
    const { batch } = await signed();
    const other = await generateReceiptKeyPair();
    const wrong = await verifyToolBenchmarkEvents(reread(batch), () => other.publicJwk);
    expect(wrong.verified).toBe(false);
    const none = await verifyToolBenchmarkEvents(reread(batch), () => undefined);
    expect(none.verified === false && none.failures[0]!.pointer).toBe('/signature/kid');
    expect((await verifyToolBenchmarkEvents('text', () => undefined)).verified).toBe(false);
    expect((await verifyToolBenchmarkEvents([1], () => undefined)).verified).toBe(false);
  });
});

describe('the benchmark table', () => {
  it('takes nearest-rank percentiles', () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([40, 10, 30, 20], 50)).toBe(20);
    expect(percentile([40, 10, 30, 20], 95)).toBe(40);
    expect(
      percentile(
        [...Array(100).keys()].map((i) => i + 1),
        95,
      ),
    ).toBe(95);
  });

  it('groups per tool and operation, in the order first called, with calls, ok rate and latencies', () => {
    const events = [
      event(0),
      event(1, { tool: 'search', operation: 'search_code', ok: false, errorCode: 'tool_failed' }),
      event(2),
      event(3, { tool: 'search', operation: 'search_code' }),
    ];
    expect(toolBenchmarkRows(events)).toEqual([
      { tool: 'text-metrics', operation: 'count_text', calls: 2, ok: 2, p50: 10, p95: 30 },
      { tool: 'search', operation: 'search_code', calls: 2, ok: 1, p50: 20, p95: 40 },
    ]);
    const table = toolBenchmarkTable(events, 5, 1);
    expect(table.split('\n')[0]).toMatch(/^tool\s+operation\s+calls\s+ok rate\s+p50 ms\s+p95 ms$/);
    expect(table).toMatch(/text-metrics\s+count_text\s+2\s+100%\s+10\s+30/);
    expect(table).toMatch(/search\s+search_code\s+2\s+50%\s+20\s+40/);
    expect(table).toContain('4 tool calls in 5 runs, 75% ok; 1 of the runs made no tool call');
  });

  it('keeps escape sequences out of the terminal', () => {
    const table = toolBenchmarkTable([event(0, { tool: 'a\u001b[31mred', operation: 'op\nnext' })], 1, 0);
    expect(table).not.toContain('\u001b');
    expect(table.split('\n')).toHaveLength(4);
  });
});
