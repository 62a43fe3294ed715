/**
 * The definition layer's pipeline, visible in one place:
 *   decode bytes → parse (with positions) → JSON Schema → semantic rules → located diagnostics.
 * JSON first tries the fast path (validate-fast-path.ts): a valid definition without findings is
 * never parsed with positions; anything else takes this pipeline, with the same result.
 * Pure: no file system, no console, never throws on bad input.
 */
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { validateAgentDefinition, type ValidationError } from '../schema/generated/agent-definition.validator';
import { ERROR_CODES, hasErrors, sortDiagnostics, type Diagnostic, type Finding } from './diagnostic';
import { parseDefinitionTextStrictly } from './parse-document';
import { validateOnFastPath } from './validate-fast-path';
import { decodeSource } from './read-source';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from './rules/rule';
import { findingsWithoutSecrets } from './findings-without-secrets';
import { SEMANTIC_RULES } from './rules/index';
import { AGENT_DEFINITION, schemaErrorsToFindings } from './schema-diagnostics';
import type { SourceDocument } from './source-document';

export interface DefinitionResult {
  /** Present when the file parsed and passed the JSON Schema (rules may still report errors). */
  definition?: AgentDefinition;
  document?: SourceDocument;
  /** The decoded text, whenever the bytes decoded (also when it does not parse), for printing diagnostics with their source lines. */
  text?: string;
  diagnostics: Diagnostic[];
  valid: boolean;
}

export function locateFinding(document: SourceDocument, finding: Finding): Diagnostic {
  const { line, column } = document.locate(finding.path, finding.at ?? 'value');
  const diagnostic: Diagnostic = {
    code: finding.code ?? ERROR_CODES.invalid,
    rule: finding.rule,
    severity: finding.severity ?? 'error',
    path: finding.path,
    file: document.file,
    line,
    column,
    message: finding.message,
  };
  if (finding.suggestion !== undefined) diagnostic.suggestion = finding.suggestion;
  if (finding.redactSource) diagnostic.redactSource = true;
  return diagnostic;
}

/** JSON Schema findings, with the branch noise of `anyOf` folded into one finding per value. */
export function schemaFindings(value: unknown): Finding[] {
  if (validateAgentDefinition(value)) return [];
  const errors: ValidationError[] = validateAgentDefinition.errors ?? [];
  return schemaErrorsToFindings(errors, value, AGENT_DEFINITION, 'docs/reference/agent-definition.md');
}

export function semanticFindings(definition: AgentDefinition, options: RuleOptions = DEFAULT_RULE_OPTIONS): Finding[] {
  return findingsWithoutSecrets(
    SEMANTIC_RULES.flatMap((rule) => rule.check(definition, options)),
    definition,
  );
}

/** Validates an already parsed document. */
export function validateDocument(
  document: SourceDocument,
  options: RuleOptions = DEFAULT_RULE_OPTIONS,
): DefinitionResult {
  const schemaProblems = schemaFindings(document.value);
  if (schemaProblems.length > 0) {
    const diagnostics = sortDiagnostics(schemaProblems.map((f) => locateFinding(document, f)));
    return { document, diagnostics, valid: false };
  }
  const definition = document.value as AgentDefinition;
  const diagnostics = sortDiagnostics(semanticFindings(definition, options).map((f) => locateFinding(document, f)));
  return { definition, document, diagnostics, valid: !hasErrors(diagnostics) };
}

/** Validates the bytes (or text) of one definition file named `file`. */
export function validateDefinitionSource(
  source: Uint8Array | string,
  file: string,
  format: 'json' | 'yaml',
  options: RuleOptions = DEFAULT_RULE_OPTIONS,
): DefinitionResult {
  let text: string;
  if (typeof source === 'string') {
    text = source;
  } else {
    const decoded = decodeSource(source, file);
    if (decoded.text === undefined) return { diagnostics: decoded.diagnostics, valid: false };
    text = decoded.text;
  }
  return (
    (format === 'json' ? validateOnFastPath(text, file, options) : undefined) ??
    validateDefinitionTextStrictly(text, file, format, options)
  );
}

/** Validates decoded text with positions from the start: what the fast path must always agree with. */
export function validateDefinitionTextStrictly(
  text: string,
  file: string,
  format: 'json' | 'yaml',
  options: RuleOptions = DEFAULT_RULE_OPTIONS,
): DefinitionResult {
  const parsed = parseDefinitionTextStrictly(text, file, format);
  if (!parsed.document || hasErrors(parsed.diagnostics))
    return {
      text,
      diagnostics: parsed.diagnostics,
      valid: false,
      ...(parsed.document ? { document: parsed.document } : {}),
    };
  const result = validateDocument(parsed.document, options);
  return { ...result, text, diagnostics: sortDiagnostics([...parsed.diagnostics, ...result.diagnostics]) };
}
