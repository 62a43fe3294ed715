/**
 * The shape of a command's table (one file per command in this folder): its arguments, a
 * one-line summary, a paragraph saying what it does, each option (its value, allowed values,
 * default, what it does) and its exit codes. The parser of a command is built from its table
 * (../usage.ts `parseCommand`), and so are its usage line and its help (../help-text.ts): an option
 * cannot be parsed without being documented, nor documented without being parsed.
 */

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Repeatable: each `--name value` adds one value. */
  readonly multiple?: boolean;
  /** What the value is called in the usage line (`dir`, `n`); default: the allowed values joined by `|`. */
  readonly value?: string;
  /** The only values allowed: anything else is a usage error with the value it probably means. */
  readonly values?: readonly string[];
  /** The allowed value a value that is none probably means (default: the nearest by spelling). */
  readonly suggest?: (given: string) => string | undefined;
  /**
   * What is wrong with a value of this option's form (a key ref, a digest), or undefined when it is
   * well formed: checked by the parser, so a malformed value is a usage error (exit 2) before the
   * command does anything, whatever command takes the option.
   */
  readonly check?: (given: string) => string | undefined;
  /** A well-formed value, shown in the help (every option with a `check` has one). */
  readonly example?: string;
  /** The value the parser gives the option when it is not given. */
  readonly default?: string | boolean;
  /** What happens when the option is not given and no default value stands for it. */
  readonly otherwise?: string;
  /** The option this one cannot be given with (the usage line shows them as one choice: `[--record dir | --replay dir]`). */
  readonly excludes?: string;
  /** Must be given (shown without brackets). */
  readonly required?: boolean;
  /** What it does. */
  readonly description: string;
}

export interface ArgumentSpec {
  /** As the usage line shows it: `<file>`, `<file or dir>...`. */
  readonly name: string;
  readonly description: string;
}

export interface CommandSpec {
  /** The words after `agentdef`: `compile`, `keys generate`. */
  readonly name: string;
  readonly arguments: readonly ArgumentSpec[];
  /** One line, for the list `agentdef --help` prints. */
  readonly summary: string;
  /** One paragraph: what it does, what it reads and writes. */
  readonly description: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** What each exit code means for this command. */
  readonly exitCodes: readonly [ok: string, one: string, two: string];
}

/** A verb whose first argument names one of its subcommands (`keys generate`, `application plan`). */
export interface CommandGroupSpec {
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly subcommands: Readonly<Record<string, CommandSpec>>;
}

export function isCommandGroup(spec: CommandSpec | CommandGroupSpec): spec is CommandGroupSpec {
  return 'subcommands' in spec;
}
