/**
 * `serve` executor (`nx run <agent>:serve [--port=n] [--watch]`): serves the agent's compiled
 * output on loopback with `agentdef dev` — a Worker through miniflare, an HB3 job or a local
 * launcher through their hosts — until Nx is interrupted; `watch` recompiles and reloads on
 * changes. A thin shell around `runDevCommand` (plugin/cli/commands/dev.ts): no binary on PATH
 * needed, and Nx reports exactly how it ended.
 */
import type { ExecutorContext } from '@nx/devkit';
import { compiledOutputPath } from '../compiled-output-options';
import { runDevCommand } from '../../plugin/cli/commands/dev';
import { terminalSafe } from '../../plugin/definition/terminal-text';

export interface ServeExecutorOptions {
  /** The compile output folder, relative to the workspace root (default `dist/agents/<project>`). */
  outputPath?: string;
  /** Loopback port to serve on (default: any free port). */
  port?: number;
  /** Recompile and reload when the definition, its children, tools.json, mcp.json or tool modules change. */
  watch?: boolean;
  /** How the host's events are printed: one readable line each (`text`, the default) or the host's JSON lines (`json`). */
  logFormat?: 'text' | 'json';
}

export default async function serveExecutor(options: ServeExecutorOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  const outputPath = compiledOutputPath('serve', options, context);
  if (outputPath === undefined) return { success: false };
  const argv = [
    outputPath,
    ...(options.port !== undefined ? ['--port', String(options.port)] : []),
    ...(options.watch === true ? ['--watch'] : []),
    ...(options.logFormat !== undefined ? [`--log-format=${String(options.logFormat)}`] : []),
  ];
  const code = await runDevCommand(argv, {
    cwd: context.root,
    stdout: (text) => process.stdout.write(terminalSafe(text)),
    stderr: (text) => process.stderr.write(terminalSafe(text)),
  });
  return { success: code === 0 };
}
