/**
 * The one place a command's diagnostics become its exit code, as every verb documents it: 0 when
 * there is no error (warnings allowed), 2 when an error says an input the caller named cannot be
 * read at all (`input_unreadable`: a usage error, like a bad option), 1 for any other error (an
 * invalid definition or manifest, a check that says no). Usage errors a command finds itself go
 * through `usageError` (plugin/cli/usage.ts), which also exits 2.
 */
import { type Diagnostic, ERROR_CODES } from '../definition/diagnostic';
import { EXIT, type ExitCode } from './io';

/** Whether `diagnostics` hold an error that is the caller's usage error (an input that cannot be read). */
export function isUsageProblem(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error' && d.code === ERROR_CODES.unreadable);
}

/** The exit code of a command whose outcome is `diagnostics`. */
export function exitCodeFor(diagnostics: readonly Diagnostic[]): ExitCode {
  if (isUsageProblem(diagnostics)) return EXIT.usage;
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.invalid : EXIT.ok;
}

/** The exit code of a command that failed (refused, did not plan) with `diagnostics`: 2 for a usage problem, else 1. */
export function failureExitCode(diagnostics: readonly Diagnostic[]): ExitCode {
  return isUsageProblem(diagnostics) ? EXIT.usage : EXIT.invalid;
}
