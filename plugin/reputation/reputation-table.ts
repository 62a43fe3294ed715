/** The text `agentdef reputation` prints: one row per agent, then the receipts not counted, by reason. Pure. */
import type { ReputationReport } from './score-reputation';

const fixed = (value: number | null, places: number) => (value === null ? '-' : value.toFixed(places));

function pad(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

export function reputationTable(report: ReputationReport): string {
  const header = [
    'agent',
    'score',
    'success',
    'eval',
    'p50 ms',
    'p95 ms',
    'tokens in/out',
    'calls',
    'runs',
    'evals',
    'attributed',
  ];
  const rows = report.agents.map((a) => [
    a.agent,
    fixed(a.score, 4),
    fixed(a.successRate, 4),
    fixed(a.evalPassRate, 4),
    a.latencyMs === null ? '-' : String(a.latencyMs.p50),
    a.latencyMs === null ? '-' : String(a.latencyMs.p95),
    `${a.cost.inputTokens}/${a.cost.outputTokens}`,
    String(a.cost.modelCalls),
    String(a.receipts.run),
    String(a.receipts.eval),
    a.receipts.attributed === 0 ? '0' : `${a.receipts.attributed} (weight ${a.attributed.weight})`,
  ]);
  const lines = [
    `window ${report.window.from}/${report.window.until}; decay ${report.decayPerLayer} per composition layer`,
    ...(rows.length === 0 ? ['no agent has a counted receipt'] : pad([header, ...rows])),
    `${report.counted} receipts counted; not counted: ${Object.entries(report.ignored)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ')}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** One line per receipt not counted: where, why. */
export function rejectedLines(report: ReputationReport): string {
  return report.rejected
    .map((r) => `${r.source}:${r.line}: ${r.reason}${r.pointer === '' ? '' : ` at ${r.pointer}`}: ${r.message}\n`)
    .join('');
}
