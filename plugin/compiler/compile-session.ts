/**
 * A compile session: what several compiles of one workspace in one process share (the Nx batch
 * executor compiles every agent of a `run-many` this way). The workspace index is scanned once,
 * validated definitions are kept by file and content (an agent pinned by many trees is validated
 * once), one bundler serves every compile (esbuild's one service per process; the Worker
 * loader bundled once; esbuild contexts kept, so agentdef's runtime is parsed once, not per
 * agent), and git is asked once for the source stamp of every agent in a worktree
 * (source-stamp.ts, `sharedSourceStampReader`: the stamp says what the source was when the
 * session began; what the session writes is output, not source). Each compile is otherwise `compileAgent`'s, with the same result for the
 * same inputs: sharing only skips work whose answer cannot differ within the session.
 *
 * A session assumes the workspace's definitions do not change while it lives (the outputs it
 * writes land in `dist/`, which the index never enters); the workspace's tool modules may change,
 * and each bundle reads them as they are. Its owner calls `close` once done: the kept esbuild
 * contexts hold esbuild's process (and so this one) open until then. Never throws.
 */
import { createEsbuildBundler } from './bundle';
import type { Bundler } from './bundler';
import { compileAgent, type CompileAgentOptions, type CompileAgentResult } from './compile';
import type { DefinitionCache } from './resolve';
import { sharedSourceStampReader } from './source-stamp';
import { indexWorkspace, type PinLookup, type WorkspaceIndex } from './workspace-index';

/** A compile's own options; the session supplies the workspace root and what it shares. */
export type SessionCompileOptions = Omit<
  CompileAgentOptions,
  'workspaceRoot' | 'index' | 'definitionCache' | 'bundler' | 'readSourceStamp'
>;

export interface CompileSession {
  readonly workspaceRoot: string;
  compile(options: SessionCompileOptions): Promise<CompileAgentResult>;
  /** Releases the bundler's esbuild contexts once the compiles in flight are done; a later compile still works. */
  close(): Promise<void>;
}

/** The index, or undefined when scanning failed (each compile then scans, and reports, as alone). */
function tryIndex(workspaceRoot: string): WorkspaceIndex | undefined {
  try {
    return indexWorkspace(workspaceRoot);
  } catch {
    return undefined;
  }
}

/**
 * `workspaceRoot` is absolute (a relative one reaches each compile, which reports it). `known`: the
 * workspace's definitions when the caller has them (the Nx batch executor: from the project graph),
 * used instead of scanning.
 */
export function openCompileSession(workspaceRoot: string, known?: PinLookup): CompileSession {
  const definitionCache: DefinitionCache = new Map();
  const bundler: Bundler = createEsbuildBundler({ workspaceRoot, incremental: true });
  const readSourceStamp = sharedSourceStampReader();
  let index: PinLookup | undefined = known;
  let indexed = known !== undefined;
  return {
    workspaceRoot,
    compile(options) {
      if (!indexed) {
        index = tryIndex(workspaceRoot);
        indexed = true;
      }
      return compileAgent({
        ...options,
        workspaceRoot,
        definitionCache,
        bundler,
        readSourceStamp,
        ...(index ? { index } : {}),
      });
    },
    close: () => bundler.dispose().catch(() => undefined),
  };
}
