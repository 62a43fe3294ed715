/**
 * `diff-apply` (tool `apply_unified_diff` of the fallback-writer example): applies a unified diff
 * to an in-memory file, all or nothing. Each hunk must match its context and removed lines
 * exactly; it may sit a few lines away from where its header says (earlier hunks shift later
 * ones). Hunks that do not apply are reported and the file is left unchanged.
 */
import { stringArg, type ToolArgs } from './tool-context';

export interface Hunk {
  oldStart: number;
  oldLines: string[];
  newLines: string[];
}

export type DiffResult = { applied: true; result: string; hunks: number } | { applied: false; rejected: { hunk: number; reason: string }[] };

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** How far from its stated position a hunk is searched for. */
const MAX_OFFSET = 50;

export function parseUnifiedDiff(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  for (const line of diff.replace(/\r\n/g, '\n').split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      current = { oldStart: Number(header[1]), oldLines: [], newLines: [] };
      hunks.push(current);
      continue;
    }
    if (!current) continue; // file headers (---, +++, diff, index) before the first hunk
    if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    const mark = line[0];
    const body = line.slice(1);
    if (mark === ' ') {
      current.oldLines.push(body);
      current.newLines.push(body);
    } else if (mark === '-') current.oldLines.push(body);
    else if (mark === '+') current.newLines.push(body);
    else if (line === '') {
      // A blank context line whose leading space was stripped by an editor.
      current.oldLines.push('');
      current.newLines.push('');
    } else current = undefined;
  }
  // Trailing blank "context" lines that were really the end of the diff text.
  for (const hunk of hunks) {
    while (hunk.oldLines.length > 0 && hunk.newLines.length > 0 && hunk.oldLines.at(-1) === '' && hunk.newLines.at(-1) === '' && hunk.oldLines.length + hunk.newLines.length > 2) {
      hunk.oldLines.pop();
      hunk.newLines.pop();
    }
  }
  return hunks;
}

function matchesAt(lines: readonly string[], at: number, expected: readonly string[]): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  return expected.every((line, i) => lines[at + i] === line);
}

export function applyHunks(source: string, hunks: readonly Hunk[]): DiffResult {
  if (hunks.length === 0) return { applied: false, rejected: [{ hunk: 0, reason: 'the diff has no hunks' }] };
  const endsWithNewline = source.endsWith('\n');
  const lines = source === '' ? [] : (endsWithNewline ? source.slice(0, -1) : source).split('\n');
  const rejected: { hunk: number; reason: string }[] = [];
  let shift = 0;
  let floor = 0;
  hunks.forEach((hunk, index) => {
    // Where the header puts the hunk (0-based); a pure insertion (`-n,0`) goes after line n.
    const stated = Math.max(0, (hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift);
    let found = -1;
    for (let delta = 0; delta <= MAX_OFFSET && found < 0; delta++) {
      for (const at of delta === 0 ? [stated] : [stated - delta, stated + delta]) {
        if (at >= floor && matchesAt(lines, at, hunk.oldLines)) {
          found = at;
          break;
        }
      }
    }
    if (found < 0) {
      rejected.push({ hunk: index + 1, reason: `its context does not match the file near line ${hunk.oldStart}` });
      return;
    }
    lines.splice(found, hunk.oldLines.length, ...hunk.newLines);
    shift += hunk.newLines.length - hunk.oldLines.length;
    floor = found + hunk.newLines.length;
  });
  if (rejected.length > 0) return { applied: false, rejected };
  const text = lines.join('\n');
  return { applied: true, result: lines.length > 0 && endsWithNewline ? `${text}\n` : text, hunks: hunks.length };
}

export function applyUnifiedDiff(args: ToolArgs): DiffResult {
  const source = stringArg(args, 'source', { maxLength: 5_000_000 });
  const diff = stringArg(args, 'diff', { maxLength: 5_000_000 });
  return applyHunks(source, parseUnifiedDiff(diff));
}
