/**
 * The `agentdef` command line: parses the verb and hands over to one command. Never exits the
 * process; returns the exit code (0 ok, 1 invalid definitions, 2 usage or I/O errors).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, type CliIo } from './io';
import { runCompileCommand, COMPILE_USAGE } from './commands/compile';
import { runPlanCommand, PLAN_USAGE } from './commands/plan';
import { runValidateCommand, VALIDATE_USAGE } from './commands/validate';
import { runRunCommand, RUN_USAGE } from './commands/run';

type Command = { usage: string; summary: string; run(argv: string[], io: CliIo): Promise<number> };

const COMMANDS: Record<string, Command> = {
  validate: { usage: VALIDATE_USAGE, summary: 'check definitions against the schema and the semantic rules', run: runValidateCommand },
  plan: { usage: PLAN_USAGE, summary: 'resolve the composition and print the flattened compile plan', run: runPlanCommand },
  compile: { usage: COMPILE_USAGE, summary: 'compile an agent for its chosen (or the given) runtime target', run: runCompileCommand },
  run: { usage: RUN_USAGE, summary: 'run a compiled HB3 job or local launcher on this machine, serving A2A on loopback', run: runRunCommand },
};

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function help(): string {
  const lines = ['agentdef: validate, plan and compile AgentDefinitions', '', 'usage:'];
  for (const command of Object.values(COMMANDS)) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  lines.push('  agentdef --version', '');
  return lines.join('\n');
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    io.stdout(help());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  if (verb === '--version' || verb === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[verb];
  if (!command) {
    io.stderr(`error: unknown command "${verb}"\n\n${help()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // A bug, not bad input: say so plainly, without a stack trace in normal output.
    io.stderr(`internal error in agentdef ${verb}: ${(error as Error).message}\nplease report this with the input that caused it\n`);
    return EXIT.usage;
  }
}
