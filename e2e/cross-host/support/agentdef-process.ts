/**
 * The agentdef CLI as a real process, for the cross-host tests: `serveAgentdef` leaves a serving
 * command (`dev`, `run --serve`) running until it prints its ready line, `runAgentdef` runs one to
 * its end. Both are asynchronous, so stubs answering from the test's own process keep answering.
 * Every child is pushed on `started`, which the test kills after all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { AGENTDEF_BIN } from '../../local/support/host-harness';

export interface Served {
  url: string;
  output(): { stdout: string; stderr: string };
  stop(): Promise<number | null>;
}

export interface ProcessPlace {
  /** The working folder. */
  cwd: string;
  /** Where every started child goes, for the test's clean-up. */
  started: ChildProcess[];
}

/** `agentdef <args>` left serving; resolves once it prints where it serves A2A and its `ready` line (dev's `stop with Ctrl-C`). */
export function serveAgentdef(
  place: ProcessPlace,
  args: string[],
  environment: NodeJS.ProcessEnv,
  ready = /^stop with Ctrl-C$/m,
): Promise<Served> {
  const child = spawn(process.execPath, [AGENTDEF_BIN, ...args], {
    cwd: place.cwd,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  place.started.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const look = () => {
      const url = /serves A2A at (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)?.[1];
      if (url && ready.test(stdout))
        resolve({
          url,
          output: () => ({ stdout, stderr }),
          stop: async () => {
            child.kill('SIGINT');
            return exited;
          },
        });
    };
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), look()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) =>
      reject(new Error(`agentdef ${args.join(' ')} exited ${code} before serving:\n${stdout}\n${stderr}`)),
    );
  });
}

/** `agentdef <args>` to its end. */
export function runAgentdef(
  place: ProcessPlace,
  args: string[],
  environment: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AGENTDEF_BIN, ...args], {
      cwd: place.cwd,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    place.started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
