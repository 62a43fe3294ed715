/**
 * Rewriting a definition file in place (`agentdef promote` and `agentdef application digest`, which
 * change one located value):
 * only the regular file itself, never through a symbolic link (a rename would replace the link
 * with a file, and the file it points to would keep the old text), and only while it still holds
 * the text that was read (an edit made meanwhile is kept and the rewrite refused). The new text
 * goes to a temp file beside it, created exclusively with the file's mode, and is renamed over it.
 * Never throws; messages name `file`, never an absolute path.
 */
import { chmodSync, lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readDefinitionSource } from './read-source';

/** Why `absPath` may not be rewritten in place (one line), or undefined when it may. */
export function rewriteProblem(absPath: string, file: string): string | undefined {
  try {
    const stat = lstatSync(absPath);
    if (stat.isSymbolicLink())
      return `${file} is a symbolic link: agentdef rewrites only the file itself, never through a link; name the real file`;
    if (!stat.isFile()) return `${file} is not a regular file`;
    return undefined;
  } catch (error) {
    return `cannot inspect ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** Replaces the text of `absPath`, which was `expected` when it was read, with `text`. */
export function rewriteInPlace(
  absPath: string,
  file: string,
  expected: string,
  text: string,
): { ok: true } | { ok: false; error: string } {
  const problem = rewriteProblem(absPath, file);
  if (problem !== undefined) return { ok: false, error: problem };
  const temp = join(dirname(absPath), `.${basename(absPath)}.agentdef-${process.pid}.tmp`);
  // Only a temp file this call created is ever removed (a file already at that name is not ours).
  let created = false;
  try {
    const mode = lstatSync(absPath).mode & 0o7777;
    writeFileSync(temp, text, { encoding: 'utf8', mode, flag: 'wx' });
    created = true;
    chmodSync(temp, mode);
    const now = readDefinitionSource(absPath, file);
    if (rewriteProblem(absPath, file) !== undefined || now.text !== expected) {
      rmSync(temp, { force: true });
      return { ok: false, error: `${file} changed since it was read: it was left as it is now; run the command again` };
    }
    renameSync(temp, absPath);
    return { ok: true };
  } catch (error) {
    if (created) rmSync(temp, { force: true });
    return { ok: false, error: `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
