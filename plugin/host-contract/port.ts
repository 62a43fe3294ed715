/**
 * The loopback port a compiled agent is served on, checked the same way everywhere one is taken:
 * `agentdef run --port` and a compiled host's own `--port` (text), and the `run` executor's
 * `port` option (a number).
 */

/** A port number the hosts accept: a whole number from 0 (any free port) to 65535. */
export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
}

/** `--port` text to a number, or a message naming the flag; undefined when absent. */
export function parsePort(text: string | undefined, flag = '--port'): number | string | undefined {
  if (text === undefined) return undefined;
  return /^\d{1,5}$/.test(text) && isPort(Number(text))
    ? Number(text)
    : `${flag} must be a number from 0 to 65535, not "${text}"`;
}

/** A message when an option's value is no port; undefined when it is one or absent. */
export function checkPort(value: unknown, option = 'port'): string | undefined {
  return value === undefined || isPort(value)
    ? undefined
    : `${option} must be a number from 0 to 65535, not ${String(value)}`;
}
