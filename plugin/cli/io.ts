/** What a CLI command may touch: its working directory and two output streams. */
export interface CliIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Exit codes shared by every verb. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;
