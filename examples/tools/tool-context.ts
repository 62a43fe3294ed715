/**
 * What a tool implementation receives, structurally (the same shape as the portable runtime's
 * `ToolContext`): these modules import nothing, so any host can bundle them.
 */
export interface ToolContext {
  runId: string;
  tool: { id: string; name: string; endpoints?: string[] };
  /** Aborts when the run's wall clock runs out. */
  signal: AbortSignal;
  /** The run's egress-checked fetch: only the origins the agent declares are reachable. */
  fetch: typeof fetch;
}

export type ToolArgs = Record<string, unknown>;

/** The string argument `name`, or an error the model can read. */
export function stringArg(args: ToolArgs, name: string, options: { optional?: boolean; maxLength?: number } = {}): string {
  const value = args[name];
  if (value === undefined && options.optional) return '';
  if (typeof value !== 'string') throw new TypeError(`argument "${name}" must be a string`);
  if (options.maxLength !== undefined && value.length > options.maxLength) throw new RangeError(`argument "${name}" is longer than ${options.maxLength} characters`);
  return value;
}
