/**
 * Source text: reading a definition file's bytes, decoding them as UTF-8, and mapping offsets in
 * the decoded text to the line:column an editor shows. Nothing here throws.
 *
 * Every workspace file agentdef reads (definitions, registry snapshots, tools.json, mcp.json)
 * comes through {@link readDefinitionSource}: only a regular file (never a FIFO, a device or a
 * directory; checked before opening, and again on the open descriptor), at most
 * {@link MAX_DEFINITION_BYTES}, and only inside its root: a symbolic link (anywhere on the path)
 * that leads out of the workspace, or out of the registry, is refused without reading the target,
 * so no outside content can appear in a message.
 */
import {
  closeSync,
  existsSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { ERROR_CODES, type Diagnostic } from './diagnostic';
import type { SourcePosition } from './source-document';
import { findWorkspaceRoot } from './workspace-root';
import { lastAtOrBefore } from './last-at-or-before';

/** Definitions above this size are refused before they are read. */
export const MAX_DEFINITION_BYTES = 4 * 1024 * 1024;

export interface DecodedSource {
  /** The decoded text (BOM removed); absent when the bytes are not a usable definition. */
  text?: string;
  diagnostics: Diagnostic[];
}

export interface DefinitionSource extends DecodedSource {
  /** Set when the file cannot be read at all, e.g. `cannot read a/agent.json: no such file`. */
  ioError?: string;
  /** Set with `ioError` when nothing exists at the path. */
  missing?: boolean;
}

/** Maps an offset in a text to its 1-based line and column (in UTF-16 code units). */
export type PositionAt = (offset: number) => SourcePosition;

/**
 * The UTF-16 offset in `text` of a 1-based line and column (as `lineIndex` and the documents'
 * `locate` give them), or -1 when the text has fewer lines: the inverse of a position, for the
 * in-place edits of one located value (`agentdef application digest`, `agentdef promote`).
 */
export function offsetOfPosition(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return -1;
    offset = next + 1;
  }
  return offset + column - 1;
}

/**
 * Builds a line-start table for `text` once; each lookup is then a binary search. Line breaks are
 * `\n`, `\r\n` and a lone `\r`, as editors count them. Offsets outside the text are clamped.
 */
export function lineIndex(text: string): PositionAt {
  const starts = [0];
  if (!text.includes('\r')) {
    // Only `\n` breaks (most files): from one to the next in native steps.
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
  }
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    const line = lastAtOrBefore(starts, at);
    return { line: line + 1, column: at - (starts[line] ?? 0) + 1 };
  };
}

/** Decodes a definition's bytes: strict UTF-8, one leading BOM dropped, and not empty. */
export function decodeSource(bytes: Uint8Array, file: string): DecodedSource {
  let text: string;
  try {
    text = utf8(bytes);
  } catch {
    return { diagnostics: [notUtf8(bytes, file)] };
  }
  if (text.trim() === '') {
    return {
      diagnostics: [diagnostic(file, 'empty-file', 'the file is empty; an AgentDefinition is a JSON or YAML object')],
    };
  }
  return { text, diagnostics: [] };
}

/**
 * Reads and decodes the definition at `absPath`, naming it `file` in messages. The file must be a
 * regular file whose real path (links resolved) lies inside `within`: by default the workspace
 * root of `absPath` (nx.json, else package.json), or the folder holding it when there is none.
 * The size is checked with `stat` first, so an oversized file is refused without being read. A
 * file that is missing, unreadable, not a regular file or outside its root gives `ioError` and
 * no diagnostics; messages never name the target of a link.
 */
export function readDefinitionSource(
  absPath: string,
  file: string,
  maxBytes = MAX_DEFINITION_BYTES,
  within?: string | WorkspaceRoots,
): DefinitionSource {
  const read = readSourceBytes(absPath, file, maxBytes, within);
  if (read.bytes === undefined) {
    const { diagnostics, ioError, missing } = read;
    return ioError === undefined ? { diagnostics } : { diagnostics, ioError, ...(missing ? { missing } : {}) };
  }
  return decodeSource(read.bytes, file);
}

export interface SourceBytes {
  /** The file's bytes, exactly as stored; absent when it could not (or may not) be read. */
  bytes?: Uint8Array;
  /** The file is too large (a `file-size` diagnostic). */
  diagnostics: Diagnostic[];
  /** As in {@link DefinitionSource}. */
  ioError?: string;
  missing?: boolean;
}

/** A folder whose real path is resolved once, for many reads inside it (an index reading every definition). */
export interface ResolvedFolder {
  path: string;
  /** `path` with every link resolved. */
  real: string;
}

/** `folder` with its real path, or undefined when it cannot be resolved (each read then resolves, and reports, as alone). */
export function resolveFolder(folder: string): ResolvedFolder | undefined {
  try {
    return { path: folder, real: realpathSync.native(folder) };
  } catch {
    return undefined;
  }
}

/**
 * The default root of {@link readDefinitionSource} (each file's own workspace root), looked up for
 * the many reads of one plan: which files exist on the way up, and each root's real path, asked
 * once. Reads with it answer exactly as reads without a `within`; keep one only as long as one
 * plan (a `nx.json` made later would not be seen).
 */
export interface WorkspaceRoots {
  /** The real path of the workspace root of `folder` (throws as `realpathSync` does). */
  realRootOf(folder: string): string;
}

export function workspaceRoots(): WorkspaceRoots {
  const existing = new Map<string, boolean>();
  const reals = new Map<string, string>();
  const exists = (path: string) => {
    let found = existing.get(path);
    if (found === undefined) {
      found = existsSync(path);
      existing.set(path, found);
    }
    return found;
  };
  return {
    realRootOf(folder) {
      const root = findWorkspaceRoot(folder, exists) ?? folder;
      let real = reals.get(root);
      if (real === undefined) {
        real = realpathSync.native(root);
        reals.set(root, real);
      }
      return real;
    },
  };
}

/**
 * The checks and the read of {@link readDefinitionSource}, without decoding: the bytes as stored.
 * `within` may come resolved ({@link resolveFolder}), so that many reads resolve it once.
 */
export function readSourceBytes(
  absPath: string,
  file: string,
  maxBytes = MAX_DEFINITION_BYTES,
  within?: string | ResolvedFolder | WorkspaceRoots,
): SourceBytes {
  try {
    if (openedPathsKnown) {
      const fast = readUnlinkedFile(absPath, file, maxBytes, within);
      if (fast !== undefined) return fast;
    }
    const stats = statSync(absPath);
    const refused = refusedByStat(stats, file, maxBytes);
    if (refused) return refused;
    const real = realpathSync.native(absPath);
    const realRoot = realRootOf(absPath, within);
    if (!isInside(realRoot, real)) return outside(file, within);
    // Read one byte past the limit, in case the file grew after the stat.
    const bytes = readAtMost(real, maxBytes + 1, stats.size + 1);
    if (bytes === undefined) return { diagnostics: [], ioError: `cannot read ${file}: not a regular file` };
    if (bytes.length > maxBytes) return { diagnostics: [tooLarge(file, bytes.length, maxBytes)] };
    return { bytes, diagnostics: [] };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return {
      diagnostics: [],
      ioError: `cannot read ${file}: ${ioReason(error)}`,
      ...(code === 'ENOENT' || code === 'ENOTDIR' ? { missing: true } : {}),
    };
  }
}

/** What a read refuses from the file's stat alone, before anything is opened: a directory, anything but a regular file, a file over the limit. */
function refusedByStat(stats: Stats, file: string, maxBytes: number): SourceBytes | undefined {
  if (stats.isDirectory()) return { diagnostics: [], ioError: `cannot read ${file}: it is a directory` };
  if (!stats.isFile()) return { diagnostics: [], ioError: `cannot read ${file}: not a regular file` };
  if (stats.size > maxBytes) return { diagnostics: [tooLarge(file, stats.size, maxBytes)] };
  return undefined;
}

/** The real path of the folder a read must stay inside (see {@link readDefinitionSource}). */
function realRootOf(absPath: string, within: string | ResolvedFolder | WorkspaceRoots | undefined): string {
  return typeof within === 'object'
    ? 'realRootOf' in within
      ? within.realRootOf(dirname(absPath))
      : within.real
    : realpathSync.native(within ?? findWorkspaceRoot(dirname(absPath)) ?? dirname(absPath));
}

function outside(file: string, within: string | ResolvedFolder | WorkspaceRoots | undefined): SourceBytes {
  const workspace = within === undefined || (typeof within === 'object' && 'realRootOf' in within);
  return {
    diagnostics: [],
    ioError: `cannot read ${file}: it is a link to a file outside ${workspace ? 'the workspace' : 'its folder'}`,
  };
}

/**
 * Whether the kernel names the file behind an open descriptor (`/proc/self/fd/<n>`, Linux): then
 * {@link readUnlinkedFile} can check where the opened file really lies with one call instead of
 * resolving every folder of its path. Turned off (for the process) the first time it fails.
 */
let openedPathsKnown = process.platform === 'linux';

/**
 * {@link readSourceBytes}'s promises with fewer calls, for the common case of a file that is no
 * link itself (a link, or anything this cannot prove, gives undefined: the caller then takes the
 * full path, which resolves links). The same checks in the same order, with the same messages:
 * `lstat` (not following the last name) refuses a directory, a FIFO, a device or an oversized
 * file before anything is opened; the open neither follows a link swapped in since (`O_NOFOLLOW`:
 * undefined, so the full path judges the link) nor blocks on a FIFO swapped in (`O_NONBLOCK`); the
 * descriptor must be the very file the `lstat` saw (same device and inode, so it is still a
 * regular file of that size); and the kernel's name for the open file, every folder's link
 * resolved at the moment of opening, must lie inside the root, or nothing is read. A folder of the
 * path that is (or was swapped for) a link out of the workspace is caught there, without reading.
 */
function readUnlinkedFile(
  absPath: string,
  file: string,
  maxBytes: number,
  within: string | ResolvedFolder | WorkspaceRoots | undefined,
): SourceBytes | undefined {
  const stats = lstatSync(absPath);
  if (stats.isSymbolicLink()) return undefined;
  const refused = refusedByStat(stats, file, maxBytes);
  if (refused) return refused;
  const realRoot = realRootOf(absPath, within);
  let fd: number;
  try {
    fd = openSync(absPath, OPEN_FLAGS);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ELOOP') return undefined; // a link swapped in
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    if (opened.dev !== stats.dev || opened.ino !== stats.ino || !opened.isFile()) return undefined; // swapped
    let real: string;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      openedPathsKnown = false;
      return undefined;
    }
    // Anything but an absolute path to a file that still exists is left to the full path.
    if (!isAbsolute(real) || real.endsWith(' (deleted)')) return undefined;
    // Both are canonical (no `.`, `..` or doubled separators), so a prefix test is `isInside`.
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : `${realRoot}${sep}`)) {
      return outside(file, within);
    }
    // Read one byte past the limit, in case the file grew after the stat.
    const bytes = readOpenFile(fd, maxBytes + 1, opened.size + 1);
    if (bytes.length > maxBytes) return { diagnostics: [tooLarge(file, bytes.length, maxBytes)] };
    return { bytes, diagnostics: [] };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a file the user named (a credential, a key, a receipts log), wherever it is: the
 * checks and the bounded read of {@link readSourceBytes} without the root: only a regular file
 * (never a FIFO, a device such as `/dev/zero`, or a directory, also when a link leads there), at
 * most `maxBytes`, checked before opening and again on the open descriptor. Never throws.
 */
export function readRegularFileBytes(absPath: string, file: string, maxBytes: number): SourceBytes {
  try {
    const stats = statSync(absPath);
    if (stats.isDirectory()) return { diagnostics: [], ioError: `cannot read ${file}: it is a directory` };
    if (!stats.isFile()) return { diagnostics: [], ioError: `cannot read ${file}: not a regular file` };
    if (stats.size > maxBytes)
      return { diagnostics: [], ioError: `cannot read ${file}: it is larger than ${maxBytes} bytes` };
    const bytes = readAtMost(realpathSync.native(absPath), maxBytes + 1, stats.size + 1);
    if (bytes === undefined) return { diagnostics: [], ioError: `cannot read ${file}: not a regular file` };
    if (bytes.length > maxBytes)
      return { diagnostics: [], ioError: `cannot read ${file}: it is larger than ${maxBytes} bytes` };
    return { bytes, diagnostics: [] };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return {
      diagnostics: [],
      ioError: `cannot read ${file}: ${ioReason(error)}`,
      ...(code === 'ENOENT' || code === 'ENOTDIR' ? { missing: true } : {}),
    };
  }
}

/** True when `path` is `root` or below it (both real paths). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** Opening never blocks (a FIFO swapped in after the stat) nor follows a link swapped in for the file. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * At most `limit` bytes of the regular file at `path`; undefined when the open descriptor is no
 * regular file. The buffer starts at `expected` bytes (the size the stat saw, plus one) and grows
 * only if the file grew since, so reading a small file never allocates the whole limit.
 */
function readAtMost(path: string, limit: number, expected: number): Uint8Array | undefined {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    return readOpenFile(fd, limit, expected);
  } finally {
    closeSync(fd);
  }
}

/** At most `limit` bytes from the open descriptor `fd`, the buffer sized as in {@link readAtMost}. */
function readOpenFile(fd: number, limit: number, expected: number): Uint8Array {
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(limit, expected))); // only the filled part is returned
  let length = 0;
  while (length < limit) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const asked = buffer.length - length;
    const read = readSync(fd, buffer, length, asked, null);
    length += read;
    // Nothing more, or all the stat saw and less than asked for: the end (no second call to learn it).
    if (read === 0 || (length === expected - 1 && read < asked)) break;
  }
  return buffer.subarray(0, length);
}

/** Why a read failed, in words: never the error's own message, which names absolute paths. */
function ioReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
  }
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? `I/O error ${code}` : 'the path cannot be read';
}

function utf8(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function notUtf8(bytes: Uint8Array, file: string): Diagnostic {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return diagnostic(
      file,
      'encoding',
      'the file is UTF-16 encoded; an AgentDefinition must be UTF-8',
      { line: 1, column: 1 },
      'save the file as UTF-8',
    );
  }
  const bad = firstInvalidByte(bytes);
  // Everything before the bad byte decodes, so its position is that of the end of that text.
  const before = utf8(bytes.subarray(0, bad));
  const hex = (bytes[bad] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return diagnostic(
    file,
    'encoding',
    `the file is not valid UTF-8: byte 0x${hex} does not start a valid UTF-8 character`,
    lineIndex(before)(before.length),
    'save the file as UTF-8',
  );
}

/** Index of the first byte of the first ill-formed sequence (Unicode 15, table 3-7). */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let trail: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) trail = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      trail = 2;
      if (lead === 0xe0) low = 0xa0; // overlong
      if (lead === 0xed) high = 0x9f; // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      trail = 3;
      if (lead === 0xf0) low = 0x90; // overlong
      if (lead === 0xf4) high = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= trail; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += trail + 1;
  }
  return bytes.length;
}

function tooLarge(file: string, size: number, limit: number): Diagnostic {
  return diagnostic(
    file,
    'file-size',
    `the file is ${formatBytes(size)}; an AgentDefinition may be at most ${formatBytes(limit)}`,
    { line: 1, column: 1 },
    'split large prompts or data out of the definition',
  );
}

function formatBytes(bytes: number): string {
  const exact = `${String(bytes).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} bytes`;
  if (bytes < 1024) return exact;
  const [amount, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];
  return `${amount.toFixed(1)} ${unit} (${exact})`;
}

function diagnostic(
  file: string,
  rule: string,
  message: string,
  at: SourcePosition = { line: 1, column: 1 },
  suggestion?: string,
): Diagnostic {
  return {
    code: ERROR_CODES.invalid,
    rule,
    severity: 'error',
    path: '',
    file,
    line: at.line,
    column: at.column,
    message,
    ...(suggestion === undefined ? {} : { suggestion }),
  };
}
