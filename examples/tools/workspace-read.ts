/**
 * `workspace-read` (tool `read_file` of the edit-assistant example): reads a file of the run's
 * workspace, the in-memory sandbox `fs-write` writes into (sandbox-files.ts). A missing file is an
 * error that names the files there are.
 */
import { listSandboxFiles, readSandboxFile } from './sandbox-files';
import { stringArg, type ToolArgs, type ToolContext } from './tool-context';

export function readFile(args: ToolArgs, context: ToolContext): { path: string; content: string } {
  const path = stringArg(args, 'path');
  const content = readSandboxFile(context.runId, path);
  if (content === undefined) {
    const present = listSandboxFiles(context.runId);
    throw new Error(`no file ${JSON.stringify(path)} in this run's workspace${present.length ? ` (it holds ${present.join(', ')})` : ' (it is empty)'}`);
  }
  return { path, content };
}
