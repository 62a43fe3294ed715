/**
 * `agentdef bench-tool` and the benchmark gate of tool-shipped, through the real binary on a copy of
 * the examples workspace (text-stats, a tool-only agent served by workerd): without benchmark events
 * `promote --to tool-shipped` refuses (the gate is mandatory; the old `--require-bench` opt-in is a usage error), located, naming the file it looked for and `agentdef bench-tool`;
 * `bench-tool --runs 2` serves the tool, runs each case twice, prints the table and writes signed
 * events (one per tool call, in the tool taxonomy) that verify with the promoting key; then promote
 * succeeds. `agentdef eval` of the tool writes the same events, which the gate also takes; events of
 * an older version of the definition (replayed after a version bump) are refused. Nothing is
 * written outside the test's scratch folder.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyToolBenchmarkEvents } from '../plugin/eval/tool-benchmark-events';
import { isolatedEnv, REPO } from './local/support/host-harness';
import { runAgentdef } from './support/run-cli';

const AGENT = 'examples/text-stats/agent.json';
const EVENTS = 'dist/bench/text-stats/tool-benchmark-events.json';
let work: string;
let ws: string;
let env: NodeJS.ProcessEnv;
let publicJwk: JsonWebKey;

const agentdef = (...args: string[]) => runAgentdef(args, ws, env);
const shown = (run: { stdout: string; stderr: string }) => `${run.stdout}\n${run.stderr}`;
const definitionText = () => readFileSync(join(ws, AGENT), 'utf8');
const stage = () => (JSON.parse(definitionText()) as { lifecycleState: string }).lifecycleState;

beforeAll(() => {
  mkdirSync(join(REPO, 'tmp'), { recursive: true });
  work = mkdtempSync(join(REPO, 'tmp', 'bench-tool-'));
  ws = join(work, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'nx.json'), '{}\n');
  cpSync(join(REPO, 'examples'), join(ws, 'examples'), { recursive: true });
  for (const file of ['tools.json', 'mcp.json']) cpSync(join(REPO, file), join(ws, file));
  env = isolatedEnv(join(work, 'home'), {
    AGENTDEF_KEYS_DIR: join(work, 'keys'),
    AGENTDEF_STATE_DIR: join(work, 'state'),
    WRANGLER_LOG_PATH: join(work, 'wrangler-logs'),
  });
  // text-stats signs its receipts, its eval and its promotions with keyref:acme-receipts.
  const generated = agentdef('keys', 'generate', 'keyref:acme-receipts');
  expect(generated.status, shown(generated)).toBe(0);
  const exported = agentdef('keys', 'export-public', 'keyref:acme-receipts');
  expect(exported.status, shown(exported)).toBe(0);
  publicJwk = JSON.parse(exported.stdout) as JsonWebKey;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('agentdef bench-tool and the mandatory benchmark gate of promote', () => {
  it('refuses tool-shipped without benchmark events, benchmarks the tool, then promotes', async () => {
    const before = definitionText();
    const refused = agentdef('promote', AGENT, '--to', 'tool-shipped', '--at', '2026-03-01T12:00:00Z');
    expect(refused.status, shown(refused)).toBe(1);
    expect(refused.stderr).toContain(
      `"tool-shipped" requires signed tool benchmark events of this definition: there are no benchmark events at ${EVENTS}`,
    );
    expect(refused.stderr).toMatch(/--> examples\/text-stats\/agent\.json:\d+:\d+ {2}\(\/lifecycleState\)/);
    expect(refused.stderr).toContain('run `agentdef bench-tool examples/text-stats/agent.json`');
    expect(definitionText()).toBe(before);
    // The opt-in switch is gone: the gate always applies, and the old flag says so as a usage error.
    const optIn = agentdef('promote', AGENT, '--to', 'tool-shipped', '--require-bench');
    expect(optIn.status, shown(optIn)).toBe(2);
    expect(optIn.stderr).toContain('--require-bench');
    expect(definitionText()).toBe(before);

    const bench = agentdef('bench-tool', 'examples/text-stats', '--runs', '2');
    expect(bench.status, shown(bench)).toBe(0);
    expect(bench.stdout).toMatch(/^tool\s+operation\s+calls\s+ok rate\s+p50 ms\s+p95 ms$/m);
    expect(bench.stdout).toMatch(/^text-metrics\s+count_text\s+8\s+100%\s+\d+\s+\d+$/m);
    expect(bench.stdout).toContain(`wrote the signed tool benchmark events ${EVENTS}`);
    const batch = JSON.parse(readFileSync(join(ws, EVENTS), 'utf8'));
    expect(batch).toMatchObject({
      eventsVersion: 'tool-benchmark-events/v1',
      definition: { slug: 'text-stats', version: '1.0.0', versionId: '01KQXTGGAHPQXPXEVVWRWT04ZM' },
      runsPerCase: 2,
    });
    expect(batch.events).toHaveLength(8);
    for (const event of batch.events)
      expect(event).toMatchObject({
        skill: 'text.stats',
        category: 'text',
        tool: 'text-metrics',
        operation: 'count_text',
        ok: true,
        runId: expect.stringMatching(/^[0-9A-Z]{26}$/),
        latencyMs: expect.any(Number),
      });
    expect(batch.events.map((e: { caseId: string; iteration: number }) => `${e.caseId}#${e.iteration}`)).toEqual([
      'release-note#1',
      'release-note-again#1',
      'graphemes-not-bytes#1',
      'paragraphs#1',
      'release-note#2',
      'release-note-again#2',
      'graphemes-not-bytes#2',
      'paragraphs#2',
    ]);
    expect(readFileSync(join(ws, EVENTS), 'utf8')).not.toContain(work);
    expect((await verifyToolBenchmarkEvents(batch, () => publicJwk)).verified).toBe(true);

    const promoted = agentdef('promote', AGENT, '--to', 'tool-shipped', '--at', '2026-03-01T12:01:00Z');
    expect(promoted.status, shown(promoted)).toBe(0);
    expect(promoted.stdout).toContain('promotion tool-prototype -> tool-shipped');
    expect(stage()).toBe('tool-shipped');
    const down = agentdef('promote', AGENT, '--to', 'tool-prototype', '--at', '2026-03-01T12:02:00Z');
    expect(down.status, shown(down)).toBe(0);
  });

  it('takes the events agentdef eval of the tool writes, and refuses events of an older version', () => {
    expect(stage()).toBe('tool-prototype');
    rmSync(join(ws, 'dist', 'bench'), { recursive: true, force: true });
    const evaluated = agentdef('eval', 'examples/text-stats');
    expect(evaluated.status, shown(evaluated)).toBe(0);
    expect(evaluated.stdout).toContain(
      'wrote the signed tool benchmark events dist/eval/text-stats/tool-benchmark-events.json (4 tool calls)',
    );
    const kept = join(work, 'v1.0.0-events.json');
    cpSync(join(ws, 'dist/eval/text-stats/tool-benchmark-events.json'), kept);

    // A new version of the tool: the 1.0.0 events, replayed, do not count for it.
    const bumped = JSON.parse(definitionText());
    bumped.identity.versionSemver = '1.1.0';
    writeFileSync(join(ws, AGENT), `${JSON.stringify(bumped, null, 2)}\n`);
    const before = definitionText();
    const replayed = agentdef(
      'promote',
      AGENT,
      '--to',
      'tool-shipped',
      '--bench-events',
      kept,
      '--at',
      '2026-03-01T12:03:00Z',
    );
    expect(replayed.status, shown(replayed)).toBe(1);
    expect(replayed.stderr).toContain('measured another definition of text-stats@1.0.0');
    expect(definitionText()).toBe(before);

    // Back to the version eval measured: its events (found in dist/eval by default) promote it.
    bumped.identity.versionSemver = '1.0.0';
    writeFileSync(join(ws, AGENT), `${JSON.stringify(bumped, null, 2)}\n`);
    const promoted = agentdef('promote', AGENT, '--to', 'tool-shipped', '--at', '2026-03-01T12:04:00Z');
    expect(promoted.status, shown(promoted)).toBe(0);
    expect(stage()).toBe('tool-shipped');
  });
});
