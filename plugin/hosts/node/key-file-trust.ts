/**
 * Whether a keys folder and the key files in it can be trusted to hold the keys their owner put
 * there: a folder group or others can write lets anyone add or swap a key file (a public key that
 * then verifies their signatures, a private key that then signs); a key file owned by another user,
 * or writable by group or others, is someone else's to change. Refused with what to run (`chmod`).
 * Off POSIX (Windows) modes and owners mean nothing here and nothing is checked. Never throws.
 */
import { statSync, type Stats } from 'node:fs';

export interface KeyTrustOptions {
  /** The user the keys must belong to; default this process's (tests inject another). */
  uid?: number;
  platform?: NodeJS.Platform;
}

function expectedUid(options: KeyTrustOptions): number | undefined {
  if ((options.platform ?? process.platform) === 'win32') return undefined;
  return options.uid ?? process.getuid?.();
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/**
 * Why the keys folder at `path` (`shown` in messages) is not to be used, or undefined (also when
 * it does not exist: then it holds no key). Links are followed: the folder they lead to is checked.
 */
export function keyFolderTrustProblem(path: string, shown: string, options: KeyTrustOptions = {}): string | undefined {
  const uid = expectedUid(options);
  if (uid === undefined) return undefined;
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return undefined;
  if ((stat.mode & 0o022) !== 0)
    return `the keys folder ${shown} can be written by group or others (mode ${octal(stat.mode)}): anyone could add or replace a key there; refusing to use it; run \`chmod go-w ${shown}\``;
  if (stat.uid !== uid && stat.uid !== 0)
    return `the keys folder ${shown} belongs to another user (uid ${stat.uid}, not ${uid}): refusing to use it; use a keys folder of your own`;
  return undefined;
}

/** Why the key file whose status is `stat` (`shown` in messages) is not to be used, or undefined. */
export function keyFileTrustProblem(stat: Stats, shown: string, options: KeyTrustOptions = {}): string | undefined {
  const uid = expectedUid(options);
  if (uid === undefined) return undefined;
  if (stat.uid !== uid)
    return `the key file ${shown} belongs to another user (uid ${stat.uid}, not ${uid}): refusing to use it; copy the key into a file of your own (or \`chown\` it)`;
  if ((stat.mode & 0o022) !== 0)
    return `the key file ${shown} can be written by group or others (mode ${octal(stat.mode)}): refusing to use it; run \`chmod go-w ${shown}\``;
  return undefined;
}
