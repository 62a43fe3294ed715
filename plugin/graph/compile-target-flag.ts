/**
 * Carries `--target=<compile target>` from `nx run <project>:compile --target=hb3` (or the infix
 * `nx compile <project> --target=hb3`) to the compile executor.
 *
 * Nx 23 declares `--target` as one of its own run options: `splitArgsIntoNxArgsAndOverrides`
 * deletes it, so it never reaches a task's overrides. The raw command line is still handed to
 * `preTasksExecution`, which runs before tasks are hashed and started and whose environment
 * changes Nx applies to every task; the value travels as `AGENTDEF_COMPILE_TARGET`. The inferred
 * compile target lists that variable as an input, so each target caches separately; the variable
 * is reset (to empty) on every run, so a nested `nx` never inherits an outer value.
 *
 * The targets that depend on compile (`run`, `serve`, `deploy`) take the same flag: `nx run
 * <agent>:run --target=hb3` compiles for hb3 first instead of letting its `dependsOn` compile in
 * `auto` mode overwrite the hb3 output, and `nx run <agent>:deploy --target=kubernetes` deploys
 * the Kubernetes output.
 */
import type { PreTasksExecution } from '@nx/devkit';
import { DEPLOY_TARGET, RUN_TARGET, SERVE_TARGET } from './create-nodes';
import { COMPILE_TARGET_ENV } from './compile-target-env';
import { normalizePluginOptions, type AgentdefPluginOptions } from './options';

/** The project and target a `run` or infix invocation names, when it names one. */
function invokedTarget(args: readonly string[]): string | undefined {
  const positionals = args.filter((a) => !a.startsWith('-'));
  const [command, second] = positionals;
  if (command === undefined) return undefined;
  if (command === 'run') return second?.split(':')[1];
  // Nx's own commands never take `--target` as a compile target (run-many: it means -t).
  const NX_COMMANDS = new Set([
    'run-many',
    'affected',
    'g',
    'generate',
    'graph',
    'show',
    'reset',
    'watch',
    'exec',
    'release',
    'init',
    'add',
    'report',
    'list',
    'migrate',
    'sync',
    'repair',
    'daemon',
    'format',
    'format:write',
    'format:check',
    'connect',
    'view-logs',
    'import',
  ]);
  return NX_COMMANDS.has(command) ? undefined : command;
}

/**
 * The `--target` value of a command line that runs the compile target (`compileTarget`) or one of
 * the targets that compile first (`dependents`), or undefined. `argv` is `process.argv` (node, the
 * nx script, then the arguments).
 */
export function compileTargetFromArgv(
  argv: readonly string[],
  compileTarget: string,
  dependents: readonly string[] = [],
): string | undefined {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  // `--target value`: drop the value from the positionals before finding the command.
  let value: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg.startsWith('--target=')) value = arg.slice('--target='.length);
    else if (arg === '--target' && own[i + 1] !== undefined && !own[i + 1]!.startsWith('-')) value = own[++i];
    else positional.push(arg);
  }
  if (value === undefined) return undefined;
  const invoked = invokedTarget(positional);
  return invoked !== undefined && (invoked === compileTarget || dependents.includes(invoked)) ? value : undefined;
}

export const preTasksExecution: PreTasksExecution<AgentdefPluginOptions> = (options, context) => {
  const compileTarget = normalizePluginOptions(options).targetNames.compile;
  process.env[COMPILE_TARGET_ENV] =
    compileTargetFromArgv(context.argv, compileTarget, [RUN_TARGET, SERVE_TARGET, DEPLOY_TARGET]) ?? '';
};
