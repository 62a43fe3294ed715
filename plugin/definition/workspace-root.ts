/**
 * The workspace root of a file or folder: the nearest ancestor (itself included) holding
 * `nx.json`, else the nearest holding `package.json`. Its own module so that the source reader
 * (read-source.ts, which confines reads to the workspace) and the workspace layout
 * (workspace-definitions.ts) share it without importing each other.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';

/** The workspace root for `start`, or undefined when no ancestor holds `nx.json` or `package.json` (`exists` answers for each). */
export function findWorkspaceRoot(start: string, exists: (path: string) => boolean = existsSync): string | undefined {
  let packageRoot: string | undefined;
  let dir = resolvePath(start);
  for (;;) {
    if (exists(join(dir, 'nx.json'))) return dir;
    if (packageRoot === undefined && exists(join(dir, 'package.json'))) packageRoot = dir;
    const parent = dirname(dir);
    if (parent === dir) return packageRoot;
    dir = parent;
  }
}
