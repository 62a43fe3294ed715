/**
 * `agentdef export agentfacts`: the NANDA AgentFacts projection of a definition file
 * (agentfacts.ts `projectAgentFacts`) and, for `--write`, the file's text with the projection in
 * `metadata.cardExports.agentFacts`. The definition must validate except for the stale export
 * itself (the `agentfacts-export` rule's findings are what regenerating fixes). The rewrite keeps
 * the file's formatting: YAML through the `yaml` document (comments and the other nodes as
 * written); JSON by replacing only the old value's text, re-indented where it stood, or, with no
 * `agentFacts` yet, by re-serializing a file that is already in canonical `JSON.stringify` form
 * (its indent kept); any other JSON file is refused, located, with what to do.
 *
 * Pure: text in, text out, no I/O, no clock.
 */
import { isMap, parseDocument } from 'yaml';
import { ERROR_CODES, type Diagnostic } from '../definition/diagnostic';
import type { DefinitionFormat } from '../definition/parse-document';
import { offsetOfPosition } from '../definition/read-source';
import type { SourceDocument } from '../definition/source-document';
import { validateDefinitionSource } from '../definition/validate-definition';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { type AgentFacts, type AgentFactsOptions, projectAgentFacts } from './agentfacts';

export const AGENTFACTS_EXPORT_POINTER = '/metadata/cardExports/agentFacts';
const STALE_RULE = 'agentfacts-export';

export interface ExportAgentFactsInput {
  text: string;
  file: string;
  format: DefinitionFormat;
  /** The target and endpoint the projection names (the endpoint is not part of what validation compares). */
  options: AgentFactsOptions;
  /** Also return the definition's text with the projection written in. */
  write: boolean;
}

export type ExportAgentFactsResult =
  | { ok: true; facts: AgentFacts; text?: string; changed?: boolean }
  | { ok: false; diagnostics: Diagnostic[]; usage?: string };

function diagnostic(
  file: string,
  document: SourceDocument | undefined,
  path: string,
  message: string,
  suggestion: string,
): Diagnostic {
  const { line, column } = document?.locate(path) ?? { line: 1, column: 1 };
  return {
    code: ERROR_CODES.invalid,
    rule: 'agentfacts-export',
    severity: 'error',
    path,
    file,
    line,
    column,
    message,
    suggestion,
  };
}

export function exportAgentFacts(input: ExportAgentFactsInput): ExportAgentFactsResult {
  const { text, file, format } = input;
  const checked = validateDefinitionSource(text, file, format);
  const blocking = checked.diagnostics.filter((d) => d.severity === 'error' && d.rule !== STALE_RULE);
  if (checked.definition === undefined || checked.document === undefined || blocking.length > 0)
    return { ok: false, diagnostics: blocking.length > 0 ? blocking : checked.diagnostics };
  const definition: AgentDefinition = checked.definition;
  const projected = projectAgentFacts(definition, input.options);
  if (!projected.ok) {
    const options = projected.failures.filter((f) => f.pointer.startsWith('#/options/'));
    if (options.length > 0)
      return {
        ok: false,
        diagnostics: [],
        usage: options
          .map((f) => `--${f.pointer.slice('#/options/'.length).replace('workerUrl', 'worker-url')}: ${f.message}`)
          .join('; '),
      };
    return {
      ok: false,
      diagnostics: projected.failures.map((f) =>
        diagnostic(
          file,
          checked.document,
          f.pointer.startsWith('#') ? '' : f.pointer,
          f.message,
          'fix the definition so it projects, then export again',
        ),
      ),
    };
  }
  const facts = projected.facts;
  if (!input.write) return { ok: true, facts };
  const written = format === 'yaml' ? writeYaml(text, facts) : writeJson(checked.document, facts);
  if (typeof written !== 'string')
    return {
      ok: false,
      diagnostics: [diagnostic(file, checked.document, written.path, written.message, written.suggestion)],
    };
  return { ok: true, facts, text: written, changed: written !== text };
}

type WriteProblem = { path: string; message: string; suggestion: string };

function writeYaml(text: string, facts: AgentFacts): string | WriteProblem {
  const document = parseDocument(text, { keepSourceTokens: false });
  const metadata = document.get('metadata', true);
  if (!isMap(metadata))
    return {
      path: '/metadata',
      message: 'metadata is not a mapping agentdef can write into',
      suggestion: 'write metadata as a YAML mapping',
    };
  document.setIn(['metadata', 'cardExports', 'agentFacts'], document.createNode(facts));
  return document.toString({ lineWidth: 0 });
}

/** The indent unit of a JSON text: the leading whitespace of its first indented line (two spaces when none). */
function indentOf(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** The offset just past the JSON value starting at `start` (an object or array: brackets matched outside strings). */
function endOfValue(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function writeJson(document: SourceDocument, facts: AgentFacts): string | WriteProblem {
  const { text } = document;
  const indent = indentOf(text);
  const value = document.value as AgentDefinition;
  if (value.metadata.cardExports?.agentFacts !== undefined) {
    const position = document.locate(AGENTFACTS_EXPORT_POINTER);
    const start = offsetOfPosition(text, position.line, position.column);
    const end = start >= 0 && text[start] === '{' ? endOfValue(text, start) : -1;
    if (end < 0)
      return {
        path: AGENTFACTS_EXPORT_POINTER,
        message: 'metadata.cardExports.agentFacts is not an object agentdef can replace in place',
        suggestion: 'remove it and run the export again',
      };
    const lineStart = text.lastIndexOf('\n', start) + 1;
    const lineIndent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
    const replacement = JSON.stringify(facts, null, indent).replaceAll('\n', `\n${lineIndent}`);
    return `${text.slice(0, start)}${replacement}${text.slice(end)}`;
  }
  const trailing = /\s*$/.exec(text)?.[0] ?? '';
  if (JSON.stringify(value, null, indent) + trailing !== text)
    return {
      path: '/metadata',
      message:
        'the file is not in the form agentdef writes JSON in, so agentdef cannot add metadata.cardExports.agentFacts without reformatting it',
      suggestion:
        'add "cardExports": { "agentFacts": {} } to metadata and run the export again (only that value is replaced)',
    };
  const next = {
    ...value,
    metadata: { ...value.metadata, cardExports: { ...value.metadata.cardExports, agentFacts: facts } },
  };
  return JSON.stringify(next, null, indent) + trailing;
}
