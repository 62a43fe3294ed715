/**
 * `promote` executor (`nx run <agent>:promote --to=<stage>`): `agentdef promote <definition>
 * --to=<stage>` through the CLI's own entry point (`runCli`), in the workspace root, printing to the
 * process's streams, succeeding exactly when the command exits 0. Never cached: it changes the
 * definition and appends a signed receipt.
 */
import type { ExecutorContext } from '@nx/devkit';
import { runCli } from '../../plugin/cli/main';

export interface PromoteExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  /** The stage to move to. */
  to?: string;
  /** The signing key ref (default: the definition's identity.signingKeyRef). */
  key?: string;
  /** RFC 3339 time of the transition (default: now). */
  at?: string;
  /** The AgentFacts credential file, relative to the workspace root (for marketplace-published). */
  credential?: string;
}

/** The CLI arguments, or the problem with an option. Flags go as `--name=value`, so no value reads as a flag. */
export function promoteArgv(options: PromoteExecutorOptions): string[] | { problem: string } {
  if (typeof options.definition !== 'string' || options.definition === '') return { problem: 'the "definition" option is required' };
  if (typeof options.to !== 'string' || options.to === '') return { problem: 'name the stage: nx run <agent>:promote --to=<stage>' };
  const argv = ['promote', `--to=${options.to}`];
  for (const name of ['key', 'at', 'credential'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { problem: `the "${name}" option must be a string` };
    argv.push(`--${name}=${value}`);
  }
  argv.push(options.definition.startsWith('-') ? `./${options.definition}` : options.definition);
  return argv;
}

export default async function promoteExecutor(options: PromoteExecutorOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  const argv = promoteArgv(options);
  if (!Array.isArray(argv)) {
    console.error(`agentdef:promote: ${argv.problem}`);
    return { success: false };
  }
  const code = await runCli(argv, { cwd: context.root, stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
  return { success: code === 0 };
}
