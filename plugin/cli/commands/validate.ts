/**
 * `agentdef validate <file or dir>... [--format text|json]`: a thin shell around `validateFiles`.
 * Loads only the definition layer (no compiler), so it starts fast.
 */
import { parseArgs } from 'node:util';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { validateFiles } from '../../definition/validate-files';
import { findDefinitions } from '../find-definitions';
import { EXIT, type CliIo } from '../io';
import { parseFormat, usageError, USAGE } from '../usage';

export const VALIDATE_USAGE = USAGE.validate;

export async function runValidateCommand(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { format: { type: 'string', default: 'text' } } });
  } catch (error) {
    return usageError(io, (error as Error).message, VALIDATE_USAGE);
  }
  const format = parseFormat(parsed.values.format);
  if (!format) return usageError(io, `unknown --format "${String(parsed.values.format)}"`, VALIDATE_USAGE);
  if (parsed.positionals.length === 0) return usageError(io, 'name at least one file or directory', VALIDATE_USAGE);

  const found = findDefinitions(io.cwd, parsed.positionals);
  const result = validateFiles(found.files);
  io.stdout(formatDiagnostics(result.diagnostics, { format, sources: result.sources }));
  if (format === 'text') {
    const { checked, invalid, errors, warnings } = result;
    io.stdout(
      `${checked} definition${checked === 1 ? '' : 's'} checked: ${checked - invalid} valid, ${invalid} invalid` + ` (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`,
    );
  }
  const ioErrors = [...found.errors, ...result.ioErrors];
  for (const message of ioErrors) io.stderr(`error: ${message}\n`);
  if (ioErrors.length > 0) return EXIT.usage;
  return result.invalid > 0 ? EXIT.invalid : EXIT.ok;
}
