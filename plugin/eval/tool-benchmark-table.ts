/**
 * The terminal table of a tool benchmark: one row per tool and operation (in the order first
 * called), with its calls, ok rate and p50/p95 latency (nearest-rank percentiles of the events'
 * `latencyMs`), then the totals. Tool and operation names are made terminal-safe and cut to their
 * column. Pure; plain text, no colour.
 */
import { terminalSafeLine } from '../definition/terminal-text';
import type { ToolBenchmarkEvent } from '../schema/generated/tool-benchmark-events.types';

const WIDTHS = [24, 24, 6, 8, 8, 8];

function cell(text: string, width: number): string {
  const chars = [...terminalSafeLine(text)];
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
}

function row(columns: string[]): string {
  return columns
    .map((c, i) => (i === columns.length - 1 ? c : c.padEnd(WIDTHS[i]!)))
    .join('  ')
    .trimEnd();
}

/** The nearest-rank percentile `p` (0..100) of `values`; 0 with none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface ToolBenchmarkRow {
  tool: string;
  operation: string;
  calls: number;
  ok: number;
  p50: number;
  p95: number;
}

/** The rows of the table: one per tool and operation, in the order first called. */
export function toolBenchmarkRows(events: readonly ToolBenchmarkEvent[]): ToolBenchmarkRow[] {
  const groups = new Map<string, ToolBenchmarkEvent[]>();
  for (const event of events) {
    const key = JSON.stringify([event.tool, event.operation]);
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.values()].map((group) => {
    const latencies = group.map((e) => e.latencyMs);
    return {
      tool: group[0]!.tool,
      operation: group[0]!.operation,
      calls: group.length,
      ok: group.filter((e) => e.ok).length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
    };
  });
}

const rate = (ok: number, calls: number) => (calls === 0 ? '-' : `${Math.round((ok / calls) * 1000) / 10}%`);

/** `runs` the runs made, `uncalled` how many of them made no tool call. */
export function toolBenchmarkTable(events: readonly ToolBenchmarkEvent[], runs: number, uncalled: number): string {
  const lines = [row(['tool', 'operation', 'calls', 'ok rate', 'p50 ms', 'p95 ms'])];
  for (const r of toolBenchmarkRows(events))
    lines.push(
      row([
        cell(r.tool, WIDTHS[0]!),
        cell(r.operation, WIDTHS[1]!),
        String(r.calls),
        rate(r.ok, r.calls),
        String(r.p50),
        String(r.p95),
      ]),
    );
  const ok = events.filter((e) => e.ok).length;
  lines.push(
    `${events.length} tool calls in ${runs} runs, ${rate(ok, events.length)} ok${uncalled > 0 ? `; ${uncalled} of the runs made no tool call` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
