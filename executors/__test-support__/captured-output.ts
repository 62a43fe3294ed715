/** Captures what an executor prints on the process's stdout and stderr (and console.error) during a test. */
import { vi } from 'vitest';

export interface CapturedOutput {
  stdout(): string;
  stderr(): string;
  clear(): void;
}

export function captureOutput(): CapturedOutput {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(
    (chunk: string | Uint8Array) => ((out += chunk.toString()), true),
  );
  vi.spyOn(process.stderr, 'write').mockImplementation(
    (chunk: string | Uint8Array) => ((err += chunk.toString()), true),
  );
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (err += `${args.join(' ')}\n`));
  return {
    stdout: () => out,
    stderr: () => err,
    clear: () => {
      out = '';
      err = '';
    },
  };
}
