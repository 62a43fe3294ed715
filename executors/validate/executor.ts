/** `validate` executor: checks one definition against the schema and the semantic rules. A thin shell. */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { hasErrors } from '../../plugin/definition/diagnostic';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { loadDefinition } from '../../plugin/definition/load-definition';
import { workspacePath } from '../../plugin/compiler/compile';

export interface ValidateExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
}

export default async function validateExecutor(options: ValidateExecutorOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:validate: the "definition" option is required');
    return { success: false };
  }
  const absolute = resolve(context.root, options.definition);
  const file = workspacePath(context.root, absolute);
  const result = loadDefinition(absolute, file);
  if (result.ioError !== undefined) {
    console.error(`agentdef:validate: ${result.ioError}`);
    return { success: false };
  }
  const sources = new Map(result.document ? [[file, result.document.text]] : []);
  if (result.diagnostics.length > 0) console.error(formatDiagnostics(result.diagnostics, { format: 'text', sources }));
  const success = result.valid && !hasErrors(result.diagnostics);
  console.log(success ? `${file}: valid` : `${file}: invalid`);
  return { success };
}
