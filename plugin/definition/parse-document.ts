/**
 * From definition text to a SourceDocument: picks the parser by format, requires Unicode text in
 * every string and property name (no unpaired surrogates) and an object at the top, and answers
 * `locate(pointer)` from the offsets the parser recorded. JSON takes the fast path first
 * (parse-json-fast.ts): when it proves the strict parser would agree, the position-keeping parse
 * runs only on the document's first `locate`.
 */
import { ERROR_CODES, sortDiagnostics, type Diagnostic } from './diagnostic';
import { withParseHelp } from './parse-help';
import { parseJson, type ParsedText } from './parse-json';
import { parseJsonWithoutPositions } from './parse-json-fast';
import { parseYaml } from './parse-yaml';
import { lineIndex, type PositionAt } from './read-source';
import type { SourceDocument, SourcePosition } from './source-document';
import { unpairedSurrogateDiagnostics } from './unpaired-surrogates';

export type DefinitionFormat = SourceDocument['format'];

/** The format a file name implies: `.json`, or `.yaml`/`.yml` (any case); otherwise undefined. */
export function definitionFormat(file: string): DefinitionFormat | undefined {
  const name = file.toLowerCase();
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'yaml';
  return undefined;
}

export interface ParsedDefinition {
  /** Present only when the text parsed without any diagnostic. */
  document?: SourceDocument;
  diagnostics: Diagnostic[];
}

export function parseDefinitionText(text: string, file: string, format: DefinitionFormat): ParsedDefinition {
  const fast = format === 'json' ? parseJsonWithoutPositions(text) : undefined;
  if (fast !== undefined)
    return { document: documentWithLazyPositions(text, file, format, fast.value), diagnostics: [] };
  return parseDefinitionTextStrictly(text, file, format);
}

/** {@link parseDefinitionText} with the position-keeping parser from the start. */
export function parseDefinitionTextStrictly(text: string, file: string, format: DefinitionFormat): ParsedDefinition {
  const parsed = format === 'json' ? parseJson(text, file) : parseYaml(text, file);
  if (parsed.diagnostics.length > 0) return { diagnostics: sortDiagnostics(withParseHelp(parsed.diagnostics, format)) };
  const surrogates = unpairedSurrogateDiagnostics(parsed.value, file, parsed, lineIndex(text));
  if (surrogates.length > 0) return { diagnostics: sortDiagnostics(surrogates) };
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      diagnostics: [
        {
          code: ERROR_CODES.invalid,
          rule: 'not-an-object',
          severity: 'error',
          path: '',
          file,
          line: 1,
          column: 1,
          message: `an AgentDefinition must be an object, but this file holds ${found}`,
        },
      ],
    };
  }
  return { document: sourceDocument(text, file, format, parsed), diagnostics: [] };
}

/**
 * A document whose `value` came from the fast path; the position-keeping parser runs on its first
 * `locate` (the fast path proved it parses the same text without a diagnostic).
 */
export function documentWithLazyPositions(
  text: string,
  file: string,
  format: DefinitionFormat,
  value: unknown,
): SourceDocument {
  let located: SourceDocument | undefined;
  return {
    file,
    format,
    text,
    value,
    locate(pointer: string, at: 'key' | 'value' = 'value'): SourcePosition {
      located ??= sourceDocument(text, file, format, format === 'json' ? parseJson(text, file) : parseYaml(text, file));
      return located.locate(pointer, at);
    },
  };
}

function sourceDocument(text: string, file: string, format: DefinitionFormat, parsed: ParsedText): SourceDocument {
  let positions: PositionAt | undefined;
  const { valueAt, keyAt } = parsed;
  return {
    file,
    format,
    text,
    value: parsed.value,
    locate(pointer: string, at: 'key' | 'value' = 'value'): SourcePosition {
      // Walk up to the nearest pointer the parser saw; pointers escape '/' as '~1', so the last
      // '/' always starts the last segment.
      for (let p = pointer; ; p = p.slice(0, Math.max(0, p.lastIndexOf('/')))) {
        const offset = (at === 'key' ? keyAt.get(p) : undefined) ?? valueAt.get(p);
        if (offset !== undefined) {
          positions ??= lineIndex(text);
          return positions(offset);
        }
        if (p === '') return { line: 1, column: 1 };
      }
    },
  };
}
