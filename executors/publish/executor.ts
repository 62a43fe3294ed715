/** `publish` executor: `agentdef publish` for one definition (plugin/cli/commands/publish.ts does the work). A thin shell. */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { publishDefinition } from '../../plugin/cli/commands/publish';
import { terminalSafe } from '../../plugin/definition/terminal-text';

export interface PublishExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  registryRoot?: string;
  /** `keyref:<name>`; default the definition's identity.signingKeyRef. */
  key?: string;
  /** RFC 3339 date-time; default the commit time of HEAD. */
  at?: string;
  workerUrl?: string;
  port?: number;
}

export default async function publishExecutor(options: PublishExecutorOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:publish: the "definition" option is required');
    return { success: false };
  }
  const outcome = await publishDefinition({
    file: resolve(context.root, options.definition),
    workspaceRoot: context.root,
    ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
    ...(options.key !== undefined ? { keyRef: options.key } : {}),
    ...(options.at !== undefined ? { at: options.at } : {}),
    ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  if (outcome.stdout !== '') console.log(terminalSafe(outcome.stdout.trimEnd()));
  if (outcome.stderr !== '') console.error(terminalSafe(outcome.stderr.trimEnd()));
  return { success: outcome.code === 0 };
}
