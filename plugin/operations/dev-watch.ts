/**
 * The rebuild loop of `agentdef dev --watch`: watches the files a compile of the agent reads
 * (dev-watch-files.ts), and on a change (debounced, changes during a rebuild coalesced into one
 * more) compiles the root definition again for the same target into the same output folder, then
 * has the caller reload its host. A compile that fails prints its diagnostics and writes nothing
 * (the last good build keeps serving); the loop never exits on its own. One line per reload on
 * stdout (`recompiled in N ms, reloaded`): the time is printed, never written to a file.
 *
 * Folders are watched rather than files, so an editor that saves by replacing the file (a rename)
 * is seen; a folder event counts only when it names a watched file.
 */
import { type FSWatcher, watch } from 'node:fs';
import { dirname, basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEsbuildBundler } from '../compiler/bundle';
import { compileAgent } from '../compiler/compile';
import { hasCompiledOutput } from '../compiler/compile-summary';
import { hasErrors } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import type { OperationIo } from './io';
import { absoluteIn, type WatchedSource, watchedFiles } from './dev-watch-files';

/** How long the files must be quiet before a rebuild starts. */
export const WATCH_DEBOUNCE_MS = 200;

export type RebuildOutcome = 'reloaded' | 'compile-failed' | 'reload-failed';

export interface WatchOptions extends WatchedSource {
  /** The output folder (absolute) the agent was compiled into; every rebuild writes there. */
  outDir: string;
  io: OperationIo;
  /** Serves the build just written; false when it could not (the caller has said why). */
  reload(): Promise<boolean>;
  /** Called after every rebuild (tests). */
  onRebuild?(outcome: RebuildOutcome): void;
  debounceMs?: number;
}

export interface Watching {
  /** The workspace-relative names watched now. */
  files(): readonly string[];
  /** Stops watching; resolves once a rebuild in progress has finished. */
  close(): Promise<void>;
}

/** Watches the folders of `files` (absolute); `onChange` when an event names one of them. */
function watchFolders(files: readonly string[], onChange: () => void): FSWatcher[] {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  const watchers: FSWatcher[] = [];
  for (const [folder, names] of byFolder) {
    try {
      const watcher = watch(folder, (_event, name) => {
        if (name === null || names.has(name.toString())) onChange();
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // A folder that does not exist (a tool module's folder not made yet): nothing to see there.
    }
  }
  return watchers;
}

export async function watchAndReload(options: WatchOptions): Promise<Watching> {
  const { io } = options;
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  // One bundler across rebuilds: agentdef's own modules (the loader) are bundled once, and esbuild's
  // contexts kept (a rebuild re-reads the files and re-parses only what changed); released on close.
  const bundler = createEsbuildBundler({ workspaceRoot: options.workspaceRoot, incremental: true });
  let files = await watchedFiles(options);
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let pending = false;
  let closed = false;

  const arm = () => {
    for (const watcher of watchers) watcher.close();
    watchers = closed
      ? []
      : watchFolders(
          files.map((name) => absoluteIn(options.workspaceRoot, name)),
          schedule,
        );
  };

  const rebuild = async (): Promise<void> => {
    const started = performance.now();
    const result = await compileAgent({
      file: options.rootFile,
      workspaceRoot: options.workspaceRoot,
      target: options.target,
      outDir: options.outDir,
      bundler,
    });
    const print = () => formatDiagnostics(result.diagnostics, { format: 'text', sources: result.sources });
    let outcome: RebuildOutcome;
    if (result.ioError !== undefined || hasErrors(result.diagnostics) || !hasCompiledOutput(result)) {
      if (result.diagnostics.length > 0) io.stderr(print());
      if (result.ioError !== undefined) io.stderr(`error: ${result.ioError}\n`);
      io.stderr('error: the compile failed; still serving the last good build (fix it and save again)\n');
      outcome = 'compile-failed';
    } else {
      if (result.diagnostics.length > 0) io.stderr(print());
      const reloaded = !closed && (await options.reload());
      if (reloaded) io.stdout(`recompiled in ${Math.round(performance.now() - started)} ms, reloaded\n`);
      outcome = reloaded ? 'reloaded' : 'reload-failed';
    }
    // Follow what the tree reads now (a new child, a new tool module); after a failure, keep
    // watching what the last good build read too, so fixing it is seen.
    const now = await watchedFiles(options);
    files = outcome === 'compile-failed' ? [...new Set([...files, ...now])].sort() : now;
    arm();
    options.onRebuild?.(outcome);
  };

  function start(): void {
    timer = undefined;
    if (closed) return;
    if (running) {
      pending = true;
      return;
    }
    running = rebuild()
      .catch((error: unknown) =>
        io.stderr(`error: the rebuild failed: ${(error as Error).message}; still serving the last good build\n`),
      )
      .finally(() => {
        running = undefined;
        if (pending && !closed) {
          pending = false;
          schedule();
        }
      });
  }

  function schedule(): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(start, debounceMs);
  }

  arm();
  io.stdout(
    `watching ${files.length} files (the definitions, tools.json, mcp.json, tool modules and their imports): a change recompiles and reloads\n`,
  );
  return {
    files: () => files,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      watchers = [];
      await running;
      await bundler.dispose();
    },
  };
}
