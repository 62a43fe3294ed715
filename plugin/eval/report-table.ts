/**
 * The terminal table of an eval run: one row per case and assertion (pass/fail, score, the
 * detail), the case's cost (tokens, model calls) and latency on its first row, then the totals,
 * the pass rate against the threshold, and the invariants no case scores. Every string from a
 * case file or a run is made terminal-safe (definition/terminal-text.ts: no escape sequence,
 * bidi control or line break reaches the terminal) and cut to its column. Pure; plain text, no colour.
 */
import { terminalSafeLine } from '../definition/terminal-text';
import type { CaseResult, RunScore } from './score-case';

const WIDTH = { case: 28, assertion: 28, detail: 72 };

function cell(text: string, width: number): string {
  const safe = terminalSafeLine(text);
  const chars = [...safe];
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : safe;
}

function pad(text: string, width: number): string {
  const length = [...text].length;
  return length >= width ? text : text + ' '.repeat(width - length);
}

function row(columns: string[], widths: number[]): string {
  return columns
    .map((c, i) => (i === columns.length - 1 ? c : pad(c, widths[i]!)))
    .join('  ')
    .trimEnd();
}

export function evalReportTable(results: readonly CaseResult[], run: RunScore): string {
  const rows: string[][] = [];
  for (const result of results) {
    const cost = `${result.cost.inputTokens + result.cost.outputTokens} tok/${result.cost.modelCalls} calls`;
    const latency = `${result.latencyMs} ms`;
    const first = (i: number, value: string) => (i === 0 ? value : '');
    if (result.error !== undefined)
      rows.push([
        cell(result.caseId, WIDTH.case),
        '(run)',
        'ERROR',
        '',
        cost,
        latency,
        cell(`${result.error.code}: ${result.error.message}`, WIDTH.detail),
      ]);
    result.assertions.forEach((a, i) => {
      const shownFirst = result.error === undefined ? i : i + 1;
      rows.push([
        first(shownFirst, cell(result.caseId, WIDTH.case)),
        cell(a.id, WIDTH.assertion),
        a.passed ? 'pass' : 'FAIL',
        a.score.toFixed(2),
        first(shownFirst, cost),
        first(shownFirst, latency),
        cell(a.detail, WIDTH.detail),
      ]);
    });
  }
  const header = ['case', 'assertion', 'result', 'score', 'cost', 'latency', 'detail'];
  const widths = header.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...r[i]!].length)));
  const { totals } = run;
  const lines = [
    row(header, widths),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...rows.map((r) => row(r, widths)),
  ];
  lines.push(
    '',
    `${totals.passed} of ${totals.cases} cases passed (pass rate ${totals.passRate.toFixed(2)}, threshold ${run.threshold.toFixed(2)}): ${run.passed ? 'PASSED' : 'FAILED'}`,
    `score ${totals.score.toFixed(2)}; ${totals.assertionsPassed} of ${totals.assertions} assertions passed; ${totals.inputTokens + totals.outputTokens} tokens in ${totals.modelCalls} model calls; grading ${totals.graderInputTokens + totals.graderOutputTokens} tokens in ${totals.graderCalls} calls`,
  );
  if (run.coverage.unscored.length > 0) {
    lines.push(
      `unscored invariants (no case scores them: add an invariant assertion or \`covers\`): ${run.coverage.unscored.length}`,
    );
    for (const index of run.coverage.unscoredIndices)
      lines.push(`  [${index}] ${cell(run.coverage.invariants[index]!.text, 100)}`);
  } else if (run.coverage.invariants.length > 0) lines.push('every invariant is scored by at least one case');
  return `${lines.join('\n')}\n`;
}
