/**
 * `agentdef dev` for an output that runs as a process (an HB3 job, a local launcher): the `agentdef
 * run` host kept serving. `stop` interrupts it as Ctrl-C would; a restart does not print its
 * banner again.
 */
import type { LogFormat } from './event-text';
import type { RunOutputOptions } from './run-output';
import type { SecretSource } from './secret-source';

/** What the server is handed (plugin/targets/target.ts ServeRequest is this shape). */
export interface ProcessServeRequest {
  outDir: string;
  workspaceRoot: string;
  stdout(text: string): void;
  stderr(text: string): void;
  secrets?: SecretSource;
  env?: NodeJS.ProcessEnv;
  logFormat: LogFormat;
}

export interface ServedProcess {
  url: string;
  stop(): Promise<void>;
  ended: Promise<number>;
}

/** A starter for `run` (runJobOutput or runLauncherOutput): on `port`, resolving once it serves, or with the exit code when it could not start. */
export function serveProcessOutput(run: (options: RunOutputOptions) => Promise<number>) {
  return (request: ProcessServeRequest) =>
    (port: number | undefined, restart: boolean): Promise<ServedProcess | number> =>
      new Promise((started) => {
        let pid = 0;
        let exited = false;
        const ended = run({
          outDir: request.outDir,
          workspaceRoot: request.workspaceRoot,
          ...(port !== undefined ? { port } : {}),
          ...(request.secrets ? { secrets: request.secrets } : {}),
          ...(request.env ? { env: request.env } : {}),
          serve: true,
          logFormat: request.logFormat,
          stdout: restart ? () => {} : request.stdout,
          stderr: request.stderr,
          onReady: (info) => {
            pid = info.pid;
            started({
              url: info.url,
              ended,
              // Interrupted as Ctrl-C would (the run host forwards SIGINT itself).
              stop: async () => {
                // Never signal a pid once the child is gone: the number may belong to another process by then.
                if (!exited) {
                  try {
                    process.kill(pid, 'SIGINT');
                  } catch {
                    // exited meanwhile
                  }
                }
                await ended;
              },
            });
          },
        });
        void ended.then((code) => {
          exited = true;
          if (pid === 0) started(code);
        });
      });
}
