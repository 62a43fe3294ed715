/**
 * Prints diagnostics the way compilers do (file:line:col, the offending line, a caret, the
 * message, a suggestion), or as JSON. Pure: the caller passes the source texts it has.
 */
import type { Diagnostic } from './diagnostic';

export interface FormatOptions {
  format: 'text' | 'json';
  /** file → original text, for printing the offending line. */
  sources: ReadonlyMap<string, string>;
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  if (options.format === 'json') {
    return JSON.stringify({ valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics }, null, 2) + '\n';
  }
  return diagnostics.map((d) => formatOne(d, options.sources.get(d.file))).join('');
}

function sourceLine(text: string | undefined, line: number): string | undefined {
  if (text === undefined) return undefined;
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return undefined;
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? undefined : end).replace(/\r$/, '');
}

const MAX_SHOWN = 160;

export function formatOne(d: Diagnostic, text: string | undefined): string {
  const out = [`${d.severity}[${d.code}] ${d.rule}: ${d.message}`, `  --> ${d.file}:${d.line}:${d.column}${d.path ? `  (${d.path})` : ''}`];
  const gutter = String(d.line).length;
  const pad = ' '.repeat(gutter);
  const line = sourceLine(text, d.line);
  if (d.redactSource) {
    out.push(`${pad} |`, `${String(d.line)} | (line hidden: it may hold a secret)`);
  } else if (line !== undefined) {
    let shown = line.replace(/\t/g, ' ');
    let caretColumn = d.column;
    if (shown.length > MAX_SHOWN) {
      const from = Math.max(0, caretColumn - 1 - MAX_SHOWN / 2);
      shown = (from > 0 ? '...' : '') + shown.slice(from, from + MAX_SHOWN) + (from + MAX_SHOWN < line.length ? '...' : '');
      caretColumn = caretColumn - from + (from > 0 ? 3 : 0);
    }
    out.push(`${pad} |`, `${String(d.line)} | ${shown}`, `${pad} | ${' '.repeat(Math.max(0, caretColumn - 1))}^`);
  }
  if (d.suggestion) out.push(`${pad} = help: ${d.suggestion}`);
  return out.join('\n') + '\n\n';
}
