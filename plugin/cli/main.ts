/**
 * The `agentdef` command line: parses the verb and hands over to one command. Never exits the
 * process; returns the exit code (0 ok, 1 invalid definitions, 2 usage or I/O errors).
 *
 * Everything a command writes goes through {@link terminalSafeIo}: control characters, bidi
 * controls and unpaired surrogates from definitions, file names or arguments reach the terminal as
 * `\uXXXX` escapes, never raw (JSON output stays JSON with the same values).
 *
 * Each command module is loaded when its verb runs, not before: `validate` loads only the
 * definition layer, and `--help`, `agentdef help <command>`, `<command> --help`, `--version` and
 * an unknown verb load no command at all (what they print comes from the command tables,
 * specs/). Only `compile` (and whatever the compiler loads eagerly) pays for the code writer
 * and esbuild.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { terminalSafe } from '../definition/terminal-text';
import { type CommandGroupSpec, type CommandSpec, isCommandGroup } from './specs/command-spec';
import { commandHelp, commandList, groupHelp } from './help-text';
import { EXIT, type CliIo } from './io';
import { subcommandError, subcommandOf, suggestName, usageError } from './usage';

type CommandRun = (argv: string[], io: CliIo) => Promise<number>;

// `require` (not `import()`): the built package is CommonJS, and from a source checkout
// @swc-node/register compiles the required .ts file on the fly. What each command is, takes and
// prints as help is in its table (specs/); only running it loads its module.
const COMMANDS: Record<string, () => CommandRun> = {
  validate: () => (require('./commands/validate') as typeof import('./commands/validate')).runValidateCommand,
  plan: () => (require('./commands/plan') as typeof import('./commands/plan')).runPlanCommand,
  compile: () => (require('./commands/compile') as typeof import('./commands/compile')).runCompileCommand,
  run: () => (require('./commands/run') as typeof import('./commands/run')).runRunCommand,
  dev: () => (require('./commands/dev') as typeof import('./commands/dev')).runDevCommand,
  eval: () => (require('./commands/eval') as typeof import('./commands/eval')).runEvalCommand,
  'bench-tool': () => (require('./commands/bench-tool') as typeof import('./commands/bench-tool')).runBenchToolCommand,
  deploy: () => (require('./commands/deploy') as typeof import('./commands/deploy')).runDeployCommand,
  ask: () => (require('./commands/ask') as typeof import('./commands/ask')).runAskCommand,
  application: () =>
    (require('./commands/application') as typeof import('./commands/application')).runApplicationCommand,
  keys: () => (require('./commands/keys') as typeof import('./commands/keys')).runKeysCommand,
  diff: () => (require('./commands/diff') as typeof import('./commands/diff')).runDiffCommand,
  verify: () => (require('./commands/verify') as typeof import('./commands/verify')).runVerifyCommand,
  export: () => (require('./commands/export') as typeof import('./commands/export')).runExportCommand,
  promote: () => (require('./commands/promote') as typeof import('./commands/promote')).runPromoteCommand,
  publish: () => (require('./commands/publish') as typeof import('./commands/publish')).runPublishCommand,
  registry: () => (require('./commands/registry') as typeof import('./commands/registry')).runRegistryCommand,
  reputation: () => (require('./commands/reputation') as typeof import('./commands/reputation')).runReputationCommand,
  mcp: () => (require('./commands/mcp') as typeof import('./commands/mcp')).runMcpCommand,
};

/** The verbs the CLI runs (each must have a table in specs/: help.test.ts checks it). */
export function dispatchedVerbs(): string[] {
  return Object.keys(COMMANDS);
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** Every command's table: read only to print help or to answer an unknown verb, so a running command loads its own table alone. */
function commandSpecs(): Readonly<Record<string, CommandSpec | CommandGroupSpec>> {
  return (require('./specs/index') as typeof import('./specs/index')).COMMAND_SPECS;
}

/** Whether the arguments ask for help: `--help` or `-h` before any `--`. */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * The help `words` name (`compile`, `keys generate`), printed, exit 0; an unknown command or
 * subcommand is a usage error with the one it probably means.
 */
function printHelp(io: CliIo, words: readonly string[]): number {
  const [verb, sub, ...extra] = words;
  if (verb === undefined) {
    io.stdout(commandList(commandSpecs()));
    return EXIT.ok;
  }
  const specs = commandSpecs();
  const spec = Object.hasOwn(specs, verb) ? specs[verb] : undefined;
  if (spec === undefined) return unknownCommand(io, verb);
  if (!isCommandGroup(spec)) {
    if (sub !== undefined) return usageError(io, `agentdef ${verb} has no subcommand "${sub}"`, spec);
    io.stdout(commandHelp(spec));
    return EXIT.ok;
  }
  if (sub === undefined) {
    io.stdout(groupHelp(spec));
    return EXIT.ok;
  }
  const subSpec = subcommandOf(spec, sub);
  if (subSpec === undefined) return subcommandError(io, spec, sub);
  if (extra.length > 0) return usageError(io, `agentdef ${verb} ${sub} has no subcommand "${extra[0]}"`, subSpec);
  io.stdout(commandHelp(subSpec));
  return EXIT.ok;
}

function unknownCommand(io: CliIo, verb: string): number {
  const guess = suggestName(verb, Object.keys(commandSpecs()));
  io.stderr(
    `error: unknown command "${verb}"${guess ? `: did you mean "${guess}"?` : ''}\n\n${commandList(commandSpecs())}`,
  );
  return EXIT.usage;
}

/** `io` with both streams escaped for a terminal (terminal-text.ts). */
export function terminalSafeIo(io: CliIo): CliIo {
  return {
    cwd: io.cwd,
    stdout: (text) => io.stdout(terminalSafe(text)),
    stderr: (text) => io.stderr(terminalSafe(text)),
  };
}

export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const io = terminalSafeIo(rawIo);
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h') {
    io.stdout(commandList(commandSpecs()));
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  if (verb === 'help') return printHelp(io, rest);
  if (verb === '--version' || verb === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  // Own keys only: `agentdef constructor` is an unknown command, not Object.prototype's.
  const load = Object.hasOwn(COMMANDS, verb) ? COMMANDS[verb] : undefined;
  if (!load) return unknownCommand(io, verb);
  // `agentdef compile --help`, `agentdef keys generate -h`: the help, without loading the command.
  if (asksForHelp(rest)) {
    const spec = commandSpecs()[verb]!;
    const words = isCommandGroup(spec) && rest[0] !== undefined && !rest[0].startsWith('-') ? [verb, rest[0]] : [verb];
    return printHelp(io, words);
  }
  try {
    return await load()(rest, io);
  } catch (error) {
    // A bug (or a broken installation, e.g. a missing dependency), not bad input: say so plainly,
    // without a stack trace in normal output.
    io.stderr(
      `internal error in agentdef ${verb}: ${(error as Error).message}\nplease report this with the input that caused it\n`,
    );
    return EXIT.usage;
  }
}
