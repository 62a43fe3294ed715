/**
 * What the three application executors share: their options, checked and handed to the application
 * operation (plugin/operations/application-run.ts, application-check.ts) as they are: each a
 * string, `input` a list, `mode` and `format` one of the values the operation takes. A value is
 * never read as a flag, and a manifest path that starts with `-` is just a path.
 */
import type { ExecutorContext } from '@nx/devkit';
import { nearestName } from '../plugin/definition/nearest-name';
import type { OperationIo, OperationResult } from '../plugin/operations/io';
import { runOperation } from './operation-io';

/** One executor option: its name and value (`undefined`: left out). */
export type ExecutorOption = readonly [name: string, value: unknown];

/** The options that take one of a few values, and those values. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = { mode: ['dry-run', 'live'], format: ['text', 'json'] };

/** The options that take a list (one string is a list of one). */
const LISTS: readonly string[] = ['input'];

export interface CheckedOptions {
  manifest: string;
  values: Record<string, string | string[]>;
}

/** As the CLI says it (plugin/cli/usage.ts): the value it probably means, and the list. */
function notAllowed(name: string, value: string, allowed: readonly string[]): string {
  const guess = nearestName(value, allowed);
  return `--${name} "${value}" is not allowed${guess ? `: did you mean "${guess}"?` : '.'} It must be one of ${allowed.join(', ')}`;
}

/** The manifest and the options that are set, or the problem with one. */
export function checkApplicationOptions(
  manifest: unknown,
  options: readonly ExecutorOption[],
): CheckedOptions | { problem: string } {
  if (typeof manifest !== 'string' || manifest === '') return { problem: 'the "manifest" option is required' };
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of options) {
    if (value === undefined) continue;
    const list = LISTS.includes(name);
    const items: unknown[] = list && Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'string')
        return { problem: `the "${name}" option must be a string, not ${JSON.stringify(item)}` };
      const allowed = ALLOWED[name];
      if (allowed !== undefined && !allowed.includes(item)) return { problem: notAllowed(name, item, allowed) };
    }
    values[name] = list ? (items as string[]) : (items[0] as string);
  }
  return { manifest, values };
}

/** Runs `operation` with the checked options for `agentdef:<executor>`; a problem with them fails before anything runs. */
export async function runApplicationOperation(
  executor: string,
  checked: CheckedOptions | { problem: string },
  operation: (checked: CheckedOptions, io: OperationIo) => Promise<OperationResult>,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  if ('problem' in checked) {
    console.error(`agentdef:${executor}: ${checked.problem}`);
    return { success: false };
  }
  return runOperation(executor, (io) => operation(checked, io), context);
}
