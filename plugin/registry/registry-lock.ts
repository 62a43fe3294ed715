/**
 * The registry's write lock, `<registryRoot>/.index.json.lock`: `agentdef publish` holds it from
 * reading the index to writing it back, so two publishes into one registry at once (of different
 * versions or agents, from different processes) run one after the other and neither drops the
 * other's index entry.
 *
 * The lock file is created exclusively and complete: its text is written to a temp file that is
 * then hard-linked to the lock's name (link never follows a link and fails if any entry of that
 * name exists). It records the holder's pid, a start time, a digest of the host's name (never the
 * name) and a random token. A publish that finds the lock held retries with a short bounded
 * backoff; it breaks the lock only when it is provably stale: an agentdef lock whose pid is not a
 * live process on this host, or one older than {@link STALE_LOCK_MS}. Anything else named like the
 * lock (a link, a folder, a file agentdef did not write) is never removed. The holder removes its
 * own lock (checked by token) when it is done; it never removes one it does not hold. When the
 * lock cannot be taken in time the caller gets a message and nothing has been changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { parseJson } from '../definition/parse-json';
import { REGISTRY_LOCK_FILE } from './registry-layout';

const LOCK_FORMAT = 'agentdef-registry-lock/v1';
/** A lock older than this is stale whoever holds it (a publish holds it for seconds at most). */
export const STALE_LOCK_MS = 10 * 60 * 1000;
/** How long a publish waits for the lock by default. */
export const DEFAULT_LOCK_WAIT_MS = 60 * 1000;
const MAX_LOCK_BYTES = 4096;

interface LockBody {
  lock: typeof LOCK_FORMAT;
  pid: number;
  startedAt: number;
  host: string;
  token: string;
}

type Seen = { kind: 'missing' } | { kind: 'agentdef'; body: LockBody; ino: number } | { kind: 'foreign' };

export type LockResult = { ok: true; release: () => void } | { ok: false; error: string };

/** A digest of this host's name: tells whether a pid in a lock is one of this machine's. */
function hostDigest(): string {
  return createHash('sha256').update(hostname()).digest('hex').slice(0, 32);
}

function isLockBody(value: unknown): value is LockBody {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    v['lock'] === LOCK_FORMAT &&
    Number.isSafeInteger(v['pid']) &&
    (v['pid'] as number) > 0 &&
    Number.isFinite(v['startedAt']) &&
    typeof v['host'] === 'string' &&
    typeof v['token'] === 'string'
  );
}

/** What is at the lock's name, read without following a link and without blocking on a FIFO. */
function readLock(path: string): Seen {
  let ino: number;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return { kind: 'foreign' };
    ino = stat.ino;
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'foreign' };
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'foreign' };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.ino !== ino) return { kind: 'foreign' };
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const length = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
    // Strictly: a lock with a duplicated member (readers disagree on which counts) is not agentdef's.
    const parsed = parseJson(
      new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, length)),
      REGISTRY_LOCK_FILE,
    );
    const body = parsed.diagnostics.length === 0 ? parsed.value : undefined;
    return isLockBody(body) ? { kind: 'agentdef', body, ino } : { kind: 'foreign' };
  } catch {
    return { kind: 'foreign' };
  } finally {
    closeSync(fd);
  }
}

/** True when `pid` is a live process (one this process may not signal is alive too). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

/** Provably stale: too old, or held by a process of this host that no longer runs. */
function isStale(body: LockBody, now: number): boolean {
  if (now - body.startedAt > STALE_LOCK_MS) return true;
  return body.host === hostDigest() && !isAlive(body.pid);
}

/**
 * Removes the stale lock `seen` (inode `ino`) and nothing else: the lock is renamed aside first,
 * and if what was renamed is not that file (another publish broke it and took the lock since),
 * it is linked back.
 */
function breakStale(folder: string, path: string, ino: number): void {
  const aside = join(folder, `.${randomBytes(6).toString('hex')}.agentdef-stale-lock`);
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: someone else broke or released it
  }
  try {
    if (lstatSync(aside).ino !== ino) {
      try {
        linkSync(aside, path);
      } catch {
        // a third publish took the lock meanwhile; the one whose lock this was will find its token gone
      }
    }
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // already gone
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock of the registry at `root` (absolute; `displayRoot` names it in messages),
 * creating the registry folder if it is missing (removed again on release if still empty).
 * Waits up to `waitMs`. Never throws.
 */
export async function acquireRegistryLock(
  root: string,
  displayRoot: string,
  waitMs = DEFAULT_LOCK_WAIT_MS,
): Promise<LockResult> {
  const path = join(root, REGISTRY_LOCK_FILE);
  const shown = `${displayRoot}/${REGISTRY_LOCK_FILE}`;
  const token = randomBytes(16).toString('hex');
  const deadline = Date.now() + waitMs;
  let created: string | undefined;
  let delay = 5;
  const removeCreatedFolder = () => {
    if (created === undefined) return;
    // Only folders this call created, each only while empty (another publish may have written into it).
    for (let folder = root; ; folder = dirname(folder)) {
      try {
        rmdirSync(folder);
      } catch {
        return;
      }
      if (folder === created || dirname(folder) === folder) return;
    }
  };
  for (;;) {
    let temp: string | undefined;
    try {
      try {
        lstatSync(root);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOENT') throw error;
        const first = mkdirSync(root, { recursive: true });
        if (created === undefined && first !== undefined) created = first;
      }
      temp = join(root, `.${randomBytes(6).toString('hex')}.agentdef-tmp`);
      const body: LockBody = { lock: LOCK_FORMAT, pid: process.pid, startedAt: Date.now(), host: hostDigest(), token };
      const fd = openSync(temp, 'wx', 0o644);
      try {
        writeSync(fd, `${JSON.stringify(body)}\n`);
      } finally {
        closeSync(fd);
      }
      try {
        linkSync(temp, path);
        const ino = lstatSync(path).ino;
        const release = () => {
          const now = readLock(path);
          if (now.kind === 'agentdef' && now.ino === ino && now.body.token === token) {
            try {
              unlinkSync(path);
            } catch {
              // removed already
            }
          }
          removeCreatedFolder();
        };
        return { ok: true, release };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT') continue; // the registry folder was removed meanwhile: create it again
        if (code !== 'EEXIST') throw error;
      }
    } catch (error) {
      removeCreatedFolder();
      const code = (error as { code?: string }).code;
      return { ok: false, error: `cannot create ${shown} (${code ?? (error as Error).message}); nothing was written` };
    } finally {
      if (temp !== undefined) {
        try {
          unlinkSync(temp);
        } catch {
          // never created
        }
      }
    }
    const seen = readLock(path);
    if (seen.kind === 'missing') continue;
    if (seen.kind === 'agentdef' && isStale(seen.body, Date.now())) {
      breakStale(root, path, seen.ino);
      continue;
    }
    if (Date.now() >= deadline) {
      removeCreatedFolder();
      return {
        ok: false,
        error:
          seen.kind === 'agentdef'
            ? `another publish holds ${shown} and did not finish in time; nothing was written: run publish again when it is done`
            : `${shown} exists but agentdef did not create it (it is not an agentdef lock); nothing was written: remove it if no publish is running`,
      };
    }
    await sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 250);
  }
}
