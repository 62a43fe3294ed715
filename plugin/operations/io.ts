/**
 * What an operation (and a CLI command: plugin/cli/io.ts is this) may touch: its working directory
 * and two output streams. An operation prints through them and returns its exit code.
 */
export interface OperationIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Exit codes shared by every verb. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * How an operation ends: its exit code (having printed what it had to say), or a problem with the
 * options it was given, printed by the caller (the CLI as a usage error with its usage line, an
 * executor as an error), never by the operation.
 */
export type OperationResult = ExitCode | { usage: string };
