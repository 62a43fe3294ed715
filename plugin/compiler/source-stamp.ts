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
 *
 * One git process in the usual case: starting a process costs a large Node process more than git's
 * own work (the compile's main thread is blocked while it forks), so `git status` alone answers,
 * run in the worktree's top folder (the nearest folder up with a `.git`, which git must confirm:
 * it may not look above it). Its porcelain gives HEAD (`branch.oid`), the changes and the ignored
 * paths, which say whether the definition is ignored. Anything else (git's own environment
 * variables set, no `.git` found, git refusing, an answer of another shape) falls back to asking
 * git step by step (`stepwiseStamp`), which gives the same stamp.
 */
import { execFile, execFileSync } from 'node:child_process';
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface SourceStamp {
  /** 40 lower-case hex: HEAD of the repository holding the definition; null when there is none. */
  commit: string | null;
  /** Whether the worktree had uncommitted changes (untracked files included, ignored ones not); null when unknown. */
  dirty: boolean | null;
  /** Why `commit` (or `dirty`) is null. */
  reason?: string;
}

const COMMIT = /^[0-9a-f]{40}$/;

/** One call of git: the folder it runs in, its arguments, extra environment. */
interface GitCall {
  cwd: string;
  args: string[];
  env?: Record<string, string>;
}

/** What a call gave: its output, or that it failed (`missing`: there is no git to run). */
type GitAnswer = { ok: true; stdout: string } | { ok: false; missing: boolean };

/** The steps of a stamp: each yields a git call and gets its answer back (run synchronously or not). */
type StampSteps = Generator<GitCall, SourceStamp, GitAnswer>;

const NOT_IN_REPOSITORY: SourceStamp = {
  commit: null,
  dirty: null,
  reason: 'the definition is not inside a git repository',
};

function gitEnv(extra?: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
}

function runSync(call: GitCall): GitAnswer {
  try {
    const stdout = execFileSync('git', call.args, {
      cwd: call.cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: gitEnv(call.env),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true, stdout };
  } catch (error) {
    return { ok: false, missing: (error as NodeJS.ErrnoException).code === 'ENOENT' };
  }
}

function runAsync(call: GitCall): Promise<GitAnswer> {
  return new Promise((done) => {
    try {
      execFile(
        'git',
        call.args,
        { cwd: call.cwd, encoding: 'utf8', env: gitEnv(call.env), maxBuffer: 64 * 1024 * 1024 },
        (error, stdout) =>
          done(
            error ? { ok: false, missing: (error as NodeJS.ErrnoException).code === 'ENOENT' } : { ok: true, stdout },
          ),
      );
    } catch (error) {
      done({ ok: false, missing: (error as NodeJS.ErrnoException).code === 'ENOENT' });
    }
  });
}

/**
 * The git state of the worktree holding `folder` (absolute). With `file` (absolute, the root
 * definition), a definition git ignores counts as dirty: no commit holds it, whatever the worktree
 * says (e.g. a workspace inside another repository's ignored folder).
 */
export function readSourceStamp(folder: string, file?: string): SourceStamp {
  const steps = stampSteps(folder, file);
  let step = steps.next();
  while (!step.done) step = steps.next(runSync(step.value));
  return step.value;
}

/** `readSourceStamp` without blocking: git runs while the caller goes on (a compile bundles meanwhile). */
export function readSourceStampAsync(folder: string, file?: string): Promise<SourceStamp> {
  return stampAsking(runAsync, folder, file);
}

/** The stamp's steps, each git call answered by `ask`. */
async function stampAsking(
  ask: (call: GitCall) => Promise<GitAnswer>,
  folder: string,
  file: string | undefined,
): Promise<SourceStamp> {
  const steps = stampSteps(folder, file);
  let step = steps.next();
  while (!step.done) step = steps.next(await ask(step.value));
  return step.value;
}

/** How a compile gets its stamp: `readSourceStampAsync`, or a reader shared by several compiles. */
export type SourceStampReader = (folder: string, file?: string) => Promise<SourceStamp>;

/**
 * `readSourceStampAsync` for several compiles of one unchanging workspace (a compile session):
 * each git question is asked once, and its answer kept for the reader's life. One `git status`
 * of a worktree answers every definition in it (the ignored paths it lists say which definitions
 * git ignores), so a batch of compiles starts git once instead of once per agent. What the
 * compiles write meanwhile does not count: an output is not a source, and the stamp says what the
 * source was when the session began.
 */
export function sharedSourceStampReader(): SourceStampReader {
  const answers = new Map<string, Promise<GitAnswer>>();
  const askOnce = (call: GitCall): Promise<GitAnswer> => {
    const key = JSON.stringify([call.cwd, call.args, call.env ?? {}]);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = runAsync(call);
      answers.set(key, answer);
    }
    return answer;
  };
  return (folder, file) => stampAsking(askOnce, folder, file);
}

/** Git asked step by step, as `readSourceStamp` does when its one `git status` cannot answer. Exported for tests. */
export function stepwiseSourceStamp(folder: string, file?: string): SourceStamp {
  const steps = stepwiseSteps(folder, file);
  let step = steps.next();
  while (!step.done) step = steps.next(runSync(step.value));
  return step.value;
}

function* stampSteps(folder: string, file: string | undefined): StampSteps {
  const top = worktreeTop(folder);
  const definition = file === undefined ? undefined : insideTop(top, file);
  if (top !== undefined && (file === undefined || definition !== undefined)) {
    const answer = yield {
      cwd: top,
      args: [
        'status',
        '--porcelain=v2',
        '-z',
        '--branch',
        '--untracked-files=normal',
        // Whether anything changed is all that is asked: no rename detection, no walk of the
        // history to count commits ahead of and behind an upstream.
        '--no-renames',
        '--no-ahead-behind',
        ...(definition !== undefined ? ['--ignored=matching'] : []),
      ],
      // Git may not look above the folder found: if it is not the worktree's top, git fails and the stepwise path answers.
      env: { GIT_CEILING_DIRECTORIES: dirname(top) },
    };
    if (answer.ok) {
      const stamp = stampOfStatus(answer.stdout, definition);
      if (stamp !== undefined) return stamp;
    } else if (answer.missing) return NOT_IN_REPOSITORY;
  }
  return yield* stepwiseSteps(folder, file);
}

/** Environment variables that change where git finds the repository: with any set, only git itself can tell. */
const DISCOVERY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

/** The nearest folder up from `folder` holding a `.git` (a folder, or a file for worktrees and submodules), as a real path. */
function worktreeTop(folder: string): string | undefined {
  if (DISCOVERY_VARIABLES.some((name) => process.env[name] !== undefined)) return undefined;
  let dir: string;
  try {
    dir = realpathSync.native(resolve(folder));
  } catch {
    return undefined;
  }
  for (;;) {
    try {
      lstatSync(join(dir, '.git'));
      return dirname(dir) === dir ? undefined : dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

/** `file`'s path inside `top` (posix, as git's porcelain names paths), or undefined. */
function insideTop(top: string | undefined, file: string): string | undefined {
  if (top === undefined || !isAbsolute(file)) return undefined;
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch {
    return undefined;
  }
  const rel = relative(top, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * The stamp from `git status --porcelain=v2 -z --branch` (and `--ignored=matching` when
 * `definition` is given), or undefined when the output is not of that shape.
 */
function stampOfStatus(stdout: string, definition: string | undefined): SourceStamp | undefined {
  const fields = stdout.split('\0');
  let oid: string | undefined;
  let changed = false;
  const ignored: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field === '') continue;
    if (field.startsWith('# branch.oid ')) oid = field.slice('# branch.oid '.length);
    else if (field.startsWith('# ')) continue;
    else if (field.startsWith('! ')) ignored.push(field.slice(2));
    else if (/^[12u?] /.test(field)) {
      changed = true;
      if (field.startsWith('2 ')) i++; // a rename or copy: its original path follows
    } else return undefined;
  }
  if (oid === undefined) return undefined;
  let dirty = changed;
  // A definition git ignores is dirty even in a clean worktree: no commit holds it. An ignored
  // folder is listed as `folder/`, not its files.
  if (definition !== undefined && !dirty)
    dirty = ignored.some((path) => (path.endsWith('/') ? definition.startsWith(path) : definition === path));
  if (oid === '(initial)') return { commit: null, dirty, reason: 'the git repository has no commit yet' };
  if (!COMMIT.test(oid)) return { commit: null, dirty, reason: 'HEAD is not a SHA-1 commit id' };
  return { commit: oid, dirty };
}

/** Git asked one question at a time: the top folder, the status, whether the definition is ignored, HEAD. */
function* stepwiseSteps(folder: string, file: string | undefined): StampSteps {
  const topAnswer = yield { cwd: folder, args: ['rev-parse', '--show-toplevel'] };
  if (!topAnswer.ok) return NOT_IN_REPOSITORY;
  const top = topAnswer.stdout.trim();
  const status = yield { cwd: top, args: ['status', '--porcelain', '--untracked-files=normal'] };
  let dirty: boolean | null = status.ok ? status.stdout.trim() !== '' : null;
  if (file !== undefined && dirty === false) {
    // exit 0: ignored; exit 1: not ignored (or git could not tell: the status above stands)
    if ((yield { cwd: top, args: ['check-ignore', '-q', '--', file] }).ok) dirty = true;
  }
  const head = yield { cwd: top, args: ['rev-parse', '--verify', '-q', 'HEAD^{commit}'] };
  if (!head.ok) return { commit: null, dirty, reason: 'the git repository has no commit yet' };
  const commit = head.stdout.trim();
  if (!COMMIT.test(commit)) return { commit: null, dirty, reason: 'HEAD is not a SHA-1 commit id' };
  if (dirty === null) return { commit, dirty, reason: 'git status failed: whether the worktree is clean is unknown' };
  return { commit, dirty };
}
