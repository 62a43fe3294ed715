/**
 * `fs-write` (tool `write_file` of the write-router example): writes a file into the run's
 * in-memory sandbox (sandbox-files.ts), never onto the host's disk, and reports its size.
 */
import { writeSandboxFile } from './sandbox-files';
import { stringArg, type ToolArgs, type ToolContext } from './tool-context';

export function writeFile(args: ToolArgs, context: ToolContext): { path: string; bytes: number; created: boolean } {
  return writeSandboxFile(context.runId, stringArg(args, 'path'), stringArg(args, 'content'));
}
