/**
 * `promote` executor (`nx run <agent>:promote --to=<stage>`): the promote operation
 * (plugin/operations/promote.ts) for one definition, in the workspace root, printing to the
 * process's streams, succeeding exactly when it exits 0. Never cached: it changes the definition
 * and appends a signed receipt.
 */
import type { ExecutorContext } from '@nx/devkit';
import { type PromoteOptions, promote } from '../../plugin/operations/promote';
import { runOperation } from '../operation-io';

export interface PromoteExecutorOptions {
  /** The definition file, relative to the workspace root. */
  definition: string;
  /** The stage to move to. */
  to?: string;
  /** The signing key ref (default: the definition's identity.signingKeyRef). */
  key?: string;
  /** RFC 3339 time of the transition (default: now). */
  at?: string;
  /** The AgentFacts credential file, relative to the workspace root (for marketplace-published). */
  credential?: string;
  /** Promoting to tool-shipped or mcp-resident needs a passing eval receipt of this exact definition (the plugin's `requireEval` sets it). */
  requireEval?: boolean;
  /** The eval receipt, relative to the workspace root (implies requireEval); default dist/eval/<slug>/eval.receipt.json. */
  evalReceipt?: string;
  /** The signed tool benchmark events every promotion to tool-shipped needs, relative to the workspace root; default dist/bench/<slug>/tool-benchmark-events.json, else dist/eval/<slug>/tool-benchmark-events.json. */
  benchEvents?: string;
}

/** The operation's options, or the problem with an executor option. */
export function promoteOptions(options: PromoteExecutorOptions): PromoteOptions | { problem: string } {
  if (typeof options.definition !== 'string' || options.definition === '')
    return { problem: 'the "definition" option is required' };
  if (typeof options.to !== 'string' || options.to === '')
    return { problem: 'name the stage: nx run <agent>:promote --to=<stage>' };
  const promoted: PromoteOptions = { file: options.definition, to: options.to, format: 'text' };
  if (options.requireEval !== undefined) {
    if (typeof options.requireEval !== 'boolean') return { problem: 'the "requireEval" option must be true or false' };
    if (options.requireEval) promoted.requireEval = true;
  }
  for (const name of ['key', 'at', 'credential', 'evalReceipt', 'benchEvents'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { problem: `the "${name}" option must be a string` };
    promoted[name] = value;
  }
  return promoted;
}

export default async function promoteExecutor(
  options: PromoteExecutorOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const promoted = promoteOptions(options);
  if ('problem' in promoted) {
    console.error(`agentdef:promote: ${promoted.problem}`);
    return { success: false };
  }
  return runOperation('promote', (io) => promote(promoted, io), context);
}
