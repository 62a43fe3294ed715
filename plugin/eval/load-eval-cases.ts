/**
 * Finds, reads and checks the eval cases of one definition: by default every `*.yaml`, `*.yml`
 * and `*.jsonl` file in the `evals/` folder beside it; or the paths the caller names (`--cases`):
 * a file, a folder (its cases files), or a name with `*`/`?` in its last segment (matched in that
 * folder; no `**`). Files are read as the definition layer reads definitions (regular files only,
 * bounded size, links that leave the workspace refused) and reported relative to `cwd`, in
 * code-point order. Every case is checked on its own (parse-eval-cases.ts) and against the
 * definition (eval-definition-checks.ts); case ids must be unique across the files.
 * Never throws; prints nothing; an unreadable input is an `ioErrors` entry (a usage error).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ERROR_CODES, hasErrors, sortDiagnostics, type Diagnostic } from '../definition/diagnostic';
import { readDefinitionSource } from '../definition/read-source';
import { workspacePath } from '../definition/workspace-path';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { caseDefinitionFindings } from './eval-definition-checks';
import { evalCasesFormat, parseEvalCasesText, type LocatedEvalCase } from './parse-eval-cases';

/** The folder beside a definition that holds its cases. */
export const EVALS_FOLDER = 'evals';
/** Cases of one definition, over all its files. */
export const MAX_CASES = 5000;
/** Cases files of one definition. */
export const MAX_CASE_FILES = 200;

export interface LoadEvalCasesOptions {
  /** The definition file (absolute, or relative to `cwd`): its folder holds `evals/`. */
  definitionFile: string;
  /** The definition, validated. */
  definition: AgentDefinition;
  /** Relative paths are taken from here and files are named relative to it. */
  cwd: string;
  /** Explicit cases files, folders or globs (`--cases`), instead of `<definition folder>/evals`. */
  cases?: readonly string[];
}

export interface LoadedEvalCases {
  /** Every case of every file, in file order then case order (also when some have diagnostics). */
  cases: LocatedEvalCase[];
  /** The files read, as named in diagnostics and reports. */
  files: string[];
  diagnostics: Diagnostic[];
  /** file → text, for `formatDiagnostics(diagnostics, { format: 'text', sources })`. */
  sources: Map<string, string>;
  /** Inputs that could not be read at all (missing, not a regular file, unknown extension). */
  ioErrors: string[];
  /** No diagnostic of severity error and no I/O error. */
  valid: boolean;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function casesFilesIn(folder: string, match: (name: string) => boolean = () => true): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => evalCasesFormat(name) !== undefined && match(name))
      .sort(byCodePoint)
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}

/** `*` any run of characters but `/`, `?` one character; everything else literal. */
function globMatcher(glob: string): (name: string) => boolean {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const regex = new RegExp(`^${source}$`, 's');
  return (name) => regex.test(name);
}

/** The absolute files the options name, and the inputs that name nothing readable. */
function casesFiles(options: LoadEvalCasesOptions): { files: string[]; ioErrors: string[] } {
  if (options.cases === undefined || options.cases.length === 0) {
    const folder = join(dirname(resolve(options.cwd, options.definitionFile)), EVALS_FOLDER);
    return { files: casesFilesIn(folder), ioErrors: [] };
  }
  const files: string[] = [];
  const ioErrors: string[] = [];
  for (const entry of options.cases) {
    const absolute = resolve(options.cwd, entry);
    const last = basename(entry);
    if (/[*?]/.test(last)) {
      if (/[*?]/.test(dirname(entry))) ioErrors.push(`--cases ${entry}: only the last part of a path may hold * or ?`);
      else {
        const found = casesFilesIn(dirname(absolute), globMatcher(last));
        if (found.length === 0) ioErrors.push(`--cases ${entry}: matches no .yaml, .yml or .jsonl file`);
        files.push(...found);
      }
    } else if (isDirectory(absolute)) {
      const found = casesFilesIn(absolute);
      if (found.length === 0) ioErrors.push(`--cases ${entry}: the folder holds no .yaml, .yml or .jsonl file`);
      files.push(...found);
    } else if (evalCasesFormat(entry) === undefined)
      ioErrors.push(`--cases ${entry}: not an eval-cases file (expected .yaml, .yml or .jsonl)`);
    else files.push(absolute);
  }
  return { files: [...new Set(files)], ioErrors };
}

function fileDiagnostic(file: string, rule: string, message: string, suggestion: string): Diagnostic {
  return {
    code: ERROR_CODES.invalid,
    rule,
    severity: 'error',
    path: '',
    file,
    line: 1,
    column: 1,
    message,
    suggestion,
  };
}

export function loadEvalCases(options: LoadEvalCasesOptions): LoadedEvalCases {
  const sources = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  const cases: LocatedEvalCase[] = [];
  try {
    const { files: found, ioErrors } = casesFiles(options);
    const files: string[] = [];
    if (found.length > MAX_CASE_FILES)
      return {
        cases,
        files,
        diagnostics,
        sources,
        ioErrors: [...ioErrors, `${found.length} eval-cases files: at most ${MAX_CASE_FILES} are read`],
        valid: false,
      };
    for (const absolute of found) {
      const file = workspacePath(options.cwd, absolute);
      const source = readDefinitionSource(absolute, file);
      if (source.ioError !== undefined) {
        ioErrors.push(source.ioError);
        continue;
      }
      files.push(file);
      if (source.text === undefined) {
        diagnostics.push(
          ...source.diagnostics.map((d) => ({
            ...d,
            message: d.message.replace(/an AgentDefinition/g, 'an eval-cases file'),
          })),
        );
        continue;
      }
      sources.set(file, source.text);
      const parsed = parseEvalCasesText(source.text, file, evalCasesFormat(file)!);
      diagnostics.push(...parsed.diagnostics);
      cases.push(...parsed.cases);
    }
    if (cases.length > MAX_CASES)
      diagnostics.push(
        fileDiagnostic(
          cases[MAX_CASES]!.file,
          'eval-case-count',
          `more than ${MAX_CASES} cases`,
          "split the agent's cases, or select some with --cases",
        ),
      );
    const seen = new Map<string, LocatedEvalCase>();
    for (const evalCase of cases) {
      const first = seen.get(evalCase.value.id);
      if (first !== undefined) {
        const at = evalCase.locate('/id');
        diagnostics.push({
          code: ERROR_CODES.invalid,
          rule: 'eval-case-id',
          severity: 'error',
          path: `${evalCase.pointer}/id`,
          file: evalCase.file,
          line: at.line,
          column: at.column,
          message: `case id "${evalCase.value.id}" is used twice (first at ${first.file}:${first.line}:${first.column})`,
          suggestion: 'give each case of the agent its own id',
        });
      } else seen.set(evalCase.value.id, evalCase);
      for (const finding of caseDefinitionFindings(
        evalCase.value,
        options.definition,
        evalCase.fileGrader,
        evalCase.fileGraders,
      )) {
        const at = evalCase.locate(finding.path, finding.at ?? 'value');
        diagnostics.push({
          code: ERROR_CODES.invalid,
          rule: finding.rule,
          severity: finding.severity ?? 'error',
          path: `${evalCase.pointer}${finding.path}`,
          file: evalCase.file,
          line: at.line,
          column: at.column,
          message: finding.message,
          ...(finding.suggestion !== undefined ? { suggestion: finding.suggestion } : {}),
        });
      }
    }
    const sorted = sortDiagnostics(diagnostics);
    return { cases, files, diagnostics: sorted, sources, ioErrors, valid: ioErrors.length === 0 && !hasErrors(sorted) };
  } catch (error) {
    return {
      cases,
      files: [],
      diagnostics,
      sources,
      ioErrors: [`internal error while loading eval cases: ${(error as Error).name}`],
      valid: false,
    };
  }
}
