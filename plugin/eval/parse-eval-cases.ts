/**
 * One eval-cases file's text to its cases, with located diagnostics (file:line:column, JSON
 * Pointer, what to do), through the definition layer's parsers and schema messages:
 *
 *   YAML (`.yaml`, `.yml`): one document `{ schemaVersion: eval-cases/v1, grader?, cases: [...] }`.
 *   JSONL (`.jsonl`): one case object per non-blank line; positions are the file's, pointers the line's case.
 *
 * Then each case's own checks: regex patterns and JSON Schemas that compile and cannot backtrack
 * catastrophically (safe-regex.ts, output-schema.ts), assertion ids unique in the case, an `equals`
 * with something to compare with, a `max-cost` with a limit. Checks against the definition live in
 * eval-definition-checks.ts. Pure: no file system, never throws on bad input.
 */
import { ERROR_CODES, sortDiagnostics, type Diagnostic, type Finding } from '../definition/diagnostic';
import { parseDefinitionTextStrictly } from '../definition/parse-document';
import { misspelledRequiredFields, schemaErrorToFinding, type SchemaSubject } from '../definition/schema-diagnostics';
import type { SourceDocument, SourcePosition } from '../definition/source-document';
import schema from '../schema/eval-cases.v1.schema.json';
import type { EvalCase, EvalCases, GraderPin } from '../schema/generated/eval-cases.types';
import { validateEvalCases, type ValidationError } from '../schema/generated/eval-cases.validator';
import { compileOutputSchema } from './output-schema';
import { compileSafeRegex } from './safe-regex';

export const EVAL_CASES_VERSION = 'eval-cases/v1';

export type EvalCasesFormat = 'yaml' | 'jsonl';

/** A case as loaded: where it is, so later checks and reports can point at it. */
export interface LocatedEvalCase {
  /** The file, as diagnostics name it. */
  file: string;
  /** The JSON Pointer of the case in its document: `/cases/<n>` (YAML) or `` (a JSONL line). */
  pointer: string;
  /** Where the case starts. */
  line: number;
  column: number;
  /** The file-level `grader` (YAML only). */
  fileGrader?: string;
  /** The file's own `graders` (YAML only): a `grader` name resolves against these first. */
  fileGraders?: GraderPin[];
  value: EvalCase;
  /** Locates a pointer relative to the case (`/assertions/0/pattern`). */
  locate(pointer: string, at?: 'key' | 'value'): SourcePosition;
}

export interface ParsedEvalCases {
  cases: LocatedEvalCase[];
  diagnostics: Diagnostic[];
}

/** The format a cases file name implies, or undefined. */
export function evalCasesFormat(file: string): EvalCasesFormat | undefined {
  const name = file.toLowerCase();
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'yaml';
  if (name.endsWith('.jsonl')) return 'jsonl';
  return undefined;
}

const SUBJECT: SchemaSubject = { schema, documentName: 'the eval-cases file' };

function diagnosticAt(file: string, at: SourcePosition, path: string, finding: Finding): Diagnostic {
  return {
    code: ERROR_CODES.invalid,
    rule: finding.rule,
    severity: finding.severity ?? 'error',
    path,
    file,
    line: at.line,
    column: at.column,
    message: finding.message,
    ...(finding.suggestion !== undefined ? { suggestion: finding.suggestion } : {}),
    ...(finding.redactSource ? { redactSource: true } : {}),
  };
}

/** Schema findings for a whole eval-cases document, `anyOf` branch noise folded into one finding. */
function schemaFindings(value: unknown): Finding[] {
  if (validateEvalCases(value)) return [];
  const errors: ValidationError[] = validateEvalCases.errors ?? [];
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const isBranchNoise = (e: ValidationError) =>
    anyOfs.some(
      (a) =>
        a !== e &&
        e.instancePath === a.instancePath &&
        e.schemaPath.startsWith(a.schemaPath.replace(/\/anyOf$/, '/anyOf/')),
    );
  const misspelled = misspelledRequiredFields(errors, value, SUBJECT);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (isBranchNoise(error)) continue;
    const finding =
      error.keyword === 'anyOf'
        ? {
            rule: 'schema',
            path: error.instancePath,
            message: `\`${error.instancePath}\` has none of the allowed shapes`,
            suggestion: 'see docs/reference/eval-cases.md for the field',
          }
        : schemaErrorToFinding(error, value, SUBJECT, misspelled);
    if (!finding) continue;
    const key = `${finding.path}\u0000${finding.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  return findings;
}

/** The checks of one case that need no definition; pointers are relative to the case. */
export function caseFindings(evalCase: EvalCase): Finding[] {
  const findings: Finding[] = [];
  const ids = new Map<string, number>();
  evalCase.assertions.forEach((assertion, index) => {
    const at = `/assertions/${index}`;
    if (assertion.id !== undefined) {
      const first = ids.get(assertion.id);
      if (first !== undefined)
        findings.push({
          rule: 'eval-assertion-id',
          path: `${at}/id`,
          message: `assertion id "${assertion.id}" is used twice in case "${evalCase.id}" (first at /assertions/${first})`,
          suggestion: 'give each assertion of a case its own id',
        });
      else ids.set(assertion.id, index);
    }
    switch (assertion.type) {
      case 'equals':
        if (assertion.value === undefined && evalCase.expected === undefined)
          findings.push({
            rule: 'eval-equals',
            path: at,
            message:
              "an `equals` assertion without `value` compares with the case's `expected`, and this case has none",
            suggestion: 'add `value`, or an `expected` to the case',
          });
        break;
      case 'max-cost':
        if (assertion.tokens === undefined && assertion.modelCalls === undefined)
          findings.push({
            rule: 'eval-max-cost',
            path: at,
            message: 'a `max-cost` assertion needs a limit',
            suggestion: 'add `tokens`, `modelCalls` or both',
          });
        break;
      case 'regex': {
        const compiled = compileSafeRegex(assertion.pattern, assertion.flags ?? '');
        if (!compiled.ok)
          findings.push({
            rule: 'eval-regex',
            path: `${at}/${/^flags/.test(compiled.message) ? 'flags' : 'pattern'}`,
            message: compiled.message,
            suggestion: compiled.suggestion,
          });
        break;
      }
      case 'json-schema': {
        const compiled = compileOutputSchema(assertion.schema);
        if (!compiled.ok)
          for (const problem of compiled.problems)
            findings.push({
              rule: 'eval-json-schema',
              path: `${at}/schema${problem.pointer}`,
              message: problem.message,
              suggestion: problem.suggestion,
            });
        break;
      }
    }
  });
  return findings;
}

function caseDiagnostics(document: SourceDocument, base: string, evalCase: EvalCase, shift: number): Diagnostic[] {
  return caseFindings(evalCase).map((f) => {
    const pointer = `${base}${f.path}`;
    const at = document.locate(pointer, f.at ?? 'value');
    return diagnosticAt(document.file, { line: at.line + shift, column: at.column }, pointer, f);
  });
}

function notAnObject(diagnostics: Diagnostic[], what: string): Diagnostic[] {
  return diagnostics.map((d) =>
    d.rule === 'not-an-object'
      ? { ...d, message: d.message.replace(/^an AgentDefinition must be an object/, `${what} must be an object`) }
      : d,
  );
}

function parseYamlCases(text: string, file: string): ParsedEvalCases {
  const parsed = parseDefinitionTextStrictly(text, file, 'yaml');
  if (parsed.document === undefined)
    return { cases: [], diagnostics: notAnObject(parsed.diagnostics, 'an eval-cases file') };
  const document = parsed.document;
  const schemaProblems = schemaFindings(document.value);
  if (schemaProblems.length > 0)
    return {
      cases: [],
      diagnostics: sortDiagnostics(
        schemaProblems.map((f) => diagnosticAt(file, document.locate(f.path, f.at ?? 'value'), f.path, f)),
      ),
    };
  const value = document.value as EvalCases;
  const diagnostics: Diagnostic[] = [];
  const names = new Set<string>();
  (value.graders ?? []).forEach((grader, index) => {
    const path = `/graders/${index}/name`;
    if (names.has(grader.name))
      diagnostics.push(
        diagnosticAt(file, document.locate(path), path, {
          rule: 'eval-grader',
          path,
          message: `grader name "${grader.name}" is declared twice in the file`,
          suggestion: 'give each grader of the file its own name',
        }),
      );
    names.add(grader.name);
  });
  const cases = value.cases.map((evalCase, index): LocatedEvalCase => {
    const pointer = `/cases/${index}`;
    diagnostics.push(...caseDiagnostics(document, pointer, evalCase, 0));
    const start = document.locate(pointer);
    return {
      file,
      pointer,
      line: start.line,
      column: start.column,
      ...(value.grader !== undefined ? { fileGrader: value.grader } : {}),
      ...(value.graders !== undefined ? { fileGraders: value.graders } : {}),
      value: evalCase,
      locate: (inner, at) => document.locate(`${pointer}${inner}`, at),
    };
  });
  return { cases, diagnostics: sortDiagnostics(diagnostics) };
}

/** A JSONL line's schema findings: validated as the one case of a file, reported as the line's. */
function lineSchemaFindings(value: unknown): Finding[] {
  return schemaFindings({ schemaVersion: EVAL_CASES_VERSION, cases: [value] }).map((f) => ({
    ...f,
    path: f.path.replace(/^\/cases\/0(?=\/|$)/, ''),
    message: f.message.replaceAll('`/cases/0`', 'the case').replaceAll('`/cases/0/', '`/'),
  }));
}

function parseJsonlCases(text: string, file: string): ParsedEvalCases {
  const diagnostics: Diagnostic[] = [];
  const cases: LocatedEvalCase[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const shift = index;
    const parsed = parseDefinitionTextStrictly(line, file, 'json');
    if (parsed.document === undefined) {
      for (const d of notAnObject(parsed.diagnostics, 'each line of a .jsonl eval-cases file'))
        diagnostics.push({
          ...d,
          line: d.line + shift,
          ...(d.rule === 'syntax'
            ? { suggestion: 'each line must be one case as a JSON object on a single line' }
            : {}),
        });
      return;
    }
    const document = parsed.document;
    const locate = (pointer: string, at?: 'key' | 'value'): SourcePosition => {
      const inner = document.locate(pointer, at);
      return { line: inner.line + shift, column: inner.column };
    };
    const problems = lineSchemaFindings(document.value);
    if (problems.length > 0) {
      for (const f of problems) diagnostics.push(diagnosticAt(file, locate(f.path, f.at), f.path, f));
      return;
    }
    const evalCase = document.value as EvalCase;
    diagnostics.push(...caseDiagnostics(document, '', evalCase, shift));
    const start = locate('');
    cases.push({ file, pointer: '', line: start.line, column: start.column, value: evalCase, locate });
  });
  if (cases.length === 0 && diagnostics.length === 0)
    diagnostics.push({
      code: ERROR_CODES.invalid,
      rule: 'empty-file',
      severity: 'error',
      path: '',
      file,
      line: 1,
      column: 1,
      message: 'the .jsonl eval-cases file has no cases',
      suggestion: 'write one case per line as a JSON object, or delete the file',
    });
  return { cases, diagnostics: sortDiagnostics(diagnostics) };
}

/** Parses and checks one eval-cases file's decoded text. */
export function parseEvalCasesText(text: string, file: string, format: EvalCasesFormat): ParsedEvalCases {
  try {
    return format === 'yaml' ? parseYamlCases(text, file) : parseJsonlCases(text, file);
  } catch (error) {
    return {
      cases: [],
      diagnostics: [
        {
          code: ERROR_CODES.invalid,
          rule: 'internal',
          severity: 'error',
          path: '',
          file,
          line: 1,
          column: 1,
          message: `the file could not be checked (${(error as Error).name})`,
          suggestion: 'report this as a bug in agentdef, with the file',
        },
      ],
    };
  }
}
