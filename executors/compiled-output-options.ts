/**
 * The options every executor of a compiled output shares (`run`, `serve`, `deploy`): the output
 * folder (default `dist/agents/<project>`) and an optional loopback port, checked the same way;
 * a problem is printed as `agentdef:<executor>: …` and the executor fails.
 */
import type { ExecutorContext } from '@nx/devkit';
import { terminalSafe } from '../plugin/definition/terminal-text';
import { checkPort } from '../plugin/host-contract/port';

export interface CompiledOutputOptions {
  /** The compile output folder, relative to the workspace root (default `dist/agents/<project>`). */
  outputPath?: string;
  /** Loopback port (default: any free port). */
  port?: number;
}

/** The output folder (relative to the workspace root), or undefined once the problem is printed. */
export function compiledOutputPath(
  executor: string,
  options: CompiledOutputOptions,
  context: ExecutorContext,
): string | undefined {
  const outputPath = options.outputPath ?? (context.projectName ? `dist/agents/${context.projectName}` : undefined);
  if (!outputPath) {
    console.error(`agentdef:${executor}: the "outputPath" option is required`);
    return undefined;
  }
  const badPort = checkPort(options.port);
  if (badPort !== undefined) {
    console.error(terminalSafe(`agentdef:${executor}: ${badPort}`));
    return undefined;
  }
  return outputPath;
}
