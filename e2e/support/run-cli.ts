/**
 * Runs the real `agentdef` binary as a child process, the way users do: the binary of the package
 * the test run's global setup built (compiled JavaScript, so no spawn compiles TypeScript on the
 * fly). `sourceAgentdefBin` is the source checkout's binary, for the tests of that path itself and
 * for the scripts that share these helpers outside a test run (scripts/run-host-examples.mjs):
 * the tarball comes from the environment the global setup sets, not from vitest, so this module
 * loads without vitest.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AGENTDEF_TARBALL_ENV, builtPackageOf } from './pack';
import { HUNG_CHILD_MS } from './hung-child';

export const repoRoot = join(__dirname, '..', '..');
export const sourceAgentdefBin = join(repoRoot, 'bin', 'agentdef.cjs');
const tarball = process.env[AGENTDEF_TARBALL_ENV];
export const agentdefBin = tarball ? join(builtPackageOf(tarball), 'bin', 'agentdef.cjs') : sourceAgentdefBin;

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
    timeout: HUNG_CHILD_MS,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
