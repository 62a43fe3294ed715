/**
 * The target of a compile output, from the `target` its `plan.json` records (every compile writes
 * one), never guessed from which files are there. A folder with no readable plan, or one naming a
 * target this agentdef does not know, has none; the problem says which and what to do. A folder
 * missing because its writer was killed between the swap's two renames is put back first (the
 * previous output, whole), so every command that reads an output finds it as the next write would.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { restoreOutputFolder } from '../compiler/output-leftovers';
import { PLAN_FILE } from '../host-contract/output-files';
import type { TargetDescriptor } from './target';
import { isCompileTarget, listText, targetFor, TARGETS } from './targets';

/** A plan.json larger than this is no plan agentdef wrote (they are kilobytes). */
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

/** `plan`: the plan.json the target was read from (parsed, unchecked beyond its target), for callers that need more of it. */
export type OutputTarget =
  | { target: TargetDescriptor; plan: Record<string, unknown>; problem?: undefined }
  | { target?: undefined; problem: string; noPlan: boolean };

export function outputTarget(outDir: string): OutputTarget {
  const path = join(outDir, PLAN_FILE);
  const restore = restoreOutputFolder(outDir);
  if (restore.state === 'busy')
    return {
      problem: `${outDir} is being replaced by a compile that is still running (process ${restore.pid}): try again when it ends`,
      noPlan: false,
    };
  let plan: Record<string, unknown> | null;
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_PLAN_BYTES)
      return { problem: `${path} is not a plan agentdef wrote: compile the agent again`, noPlan: true };
    plan = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> | null;
  } catch (error) {
    const missing = (error as { code?: unknown })?.code === 'ENOENT';
    return {
      problem: missing ? `${outDir} holds no ${PLAN_FILE}` : `${path} is not readable JSON: compile the agent again`,
      noPlan: true,
    };
  }
  const recorded = plan !== null && typeof plan === 'object' ? plan['target'] : undefined;
  if (plan === null || typeof plan !== 'object' || !isCompileTarget(recorded)) {
    const shown = typeof recorded === 'string' ? JSON.stringify(recorded.slice(0, 80)) : 'no target';
    return {
      problem: `${path} names ${shown}, which is none of ${listText(TARGETS.map((t) => t.id))}: compile the agent again with this agentdef`,
      noPlan: false,
    };
  }
  return { target: targetFor(recorded), plan };
}
