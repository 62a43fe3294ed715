/**
 * What the executors that run an operation (plugin/operations/) share: the io they hand it (the
 * workspace root as the working folder, the process's streams, every text escaped for a terminal
 * as the CLI escapes it), and success exactly when the operation exits 0.
 */
import type { ExecutorContext } from '@nx/devkit';
import { terminalSafe } from '../plugin/definition/terminal-text';
import type { OperationIo, OperationResult } from '../plugin/operations/io';

/** The workspace root as the working folder; both streams the process's own, escaped for a terminal. */
export function executorIo(context: ExecutorContext): OperationIo {
  return {
    cwd: context.root,
    stdout: (text) => process.stdout.write(terminalSafe(text)),
    stderr: (text) => process.stderr.write(terminalSafe(text)),
  };
}

/**
 * Runs one operation for `agentdef:<executor>`: a problem with its options is printed as an error,
 * and an operation that throws (a bug, not bad input) is reported as the CLI reports one.
 */
export async function runOperation(
  executor: string,
  operation: (io: OperationIo) => Promise<OperationResult>,
  context: ExecutorContext,
  io: OperationIo = executorIo(context),
): Promise<{ success: boolean }> {
  try {
    const result = await operation(io);
    if (typeof result !== 'number') io.stderr(`error: ${result.usage}\n`);
    return { success: result === 0 };
  } catch (error) {
    io.stderr(
      `internal error in agentdef:${executor}: ${(error as Error).message}\nplease report this with the input that caused it\n`,
    );
    return { success: false };
  }
}
