/**
 * Runs one external tool of a deploy (wrangler, docker, podman) in the workspace, passing its
 * output on line by line without terminal colour codes, and answers its exit code (127 when it
 * could not be started).
 */
import { spawn } from 'node:child_process';

export interface ToolRun {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Let the tool read the terminal (a login prompt); otherwise its stdin is closed. */
  interactive: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}

const COLOUR_CODE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Passes text on in whole lines, colour codes removed; `flush` sends the last partial line. */
function lineWriter(write: (text: string) => void): { push(text: string): void; flush(): void } {
  let pending = '';
  return {
    push(text) {
      pending += text;
      const cut = pending.lastIndexOf('\n');
      if (cut < 0) return;
      write(pending.slice(0, cut + 1).replace(COLOUR_CODE, ''));
      pending = pending.slice(cut + 1);
    },
    flush() {
      if (pending !== '') write(`${pending.replace(COLOUR_CODE, '')}\n`);
      pending = '';
    },
  };
}

export function runTool(run: ToolRun): Promise<number> {
  return new Promise((resolve) => {
    let settled = false;
    const out = lineWriter(run.stdout);
    const err = lineWriter(run.stderr);
    const done = (code: number) => {
      out.flush();
      err.flush();
      if (!settled) {
        settled = true;
        resolve(code);
      }
    };
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: [run.interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', (text: string) => out.push(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => err.push(text));
    child.on('error', (error) => {
      run.stderr(`cannot start ${run.command}: ${error.message}\n`);
      done(127);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}
