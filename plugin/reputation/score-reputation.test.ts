/**
 * The reputation scorer against real signed receipts: what counts, what never does (forged,
 * unsigned, untrusted, replayed, other versions, outside the window, malformed), the formula, and
 * the per-layer decay across two and three composition layers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPOSITION_LAYER_DECAY, attributionWeight, MAX_ATTRIBUTION_LAYERS } from './reputation-decay';
import type { TrustedKey, TrustedKeyLookup } from './receipt-intake';
import { parseReputationWindow, type ReputationWindow } from './reputation-window';
import { type ReceiptLine, type ReputationReport, scoreReputation } from './score-reputation';
import { evalLine, lifecycleLine, newSigner, runLine, type TestSigner } from './__test-support__/signed-receipts';

let trusted: TestSigner;
let stranger: TestSigner;
let scoped: TestSigner;
let window: ReputationWindow;

beforeAll(async () => {
  trusted = await newSigner();
  stranger = await newSigner();
  scoped = await newSigner();
  const parsed = parseReputationWindow('30d', '2026-03-31T00:00:00Z');
  if (!parsed.ok) throw new Error(parsed.message);
  window = parsed.window;
});

const keyFor: TrustedKeyLookup = async (kid) => {
  if (kid === trusted.kid) return { publicJwk: trusted.publicJwk };
  if (kid === scoped.kid) return { publicJwk: scoped.publicJwk, slugs: ['other-agent'] } satisfies TrustedKey;
  return undefined;
};

const lines = (...texts: string[]): ReceiptLine[] => texts.map((text, i) => ({ source: 'r.jsonl', line: i + 1, text }));
const score = (...texts: string[]) => scoreReputation(lines(...texts), { window, keyFor });
const agent = (report: ReputationReport, name: string) => report.agents.find((a) => a.agent === name);

/** Two answers and one error of echo@1.0.0: the baseline every attack is measured against. */
async function baseline(): Promise<string[]> {
  return [
    await runLine(trusted, { runId: 'r1', card: 'echo', status: 'answer', latencyMs: 100 }),
    await runLine(trusted, { runId: 'r2', card: 'echo', status: 'answer', latencyMs: 300 }),
    await runLine(trusted, { runId: 'r3', card: 'echo', status: 'error', latencyMs: 200 }),
  ];
}

describe('scoreReputation', () => {
  it('scores verified receipts: success rate, latency, cost and the Laplace-smoothed score', async () => {
    const report = await score(
      ...(await baseline()),
      await runLine(trusted, {
        runId: 'r4',
        card: 'echo',
        latencyMs: 400,
        modelCalls: [
          {
            seq: 1,
            purpose: 'answer',
            role: 'primary',
            providerId: 'p',
            model: 'm',
            modelVersion: '1',
            ok: true,
            inputTokens: 10,
            outputTokens: 5,
          },
          {
            seq: 2,
            purpose: 'answer',
            role: 'primary',
            providerId: 'p',
            model: 'm',
            modelVersion: '1',
            ok: true,
            inputTokens: 7,
            outputTokens: 3,
          },
        ],
      }),
    );
    const echo = agent(report, 'echo@1.0.0')!;
    expect(echo.receipts).toEqual({ run: 4, eval: 0, lifecycle: 0, attributed: 0 });
    expect(echo.successRate).toBe(0.75);
    // (3 answers + 1) / (4 runs + 2)
    expect(echo.score).toBe(Math.round((4 / 6) * 1e4) / 1e4);
    expect(echo.latencyMs).toEqual({ p50: 200, p95: 400 });
    expect(echo.cost).toEqual({ inputTokens: 17, outputTokens: 8, modelCalls: 2 });
    expect(report.counted).toBe(4);
    expect(Object.values(report.ignored).every((n) => n === 0)).toBe(true);
  });

  it('combines run success (0.6) and eval pass rate (0.4) when there are both', async () => {
    const report = await score(...(await baseline()), await evalLine(trusted, { slug: 'echo', passed: 8, cases: 10 }));
    const echo = agent(report, 'echo@1.0.0')!;
    expect(echo.evalPassRate).toBe(0.8);
    expect(echo.receipts.eval).toBe(1);
    expect(echo.score).toBe(Math.round((0.6 * (3 / 5) + 0.4 * (9 / 12)) * 1e4) / 1e4);
  });

  it('a forged receipt (changed after signing) is rejected and changes nothing', async () => {
    const base = await score(...(await baseline()));
    const good = JSON.parse(await runLine(trusted, { runId: 'r9', card: 'echo', status: 'error' }));
    good.outcome = { stopReason: 'answer', status: 'answer' };
    const tamperedEval = JSON.parse(await evalLine(trusted, { slug: 'echo', passed: 1, cases: 4 }));
    tamperedEval.definition.slug = 'echo-x';
    const report = await score(...(await baseline()), JSON.stringify(good), JSON.stringify(tamperedEval));
    expect(report.ignored['forged-signature']).toBe(2);
    expect(report.agents).toEqual(base.agents);
    expect(report.rejected.map((r) => r.line)).toEqual([4, 5]);
  });

  it('an unsigned receipt is rejected and changes nothing', async () => {
    const base = await score(...(await baseline()));
    const unsigned = JSON.parse(await runLine(trusted, { runId: 'r9', card: 'echo' }));
    delete unsigned.signature;
    const report = await score(...(await baseline()), JSON.stringify(unsigned));
    expect(report.ignored.unsigned).toBe(1);
    expect(report.agents).toEqual(base.agents);
  });

  it('a receipt signed by an untrusted key, or by a key trusted only for another agent, is rejected', async () => {
    const base = await score(...(await baseline()));
    const report = await score(
      ...(await baseline()),
      await runLine(stranger, { runId: 'r9', card: 'echo' }),
      await runLine(scoped, { runId: 'r10', card: 'echo' }),
      await evalLine(stranger, { slug: 'echo', passed: 10, cases: 10 }),
      await lifecycleLine(stranger, 'echo'),
    );
    expect(report.ignored['untrusted-signer']).toBe(4);
    expect(report.agents).toEqual(base.agents);
    // The scoped key counts for the agent it is trusted for.
    const other = await score(await runLine(scoped, { runId: 'r1', card: 'other-agent' }));
    expect(agent(other, 'other-agent@1.0.0')?.receipts.run).toBe(1);
  });

  it('a replay counts once: the same line twice, or the same run re-signed with a better outcome', async () => {
    const base = await score(...(await baseline()));
    const [first, second, third] = await baseline();
    const resigned = await runLine(trusted, { runId: 'r3', card: 'echo', status: 'answer', latencyMs: 1 });
    const evalText = await evalLine(trusted, { slug: 'echo', passed: 5, cases: 10 });
    const withEval = await score(first!, second!, third!, evalText);
    const report = await score(first!, second!, third!, first!, resigned, evalText, evalText);
    expect(report.ignored.replayed).toBe(3);
    expect(agent(report, 'echo@1.0.0')).toEqual(agent(withEval, 'echo@1.0.0'));
    // Whatever order the streams come in.
    const reversed = await score(resigned, first!, third!, second!);
    expect(reversed.agents).toEqual(base.agents);
    expect(reversed.ignored.replayed).toBe(1);
  });

  it('receipts for another version score that version, never this one', async () => {
    const base = await score(...(await baseline()));
    const report = await score(
      ...(await baseline()),
      await runLine(trusted, { runId: 'r1', card: 'echo', version: '2.0.0', status: 'error' }),
      await evalLine(trusted, { slug: 'echo', version: '2.0.0', passed: 0, cases: 5 }),
    );
    expect(agent(report, 'echo@1.0.0')).toEqual(agent(base, 'echo@1.0.0'));
    expect(agent(report, 'echo@2.0.0')?.receipts).toEqual({ run: 1, eval: 1, lifecycle: 0, attributed: 0 });
  });

  it('ignores receipts outside the window, counting them; lifecycle receipts are counted but not scored', async () => {
    const base = await score(...(await baseline()));
    const report = await score(
      ...(await baseline()),
      await runLine(trusted, { runId: 'old', card: 'echo', status: 'error', issuedAt: '2026-01-01T00:00:00.000Z' }),
      await runLine(trusted, { runId: 'late', card: 'echo', status: 'error', issuedAt: '2026-04-01T00:00:00.000Z' }),
      await lifecycleLine(trusted, 'echo'),
    );
    expect(report.ignored['outside-window']).toBe(2);
    const echo = agent(report, 'echo@1.0.0')!;
    expect(echo.receipts.lifecycle).toBe(1);
    expect(echo.score).toBe(agent(base, 'echo@1.0.0')!.score);
  });

  it('counts malformed lines by reason and says where they are', async () => {
    const report = await score('{"receiptVersion": "receipt/v1", "a": 1, "a": 2}', 'not json', '{"hello": 1}', '[]');
    expect(report.ignored.malformed).toBe(4);
    expect(report.counted).toBe(0);
    expect(report.agents).toEqual([]);
    expect(report.rejected.map((r) => `${r.source}:${r.line}:${r.reason}`)).toEqual([
      'r.jsonl:1:malformed',
      'r.jsonl:2:malformed',
      'r.jsonl:3:malformed',
      'r.jsonl:4:malformed',
    ]);
  });
});

describe('attribution through composedIn, with the per-layer decay', () => {
  it('is 0.5 per layer, named, and nothing past the last layer', () => {
    expect(COMPOSITION_LAYER_DECAY).toBe(0.5);
    expect(attributionWeight(1)).toBe(0.5);
    expect(attributionWeight(2)).toBe(0.25);
    expect(attributionWeight(3)).toBe(0.125);
    expect(attributionWeight(MAX_ATTRIBUTION_LAYERS + 1)).toBe(0);
  });

  it('two layers: a parent is credited half of each child run it provably ran', async () => {
    const report = await score(
      await runLine(trusted, { runId: 'p1', card: 'parent', ran: [{ card: 'leaf', cardVersion: '1.0.0' }] }),
      await runLine(trusted, { runId: 'p1', card: 'leaf', composedIn: { card: 'parent', cardVersion: '1.0.0' } }),
      await runLine(trusted, { runId: 'p2', card: 'parent', ran: [{ card: 'leaf', cardVersion: '1.0.0' }] }),
      await runLine(trusted, { runId: 'p2', card: 'leaf', composedIn: { card: 'parent', cardVersion: '1.0.0' } }),
    );
    const parent = agent(report, 'parent@1.0.0')!;
    expect(parent.receipts).toEqual({ run: 2, eval: 0, lifecycle: 0, attributed: 2 });
    expect(parent.attributed).toEqual({ weight: 1, answered: 1 });
    // (2 own answers + 2 × 0.5 attributed + 1) / (2 + 1 + 2)
    expect(parent.score).toBe(Math.round((4 / 5) * 1e4) / 1e4);
    const leaf = agent(report, 'leaf@1.0.0')!;
    expect(leaf.receipts.attributed).toBe(0);
    expect(leaf.score).toBe(Math.round((3 / 4) * 1e4) / 1e4);
  });

  it('three layers: the grandparent gets a quarter of the leaf and half of the middle', async () => {
    const report = await score(
      await runLine(trusted, { runId: 'g1', card: 'top', ran: [{ card: 'mid', cardVersion: '1.0.0' }] }),
      await runLine(trusted, {
        runId: 'g1',
        card: 'mid',
        composedIn: { card: 'top', cardVersion: '1.0.0' },
        ran: [{ card: 'leaf', cardVersion: '1.0.0' }],
      }),
      await runLine(trusted, { runId: 'g1', card: 'leaf', composedIn: { card: 'mid', cardVersion: '1.0.0' } }),
    );
    expect(agent(report, 'mid@1.0.0')!.attributed).toEqual({ weight: 0.5, answered: 0.5 });
    expect(agent(report, 'top@1.0.0')!.attributed).toEqual({ weight: 0.75, answered: 0.75 });
    expect(agent(report, 'top@1.0.0')!.receipts.attributed).toBe(2);
  });

  it('a wrapper earns nothing from a leaf run it did not provably run', async () => {
    const report = await score(
      // The leaf names a parent with no receipt of that run.
      await runLine(trusted, { runId: 'x1', card: 'leaf', composedIn: { card: 'wrapper', cardVersion: '1.0.0' } }),
      // The parent's receipt of the run does not list the leaf as ran.
      await runLine(trusted, { runId: 'x2', card: 'wrapper', ran: [] }),
      await runLine(trusted, { runId: 'x2', card: 'leaf', composedIn: { card: 'wrapper', cardVersion: '1.0.0' } }),
      // A forged parent receipt cannot vouch either.
      await runLine(stranger, { runId: 'x3', card: 'wrapper', ran: [{ card: 'leaf', cardVersion: '1.0.0' }] }),
      await runLine(trusted, { runId: 'x3', card: 'leaf', composedIn: { card: 'wrapper', cardVersion: '1.0.0' } }),
    );
    expect(agent(report, 'wrapper@1.0.0')!.receipts.attributed).toBe(0);
    expect(agent(report, 'wrapper@1.0.0')!.attributed.weight).toBe(0);
    expect(report.ignored['untrusted-signer']).toBe(1);
  });
});

describe('parseReputationWindow', () => {
  it('reads durations and explicit intervals, and refuses anything else', () => {
    expect(parseReputationWindow('12h', '2026-03-31T12:00:00Z')).toMatchObject({
      ok: true,
      window: { from: '2026-03-31T00:00:00Z', until: '2026-03-31T12:00:00Z' },
    });
    expect(parseReputationWindow('2026-01-01T00:00:00Z/2026-02-01T00:00:00Z', 'ignored')).toMatchObject({
      ok: true,
      window: { from: '2026-01-01T00:00:00Z', until: '2026-02-01T00:00:00Z' },
    });
    expect(parseReputationWindow('2026-02-01T00:00:00Z/2026-01-01T00:00:00Z', 'x').ok).toBe(false);
    expect(parseReputationWindow('a month', '2026-03-31T12:00:00Z').ok).toBe(false);
  });
});
