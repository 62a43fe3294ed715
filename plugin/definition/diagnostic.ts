/**
 * A diagnostic: one problem found in one definition, located by JSON Pointer and by
 * file:line:column in the original text. Every layer of agentdef reports through this shape.
 */
export const ERROR_CODES = {
  /** Schema and semantic violations of an AgentDefinition. */
  invalid: 'agent_definition_invalid',
  /** A runtime class or compile target that cannot host what the definition needs. */
  runtimeMismatch: 'runtime_capability_mismatch',
  /** Schema, graph and digest violations of an application manifest (plugin/application). */
  applicationInvalid: 'application_manifest_invalid',
  /**
   * An input the caller named that cannot be read at all (missing, a folder, not a regular file, a
   * path or link leaving the workspace, a name that is no manifest file): a usage error (the CLI's
   * exit 2, plugin/operations/exit-code.ts), not an invalid document.
   */
  unreadable: 'input_unreadable',
} as const;

export type DiagnosticCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
export type Severity = 'error' | 'warning';

export interface Diagnostic {
  code: DiagnosticCode;
  /** The rule that found the problem, e.g. `schema`, `syntax`, `agentic-gate`. */
  rule: string;
  severity: Severity;
  /** JSON Pointer (RFC 6901) to the offending value; `""` is the whole document. */
  path: string;
  /** The file, as the caller named it (relative paths stay relative). */
  file: string;
  /** 1-based line in the original text. */
  line: number;
  /** 1-based column (in UTF-16 code units, as editors count) in the original text. */
  column: number;
  message: string;
  suggestion?: string;
  /** Set when the located text may hold a secret: printers must not echo the source line. */
  redactSource?: boolean;
}

/** A problem found by a rule before it is located in the source text. */
export interface Finding {
  code?: DiagnosticCode;
  rule: string;
  severity?: Severity;
  path: string;
  message: string;
  suggestion?: string;
  /** Point at the property name rather than its value (e.g. for an unexpected key). */
  at?: 'key' | 'value';
  redactSource?: boolean;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Drops exact repeats (the same problem reported by two layers), keeping the first. */
export function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = [d.file, d.line, d.column, d.rule, d.path, d.message].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Orders diagnostics by file, position, then rule, so output is stable. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      a.rule.localeCompare(b.rule) ||
      a.path.localeCompare(b.path),
  );
}
