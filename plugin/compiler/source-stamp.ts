/**
 * The commit a compile comes from: `git` asked, with fixed arguments, in the folder of the root
 * definition. `commit` is the 40-hex HEAD of the repository holding the definition; `dirty` is
 * whether that repository's whole worktree differs from HEAD (modified, staged, deleted or
 * untracked files; files git ignores do not count, so `dist/` and key folders belong in
 * .gitignore). The whole worktree, not only the definition's files: a compiled output bundles
 * tool modules and whatever they import, so only a clean worktree makes the output the commit's.
 *
 * Outside a repository, in one without a commit, or with no usable git, `commit` is null and
 * `reason` says why. Never throws; messages name no absolute path.
 */
import { execFileSync } from 'node:child_process';

export interface SourceStamp {
  /** 40 lower-case hex: HEAD of the repository holding the definition; null when there is none. */
  commit: string | null;
  /** Whether the worktree had uncommitted changes (untracked files included, ignored ones not); null when unknown. */
  dirty: boolean | null;
  /** Why `commit` (or `dirty`) is null. */
  reason?: string;
}

const COMMIT = /^[0-9a-f]{40}$/;

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
  });
}

/**
 * The git state of the worktree holding `folder` (absolute). With `file` (absolute, the root
 * definition), a definition git ignores counts as dirty: no commit holds it, whatever the worktree
 * says (e.g. a workspace inside another repository's ignored folder).
 */
export function readSourceStamp(folder: string, file?: string): SourceStamp {
  let top: string;
  try {
    top = git(folder, ['rev-parse', '--show-toplevel']).trim();
  } catch {
    return { commit: null, dirty: null, reason: 'the definition is not inside a git repository' };
  }
  let dirty: boolean | null;
  try {
    dirty = git(top, ['status', '--porcelain', '--untracked-files=normal']).trim() !== '';
  } catch {
    dirty = null;
  }
  if (file !== undefined && dirty === false) {
    try {
      git(top, ['check-ignore', '-q', '--', file]);
      dirty = true; // exit 0: ignored
    } catch {
      // exit 1: not ignored (or git could not tell: the status above stands)
    }
  }
  let commit: string;
  try {
    commit = git(top, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).trim();
  } catch {
    return { commit: null, dirty, reason: 'the git repository has no commit yet' };
  }
  if (!COMMIT.test(commit)) return { commit: null, dirty, reason: 'HEAD is not a SHA-1 commit id' };
  if (dirty === null) return { commit, dirty, reason: 'git status failed: whether the worktree is clean is unknown' };
  return { commit, dirty };
}
