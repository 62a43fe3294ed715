/**
 * The environment variable that carries `--target=<compile target>` from the command line to the
 * compile executor (set by compile-target-flag.ts's `preTasksExecution`, listed as an input of
 * the inferred compile target by create-nodes.ts, read by the executor). Its own module, so that
 * neither of the two graph modules imports the other for it.
 */
export const COMPILE_TARGET_ENV = 'AGENTDEF_COMPILE_TARGET';
