/**
 * What the command line prints about itself, from the command tables (specs/): each
 * command's usage line, the list `agentdef --help` prints, and the help of one command
 * (`agentdef <command> [subcommand] --help`, `agentdef help <command> [subcommand]`): its usage,
 * what it does, its arguments, every option with its values and default, and its exit codes.
 * Loads no command module, and no table but the ones it is given.
 */
import { type CommandGroupSpec, type CommandSpec, isCommandGroup, type OptionSpec } from './specs/command-spec';

const WIDTH = 100;

/** `text` wrapped at {@link WIDTH} columns: the first line indented by `indent`, the others by `rest`. */
function wrap(text: string, indent: string, rest = indent): string {
  const lines: string[] = [];
  let line = '';
  const margin = () => (lines.length === 0 ? indent : rest);
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && margin().length + line.length + 1 + word.length > WIDTH) {
      lines.push(margin() + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(margin() + line);
  return lines.join('\n');
}

/** What an option's value is called: its name for it, else its allowed values. */
function valueName(option: OptionSpec): string {
  return option.value ?? option.values?.join('|') ?? 'value';
}

/** `--name value`, `--name` for a switch. */
function optionWords(name: string, option: OptionSpec): string {
  return option.type === 'boolean'
    ? `--${name}`
    : `--${name} ${option.required ? `<${valueName(option)}>` : valueName(option)}`;
}

/** The usage line of one command: `agentdef compile <file> [--target auto|…] [--out dir] …`. */
export function usageLine(spec: CommandSpec): string {
  const words = [`agentdef ${spec.name}`, ...spec.arguments.map((a) => a.name)];
  const shownWith = new Set<string>();
  for (const [name, option] of Object.entries(spec.options)) {
    if (shownWith.has(name)) continue;
    const other =
      option.excludes !== undefined && Object.hasOwn(spec.options, option.excludes) ? option.excludes : undefined;
    if (other !== undefined) {
      // Two options that exclude each other: one choice.
      shownWith.add(other);
      words.push(`[${optionWords(name, option)} | ${optionWords(other, spec.options[other]!)}]`);
      continue;
    }
    const shown = optionWords(name, option);
    words.push(option.required ? shown : `[${shown}]${option.multiple ? '...' : ''}`);
  }
  return words.join(' ');
}

/** A group's usage: the group line, then each subcommand's usage indented. */
export function groupUsage(group: CommandGroupSpec): string {
  const subcommands = Object.keys(group.subcommands);
  return [
    `agentdef ${group.name} <${subcommands.join('|')}> ...`,
    ...Object.values(group.subcommands).map((sub) => `    ${usageLine(sub)}`),
  ].join('\n');
}

export function usageOf(spec: CommandSpec | CommandGroupSpec): string {
  return isCommandGroup(spec) ? groupUsage(spec) : usageLine(spec);
}

/** The list `agentdef --help` (and `agentdef help`) prints: every command of `specs`. */
export function commandList(specs: Readonly<Record<string, CommandSpec | CommandGroupSpec>>): string {
  const lines = ['agentdef: validate, plan and compile AgentDefinitions', '', 'usage:'];
  for (const spec of Object.values(specs)) {
    if (isCommandGroup(spec)) lines.push(`  ${groupUsage(spec)}`, wrap(spec.summary, '      '));
    else lines.push(`  ${usageLine(spec)}`, wrap(spec.summary, '      '));
  }
  lines.push(
    '  agentdef help <command> [subcommand]',
    '      explain a command: what it does, every option with its values and default, its exit codes (also: agentdef <command> --help)',
    '  agentdef --version',
    '      print the version of agentdef',
    '  agentdef --help',
    '      print this list',
    '',
    'exit codes: 0 ok, 1 an invalid definition (or a check that says no), 2 a usage error or an input that cannot be read',
    '',
  );
  return lines.join('\n');
}

/** How an option behaves when it is not given, as its help says it. */
function defaultText(option: OptionSpec): string | undefined {
  if (option.required) return 'required';
  if (option.type === 'boolean') return undefined;
  if (option.default !== undefined) return `default: ${String(option.default)}`;
  return option.otherwise !== undefined ? `default: ${option.otherwise}` : undefined;
}

/** The help of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [
    `agentdef ${spec.name}: ${spec.summary}`,
    '',
    `usage: ${usageLine(spec)}`,
    '',
    wrap(spec.description, ''),
  ];
  if (spec.arguments.length > 0) {
    lines.push('', 'arguments:');
    for (const argument of spec.arguments) lines.push(`  ${argument.name}`, wrap(argument.description, '      '));
  }
  lines.push('', 'options:');
  for (const [name, option] of Object.entries(spec.options)) {
    const values =
      option.values !== undefined && option.value !== undefined
        ? ` (one of ${option.values.join(', ')})`
        : option.example !== undefined
          ? ` (e.g. ${option.example})`
          : '';
    const after = defaultText(option);
    lines.push(
      `  ${optionWords(name, option)}${option.multiple ? ' (repeatable)' : ''}`,
      wrap(`${option.description}${values}${after ? `; ${after}` : ''}`, '      '),
    );
  }
  lines.push('  -h, --help', '      print this help');
  const [ok, one, two] = spec.exitCodes;
  lines.push(
    '',
    'exit codes:',
    wrap(`0 ${ok}`, '  ', '    '),
    wrap(`1 ${one}`, '  ', '    '),
    wrap(`2 ${two}`, '  ', '    '),
    '',
  );
  return lines.join('\n');
}

/** The help of a group: what it is, and each subcommand with its usage. */
export function groupHelp(group: CommandGroupSpec): string {
  const lines = [`agentdef ${group.name}: ${group.summary}`, '', wrap(group.description, ''), '', 'commands:'];
  for (const sub of Object.values(group.subcommands)) lines.push(`  ${usageLine(sub)}`, wrap(sub.summary, '      '));
  lines.push(
    '',
    `agentdef help ${group.name} <command> explains one: every option with its values and default, its exit codes.`,
    '',
  );
  return lines.join('\n');
}
