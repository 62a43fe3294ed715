/**
 * What every verb shares: its parser, built from its table in specs/ (so every option
 * it accepts is documented, and every documented option is accepted), the usage error, and the
 * check of options that take one of a few values (with the value a mistyped one probably means).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { nearestName } from '../definition/nearest-name';
import type { CommandGroupSpec, CommandSpec, OptionSpec } from './specs/command-spec';
import { commandHelp, usageOf } from './help-text';
import { EXIT, type CliIo } from './io';

type OptionValue<O extends OptionSpec> = O extends { type: 'boolean' }
  ? boolean
  : O extends { multiple: true }
    ? string[]
    : O extends { values: readonly (infer V)[] }
      ? V
      : string;

/** The parsed options of a command: each option's value (never undefined when the option has a default). */
export type OptionValues<S extends CommandSpec> = {
  -readonly [K in keyof S['options']]: S['options'][K] extends { default: string | boolean }
    ? OptionValue<S['options'][K]>
    : OptionValue<S['options'][K]> | undefined;
};

export interface ParsedCommand<S extends CommandSpec> {
  values: OptionValues<S>;
  positionals: string[];
}

/** `--help` / `-h`: every command takes it, and it is documented in every command's help. */
export const HELP_OPTION = { type: 'boolean', short: 'h' } as const;

/** The `parseArgs` options of a command: exactly its table's, plus `--help`. */
export function parserOptions(spec: CommandSpec): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = { help: HELP_OPTION };
  for (const [name, option] of Object.entries(spec.options)) {
    options[name] = {
      type: option.type,
      ...(option.multiple ? { multiple: true } : {}),
      ...(option.default !== undefined ? { default: option.default } : {}),
    } as NonNullable<ParseArgsConfig['options']>[string];
  }
  return options;
}

export function usageError(io: CliIo, message: string, usage: CommandSpec | CommandGroupSpec | string): number {
  io.stderr(`error: ${message}\nusage: ${typeof usage === 'string' ? usage : usageOf(usage)}\n`);
  return EXIT.usage;
}

/**
 * What is wrong with `value` for an option: its table's own check of the value's form, else, for an
 * option that takes one of `option.values`, the value it probably means (the option's own
 * suggestion, else the nearest by spelling) and the list; undefined when allowed.
 */
export function optionValueProblem(name: string, option: OptionSpec, value: string): string | undefined {
  const malformed = option.check?.(value);
  if (malformed !== undefined) return `--${name}: ${malformed}`;
  const allowed = option.values;
  if (allowed === undefined || allowed.includes(value)) return undefined;
  const guess = option.suggest?.(value) ?? nearestName(value, allowed);
  const shown = mayBeKeyMaterial(value) ? `(a value of ${value.length} characters, not shown)` : `"${value}"`;
  return `--${name} ${shown} is not allowed${guess ? `: did you mean "${guess}"?` : '.'} It must be one of ${allowed.join(', ')}`;
}

/**
 * Parses a command's arguments with the parser its table describes. `--help` prints the command's
 * help; an unknown option, a missing value or a value the option does not take is the usage error
 * every verb prints. A number is the exit code to return.
 */
export function parseCommand<S extends CommandSpec>(
  io: CliIo,
  spec: S,
  argv: readonly string[],
): ParsedCommand<S> | number {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: spec.arguments.length > 0,
      strict: true,
      options: parserOptions(spec),
    }) as typeof parsed;
  } catch (error) {
    return usageError(io, withoutKeyMaterial(String((error as Error).message)), spec);
  }
  if (parsed.values['help'] === true) {
    io.stdout(commandHelp(spec));
    return EXIT.ok;
  }
  delete parsed.values['help'];
  for (const [name, option] of Object.entries(spec.options)) {
    const given = parsed.values[name];
    for (const value of Array.isArray(given) ? given : typeof given === 'string' ? [given] : []) {
      const problem = optionValueProblem(name, option, String(value));
      if (problem !== undefined) return usageError(io, problem, spec);
    }
  }
  return { values: parsed.values as OptionValues<S>, positionals: parsed.positionals };
}

/** The command a mistyped one probably means: the nearest by spelling, else the one name it begins (`exec` → `execute`). */
export function suggestName(given: string, names: readonly string[]): string | undefined {
  const nearest = nearestName(given, names);
  if (nearest !== undefined || given.length < 2) return nearest;
  const begun = names.filter((name) => name.startsWith(given.toLowerCase()));
  return begun.length === 1 ? begun[0] : undefined;
}

/** The subcommand table a group's first argument names, or undefined. */
export function subcommandOf(group: CommandGroupSpec, name: string | undefined): CommandSpec | undefined {
  return name !== undefined && Object.hasOwn(group.subcommands, name) ? group.subcommands[name] : undefined;
}

/** The usage error for a group's missing or unknown subcommand, with the one it probably means. */
export function subcommandError(io: CliIo, group: CommandGroupSpec, given: string | undefined): number {
  const names = Object.keys(group.subcommands);
  if (given === undefined)
    return usageError(
      io,
      `name a subcommand: ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)}`,
      group,
    );
  const guess = suggestName(given, names);
  return usageError(
    io,
    `unknown ${group.name} subcommand "${given}"${guess ? `: did you mean "${guess}"?` : ''}`,
    group,
  );
}

/**
 * A parser message with every quoted argument that could be key material replaced by its length:
 * over 40 characters, a line break or control character, JSON, or a run of 16 or more base64
 * characters mixing upper case, lower case and digits. A PEM block, a JWK or a token given where
 * an option belongs is never repeated (this module stays light: no secrets rule is loaded).
 */
function withoutKeyMaterial(message: string): string {
  const quoted = /'([^']*)'/.exec(message);
  const text = quoted?.[1];
  if (quoted === null || text === undefined) return message.split('\n')[0] ?? '';
  const risky = mayBeKeyMaterial(text);
  // The parser repeats the argument further on (a hint with it after `--`): nothing after it is kept.
  return risky
    ? `${message.slice(0, quoted.index).trimEnd()} (an argument of ${text.length} characters, not shown)`
    : (message.split('\n')[0] ?? '');
}

/** Whether an argument could be key material, and so is never repeated (see {@link withoutKeyMaterial}). */
function mayBeKeyMaterial(text: string): boolean {
  const mixed = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);
  return (
    text.length > 40 ||
    !/^[\x20-\x7e]*$/.test(text) ||
    /[{}"]/.test(text) ||
    (text.match(/[A-Za-z0-9+/_=-]{16,}/g) ?? []).some(mixed)
  );
}
