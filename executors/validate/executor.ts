/**
 * `validate` executor: checks one definition against the schema and the semantic rules, and its
 * tools against the workspace's tools.json. A thin shell around `validateFiles` and
 * `withToolMapping` (shared with `agentdef validate`); loads only the definition layer.
 */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { formatDiagnostics } from '../../plugin/definition/format-diagnostics';
import { withToolMapping } from '../../plugin/definition/tool-mapping';
import { validateFiles } from '../../plugin/definition/validate-files';
import { workspacePath } from '../../plugin/definition/workspace-path';
import { terminalSafe } from '../../plugin/definition/terminal-text';

export interface ValidateExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
}

export default async function validateExecutor(
  options: ValidateExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:validate: the "definition" option is required');
    return { success: false };
  }
  const absolutePath = resolve(context.root, options.definition);
  const file = workspacePath(context.root, absolutePath);
  // The tool mapping too: tools.json must map the definition's scripted and skill-package tools (an input of the target).
  const result = withToolMapping(validateFiles([{ absolutePath, file }]), context.root);
  for (const message of result.ioErrors) console.error(terminalSafe(`agentdef:validate: ${message}`));
  if (result.ioErrors.length > 0) return { success: false };
  if (result.diagnostics.length > 0)
    console.error(formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources }));
  const success = result.invalid === 0 && result.errors === 0;
  console.log(terminalSafe(success ? `${file}: valid` : `${file}: invalid`));
  return { success };
}
