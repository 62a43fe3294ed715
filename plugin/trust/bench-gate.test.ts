/**
 * The benchmark gate (bench-gate.ts) through `promoteDefinitionText`: mandatory (no requirement given:
 * refused), promoting a tool to tool-shipped needs signed tool benchmark events of exactly this definition
 * with an event per declared tool, signed by the promoting key. Each way to break it is refused,
 * located, naming the file and `agentdef bench-tool`: no file, not an events file, unsigned, signed
 * by another key, edited after signing, for another definition, replayed from an older version of
 * this one, a declared tool with no event. Good events promote; a demotion is not gated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildToolBenchmarkEvents,
  signToolBenchmarkEvents,
  type ToolBenchmarkEvent,
  verifyToolBenchmarkEvents,
} from '../eval/tool-benchmark-events';
import { jwkThumbprint } from '../runtime/jwk-thumbprint';
import { generateReceiptKeyPair } from '../runtime/receipts';
import type { BenchRequirement } from './bench-gate';
import { definitionDigest } from './lifecycle-receipt';
import { promoteDefinitionText } from './promotion';

const ROOT = join(__dirname, '..', '..');
const AT = '2026-03-01T12:30:00Z';
const FILE = 'examples/text-stats/agent.json';

/** text-stats, ready for tool-shipped (signed receipts), optionally changed. */
function textStats(change: (d: Record<string, any>) => void = () => {}): string {
  const definition = JSON.parse(readFileSync(join(ROOT, FILE), 'utf8'));
  definition.telemetryContract.receiptSigner = 'keyref:acme-receipts';
  change(definition);
  return `${JSON.stringify(definition, null, 2)}\n`;
}

async function keyPair() {
  const { privateJwk, publicJwk } = await generateReceiptKeyPair();
  return { privateJwk, publicJwk, kid: await jwkThumbprint(publicJwk) };
}

type Key = Awaited<ReturnType<typeof keyPair>>;

const call = (tool: string, operation: string): ToolBenchmarkEvent => ({
  runId: '01KQXTGGAHPQXPXEVVWRWT0001',
  caseId: 'release-note',
  iteration: 1,
  skill: 'text.stats',
  category: 'text',
  tool,
  operation,
  latencyMs: 3,
  ok: true,
});

async function eventsFor(text: string, key: Key, events = [call('text-metrics', 'count_text')]) {
  const definition = JSON.parse(text);
  return signToolBenchmarkEvents(
    buildToolBenchmarkEvents({
      definition: {
        slug: definition.identity.slug,
        version: definition.identity.versionSemver,
        versionId: definition.identity.versionId,
        digest: await definitionDigest(definition),
      },
      casesDigest: `sha-256:${'2'.repeat(64)}`,
      runsPerCase: 1,
      events,
    }),
    key.privateJwk,
    key.kid,
  );
}

function requirement(events: unknown, key: Key): BenchRequirement {
  return {
    events,
    shown: 'dist/bench/text-stats/tool-benchmark-events.json',
    publicJwk: key.publicJwk,
    kid: key.kid,
    verify: async (batch, publicJwk) => {
      const check = await verifyToolBenchmarkEvents(batch, () => publicJwk);
      return check.verified ? [] : check.failures.map((f) => `${f.pointer}: ${f.message}`);
    },
    benchCommand: `agentdef bench-tool ${FILE}`,
  };
}

async function promote(text: string, key: Key, events: unknown, to = 'tool-shipped') {
  return promoteDefinitionText({
    text,
    file: FILE,
    format: 'json',
    to,
    at: AT,
    signer: { privateJwk: key.privateJwk, kid: key.kid },
    benchRequirement: requirement(events, key),
  });
}

describe('the benchmark gate of tool-shipped', () => {
  it('promotes with signed events of this definition that cover every declared tool', async () => {
    const key = await keyPair();
    const text = textStats();
    const result = await promote(text, key, JSON.parse(JSON.stringify(await eventsFor(text, key))));
    expect(result.ok).toBe(true);
  });

  it('refuses each batch that does not back this definition, located, naming the file and the command', async () => {
    const key = await keyPair();
    const other = await keyPair();
    const text = textStats();
    const good = await eventsFor(text, key);
    const older = textStats((d) => {
      d.identity.versionSemver = '0.9.0';
      d.identity.versionId = '01KQXTGGAHPQXPXEVVWRWT0000';
    });
    const edited = JSON.parse(JSON.stringify(good));
    edited.events[0].ok = false;
    edited.events[0].errorCode = 'tool_failed';
    const unsigned = JSON.parse(JSON.stringify(good));
    delete unsigned.signature;
    const twoTools = textStats((d) =>
      d.toolInventory.push({
        id: 'readability',
        name: 'score_readability',
        version: '1.0.0',
        provenance: 'skill-package',
        risk: 'low',
        description: 'Scores readability.',
      }),
    );
    const cases: [string, string, unknown, string, string][] = [
      [
        'missing',
        text,
        undefined,
        'there are no benchmark events at dist/bench/text-stats/tool-benchmark-events.json',
        '/lifecycleState',
      ],
      [
        'not an events file',
        text,
        { receiptVersion: 'eval-receipt/v1' },
        'is not a tool benchmark events file',
        '/lifecycleState',
      ],
      ['not JSON', text, null, 'is not a tool benchmark events file', '/lifecycleState'],
      ['unsigned', text, unsigned, 'is not signed, so none of its events count', '/lifecycleState'],
      ['signed by another key', text, await eventsFor(text, other), 'not by the promoting key', '/lifecycleState'],
      ['edited after signing', text, edited, 'does not verify', '/lifecycleState'],
      [
        'another definition',
        text,
        await eventsFor(
          textStats((d) => (d.identity.slug = 'word-count')),
          key,
        ),
        'measured another definition of word-count@1.0.0',
        '/lifecycleState',
      ],
      [
        'replayed from an older version',
        text,
        await eventsFor(older, key),
        'measured another definition of text-stats@0.9.0',
        '/lifecycleState',
      ],
      [
        'a declared tool with no event',
        twoTools,
        await eventsFor(twoTools, key),
        'has no event for tool "readability": every declared tool must be benchmarked',
        '/toolInventory/1',
      ],
    ];
    for (const [what, definitionText, events, message, pointer] of cases) {
      const result = await promote(
        definitionText,
        key,
        events === undefined ? undefined : JSON.parse(JSON.stringify(events)),
      );
      expect(result.ok, what).toBe(false);
      if (result.ok) continue;
      const [diagnostic] = result.diagnostics;
      expect(diagnostic!.rule, what).toBe('lifecycle-bench-gate');
      expect(diagnostic!.message, what).toContain(
        '"tool-shipped" requires signed tool benchmark events of this definition',
      );
      expect(diagnostic!.message, what).toContain(message);
      expect(diagnostic!.path, what).toBe(pointer);
      expect(diagnostic!.file, what).toBe(FILE);
      expect(diagnostic!.line, what).toBeGreaterThan(1);
      expect(diagnostic!.suggestion, what).toContain('agentdef bench-tool examples/text-stats/agent.json');
    }
  });

  it('never gates a demotion', async () => {
    const key = await keyPair();
    const shipped = textStats((d) => (d.lifecycleState = 'tool-shipped'));
    const down = await promote(shipped, key, undefined, 'tool-prototype');
    expect(down.ok).toBe(true);
  });

  it('is mandatory: a promotion to tool-shipped with no benchmark requirement at all is refused, located', async () => {
    const key = await keyPair();
    const result = await promoteDefinitionText({
      text: textStats(),
      file: FILE,
      format: 'json',
      to: 'tool-shipped',
      at: AT,
      signer: { privateJwk: key.privateJwk, kid: key.kid },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      rule: 'lifecycle-bench-gate',
      path: '/lifecycleState',
      file: FILE,
      message: '"tool-shipped" requires signed tool benchmark events of this definition, and none were given',
    });
    expect(result.diagnostics[0]!.line).toBeGreaterThan(1);
    expect(result.diagnostics[0]!.suggestion).toContain('agentdef bench-tool examples/text-stats/agent.json');
  });
});
