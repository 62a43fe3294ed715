import { resolve } from 'node:path';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { hasErrors } from '../../definition/diagnostic';
import { compileAgent } from '../../compiler/compile';
import { formatCompileSummary, hasCompiledOutput } from '../../compiler/compile-summary';
import { COMPILE } from '../specs/compile';
import { EXIT, type CliIo } from '../io';
import { parseCommand, usageError } from '../usage';
import { resolutionArgs } from './plan';

export async function runCompileCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, COMPILE, argv);
  if (typeof parsed === 'number') return parsed;
  const { target } = parsed.values;
  const args = resolutionArgs(io, parsed.positionals, parsed.values);
  if (typeof args === 'string') return usageError(io, args, COMPILE);

  const result = await compileAgent({
    ...args,
    target,
    ...(parsed.values.out !== undefined ? { outDir: resolve(io.cwd, parsed.values.out) } : {}),
  });
  const print = (format: 'text' | 'json') => formatDiagnostics(result.diagnostics, { format, sources: result.sources });
  if (result.ioError !== undefined) {
    if (result.diagnostics.length > 0) io.stderr(print('text'));
    io.stderr(`error: ${result.ioError}\n`);
    return EXIT.usage;
  }
  if (hasErrors(result.diagnostics) || !hasCompiledOutput(result) || result.outDir === undefined) {
    if (args.format === 'json') io.stdout(print('json'));
    else io.stderr(print('text'));
    return EXIT.invalid;
  }
  if (result.diagnostics.length > 0) io.stderr(print(args.format));
  if (args.format === 'json') {
    const root = `${result.plan.root.slug}@${result.plan.root.version}`;
    const files = result.files.map((f) => f.path);
    io.stdout(
      `${JSON.stringify({ ok: true, root, target: result.target, chosenClass: result.plan.runtime.chosenClass, outDir: result.outDir, files, planDigest: result.plan.digest, ...(result.summary !== undefined ? { summary: result.summary } : {}) })}\n`,
    );
  } else {
    io.stdout(`${formatCompileSummary(result, { planDigest: true })}\n`);
  }
  return EXIT.ok;
}
