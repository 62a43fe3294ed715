/**
 * `agentdef validate <files or dirs>`: each definition's own diagnostics, then what only the set
 * shows (duplicate slugs and ids; pins that resolve to nothing in the workspace or its registry,
 * as warnings), printed like a compiler's, with a summary line.
 */
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { validateWorkspaceFiles } from '../../definition/validate-workspace';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { findDefinitions } from '../find-definitions';
import { EXIT, type CliIo } from '../io';
import { VALIDATE } from '../specs/validate';
import { parseCommand, usageError } from '../usage';

export async function runValidateCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, VALIDATE, argv);
  if (typeof parsed === 'number') return parsed;
  const { format } = parsed.values;
  if (parsed.positionals.length === 0) return usageError(io, 'name at least one file or directory', VALIDATE);

  const found = findDefinitions(io.cwd, parsed.positionals);
  const result = validateWorkspaceFiles(found.files, { workspaceRoot: findWorkspaceRoot(io.cwd) ?? io.cwd });
  io.stdout(formatDiagnostics(result.diagnostics, { format, sources: result.sources }));
  const ioErrors = [...found.errors, ...result.ioErrors];
  // Nothing checked because a path could not be read: the error says so; "0 definitions checked" would only add noise.
  if (format === 'text' && (result.checked > 0 || ioErrors.length === 0)) {
    const { checked, invalid, errors, warnings } = result;
    io.stdout(
      `${checked} definition${checked === 1 ? '' : 's'} checked: ${checked - invalid} valid, ${invalid} invalid` + ` (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`,
    );
  }
  for (const message of ioErrors) io.stderr(`error: ${message}\n`);
  if (ioErrors.length > 0) return EXIT.usage;
  return result.invalid > 0 ? EXIT.invalid : EXIT.ok;
}
