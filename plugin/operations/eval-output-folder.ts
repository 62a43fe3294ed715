/**
 * The folder `agentdef eval` writes (`--out`, default `dist/eval/<slug>`), and the one
 * `agentdef bench-tool` writes (`--out`, default `dist/bench/<slug>`), guarded like every
 * output agentdef writes: it is the command's when it carries its marker and holds nothing but what
 * it writes there (the marker, `build/`, and its reports: eval's `eval.json`, `junit.xml`,
 * `eval.receipt.json` and, for a tool-only agent, `tool-benchmark-events.json`; bench-tool's
 * `tool-benchmark-events.json`); an empty
 * or missing folder may be written too. Anything else is refused before the agent is compiled or
 * asked: the workspace root or a folder holding it (also through a symbolic link), a file, a
 * symbolic link, a folder holding other files, a report that is not a regular file. Reports are
 * written to a temporary file and renamed into place, so a reader sees a whole file or none.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside } from '../compiler/output-guard';
import {
  EVAL_BUILD_FOLDER,
  EVAL_JSON_FILE,
  EVAL_JUNIT_FILE,
  EVAL_RECEIPT_FILE,
  TOOL_BENCHMARK_EVENTS_FILE,
} from '../eval/eval-output';

/** The marker eval leaves in its output folder. */
export const EVAL_OUTPUT_MARKER = '.agentdef-eval';
/** The marker bench-tool leaves in its output folder. */
export const BENCH_OUTPUT_MARKER = '.agentdef-bench';

/** A command's output folder: its marker, its reports (regular files), and its name in messages. */
export interface OutputFolderKind {
  command: string;
  marker: string;
  reports: readonly string[];
}

export const EVAL_OUTPUT: OutputFolderKind = {
  command: 'agentdef eval',
  marker: EVAL_OUTPUT_MARKER,
  reports: [EVAL_JSON_FILE, EVAL_JUNIT_FILE, EVAL_RECEIPT_FILE, TOOL_BENCHMARK_EVENTS_FILE],
};

export const BENCH_OUTPUT: OutputFolderKind = {
  command: 'agentdef bench-tool',
  marker: BENCH_OUTPUT_MARKER,
  reports: [TOOL_BENCHMARK_EVENTS_FILE],
};

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

const kindOf = (path: string) => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/** Undefined when eval may write `outDir`; else why not, in one sentence that says what to do. */
export function evalOutputRefusal(outDir: string, workspaceRoot: string, display: string): string | undefined {
  return outputFolderRefusal(EVAL_OUTPUT, outDir, workspaceRoot, display);
}

/** Undefined when the command of `kind` may write `outDir`; else why not, in one sentence that says what to do. */
export function outputFolderRefusal(
  kind: OutputFolderKind,
  outDir: string,
  workspaceRoot: string,
  display: string,
): string | undefined {
  const choose = 'choose another --out';
  const what = kind === EVAL_OUTPUT ? 'the eval' : 'the benchmark';
  const own = new Set([kind.marker, EVAL_BUILD_FOLDER, ...kind.reports]);
  if (isInside(outDir, workspaceRoot) || isInside(realLocation(outDir), realLocation(workspaceRoot)))
    return `refusing to write ${what} to ${display}: it is or contains the workspace root; ${choose}`;
  const info = kindOf(outDir);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink())
    return `refusing to write ${what} to ${display}: it is a symbolic link, not a folder ${kind.command} wrote; ${choose}`;
  if (!info.isDirectory()) return `refusing to write ${what} to ${display}: it is a file; ${choose}`;
  const entries = readdirSync(outDir).sort();
  if (entries.length === 0) return undefined;
  if (!kindOf(join(outDir, kind.marker))?.isFile())
    return `refusing to write ${what} to ${display}: it holds files ${kind.command} did not write (no ${kind.marker} marker); move them elsewhere or ${choose}`;
  const foreign = entries.filter((entry) => !own.has(entry));
  if (foreign.length > 0)
    return `refusing to write ${what} to ${display}: it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ` and ${foreign.length - 3} more` : ''}, which ${kind.command} did not write; move ${foreign.length === 1 ? 'it' : 'them'} out or ${choose}`;
  for (const report of kind.reports) {
    const found = kindOf(join(outDir, report));
    if (found !== undefined && !found.isFile())
      return `refusing to write ${what} to ${display}: its ${report} is not a file ${kind.command} wrote (a link or a folder); ${choose}`;
  }
  const build = kindOf(join(outDir, EVAL_BUILD_FOLDER));
  if (build !== undefined && !build.isDirectory())
    return `refusing to write ${what} to ${display}: its ${EVAL_BUILD_FOLDER} is not a folder ${kind.command} wrote; ${choose}`;
  return undefined;
}

/** Claims the (checked) folder for eval: created with its marker before anything is written into it. */
export function claimEvalOutput(outDir: string, kind: OutputFolderKind = EVAL_OUTPUT): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, kind.marker), `written by ${kind.command}\n`);
}

/** Writes each report whole: a temporary file of this process, renamed over the report's name. */
export function writeEvalReports(outDir: string, reports: Record<string, string>): void {
  for (const [name, text] of Object.entries(reports)) {
    const temp = join(outDir, `.${name}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      writeFileSync(temp, text, { flag: 'wx' });
      renameSync(temp, join(outDir, name));
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
