/**
 * What the three application executors share: each is `agentdef application <plan|execute|check>
 * <manifest> --flag=value…` run in the workspace root through the CLI's own entry point
 * (`runCli`), printing to the process's streams, and succeeding exactly when the command exits 0.
 * Flags are passed as `--name=value`, so no value is ever read as a flag, and a manifest path
 * that starts with `-` is passed as `./-…`.
 */
import type { ExecutorContext } from '@nx/devkit';
import { runCli } from '../plugin/cli/main';

/** One flag: its name and the executor option's value (`undefined`: left out; a list: repeated). */
export type CliFlag = readonly [name: string, value: unknown];

/** The CLI arguments, or the problem with an option. */
export function applicationArgv(subcommand: 'plan' | 'execute' | 'check', manifest: unknown, flags: readonly CliFlag[]): string[] | { problem: string } {
  if (typeof manifest !== 'string' || manifest === '') return { problem: 'the "manifest" option is required' };
  const argv = ['application', subcommand];
  for (const [name, value] of flags) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string') return { problem: `the "${name}" option must be a string, not ${JSON.stringify(item)}` };
      argv.push(`--${name}=${item}`);
    }
  }
  argv.push(manifest.startsWith('-') ? `./${manifest}` : manifest);
  return argv;
}

export async function runApplicationCli(executor: string, subcommand: 'plan' | 'execute' | 'check', manifest: unknown, flags: readonly CliFlag[], context: ExecutorContext): Promise<{ success: boolean }> {
  const argv = applicationArgv(subcommand, manifest, flags);
  if (!Array.isArray(argv)) {
    console.error(`agentdef:${executor}: ${argv.problem}`);
    return { success: false };
  }
  const code = await runCli(argv, {
    cwd: context.root,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
  return { success: code === 0 };
}
