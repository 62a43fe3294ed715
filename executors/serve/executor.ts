/**
 * `serve` executor (`nx run <agent>:serve [--port=n] [--watch]`): serves the agent's compiled
 * output on loopback through the dev operation (plugin/operations/dev.ts, what `agentdef dev`
 * runs): the target its plan.json names serves it, until Nx is interrupted; `watch` recompiles
 * and reloads on changes. No binary on PATH needed, and Nx reports exactly how it ended.
 */
import type { ExecutorContext } from '@nx/devkit';
import { parsePort } from '../../plugin/host-contract/port';
import { dev } from '../../plugin/operations/dev';
import { compiledOutputPath } from '../compiled-output-options';
import { runOperation } from '../operation-io';

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

export default async function serveExecutor(
  options: ServeExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const outputPath = compiledOutputPath('serve', options, context);
  if (outputPath === undefined) return { success: false };
  return runOperation(
    'serve',
    async (io) => {
      const port = options.port === undefined ? undefined : parsePort(String(options.port));
      if (typeof port === 'string') return { usage: `the "port" option: ${port}` };
      const logFormat = options.logFormat ?? 'text';
      if (logFormat !== 'text' && logFormat !== 'json')
        return {
          usage: `the "logFormat" option must be text or json, not ${JSON.stringify(String(logFormat)).slice(0, 40)}`,
        };
      return dev(
        { outDir: outputPath, ...(port !== undefined ? { port } : {}), watch: options.watch === true, logFormat },
        io,
      );
    },
    context,
  );
}
