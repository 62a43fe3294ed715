/**
 * The entrypoint values of an application run, as every command line that runs one reads them
 * (`agentdef application execute` and `check`, so `nx run <application>:execute` and `:check`
 * too): `--input node.port=<json>` (repeatable) and `--inputs <file>` (a JSON list of
 * { node, port, value }, or an object keyed `node.port`); when neither is given, the
 * `inputs.json` beside the manifest (what `nx g agentdef:application` writes), when there is one.
 * An explicit option always wins: the file beside the manifest is then not read at all.
 *
 * Messages name places, never the values or property names given (they may hold anything, a
 * credential included). A problem comes back as a string, the caller's usage error.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { EntrypointValue } from '../application/application-service';
import { ARGUMENT_LIMITS, unquotedJsonReason } from '../application/mcp-tool-contracts';
import { parseStrictJson } from '../runtime/strict-json';

/** The entrypoint values file beside an application manifest. */
export const APPLICATION_INPUTS_FILE = 'inputs.json';

export interface EntrypointInputs {
  values: EntrypointValue[];
  /** The file beside the manifest the values came from (as given relative to the working directory), when no option named any. */
  defaultFile?: string;
}

/** Reads the `--inputs` file: a regular file no larger than the entry point values of one MCP call. */
function readInputsFile(cwd: string, file: string, label: string): { text: string } | string {
  const path = resolve(cwd, file);
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `${label}: cannot read ${file} (not a regular file)`;
    if (stat.size > ARGUMENT_LIMITS.inputJsonTotal)
      return `${label}: ${file} is larger than ${ARGUMENT_LIMITS.inputJsonTotal} bytes, more than the entry point values of one run`;
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    return `${label}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'read failed'})`;
  }
}

/** `--input node.port=<json>` values. */
function parseInputFlags(given: readonly string[]): EntrypointValue[] | string {
  const values: EntrypointValue[] = [];
  for (const item of given) {
    const match = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.([A-Za-z][A-Za-z0-9_-]*)=([\s\S]*)$/.exec(item);
    if (!match) return `--input must be node.port=<json>, for example request.value='{"topic":"x"}'`;
    const parsed = parseStrictJson(match[3]!);
    if (!parsed.ok)
      return `--input ${match[1]}.${match[2]}: the value is not JSON (${unquotedJsonReason(parsed.reason)}); quote a string as '"text"'`;
    values.push({ node: match[1]!, port: match[2]!, value: parsed.value as EntrypointValue['value'] });
  }
  return values;
}

/** The values of an inputs file's text, after `already` values (the total is bounded). */
function parseInputsText(text: string, file: string, already: number, label: string): EntrypointValue[] | string {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return `${label}: ${file} is not JSON (${unquotedJsonReason(parsed.reason)})`;
  const value = parsed.value;
  const count = Array.isArray(value)
    ? value.length
    : value !== null && typeof value === 'object'
      ? Object.keys(value).length
      : 0;
  if (already + count > ARGUMENT_LIMITS.inputs)
    return `${label}: ${file} holds ${count} entry point values; at most ${ARGUMENT_LIMITS.inputs} in all`;
  const values: EntrypointValue[] = [];
  if (Array.isArray(value)) for (const entry of value) values.push(entry as EntrypointValue);
  else if (value !== null && typeof value === 'object') {
    for (const [index, [at, v]] of Object.entries(value).entries()) {
      const dot = at.indexOf('.');
      if (dot < 1) return `${label}: key ${index + 1} of ${file} is not node.port`;
      values.push({ node: at.slice(0, dot), port: at.slice(dot + 1), value: v as EntrypointValue['value'] });
    }
  } else return `${label}: ${file} must hold a list of { node, port, value } or an object keyed node.port`;
  return values;
}

/** Whether `path` is there at all (a link or anything else counts: reading it then says what is wrong). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The run's entrypoint values: the options, else the `inputs.json` beside `manifest` (relative to
 * `cwd`, as given on the command line) when there is one, else none.
 */
export function readEntrypointInputs(
  cwd: string,
  options: { input?: readonly string[] | undefined; inputs?: string | undefined },
  manifest: string,
): EntrypointInputs | string {
  const flags = parseInputFlags(options.input ?? []);
  if (typeof flags === 'string') return flags;
  let file = options.inputs;
  let defaultFile: string | undefined;
  if (file === undefined && flags.length === 0) {
    const beside = join(dirname(resolve(cwd, manifest)), APPLICATION_INPUTS_FILE);
    if (!present(beside)) return { values: [] };
    defaultFile = (relative(cwd, beside) || APPLICATION_INPUTS_FILE).split('\\').join('/');
    file = defaultFile;
  }
  if (file === undefined) return { values: flags };
  // The file beside the manifest was read because no option named the values: say so in every problem with it.
  const label =
    defaultFile === undefined
      ? '--inputs'
      : `the entrypoint values beside the manifest (read because neither --input nor --inputs was given)`;
  const read = readInputsFile(cwd, file, label);
  if (typeof read === 'string') return read;
  const values = parseInputsText(read.text, file, flags.length, label);
  if (typeof values === 'string') return values;
  return { values: [...flags, ...values], ...(defaultFile !== undefined ? { defaultFile } : {}) };
}
