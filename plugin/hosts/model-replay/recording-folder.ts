/**
 * A recording folder: one `<hex>.json` per model exchange (exchange.ts), any other file ignored
 * (a README, say). It must be a folder inside the workspace:
 * - to replay, its real location (links followed) lies inside the workspace's real location;
 *   every exchange file is a regular file (not a link) of at most MAX_EXCHANGE_BYTES that parses
 *   as an exchange whose digest is its name; anything else is a located problem and nothing is served;
 * - to record, the folder is not itself a symbolic link, no link on its way leads out of the
 *   workspace, and it is created when missing. An exchange file is replaced only when it is one
 *   agentdef wrote (it parses as an exchange under its own name); anything else at that name
 *   (a link, a folder, a file of another kind) is left as it is and the exchange is not recorded.
 *   Writes go to a temporary file created exclusively in the folder, then renamed onto the name.
 * Messages name the folder as the caller displays it, never an absolute path of this machine.
 */
import {
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ModelExchange } from './exchange';
import { EXCHANGE_FILE, MAX_EXCHANGE_BYTES, exchangeFileName, exchangeText, parseExchange } from './exchange';

/** More exchanges than this in one folder is not a recording of a session. */
export const MAX_EXCHANGES = 10_000;

export interface FolderProblem {
  /** The file (as displayed: `<folder>/<name>`), or the folder itself. */
  where: string;
  problem: string;
}

function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
function realLocation(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
      current = parent;
    }
  }
}

/** Why `folder` (absolute) cannot be replayed from, or undefined. */
export function replayFolderProblem(folder: string, workspaceRoot: string, display: string): string | undefined {
  let info;
  try {
    info = statSync(folder);
  } catch {
    return `${display} does not exist: name the folder a recording was made into (agentdef dev <output> --record <folder>)`;
  }
  if (!info.isDirectory()) return `${display} is a file, not a recording folder`;
  if (!isInside(realLocation(workspaceRoot), realLocation(folder)))
    return `${display} is outside the workspace (${isInside(workspaceRoot, folder) ? 'a symbolic link on the way leads out of it' : 'name a folder inside it'}): a recording is read from the workspace only`;
  return undefined;
}

/** Why `folder` (absolute) cannot be recorded into, or undefined. */
export function recordFolderProblem(folder: string, workspaceRoot: string, display: string): string | undefined {
  if (!isInside(workspaceRoot, folder)) return `${display} is outside the workspace: record into a folder inside it`;
  if (isInside(folder, workspaceRoot))
    return `${display} is the workspace root or holds it: record into a folder of its own`;
  let info;
  try {
    info = lstatSync(folder);
  } catch {
    info = undefined;
  }
  if (info?.isSymbolicLink())
    return `${display} is a symbolic link: record into a real folder (agentdef never writes through a link)`;
  if (info && !info.isDirectory()) return `${display} is a file, not a folder`;
  if (!isInside(realLocation(workspaceRoot), realLocation(folder)))
    return `a symbolic link on the way to ${display} leads out of the workspace: record into a folder inside it`;
  return undefined;
}

/** Creates the record folder when missing (its checks passed). */
export function ensureRecordFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
}

export interface LoadedRecording {
  /** Exchanges by digest (`sha-256:<hex>`). */
  exchanges: Map<string, ModelExchange>;
  problems: FolderProblem[];
}

/** Reads every exchange of a replay folder (checked by replayFolderProblem). */
export function loadRecording(folder: string, display: string): LoadedRecording {
  const exchanges = new Map<string, ModelExchange>();
  const problems: FolderProblem[] = [];
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch (error) {
    return {
      exchanges,
      problems: [{ where: display, problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` }],
    };
  }
  const files = names.filter((name) => EXCHANGE_FILE.test(name));
  if (files.length > MAX_EXCHANGES)
    return {
      exchanges,
      problems: [
        {
          where: display,
          problem: `holds ${files.length} exchanges, more than the ${MAX_EXCHANGES} a recording may hold`,
        },
      ],
    };
  for (const name of files) {
    const where = `${display}/${name}`;
    const path = join(folder, name);
    let info;
    try {
      info = lstatSync(path);
    } catch {
      problems.push({ where, problem: 'disappeared while it was read' });
      continue;
    }
    if (info.isSymbolicLink()) {
      problems.push({ where, problem: 'is a symbolic link: an exchange is a regular file of the recording folder' });
      continue;
    }
    if (!info.isFile()) {
      problems.push({ where, problem: 'is not a regular file' });
      continue;
    }
    if (info.size > MAX_EXCHANGE_BYTES) {
      problems.push({ where, problem: `is ${info.size} bytes, over the ${MAX_EXCHANGE_BYTES} an exchange may hold` });
      continue;
    }
    const parsed = parseExchange(readFileSync(path, 'utf8'), name);
    if (!parsed.ok) problems.push({ where, problem: parsed.problem });
    else exchanges.set(parsed.exchange.digest, parsed.exchange);
  }
  return { exchanges, problems };
}

export type WriteOutcome = { written: true; file: string } | { written: false; reason: string };

/**
 * Writes `exchange` as `<hex>.json` in `folder`: a new file, or in place of an exchange file
 * agentdef wrote; never over anything else, never through a link. `display` names the folder.
 */
export function writeExchange(folder: string, exchange: ModelExchange, display: string): WriteOutcome {
  const name = exchangeFileName(exchange.digest);
  const target = join(folder, name);
  const text = exchangeText(exchange);
  if (Buffer.byteLength(text) > MAX_EXCHANGE_BYTES)
    return { written: false, reason: `the exchange is over ${MAX_EXCHANGE_BYTES} bytes` };
  let info;
  try {
    info = lstatSync(target);
  } catch {
    info = undefined;
  }
  if (info) {
    if (info.isSymbolicLink())
      return {
        written: false,
        reason: `${display}/${name} is a symbolic link, which agentdef did not write; it was left as it is`,
      };
    if (!info.isFile())
      return { written: false, reason: `${display}/${name} is not a file agentdef wrote; it was left as it is` };
    const current =
      info.size <= MAX_EXCHANGE_BYTES
        ? parseExchange(readFileSync(target, 'utf8'), name)
        : { ok: false as const, problem: 'too large' };
    if (!current.ok)
      return {
        written: false,
        reason: `${display}/${name} exists and is not an exchange agentdef wrote (${current.problem}); it was left as it is`,
      };
  }
  const temp = join(folder, `.${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    writeSync(fd, text);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
    return { written: true, file: `${display}/${name}` };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    return {
      written: false,
      reason: `${display}/${name} could not be written (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
}
