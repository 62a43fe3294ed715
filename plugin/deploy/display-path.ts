/**
 * How deploy prints a path and a command: a path relative to the workspace when it is inside it
 * (absolute otherwise), and command words quoted for a POSIX shell only where they need it.
 */
import { isAbsolute, relative, sep } from 'node:path';

export function displayPath(path: string, workspaceRoot: string): string {
  const rel = relative(workspaceRoot, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

export function shellWord(word: string): string {
  return /^[A-Za-z0-9_/.:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
