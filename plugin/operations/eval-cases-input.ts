/**
 * The cases `agentdef eval` and `agentdef bench-tool` run: loaded beside the definition (or from
 * `--cases`), validated against the definition; on invalid cases or unreadable files the located
 * diagnostics and errors are printed and the caller exits with the usage code.
 */
import { formatDiagnostics } from '../definition/format-diagnostics';
import { type LoadEvalCasesOptions, type LoadedEvalCases, loadEvalCases } from '../eval/load-eval-cases';
import { EXIT, type ExitCode, type OperationIo } from './io';

export function loadCasesOrSay(io: OperationIo, options: LoadEvalCasesOptions): LoadedEvalCases | ExitCode {
  const loaded = loadEvalCases(options);
  if (loaded.ioErrors.length > 0 || !loaded.valid) {
    if (loaded.diagnostics.length > 0)
      io.stderr(formatDiagnostics(loaded.diagnostics, { format: 'text', sources: loaded.sources }));
    for (const problem of loaded.ioErrors) io.stderr(`error: ${problem}\n`);
    return EXIT.usage;
  }
  return loaded;
}
