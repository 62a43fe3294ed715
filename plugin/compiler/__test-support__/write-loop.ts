/**
 * A writer process for the interruption tests (bundled by the test with esbuild and run with
 * node). `loop <workspace> <dest>`: writes output A, prints `ready`, then alternates A and B until
 * killed. `signal-in-swap <workspace> <dest> <signal> [listen]`: writes A, then B with the given
 * signal sent to itself between the swap's two renames; with `listen` it has a listener of its own
 * for that signal (as Nx and vitest do) and prints what happened. `kill-in-swap <workspace> <dest>
 * [stop]`: writes PLANNED_A, then PLANNED_B with a SIGKILL sent to itself between the swap's two
 * renames (nothing can hold it); with `stop` it prints `between the renames` and stops itself there
 * (SIGSTOP) instead, a writer that still runs mid-swap, for the test to read and then kill.
 */
import { readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputAtomic } from '../write-output';
import { OUTPUT_A, OUTPUT_B, PLANNED_A, PLANNED_B } from './write-loop-outputs';

async function main(): Promise<void> {
  const [mode, workspaceRoot, dest, signal, listen] = process.argv.slice(2);
  if (!workspaceRoot || !dest) throw new Error('usage: write-loop <mode> <workspace> <dest>');
  if (mode === 'kill-in-swap') {
    const first = await writeOutputAtomic(dest, PLANNED_A, { workspaceRoot });
    if (!first.ok) throw new Error(first.error);
    let renames = 0;
    const result = await writeOutputAtomic(dest, PLANNED_B, {
      workspaceRoot,
      fs: {
        renameSync: (from, to) => {
          renameSync(from, to);
          if (++renames !== 1) return;
          if (signal === 'stop') {
            writeSync(1, 'between the renames\n');
            process.kill(process.pid, 'SIGSTOP');
          } else process.kill(process.pid, 'SIGKILL');
        },
      },
    });
    throw new Error(`the writer went on past its first rename: ${JSON.stringify(result)}`);
  }
  const first = await writeOutputAtomic(dest, OUTPUT_A, { workspaceRoot });
  if (!first.ok) throw new Error(first.error);
  if (mode === 'loop') {
    process.stdout.write('ready\n');
    for (let i = 1; ; i++) {
      const result = await writeOutputAtomic(dest, i % 2 ? OUTPUT_B : OUTPUT_A, { workspaceRoot });
      if (!result.ok) throw new Error(result.error);
    }
  }
  if (mode === 'signal-in-swap') {
    if (listen === 'listen')
      process.on(signal as NodeJS.Signals, () =>
        process.stdout.write(`handled ${signal}: plan.json is ${readFileSync(join(dest, 'plan.json'), 'utf8')}\n`),
      );
    let renames = 0;
    const result = await writeOutputAtomic(dest, OUTPUT_B, {
      workspaceRoot,
      fs: {
        renameSync: (from, to) => {
          renameSync(from, to);
          if (++renames === 1) process.kill(process.pid, signal as NodeJS.Signals);
        },
      },
    });
    process.stdout.write(`wrote ${JSON.stringify(result)}\n`);
    // With a listener of its own the process lives on; let the event loop deliver the signal.
    await new Promise((done) => setTimeout(done, 50));
  }
}

void main();
