/**
 * `agentdef validate <files or dirs>`: each definition's own diagnostics, then what only the set
 * shows (duplicate slugs and ids; pins that resolve to nothing in the workspace or its registry,
 * as warnings; scripted and skill-package tools the workspace's tools.json does not map), and each application manifest checked as an application (the application layer's
 * manifest validation, loaded only when there is one), printed like a compiler's, with a summary line.
 */
import { join } from 'node:path';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import type { ValidateFilesResult } from '../../definition/validate-files';
import { validateWorkspaceFiles } from '../../definition/validate-workspace';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { workspacePath } from '../../definition/workspace-path';
import { findDefinitions, type FoundFile } from '../find-definitions';
import { EXIT, type CliIo } from '../io';
import { VALIDATE } from '../specs/validate';
import { parseCommand, usageError } from '../usage';

/** The manifests' results; the application layer (and its Ajv) is loaded only when there are manifests. */
function validateManifests(files: readonly FoundFile[]): ValidateFilesResult | undefined {
  if (files.length === 0) return undefined;
  return (
    require('../../application/validate-manifest-files') as typeof import('../../application/validate-manifest-files')
  ).validateManifestFiles(files);
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function runValidateCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, VALIDATE, argv);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  if (parsed.positionals.length === 0) return usageError(io, 'name at least one file or directory', VALIDATE);

  const found = findDefinitions(io.cwd, parsed.positionals);
  const workspaceRoot = findWorkspaceRoot(io.cwd) ?? io.cwd;
  const agents = validateWorkspaceFiles(found.files, {
    workspaceRoot,
    displayName: (file) => workspacePath(io.cwd, join(workspaceRoot, file)),
  });
  const manifests = validateManifests(found.applications);
  const diagnostics = [...agents.diagnostics, ...(manifests?.diagnostics ?? [])];
  const sources = new Map([...agents.sources, ...(manifests?.sources ?? [])]);
  const ioErrors = [...found.errors, ...agents.ioErrors, ...(manifests?.ioErrors ?? [])];
  io.stdout(formatDiagnostics(diagnostics, { format, sources, unreadable: ioErrors }));
  const checked = agents.checked + (manifests?.checked ?? 0);
  const invalid = agents.invalid + (manifests?.invalid ?? 0);
  // Nothing checked because a path could not be read: the error says so; "0 definitions checked" would only add noise.
  if (format === 'text' && (checked > 0 || ioErrors.length === 0)) {
    const errors = agents.errors + (manifests?.errors ?? 0);
    const warnings = agents.warnings + (manifests?.warnings ?? 0);
    const parts = [
      ...(agents.checked > 0 || !manifests ? [count(agents.checked, 'definition', 'definitions')] : []),
      ...(manifests ? [count(manifests.checked, 'application manifest', 'application manifests')] : []),
    ];
    const what = parts.join(' and ');
    io.stdout(
      `${what} checked: ${checked - invalid} valid, ${invalid} invalid (${count(errors, 'error', 'errors')}, ${count(warnings, 'warning', 'warnings')})\n`,
    );
  }
  for (const message of ioErrors) io.stderr(`error: ${message}\n`);
  if (ioErrors.length > 0) return EXIT.usage;
  // An error outside every checked file (tools.json, which the tool mapping reads) fails too.
  return invalid > 0 || agents.errors + (manifests?.errors ?? 0) > 0 ? EXIT.invalid : EXIT.ok;
}
