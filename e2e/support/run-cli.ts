/** Runs the real `agentdef` binary as a child process, the way users do. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..');
export const agentdefBin = join(repoRoot, 'bin', 'agentdef.cjs');

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
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
