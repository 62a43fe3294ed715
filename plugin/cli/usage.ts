import { EXIT, type CliIo } from './io';

export function usageError(io: CliIo, message: string, usage: string): number {
  io.stderr(`error: ${message}\nusage: ${usage}\n`);
  return EXIT.usage;
}

export function parseFormat(value: unknown): 'text' | 'json' | undefined {
  return value === 'text' || value === 'json' ? value : undefined;
}
