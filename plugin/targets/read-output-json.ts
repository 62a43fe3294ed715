/** Reading a compile output's files: one JSON file, or undefined when it is missing or not JSON (the caller says what that means). */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function readJsonOrUndefined(outDir: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(join(outDir, file), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether `path` is a regular file (through links): an output's file that is there to read. */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
