/**
 * The export-agentfacts operation, behind `agentdef export agentfacts <definition> [--target t]
 * [--worker-url url | --port n] [--out file] [--write] [--format text|json]`: prints the NANDA
 * AgentFacts projection of the definition (plugin/trust/agentfacts-export.ts), writes it to
 * `--out`, or with `--write` puts it into the definition's `metadata.cardExports.agentFacts`
 * (only that value changed, written atomically, the file's mode kept; a link is refused and the
 * file is rewritten only while it still holds the text that was read). Exit 0 done, 1 the
 * definition does not validate or project (located diagnostics, nothing written), 2 unreadable
 * input, an unwritable --out or a usage problem.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { definitionFormat } from '../definition/parse-document';
import { readDefinitionSource } from '../definition/read-source';
import { rewriteInPlace, rewriteProblem } from '../definition/rewrite-source';
import type { CompileTarget } from '../targets/targets';
import { exportAgentFacts } from '../trust/agentfacts-export';
import { EXIT, type OperationIo, type OperationResult } from './io';

export interface ExportAgentFactsOptions {
  /** The definition file, relative to the working folder (shown as given). */
  file: string;
  target: CompileTarget;
  workerUrl?: string;
  port?: number;
  /** A file to write the projection to, relative to the working folder. */
  out?: string;
  /** Write the projection into the definition's metadata.cardExports.agentFacts. */
  write: boolean;
  format: 'text' | 'json';
}

export function exportAgentFactsOperation(options: ExportAgentFactsOptions, io: OperationIo): OperationResult {
  const { file, format } = options;
  const fileFormat = definitionFormat(file);
  if (!fileFormat) return { usage: `${file} is not a .json, .yaml or .yml file` };
  const absolute = resolve(io.cwd, file);
  if (options.write) {
    const linked = rewriteProblem(absolute, file);
    if (linked !== undefined && !linked.startsWith('cannot inspect')) {
      io.stderr(`error: ${linked}; nothing changed\n`);
      return EXIT.usage;
    }
  }
  const source = readDefinitionSource(absolute, file);
  if (source.ioError !== undefined) {
    io.stderr(`error: ${source.ioError}\n`);
    return EXIT.usage;
  }
  const sources = new Map([[file, source.text ?? '']]);
  const report = (diagnostics: Parameters<typeof formatDiagnostics>[0]) => {
    (format === 'json' ? io.stdout : io.stderr)(formatDiagnostics(diagnostics, { format, sources }));
    return EXIT.invalid;
  };
  if (source.text === undefined) return report(source.diagnostics);
  const result = exportAgentFacts({
    text: source.text,
    file,
    format: fileFormat,
    write: options.write,
    options: {
      target: options.target,
      ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
    },
  });
  if (!result.ok) return result.usage !== undefined ? { usage: result.usage } : report(result.diagnostics);
  const factsText = `${JSON.stringify(result.facts, null, 2)}\n`;
  if (options.out !== undefined) {
    try {
      writeFileSync(resolve(io.cwd, options.out), factsText, { encoding: 'utf8' });
    } catch (error) {
      io.stderr(`error: cannot write ${options.out} (${(error as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return EXIT.usage;
    }
  }
  if (options.write && result.text !== undefined && result.changed === true) {
    const rewritten = rewriteInPlace(absolute, file, source.text, result.text);
    if (!rewritten.ok) {
      io.stderr(`error: ${rewritten.error}\n`);
      return EXIT.usage;
    }
  }
  if (format === 'json')
    io.stdout(
      `${JSON.stringify({ file, ...(options.out !== undefined ? { out: options.out } : {}), written: options.write && result.changed === true, agentFacts: result.facts }, null, 2)}\n`,
    );
  else if (options.write)
    io.stdout(
      result.changed === true
        ? `wrote metadata.cardExports.agentFacts into ${file}\n`
        : `${file}: metadata.cardExports.agentFacts is already the projection; nothing changed\n`,
    );
  else if (options.out !== undefined) io.stdout(`wrote the AgentFacts of ${file} to ${options.out}\n`);
  else io.stdout(factsText);
  return EXIT.ok;
}
