/**
 * Runs the real `agentdef` binary as a child process, the way users do: the binary of the package
 * the test run's global setup built (compiled JavaScript, so no spawn compiles TypeScript on the
 * fly). `sourceAgentdefBin` is the source checkout's binary, for the tests of that path itself.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { builtPackageOf } from './pack';

export const repoRoot = join(__dirname, '..', '..');
export const agentdefBin = join(builtPackageOf(inject('agentdefTarball')), 'bin', 'agentdef.cjs');
export const sourceAgentdefBin = join(repoRoot, 'bin', 'agentdef.cjs');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runAgentdef(args: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}): CliRun {
  const result = spawnSync(process.execPath, [agentdefBin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
