/**
 * `eval` executor (`nx run <agent>:eval`, `nx affected -t eval`): the eval operation
 * (plugin/operations/eval.ts, what `agentdef eval` runs) for one definition, in the workspace root:
 * it compiles and serves the agent, asks it every case of `<project>/evals`, replaying the
 * recordings the target names when that folder exists, and writes eval.json, junit.xml and the
 * signed eval receipt into `out`. Cacheable: Nx restores those files when nothing that can change a
 * score changed (the inferred target's inputs). Succeeds exactly when the run reaches its threshold.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExecutorContext } from '@nx/devkit';
import { type EvalOptions, evaluate } from '../../plugin/operations/eval';
import { runOperation } from '../operation-io';

export interface EvalExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  /** The output folder, relative to the workspace root (default dist/eval/<slug>). */
  out?: string;
  /** The compile target (default auto). */
  target?: string;
  /** Case files or globs instead of the project's evals/ folder, relative to the workspace root. */
  cases?: string[];
  /** The share of cases (0..1) that must pass (default 1). */
  threshold?: number;
  /** The recordings folder to replay, relative to the workspace root; used when it exists. */
  replay?: string;
  /** Record the model exchanges into this folder instead (relative to the workspace root). */
  record?: string;
  /** Cases asked at once (default 4). */
  concurrency?: number;
  /** The key that signs the eval receipt (default: the definition's identity.signingKeyRef). */
  key?: string;
}

/** The operation's options, or the problem with an executor option. */
export function evalOptions(options: EvalExecutorOptions, workspaceRoot: string): EvalOptions | { problem: string } {
  if (typeof options.definition !== 'string' || options.definition === '')
    return { problem: 'the "definition" option is required' };
  const out: EvalOptions = { definition: options.definition };
  for (const name of ['out', 'target', 'key', 'record'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') return { problem: `the "${name}" option must be a string` };
    out[name] = value;
  }
  if (options.cases !== undefined) {
    if (!Array.isArray(options.cases) || options.cases.some((c) => typeof c !== 'string'))
      return { problem: 'the "cases" option must be a list of file paths or globs' };
    out.cases = options.cases;
  }
  for (const name of ['threshold', 'concurrency'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'number') return { problem: `the "${name}" option must be a number` };
    out[name] = value;
  }
  // The inferred target names the folder it hashes; an agent with none yet runs on the live
  // providers (or AGENTDEF_REPLAY / AGENTDEF_RECORD), and --record overrides it.
  if (options.replay !== undefined && out.record === undefined) {
    if (typeof options.replay !== 'string') return { problem: 'the "replay" option must be a string' };
    if (existsSync(resolve(workspaceRoot, options.replay))) out.replay = options.replay;
  }
  return out;
}

export default async function evalExecutor(
  options: EvalExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const evaluated = evalOptions(options, context.root);
  if ('problem' in evaluated) {
    console.error(`agentdef:eval: ${evaluated.problem}`);
    return { success: false };
  }
  return runOperation('eval', (io) => evaluate(evaluated, io), context);
}
