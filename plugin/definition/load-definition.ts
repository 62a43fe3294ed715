/**
 * Reads one definition file from disk and validates it. The only file-system step of the
 * definition layer; I/O problems are returned as `ioError` (the CLI's exit code 2), never thrown.
 */
import { definitionFormat } from './parse-document';
import { readDefinitionSource } from './read-source';
import { validateDefinitionSource, type DefinitionResult } from './validate-definition';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from './rules/rule';

export interface LoadedDefinition extends DefinitionResult {
  ioError?: string;
}

/**
 * @param absolutePath where to read
 * @param file the name diagnostics use (relative to the workspace, never absolute in outputs)
 */
export function loadDefinition(
  absolutePath: string,
  file: string,
  options: RuleOptions = DEFAULT_RULE_OPTIONS,
): LoadedDefinition {
  const format = definitionFormat(file);
  if (!format)
    return { diagnostics: [], valid: false, ioError: `${file}: not a definition file (expected .json, .yaml or .yml)` };
  const source = readDefinitionSource(absolutePath, file);
  if (source.ioError !== undefined) return { diagnostics: [], valid: false, ioError: source.ioError };
  if (source.text === undefined) return { diagnostics: source.diagnostics, valid: false };
  return validateDefinitionSource(source.text, file, format, options);
}
