/**
 * `agentdef validate` over many files: each file's own diagnostics (validate-files.ts), then what
 * only the set shows (workspace-checks.ts: duplicate slugs and ids, pins that resolve to nothing)
 * and, in a workspace, the tool mapping (tool-mapping.ts), merged into one result with its counts.
 * Prints nothing, never throws, never exits.
 */
import { hasErrors, sortDiagnostics } from './diagnostic';
import { getAtPointer } from './json-pointer';
import { readKnownVersions } from './known-versions';
import { DEFAULT_RULE_OPTIONS, type RuleOptions } from './rules/rule';
import { validateFiles, type DefinitionFile, type ValidateFilesResult } from './validate-files';
import { checkWorkspaceDefinitions, type CheckedDefinition, type KnownVersion } from './workspace-checks';
import { withToolMapping } from './tool-mapping';
import { pinKey } from './workspace-definitions';

export interface ValidateWorkspaceOptions {
  ruleOptions?: RuleOptions;
  /**
   * The workspace pins resolve in (its definitions and registry) and whose tools.json maps the
   * definitions' tools; absent: neither is checked.
   */
  workspaceRoot?: string;
  /** How a workspace-relative file (tools.json) is named in diagnostics (default: as it is). */
  displayName?: (workspaceFile: string) => string;
  /** Instead of reading the workspace: slug → versions that exist outside the checked files. */
  knownVersions?: ReadonlyMap<string, readonly KnownVersion[]>;
}

/** Slugs pinned by `definitions` at a version none of them declares: only these are looked up on disk. */
function pinnedElsewhere(definitions: readonly CheckedDefinition[]): Set<string> {
  const declared = new Set(
    definitions.map((d) => pinKeyAt(d.document.value, '/identity/slug', '/identity/versionSemver')),
  );
  const slugs = new Set<string>();
  for (const { document } of definitions) {
    const nodes = getAtPointer(document.value, '/composition/nodes');
    if (!Array.isArray(nodes)) continue;
    for (const node of nodes) {
      const key = pinKeyAt(node, '/slug', '/version');
      const slug = getAtPointer(node, '/slug');
      if (key !== undefined && typeof slug === 'string' && !declared.has(key)) slugs.add(slug);
    }
  }
  return slugs;
}

function pinKeyAt(value: unknown, slugPointer: string, versionPointer: string): string | undefined {
  const slug = getAtPointer(value, slugPointer);
  const version = getAtPointer(value, versionPointer);
  return typeof slug === 'string' && typeof version === 'string' ? pinKey(slug, version) : undefined;
}

/** The definitions of a result that parsed, for the workspace-wide checks. */
export function parsedDefinitions(result: ValidateFilesResult): CheckedDefinition[] {
  return result.files.flatMap((f) => (f.document ? [{ file: f.file, document: f.document }] : []));
}

export function validateWorkspaceFiles(
  files: readonly DefinitionFile[],
  options: ValidateWorkspaceOptions = {},
): ValidateFilesResult {
  const result = validateFiles(files, options.ruleOptions ?? DEFAULT_RULE_OPTIONS);
  const definitions = parsedDefinitions(result);
  const knownVersions =
    options.knownVersions ??
    (options.workspaceRoot !== undefined
      ? readKnownVersions(options.workspaceRoot, pinnedElsewhere(definitions))
      : undefined);
  const extra = checkWorkspaceDefinitions(definitions, knownVersions ? { knownVersions } : {});
  if (options.workspaceRoot !== undefined) withToolMapping(result, options.workspaceRoot, options.displayName);
  if (extra.length === 0) return result;
  for (const entry of result.files) {
    const own = extra.filter((d) => d.file === entry.file);
    if (own.length === 0) continue;
    entry.diagnostics = sortDiagnostics([...entry.diagnostics, ...own]);
    if (entry.valid && hasErrors(own)) {
      entry.valid = false;
      result.invalid++;
    }
  }
  result.diagnostics = [
    ...result.files.flatMap((f) => f.diagnostics),
    ...result.diagnostics.filter((d) => !result.files.some((f) => f.file === d.file)),
  ];
  result.errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  result.warnings = result.diagnostics.length - result.errors;
  return result;
}
