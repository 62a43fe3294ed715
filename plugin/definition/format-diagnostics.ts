/**
 * Prints diagnostics the way compilers do (file:line:col, the offending line, a caret, the
 * message, a suggestion), or as JSON. Pure: the caller passes the source texts it has. Whatever
 * a definition holds, the output is safe for a terminal: control characters, bidi controls and
 * unpaired surrogates in messages, names and source lines are printed as `\uXXXX` escapes
 * (terminal-text.ts), and the caret still points at the same character. A source line is never
 * printed when it looks like it holds a secret, whichever diagnostic points at it (a schema error
 * on an unknown field, say, whose value is a key): the line is hidden as the secrets rule's are.
 */
import type { Diagnostic } from './diagnostic';
import { secretKinds } from './rules/secrets';
import { terminalSafe, terminalSafeLine } from './terminal-text';

export interface FormatOptions {
  format: 'text' | 'json';
  /** file → original text, for printing the offending line. */
  sources: ReadonlyMap<string, string>;
  /**
   * JSON only: inputs that could not be read (each message as stderr prints it). Any makes the
   * result invalid and is listed as `unreadable`: what was not checked never reads as valid.
   */
  unreadable?: readonly string[];
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  if (options.format === 'json') {
    // JSON.stringify escapes C0 and unpaired surrogates; the rest (DEL, C1, bidi) is escaped the same way.
    const unreadable = options.unreadable ?? [];
    const valid = unreadable.length === 0 && !diagnostics.some((d) => d.severity === 'error');
    return (
      terminalSafe(JSON.stringify({ valid, diagnostics, ...(unreadable.length > 0 ? { unreadable } : {}) }, null, 2)) +
      '\n'
    );
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
  const out = [
    `${d.severity}[${d.code}] ${terminalSafeLine(d.rule)}: ${terminalSafe(d.message)}`,
    `  --> ${terminalSafeLine(d.file)}:${d.line}:${d.column}${d.path ? `  (${terminalSafeLine(d.path)})` : ''}`,
  ];
  const gutter = String(d.line).length;
  const pad = ' '.repeat(gutter);
  const line = sourceLine(text, d.line);
  if (d.redactSource || (line !== undefined && secretKinds(line).length > 0)) {
    out.push(`${pad} |`, `${String(d.line)} | (line hidden: it may hold a secret)`);
  } else if (line !== undefined) {
    let raw = line.replace(/\t/g, ' ');
    let caretColumn = d.column;
    let prefix = '';
    let suffix = '';
    if (raw.length > MAX_SHOWN) {
      const from = Math.max(0, caretColumn - 1 - MAX_SHOWN / 2);
      prefix = from > 0 ? '...' : '';
      suffix = from + MAX_SHOWN < line.length ? '...' : '';
      raw = raw.slice(from, from + MAX_SHOWN);
      caretColumn -= from;
    }
    // Escapes widen the line: the caret goes under the escaped form of the same character.
    const before = prefix + terminalSafeLine(raw.slice(0, Math.max(0, caretColumn - 1)));
    const shown = before + terminalSafeLine(raw.slice(Math.max(0, caretColumn - 1))) + suffix;
    out.push(`${pad} |`, `${String(d.line)} | ${shown}`, `${pad} | ${' '.repeat(before.length)}^`);
  }
  if (d.suggestion) out.push(`${pad} = help: ${terminalSafe(d.suggestion)}`);
  return out.join('\n') + '\n\n';
}
