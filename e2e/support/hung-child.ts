/**
 * The one limit a test puts on a child process it waits for synchronously (`spawnSync`,
 * `execFileSync`): those block the test worker, so vitest's backstop (vitest.config.mts
 * `testTimeout`) cannot stop a child that hangs. It equals that backstop: it catches a hung child,
 * never a slow one (a loaded machine took 300 s for one `tsc --noEmit`). Tests name this constant
 * instead of a number of their own (e2e/architecture/test-conventions.test.ts checks).
 */
export const HUNG_CHILD_MS = 900_000;
