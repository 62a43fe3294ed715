/**
 * Validates a list of definition files: what `agentdef validate` and the `validate` executor
 * share. Reads each file, returns per-file results, every diagnostic, the source texts for
 * printing and the counts. Prints nothing, never throws, never exits.
 */
import { hasErrors, type Diagnostic } from './diagnostic';
import { loadDefinition } from './load-definition';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from './rules/rule';
import type { SourceDocument } from './source-document';

export interface DefinitionFile {
  /** Where to read. */
  absolutePath: string;
  /** The name diagnostics and messages use (relative, posix). */
  file: string;
}

export interface FileValidation {
  file: string;
  /** Read, parsed, and free of errors. */
  valid: boolean;
  diagnostics: Diagnostic[];
  /** Set when the file could not be read (or is no definition file); then nothing was checked. */
  ioError?: string;
  /** The parsed document, when the file parsed (workspace-wide checks locate their findings in it). */
  document?: SourceDocument;
}

export interface ValidateFilesResult {
  /** One per input file, in input order. */
  files: FileValidation[];
  /** Every file's diagnostics, in input order. */
  diagnostics: Diagnostic[];
  /** file → text of every definition read, for printing diagnostics with their source lines. */
  sources: Map<string, string>;
  /** The files' I/O problems, in input order. */
  ioErrors: string[];
  /** Files read and validated (inputs minus I/O problems). */
  checked: number;
  invalid: number;
  errors: number;
  warnings: number;
}

export function validateFiles(
  files: readonly DefinitionFile[],
  options: RuleOptions = DEFAULT_RULE_OPTIONS,
): ValidateFilesResult {
  const result: ValidateFilesResult = {
    files: [],
    diagnostics: [],
    sources: new Map(),
    ioErrors: [],
    checked: 0,
    invalid: 0,
    errors: 0,
    warnings: 0,
  };
  for (const { absolutePath, file } of files) {
    const loaded = loadDefinition(absolutePath, file, options);
    if (loaded.ioError !== undefined) {
      result.files.push({ file, valid: false, diagnostics: [], ioError: loaded.ioError });
      result.ioErrors.push(loaded.ioError);
      continue;
    }
    const text = loaded.text ?? loaded.document?.text;
    if (text !== undefined) result.sources.set(file, text);
    const valid = loaded.valid && !hasErrors(loaded.diagnostics);
    result.files.push({
      file,
      valid,
      diagnostics: loaded.diagnostics,
      ...(loaded.document ? { document: loaded.document } : {}),
    });
    result.diagnostics.push(...loaded.diagnostics);
    result.checked++;
    if (!valid) result.invalid++;
  }
  result.errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  result.warnings = result.diagnostics.length - result.errors;
  return result;
}
