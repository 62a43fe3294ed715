/**
 * The `agentdef` command line: parses the verb and hands over to one command. Never exits the
 * process; returns the exit code (0 ok, 1 invalid definitions, 2 usage or I/O errors).
 *
 * Everything a command writes goes through {@link terminalSafeIo}: control characters, bidi
 * controls and unpaired surrogates from definitions, file names or arguments reach the terminal as
 * `\uXXXX` escapes, never raw (JSON output stays JSON with the same values).
 *
 * Each command module is loaded when its verb runs, not before: `validate` loads only the
 * definition layer, and `--help`, `--version` and usage errors load no command at all. Only
 * `compile` (and whatever the compiler loads eagerly) pays for ts-morph and esbuild.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { terminalSafe } from '../definition/terminal-text';
import { EXIT, type CliIo } from './io';
import { USAGE } from './usage';

type CommandRun = (argv: string[], io: CliIo) => Promise<number>;
type Command = { usage: string; summary: string; load(): CommandRun };

// `require` (not `import()`): the built package is CommonJS, and from a source checkout
// @swc-node/register compiles the required .ts file on the fly.
const COMMANDS: Record<string, Command> = {
  validate: {
    usage: USAGE.validate,
    summary: 'check definitions against the schema and the semantic rules',
    load: () => (require('./commands/validate') as typeof import('./commands/validate')).runValidateCommand,
  },
  plan: {
    usage: USAGE.plan,
    summary: 'resolve the composition and print the flattened compile plan',
    load: () => (require('./commands/plan') as typeof import('./commands/plan')).runPlanCommand,
  },
  compile: {
    usage: USAGE.compile,
    summary: 'compile an agent for its chosen (or the given) runtime target',
    load: () => (require('./commands/compile') as typeof import('./commands/compile')).runCompileCommand,
  },
  run: {
    usage: USAGE.run,
    summary: 'run a compiled HB3 job or local launcher on this machine, serving A2A on loopback',
    load: () => (require('./commands/run') as typeof import('./commands/run')).runRunCommand,
  },
  dev: {
    usage: USAGE.dev,
    summary: 'serve any compiled output on loopback until Ctrl-C (a Worker through miniflare and its loader, HB3 and local-mac through their hosts), printing the card URL and an `agentdef ask` line',
    load: () => (require('./commands/dev') as typeof import('./commands/dev')).runDevCommand,
  },
  deploy: {
    usage: USAGE.deploy,
    summary: 'deploy a compiled output: wrangler deploy (Worker), docker build and push with the job spec (HB3), the user service (local-mac); --dry-run prints',
    load: () => (require('./commands/deploy') as typeof import('./commands/deploy')).runDeployCommand,
  },
  ask: {
    usage: USAGE.ask,
    summary: 'ask a running agent over A2A (@a2a-js/sdk): prints the answer, the task id and state, and verifies the receipt',
    load: () => (require('./commands/ask') as typeof import('./commands/ask')).runAskCommand,
  },
  application: {
    usage: USAGE.application,
    summary: 'application manifests: write the source digest, list the catalog, plan, execute step by step, run the local verification',
    load: () => (require('./commands/application') as typeof import('./commands/application')).runApplicationCommand,
  },
  keys: {
    usage: USAGE.keys,
    summary: 'Ed25519 signing keys: generate one for a keyref:<name>, list them, export a public JWK and its kid',
    load: () => (require('./commands/keys') as typeof import('./commands/keys')).runKeysCommand,
  },
  diff: {
    usage: USAGE.diff,
    summary: 'classify every change between two definitions (major, minor, patch) and check the version bump',
    load: () => (require('./commands/diff') as typeof import('./commands/diff')).runDiffCommand,
  },
  verify: {
    usage: USAGE.verify,
    summary: 'verify a credential (eddsa-jcs-2022, did:key), a signed A2A card or receipts (one, or a JSONL file line by line)',
    load: () => (require('./commands/verify') as typeof import('./commands/verify')).runVerifyCommand,
  },
  promote: {
    usage: USAGE.promote,
    summary: 'move a definition one lifecycle stage up (gates checked) or any stages down, appending a signed transition receipt',
    load: () => (require('./commands/promote') as typeof import('./commands/promote')).runPromoteCommand,
  },
  publish: {
    usage: USAGE.publish,
    summary: 'publish a committed definition to the registry: immutable snapshot, signed card, AgentFacts credential and KYM registration, index entry',
    load: () => (require('./commands/publish') as typeof import('./commands/publish')).runPublishCommand,
  },
  registry: {
    usage: USAGE.registry,
    summary: "check every registry snapshot against the index's digest and every export's signature",
    load: () => (require('./commands/registry') as typeof import('./commands/registry')).runRegistryCommand,
  },
  mcp: {
    usage: USAGE.mcp,
    summary: 'serve agentdef.application.catalog, .plan and .execute as a stdio MCP server',
    load: () => (require('./commands/mcp') as typeof import('./commands/mcp')).runMcpCommand,
  },
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
  lines.push('  agentdef --version', '      print the version of agentdef', '  agentdef --help', '      print this list', '');
  return lines.join('\n');
}

/** `io` with both streams escaped for a terminal (terminal-text.ts). */
export function terminalSafeIo(io: CliIo): CliIo {
  return { cwd: io.cwd, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}

export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const io = terminalSafeIo(rawIo);
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    io.stdout(help());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  if (verb === '--version' || verb === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  // Own keys only: `agentdef constructor` is an unknown command, not Object.prototype's.
  const command = Object.hasOwn(COMMANDS, verb) ? COMMANDS[verb] : undefined;
  if (!command) {
    io.stderr(`error: unknown command "${verb}"\n\n${help()}`);
    return EXIT.usage;
  }
  try {
    return await command.load()(rest, io);
  } catch (error) {
    // A bug (or a broken installation, e.g. a missing dependency), not bad input: say so plainly,
    // without a stack trace in normal output.
    io.stderr(`internal error in agentdef ${verb}: ${(error as Error).message}\nplease report this with the input that caused it\n`);
    return EXIT.usage;
  }
}
