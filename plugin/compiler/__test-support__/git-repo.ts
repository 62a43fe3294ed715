/** Tests only: runs git in a temp repository as a fixed author, with no global or system config (never the user's HOME). */
import { execFileSync } from 'node:child_process';

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
      GIT_AUTHOR_DATE: '2026-03-04T05:06:07Z',
      GIT_COMMITTER_DATE: '2026-03-04T05:06:07Z',
    },
  });
}

/** `git init` with a fixed initial branch, then add and commit everything. */
export function initCommitted(cwd: string): string {
  gitIn(cwd, 'init', '-q', '-b', 'main');
  gitIn(cwd, 'add', '-A');
  gitIn(cwd, 'commit', '-q', '-m', 'first');
  return gitIn(cwd, 'rev-parse', 'HEAD').trim();
}
