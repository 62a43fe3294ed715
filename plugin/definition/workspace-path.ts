/** Names files the way every output does: relative to a root folder, posix separators. */
import { relative, sep } from 'node:path';

/** `path` relative to `root`, posix; `.` for the root itself. */
export function workspacePath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/') || '.';
}
