/** One JSON file of a compile output, or undefined when it is missing or not JSON (the caller says what that means). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readJsonOrUndefined(outDir: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(join(outDir, file), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
