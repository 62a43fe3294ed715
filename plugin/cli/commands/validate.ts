/** `agentdef validate <file or dir>... [--format text|json]` */
import { parseArgs } from 'node:util';
import type { Diagnostic } from '../../definition/diagnostic';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { loadDefinition } from '../../definition/load-definition';
import { findDefinitions } from '../find-definitions';
import { EXIT, type CliIo } from '../io';
import { parseFormat, usageError } from '../usage';

export const VALIDATE_USAGE = 'agentdef validate <file or dir>... [--format text|json]';

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
  const ioErrors = [...found.errors];
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  let invalid = 0;
  for (const { absolutePath, file } of found.files) {
    const result = loadDefinition(absolutePath, file);
    if (result.ioError !== undefined) {
      ioErrors.push(result.ioError);
      continue;
    }
    if (result.document) sources.set(file, result.document.text);
    diagnostics.push(...result.diagnostics);
    if (!result.valid) invalid++;
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (format === 'json') {
    io.stdout(formatDiagnostics(diagnostics, { format, sources }));
  } else {
    io.stdout(formatDiagnostics(diagnostics, { format, sources }));
    const checked = found.files.length - ioErrors.filter((e) => !found.errors.includes(e)).length;
    io.stdout(
      `${checked} definition${checked === 1 ? '' : 's'} checked: ${checked - invalid} valid, ${invalid} invalid` +
        ` (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`,
    );
  }
  for (const message of ioErrors) io.stderr(`error: ${message}\n`);
  if (ioErrors.length > 0) return EXIT.usage;
  return invalid > 0 ? EXIT.invalid : EXIT.ok;
}
