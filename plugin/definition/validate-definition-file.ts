/**
 * The definition layer's entry for scripts: validates one definition, read from disk or given as
 * text, and returns its diagnostics with the source text needed to print them. Prints nothing,
 * never throws, never exits: read problems come back as `ioError`.
 */
import { join, resolve } from 'node:path';
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import { hasErrors, type Diagnostic } from './diagnostic';
import { loadDefinition, type LoadedDefinition } from './load-definition';
import { definitionFormat } from './parse-document';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from './rules/rule';
import { withToolMapping } from './tool-mapping';
import { validateDefinitionSource } from './validate-definition';
import { workspacePath } from './workspace-path';

export interface ValidateDefinitionOptions {
  /**
   * The definition's text (or bytes), checked instead of reading `file`; `file` then only names it
   * in diagnostics.
   */
  text?: string | Uint8Array;
  /** With `text`: `json` or `yaml` (default: from the extension of `file`: `.json`, `.yaml`, `.yml`). */
  format?: 'json' | 'yaml';
  /** Relative `file` paths are taken from here, and diagnostics name files relative to it (default `process.cwd()`). */
  cwd?: string;
  ruleOptions?: RuleOptions;
  /**
   * The workspace the definition belongs to (absolute, or relative to `cwd`): its tools.json must
   * map every scripted and skill-package tool (tool-mapping.ts), as compiling for a Worker
   * requires; a problem of tools.json itself is reported too. Absent: the mapping is not checked.
   */
  workspaceRoot?: string;
}

export interface ValidateDefinitionResult {
  /** Read, parsed, passed the schema and the semantic rules with no error (warnings allowed). */
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The parsed definition, when it passed the JSON Schema (the semantic rules may still report errors). */
  definition?: AgentDefinition;
  /** file → text, for `formatDiagnostics(diagnostics, { format: 'text', sources })`. */
  sources: Map<string, string>;
  /** The file could not be read, or is no definition file: nothing was checked. */
  ioError?: string;
}

/** Validates the definition in `file` (or `options.text`, named `file`). */
export function validateDefinition(file: string, options: ValidateDefinitionOptions = {}): ValidateDefinitionResult {
  const sources = new Map<string, string>();
  try {
    const cwd = options.cwd ?? process.cwd();
    const absolute = resolve(cwd, file);
    const name = workspacePath(cwd, absolute);
    const ruleOptions = options.ruleOptions ?? DEFAULT_RULE_OPTIONS;
    let loaded: LoadedDefinition;
    if (options.text !== undefined) {
      const format = options.format ?? definitionFormat(name);
      if (!format)
        return {
          valid: false,
          diagnostics: [],
          sources,
          ioError: `${name}: not a definition file (expected .json, .yaml or .yml, or pass a format)`,
        };
      loaded = validateDefinitionSource(options.text, name, format, ruleOptions);
    } else {
      loaded = loadDefinition(absolute, name, ruleOptions);
      if (loaded.ioError !== undefined) return { valid: false, diagnostics: [], sources, ioError: loaded.ioError };
    }
    const text = loaded.text ?? loaded.document?.text;
    if (text !== undefined) sources.set(name, text);
    let diagnostics = loaded.diagnostics;
    if (options.workspaceRoot !== undefined && loaded.document) {
      const root = resolve(cwd, options.workspaceRoot);
      const result = withToolMapping(
        {
          files: [{ file: name, valid: true, diagnostics, document: loaded.document }],
          diagnostics,
          sources,
          ioErrors: [],
          checked: 1,
          invalid: 0,
          errors: 0,
          warnings: 0,
        },
        root,
        (workspaceFile) => workspacePath(cwd, join(root, workspaceFile)),
      );
      diagnostics = result.diagnostics;
    }
    return {
      valid: loaded.valid && !hasErrors(diagnostics),
      diagnostics,
      sources,
      ...(loaded.definition ? { definition: loaded.definition } : {}),
    };
  } catch (error) {
    return {
      valid: false,
      diagnostics: [],
      sources,
      ioError: `internal error while validating ${file}: ${(error as Error).message}`,
    };
  }
}
