/**
 * What `agentdef publish` asks git about the definition file: whether it has uncommitted changes
 * (modified, staged, not tracked at all, or ignored: a file git ignores is in no commit, so HEAD
 * says nothing about it), the HEAD commit and its commit time. Runs `git`
 * with fixed arguments in the file's folder; never throws: a failure comes back as a message
 * (which never quotes an absolute path).
 */
import { execFileSync } from 'node:child_process';
import { basename, dirname } from 'node:path';

export type GitState =
  | { ok: true; dirty: boolean; status: string; commitSha: string; commitTime: string }
  | { ok: false; message: string };

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
  });
}

/** The git state of the file at absolute `path`; `shown` names it in messages. */
export function gitStateOf(path: string, shown: string): GitState {
  const cwd = dirname(path);
  try {
    git(cwd, ['rev-parse', '--is-inside-work-tree']);
  } catch {
    return {
      ok: false,
      message: `${shown} is not inside a git repository: publish records the commit it comes from (git init, add and commit it first)`,
    };
  }
  try {
    // `--ignored=matching`: an ignored file shows as `!! <file>` instead of nothing (it is in no commit).
    const status = git(cwd, [
      'status',
      '--porcelain',
      '--untracked-files=all',
      '--ignored=matching',
      '--',
      basename(path),
    ]).trim();
    // A change is reported before anything else: even in a repository with no commit yet.
    if (status !== '') return { ok: true, dirty: true, status, commitSha: '', commitTime: '' };
    const commitSha = git(cwd, ['rev-parse', '--verify', 'HEAD']).trim();
    const commitTime = git(cwd, ['show', '-s', '--format=%cI', 'HEAD']).trim();
    return { ok: true, dirty: false, status, commitSha, commitTime };
  } catch {
    return {
      ok: false,
      message: `cannot read the git state of ${shown}: the repository has no commit yet (commit the definition first)`,
    };
  }
}
