/** `publish` executor: the publish operation (plugin/operations/publish.ts) for one definition. A thin shell. */
import type { ExecutorContext } from '@nx/devkit';
import { resolve } from 'node:path';
import { terminalSafe } from '../../plugin/definition/terminal-text';
import { publish } from '../../plugin/operations/publish';
import { runOperation } from '../operation-io';

export interface PublishExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  registryRoot?: string;
  /** `keyref:<name>`; default the definition's identity.signingKeyRef. */
  key?: string;
  /** The key that signed the previous version (keyref:<name> or a private JWK file relative to the workspace root), when this one is signed by another. */
  previousKey?: string;
  /** RFC 3339 date-time; default the commit time of HEAD. */
  at?: string;
  workerUrl?: string;
  port?: number;
}

export default async function publishExecutor(
  options: PublishExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  if (typeof options.definition !== 'string' || options.definition === '') {
    console.error('agentdef:publish: the "definition" option is required');
    return { success: false };
  }
  // What publish prints goes to the console as a whole, without its last line break.
  const io = {
    cwd: context.root,
    stdout: (text: string) => console.log(terminalSafe(text.trimEnd())),
    stderr: (text: string) => console.error(terminalSafe(text.trimEnd())),
  };
  return runOperation(
    'publish',
    (io) =>
      publish(
        {
          file: resolve(context.root, options.definition),
          workspaceRoot: context.root,
          ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
          ...(options.key !== undefined ? { keyRef: options.key } : {}),
          ...(options.previousKey !== undefined ? { previousKey: options.previousKey } : {}),
          ...(options.at !== undefined ? { at: options.at } : {}),
          ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
          ...(options.port !== undefined ? { port: options.port } : {}),
        },
        io,
      ),
    context,
    io,
  );
}
