/**
 * The reputation of each `slug@version`, scored from receipt streams (docs/reputation.md):
 *
 * 1. every line is taken in (receipt-intake.ts): verified strictly, signed by a key trusted for the
 *    agent it names; anything else is rejected and counted by reason, never dropped silently;
 * 2. run and lifecycle receipts issued outside the window are ignored (counted as `outside-window`);
 *    an eval receipt carries no time (its bytes are deterministic) and is bound instead to the
 *    exact definition digest and version it scored;
 * 3. duplicates count once (`replayed`): run receipts by (runId, card, cardVersion, skill), eval receipts by
 *    their signed content, lifecycle receipts by (agent, from, to, at). Of duplicates that
 *    disagree the least favourable is kept, so a replay can never raise a score;
 * 4. a composed child's run receipt credits each ancestor that provably ran it (the ancestor's own
 *    receipt in the same run lists the child in `composition.nodes` as `ran`) with the weight
 *    `COMPOSITION_LAYER_DECAY ** layers` (reputation-decay.ts);
 * 5. per agent: success rate (own runs ending in an answer), eval pass rate (cases passed over
 *    cases run), latency p50/p95 (nearest rank, own runs), cost (tokens and model calls), counts;
 *    and the combined score (below).
 *
 * Score, in [0, 1], rounded to 4 places: with S answers out of N own runs, attributed weight W of
 * which Ws ended in an answer, and P of C eval cases passed,
 *   success = (S + Ws + 1) / (N + W + 2),  eval = (P + 1) / (C + 2)   (Laplace: one receipt is no proof)
 *   score   = 0.6 * success + 0.4 * eval  with both kinds of evidence; success or eval alone otherwise.
 * An agent with no run, eval or attributed evidence has no score (null). Pure and deterministic:
 * the same lines give the same report whatever order the streams are given in.
 */
import type { Receipt } from '../runtime/receipts';
import { canonicalize } from '../runtime/jcs';
import type { EvalReceipt } from '../eval/eval-receipt';
import { attributionWeight, COMPOSITION_LAYER_DECAY, MAX_ATTRIBUTION_LAYERS } from './reputation-decay';
import { type IntakeResult, type RejectionReason, takeInReceipt, type TrustedKeyLookup } from './receipt-intake';
import type { ReputationWindow } from './reputation-window';

/** The weight of run success in the combined score when there are eval receipts too. */
export const SUCCESS_WEIGHT = 0.6;
export const EVAL_WEIGHT = 0.4;

export interface ReceiptLine {
  /** Where it came from, as shown: `receipts/run.jsonl`. */
  source: string;
  /** 1-based. */
  line: number;
  text: string;
}

export type IgnoredReason = RejectionReason | 'outside-window';

export interface RejectedReceipt {
  source: string;
  line: number;
  reason: IgnoredReason;
  pointer: string;
  message: string;
}

export interface AgentReputation {
  /** `slug@version` */
  agent: string;
  slug: string;
  version: string;
  score: number | null;
  receipts: { run: number; eval: number; lifecycle: number; attributed: number };
  /** Own runs that ended in an answer, of own runs (null: none). */
  successRate: number | null;
  /** The weight child receipts add (each `decay ** layers`), and how much of it ended in an answer. */
  attributed: { weight: number; answered: number };
  /** Eval cases passed of eval cases run (null: no eval receipt). */
  evalPassRate: number | null;
  evalCases: number;
  latencyMs: { p50: number; p95: number } | null;
  cost: { inputTokens: number; outputTokens: number; modelCalls: number };
}

export interface ReputationReport {
  window: { from: string; until: string };
  decayPerLayer: number;
  agents: AgentReputation[];
  /** How many lines were counted, and how many were not, by reason (every reason listed, zero or not). */
  counted: number;
  ignored: Record<IgnoredReason, number>;
  rejected: RejectedReceipt[];
}

export interface ScoreOptions {
  window: ReputationWindow;
  keyFor: TrustedKeyLookup;
}

const REASONS: readonly IgnoredReason[] = [
  'forged-signature',
  'unsigned',
  'untrusted-signer',
  'replayed',
  'malformed',
  'outside-window',
];

type Accepted = Extract<IntakeResult, { ok: true }> & { source: string; line: number };
type RunAccepted = Extract<Accepted, { kind: 'run' }>;

const STATUS_RANK = { error: 0, limit: 1, answer: 2 } as const;
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const agentKey = (slug: string, version: string) => `${slug}@${version}`;

/** Of two duplicates, the one that counts: the least favourable, then the lower signature, so order never matters. */
function keepRun(a: RunAccepted, b: RunAccepted): RunAccepted {
  const rank = (r: RunAccepted) => STATUS_RANK[r.receipt.outcome.status];
  if (rank(a) !== rank(b)) return rank(a) < rank(b) ? a : b;
  if (a.receipt.latencyMs !== b.receipt.latencyMs) return a.receipt.latencyMs > b.receipt.latencyMs ? a : b;
  return a.receipt.signature.value <= b.receipt.signature.value ? a : b;
}

function keepEval<T extends Accepted & { kind: 'eval' }>(a: T, b: T): T {
  const rate = (r: T) => r.receipt.totals.passed / Math.max(1, r.receipt.totals.cases);
  if (rate(a) !== rate(b)) return rate(a) < rate(b) ? a : b;
  return a.receipt.signature.value <= b.receipt.signature.value ? a : b;
}

/** The eval receipt's identity: what it says, without who signed it. */
function evalKey(receipt: EvalReceipt): string {
  const { signature: _signature, ...rest } = receipt;
  return canonicalize({ ...rest, cases: [...rest.cases].sort((x, y) => (x.id < y.id ? -1 : 1)) });
}

function nearestRank(sorted: readonly number[], percentile: number): number {
  return sorted[Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1)]!;
}

interface Tally {
  slug: string;
  version: string;
  runs: RunAccepted[];
  evals: (Accepted & { kind: 'eval' })[];
  lifecycle: number;
  attributedCount: number;
  attributedWeight: number;
  attributedAnswered: number;
}

/** Scores receipt lines (see the header). Never throws. */
export async function scoreReputation(lines: readonly ReceiptLine[], options: ScoreOptions): Promise<ReputationReport> {
  const rejected: RejectedReceipt[] = [];
  const runs = new Map<string, RunAccepted>();
  const evals = new Map<string, Accepted & { kind: 'eval' }>();
  const lifecycle = new Map<string, Accepted & { kind: 'lifecycle' }>();
  const replay = (r: Accepted) =>
    rejected.push({
      source: r.source,
      line: r.line,
      reason: 'replayed',
      pointer: '',
      message: 'the same receipt (or one for the same run, card and skill) is counted once',
    });
  const inWindow = (atMs: number) => atMs >= options.window.fromMs && atMs <= options.window.untilMs;

  for (const { source, line, text } of lines) {
    const taken = await takeInReceipt(text, options.keyFor);
    if (!taken.ok) {
      rejected.push({ source, line, reason: taken.reason, pointer: taken.pointer, message: taken.message });
      continue;
    }
    const accepted = { ...taken, source, line } as Accepted;
    if (accepted.kind !== 'eval' && !inWindow(accepted.atMs)) {
      rejected.push({
        source,
        line,
        reason: 'outside-window',
        pointer: accepted.kind === 'run' ? '/issuedAt' : '/at',
        message: `issued outside the window ${options.window.from}/${options.window.until}`,
      });
      continue;
    }
    if (accepted.kind === 'run') {
      const { runId, pinning } = accepted.receipt;
      const key = JSON.stringify([runId, pinning.card, pinning.cardVersion, pinning.skill]);
      const earlier = runs.get(key);
      if (earlier === undefined) runs.set(key, accepted);
      else {
        const kept = keepRun(earlier, accepted);
        replay(kept === earlier ? accepted : earlier);
        runs.set(key, kept);
      }
    } else if (accepted.kind === 'eval') {
      const key = evalKey(accepted.receipt);
      const earlier = evals.get(key);
      if (earlier === undefined) evals.set(key, accepted);
      else {
        const kept = keepEval(earlier, accepted);
        replay(kept === earlier ? accepted : earlier);
        evals.set(key, kept);
      }
    } else {
      const r = accepted.receipt;
      const key = JSON.stringify([r.agent.id, r.agent.versionSemver, r.from, r.to, r.at]);
      if (lifecycle.has(key)) replay(accepted);
      else lifecycle.set(key, accepted);
    }
  }

  const tallies = new Map<string, Tally>();
  const tally = (slug: string, version: string): Tally => {
    const key = agentKey(slug, version);
    let t = tallies.get(key);
    if (t === undefined) {
      t = {
        slug,
        version,
        runs: [],
        evals: [],
        lifecycle: 0,
        attributedCount: 0,
        attributedWeight: 0,
        attributedAnswered: 0,
      };
      tallies.set(key, t);
    }
    return t;
  };
  for (const r of runs.values()) tally(r.agent.slug, r.agent.version).runs.push(r);
  for (const e of evals.values()) tally(e.agent.slug, e.agent.version).evals.push(e);
  for (const l of lifecycle.values()) tally(l.agent.slug, l.agent.version).lifecycle++;
  attribute([...runs.values()], tally);

  const agents = [...tallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, t]) => reputationOf(key, t));
  rejected.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line));
  const ignored = Object.fromEntries(REASONS.map((r) => [r, rejected.filter((x) => x.reason === r).length])) as Record<
    IgnoredReason,
    number
  >;
  return {
    window: { from: options.window.from, until: options.window.until },
    decayPerLayer: COMPOSITION_LAYER_DECAY,
    agents,
    counted: runs.size + evals.size + lifecycle.size,
    ignored,
    rejected,
  };
}

/**
 * Credits each composed child's run to the ancestors that ran it: up the `composedIn` chain within
 * the run, one layer at a time, while the parent's own receipt of that run lists the child as ran.
 */
function attribute(runs: readonly RunAccepted[], tally: (slug: string, version: string) => Tally): void {
  const byRun = new Map<string, Map<string, RunAccepted>>();
  for (const r of [...runs].sort((a, b) => (a.receipt.signature.value < b.receipt.signature.value ? -1 : 1))) {
    const inRun = byRun.get(r.receipt.runId) ?? new Map<string, RunAccepted>();
    const key = agentKey(r.agent.slug, r.agent.version);
    if (!inRun.has(key)) inRun.set(key, r);
    byRun.set(r.receipt.runId, inRun);
  }
  for (const child of runs) {
    const answered = child.receipt.outcome.status === 'answer';
    const seen = new Set([agentKey(child.agent.slug, child.agent.version)]);
    let current: Receipt = child.receipt;
    for (let layers = 1; layers <= MAX_ATTRIBUTION_LAYERS; layers++) {
      const up = current.composedIn;
      if (up === undefined || typeof up.card !== 'string' || typeof up.cardVersion !== 'string') break;
      const parentKey = agentKey(up.card, up.cardVersion);
      const parent = byRun.get(child.receipt.runId)?.get(parentKey);
      if (parent === undefined || seen.has(parentKey)) break;
      const ran = parent.receipt.composition?.nodes?.some(
        (n) => n.card === current.pinning.card && n.cardVersion === current.pinning.cardVersion && n.status === 'ran',
      );
      if (ran !== true) break;
      seen.add(parentKey);
      const weight = attributionWeight(layers);
      const t = tally(up.card, up.cardVersion);
      t.attributedCount++;
      t.attributedWeight += weight;
      if (answered) t.attributedAnswered += weight;
      current = parent.receipt;
    }
  }
}

function reputationOf(key: string, t: Tally): AgentReputation {
  const own = t.runs.length;
  const answers = t.runs.filter((r) => r.receipt.outcome.status === 'answer').length;
  const cases = t.evals.reduce((n, e) => n + e.receipt.totals.cases, 0);
  const passed = t.evals.reduce((n, e) => n + e.receipt.totals.passed, 0);
  const latencies = t.runs.map((r) => r.receipt.latencyMs).sort((a, b) => a - b);
  const calls = t.runs.flatMap((r) => r.receipt.modelCalls ?? []);
  const runEvidence = own + t.attributedWeight;
  const success = (answers + t.attributedAnswered + 1) / (runEvidence + 2);
  const evalRate = (passed + 1) / (cases + 2);
  const score =
    runEvidence > 0 && cases > 0
      ? SUCCESS_WEIGHT * success + EVAL_WEIGHT * evalRate
      : runEvidence > 0
        ? success
        : cases > 0
          ? evalRate
          : null;
  return {
    agent: key,
    slug: t.slug,
    version: t.version,
    score: score === null ? null : round(score, 4),
    receipts: { run: own, eval: t.evals.length, lifecycle: t.lifecycle, attributed: t.attributedCount },
    successRate: own === 0 ? null : round(answers / own, 4),
    attributed: { weight: round(t.attributedWeight, 4), answered: round(t.attributedAnswered, 4) },
    evalPassRate: cases === 0 ? null : round(passed / cases, 4),
    evalCases: cases,
    latencyMs: latencies.length === 0 ? null : { p50: nearestRank(latencies, 50), p95: nearestRank(latencies, 95) },
    cost: {
      inputTokens: calls.reduce((n, c) => n + (c.inputTokens ?? 0), 0),
      outputTokens: calls.reduce((n, c) => n + (c.outputTokens ?? 0), 0),
      modelCalls: calls.length,
    },
  };
}
