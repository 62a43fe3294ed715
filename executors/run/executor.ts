/**
 * `run` executor (`nx run <agent>:run`): runs the agent's compiled output on this machine (an HB3
 * job as a local process, or the local launcher), serving A2A on a loopback port and printing the
 * URL, until the job is done or Nx is interrupted. A thin shell around `runCompiledOutput`.
 */
import type { ExecutorContext } from '@nx/devkit';
import { compiledOutputPath } from '../compiled-output-options';
import { resolve } from 'node:path';
import { runCompiledOutput } from '../../plugin/targets/run-output';
import { terminalSafe } from '../../plugin/definition/terminal-text';

export interface RunExecutorOptions {
  /** The compile output folder, relative to the workspace root (default `dist/agents/<project>`). */
  outputPath?: string;
  /** Loopback port to serve on (default: any free port). */
  port?: number;
  /** Local folder the job's weights root (`/weights`) maps to, relative to the workspace root. */
  weights?: string;
  /** Receipts file, relative to the workspace root (default: the state folder's `<slug>/receipts.jsonl`). */
  receipts?: string;
  /** Keep a `Job` serving after its first task. */
  serve?: boolean;
  /** How the host's events are printed: one readable line each (`text`, the default) or the host's JSON lines (`json`). */
  logFormat?: 'text' | 'json';
}

export default async function runExecutor(
  options: RunExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const outputPath = compiledOutputPath('run', options, context);
  if (outputPath === undefined) return { success: false };
  const code = await runCompiledOutput({
    outDir: resolve(context.root, outputPath),
    workspaceRoot: context.root,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.weights !== undefined ? { weights: resolve(context.root, options.weights) } : {}),
    ...(options.receipts !== undefined ? { receipts: resolve(context.root, options.receipts) } : {}),
    serve: options.serve === true,
    ...(options.logFormat !== undefined ? { logFormat: options.logFormat } : {}),
    stdout: (text) => process.stdout.write(terminalSafe(text)),
    stderr: (text) => process.stderr.write(terminalSafe(text)),
  });
  return { success: code === 0 };
}
