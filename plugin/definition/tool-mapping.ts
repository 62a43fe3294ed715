/**
 * The tool mapping: every `scripted` or `skill-package` tool of a definition is implemented by the
 * module the workspace's tools.json maps its id to. One finding for a tool it does not map, shared
 * by the compiler (a Worker bundles its tools, so compiling one without its module fails:
 * compiler/runtime-config.ts) and by validation (`agentdef validate`, `validateDefinition` with a
 * workspace, the Nx `validate` target), located at the tool's entry in the definition with what
 * to add to tools.json. Graph inference never runs it (it reads no tools.json for this).
 */
import { hasErrors, sortDiagnostics, type Diagnostic, type Finding } from './diagnostic';
import type { SourceDocument } from './source-document';
import type { ValidateFilesResult } from './validate-files';
import { locateFinding } from './validate-definition';
import { loadToolsFile } from './workspace-config';
import { TOOLS_FILE } from './workspace-definitions';

/** The tool kinds tools.json implements (`mcp` tools are reached through mcp.json, `native` ones are executables). */
export function isMappedProvenance(provenance: unknown): boolean {
  return provenance === 'scripted' || provenance === 'skill-package';
}

/** The finding for the tool at `/toolInventory/<index>` when tools.json does not map it; undefined when it does (or needs no mapping). */
export function unmappedToolFinding(
  tool: { id: string; provenance: string },
  index: number,
  tools: ReadonlyMap<string, unknown>,
): Finding | undefined {
  if (!isMappedProvenance(tool.provenance) || tools.has(tool.id)) return undefined;
  return {
    rule: 'tool-implementation',
    path: `/toolInventory/${index}`,
    message: `${tool.provenance} tool "${tool.id}" has no implementation: the workspace's ${TOOLS_FILE} does not map it to a module`,
    suggestion: `add "tools": { "${tool.id}": { "module": "./tools/${tool.id}.ts", "export": "run" } } to ${TOOLS_FILE}`,
  };
}

/** The tools of a parsed definition value that tools.json must map (an inventory of another shape maps nothing: the schema reports it). */
function mappedTools(value: unknown): { tool: { id: string; provenance: string }; index: number }[] {
  const inventory =
    value !== null && typeof value === 'object' ? (value as { toolInventory?: unknown }).toolInventory : undefined;
  if (!Array.isArray(inventory)) return [];
  return inventory.flatMap((tool: unknown, index) => {
    const { id, provenance } = (tool ?? {}) as { id?: unknown; provenance?: unknown };
    return typeof id === 'string' && typeof provenance === 'string' && isMappedProvenance(provenance)
      ? [{ tool: { id, provenance }, index }]
      : [];
  });
}

/** The located diagnostics of a definition's tools that `tools` (tools.json) does not map. */
export function unmappedToolDiagnostics(document: SourceDocument, tools: ReadonlyMap<string, unknown>): Diagnostic[] {
  return mappedTools(document.value).flatMap(({ tool, index }) => {
    const finding = unmappedToolFinding(tool, index, tools);
    return finding ? [locateFinding(document, finding)] : [];
  });
}

/**
 * A validation result with the tool mapping checked against the tools.json of `workspaceRoot`:
 * each definition gets its unmapped tools' diagnostics (and is invalid then), and the problems of
 * tools.json itself are added once, named by `displayName` (a file the mapping cannot be read
 * from), when any definition has a tool tools.json must map. Reads tools.json only then.
 */
export function withToolMapping(
  result: ValidateFilesResult,
  workspaceRoot: string,
  displayName: (workspaceFile: string) => string = (file) => file,
): ValidateFilesResult {
  const needing = result.files.filter((f) => f.document !== undefined && mappedTools(f.document.value).length > 0);
  if (needing.length === 0) return result;
  const loaded = loadToolsFile(workspaceRoot);
  for (const entry of needing) {
    const own = unmappedToolDiagnostics(entry.document!, loaded.tools);
    if (own.length === 0) continue;
    entry.diagnostics = sortDiagnostics([...entry.diagnostics, ...own]);
    if (entry.valid && hasErrors(own)) {
      entry.valid = false;
      result.invalid++;
    }
  }
  const workspace = loaded.diagnostics.map((d) => ({ ...d, file: displayName(d.file) }));
  if (loaded.document && workspace.length > 0) result.sources.set(displayName(TOOLS_FILE), loaded.document.text);
  result.diagnostics = [...result.files.flatMap((f) => f.diagnostics), ...workspace];
  result.errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  result.warnings = result.diagnostics.length - result.errors;
  return result;
}
