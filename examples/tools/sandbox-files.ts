/**
 * The file sandbox of `fs-write` and `workspace-read`: an in-memory file system per run (keyed by
 * the run id), never the host's disk. Paths are relative, normalised and kept inside the sandbox;
 * sizes and counts are bounded, and only the most recent runs are kept.
 */
export const LIMITS = { maxFileBytes: 1024 * 1024, maxFilesPerRun: 64, maxRuns: 32, maxPathLength: 256 } as const;

const runs = new Map<string, Map<string, string>>();

/** `a/./b//c.ts` → `a/b/c.ts`; throws on absolute paths, `..`, backslashes and control characters. */
export function sandboxPath(path: string): string {
  if (path.length === 0 || path.length > LIMITS.maxPathLength) throw new RangeError(`the path must have 1 to ${LIMITS.maxPathLength} characters`);
  if (/[\u0000-\u001f\\]/.test(path)) throw new TypeError('the path holds a control character or a backslash');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw new TypeError('the path must be relative to the workspace');
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new TypeError('the path must stay inside the workspace (no ..)');
  if (parts.length === 0) throw new TypeError('the path names no file');
  return parts.join('/');
}

function filesOf(runId: string, create: boolean): Map<string, string> | undefined {
  let files = runs.get(runId);
  if (files) {
    runs.delete(runId);
    runs.set(runId, files); // most recently used last
  } else if (create) {
    files = new Map();
    runs.set(runId, files);
    while (runs.size > LIMITS.maxRuns) runs.delete(runs.keys().next().value as string);
  }
  return files;
}

export function writeSandboxFile(runId: string, path: string, content: string): { path: string; bytes: number; created: boolean } {
  const clean = sandboxPath(path);
  const bytes = new TextEncoder().encode(content).byteLength;
  if (bytes > LIMITS.maxFileBytes) throw new RangeError(`the file is ${bytes} bytes, above the sandbox limit of ${LIMITS.maxFileBytes}`);
  const files = filesOf(runId, true)!;
  const created = !files.has(clean);
  if (created && files.size >= LIMITS.maxFilesPerRun) throw new RangeError(`the sandbox holds at most ${LIMITS.maxFilesPerRun} files per run`);
  files.set(clean, content);
  return { path: clean, bytes, created };
}

export function readSandboxFile(runId: string, path: string): string | undefined {
  return filesOf(runId, false)?.get(sandboxPath(path));
}

export function listSandboxFiles(runId: string): string[] {
  return [...(filesOf(runId, false)?.keys() ?? [])].sort();
}
