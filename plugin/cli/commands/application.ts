/**
 * `agentdef application <digest|catalog|plan|execute|check> …`: hands the subcommand to its own
 * module. (The verb itself is loaded only when it runs: plugin/cli/main.ts.)
 */
import type { CliIo } from '../io';
import { APPLICATION } from '../specs/application';
import { subcommandError } from '../usage';
import { runApplicationCheckCommand } from './application-check';
import { runApplicationDigestCommand } from './application-digest';
import {
  runApplicationCatalogCommand,
  runApplicationExecuteCommand,
  runApplicationPlanCommand,
} from './application-run';

type Subcommand = (argv: string[], io: CliIo) => Promise<number>;

const SUBCOMMANDS: Record<string, Subcommand> = {
  digest: runApplicationDigestCommand,
  catalog: runApplicationCatalogCommand,
  plan: runApplicationPlanCommand,
  execute: runApplicationExecuteCommand,
  check: runApplicationCheckCommand,
};

export async function runApplicationCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (run === undefined) return subcommandError(io, APPLICATION, sub);
  return run(rest, io);
}
