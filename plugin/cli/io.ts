/** What a CLI command may touch (the operations' own io, plugin/operations/io.ts), and the exit codes every verb shares. */
import type { EXIT as OPERATION_EXIT } from '../operations/io';

export type { OperationIo as CliIo } from '../operations/io';

/** The operations' exit codes, written out rather than re-exported, so `validate` or `--help` loads no module of plugin/operations (main.test.ts); the type keeps them equal. */
export const EXIT: typeof OPERATION_EXIT = { ok: 0, invalid: 1, usage: 2 };
