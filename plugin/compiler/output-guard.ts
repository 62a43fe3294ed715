/**
 * What the writer may replace. An output folder is agentdef's when it holds the marker file the
 * writer leaves in every folder it writes, and nothing but the files that marker lists; an empty
 * folder or a missing one may be written too. Anything else is refused before a byte moves: the
 * workspace root or a folder that holds it, a file, a symbolic link, a folder holding files
 * agentdef did not write, and a path inside the workspace whose real location is outside it.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/** The marker every output folder carries: which writer made it and the files it wrote. */
export const OUTPUT_MARKER = '.agentdef-output.json';
export const OUTPUT_MARKER_FORMAT = 'agentdef-output/v1';

export interface OutputMarker {
  format: typeof OUTPUT_MARKER_FORMAT;
  /** Every file the writer put in the folder, marker excluded, sorted by code unit. */
  files: string[];
}

export function markerContents(paths: readonly string[]): string {
  const marker: OutputMarker = {
    format: OUTPUT_MARKER_FORMAT,
    files: [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  };
  return `${JSON.stringify(marker, null, 2)}\n`;
}

/** The marker's file list, or undefined when `text` is not a marker this writer made. */
export function parseMarker(text: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { format, files } = value as Partial<OutputMarker>;
  if (format !== OUTPUT_MARKER_FORMAT || !Array.isArray(files) || !files.every((f) => typeof f === 'string'))
    return undefined;
  return files;
}

/** True when `inner` is `outer` or lies below it (both absolute). */
export function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
async function realLocation(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
      current = parent;
    }
  }
}

/** Files below `dir` (posix, relative), folders excluded; symbolic links are listed as files. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory()) out.push(...(await filesBelow(join(dir, entry.name), `${rel}/`)));
    else out.push(rel);
  }
  return out;
}

export interface DestinationCheck {
  /** Absolute output folder. */
  destination: string;
  /** Absolute workspace root: never replaced, never held by the output, never escaped through a link. */
  workspaceRoot: string;
  /** How messages name the destination (never an absolute path). */
  display: string;
}

/** Undefined when the writer may replace `destination`; else why not, in one sentence that says what to do. */
export async function checkDestination({
  destination,
  workspaceRoot,
  display,
}: DestinationCheck): Promise<string | undefined> {
  const choose = 'choose another output folder';
  if (isInside(destination, workspaceRoot))
    return `refusing to write the output to ${display}: it is or contains the workspace root; ${choose}`;
  const [realRoot, realDestination] = await Promise.all([realLocation(workspaceRoot), realLocation(destination)]);
  if (isInside(realDestination, realRoot))
    return `refusing to write the output to ${display}: through a symbolic link it is or contains the workspace root; ${choose}`;
  if (isInside(workspaceRoot, destination) && !isInside(realRoot, realDestination)) {
    return `refusing to write the output to ${display}: a symbolic link on the way leads out of the workspace; ${choose}`;
  }

  let info;
  try {
    info = await lstat(destination);
  } catch {
    return undefined; // nothing there yet
  }
  if (info.isSymbolicLink())
    return `refusing to replace ${display}: it is a symbolic link, not an output folder agentdef wrote; ${choose}`;
  if (!info.isDirectory())
    return `refusing to replace ${display}: it is a file, not an output folder agentdef wrote; ${choose}`;
  const present = await filesBelow(destination);
  if (present.length === 0) return undefined;
  if (!present.includes(OUTPUT_MARKER)) {
    return `refusing to replace ${display}: it holds files agentdef did not write (no ${OUTPUT_MARKER} marker); move them elsewhere or ${choose}`;
  }
  const markerInfo = await lstat(join(destination, OUTPUT_MARKER));
  const listed = markerInfo.isFile()
    ? parseMarker(await readFile(join(destination, OUTPUT_MARKER), 'utf8'))
    : undefined;
  if (!listed) return `refusing to replace ${display}: its ${OUTPUT_MARKER} is not a marker agentdef wrote; ${choose}`;
  const known = new Set(listed);
  const foreign = present.filter((file) => file !== OUTPUT_MARKER && !known.has(file)).sort();
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
    return `refusing to replace ${display}: it holds ${shown}, which agentdef did not write; move ${foreign.length === 1 ? 'it' : 'them'} out of the folder or ${choose}`;
  }
  return undefined;
}
