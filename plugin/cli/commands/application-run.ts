/**
 * `agentdef application catalog | plan | execute`: their arguments become the options of the
 * application operations (plugin/operations/application-run.ts).
 */
import { applicationCatalog, applicationExecute, applicationPlan } from '../../operations/application-run';
import type { CliIo } from '../io';
import { APPLICATION } from '../specs/application';
import { parseCommand, usageError } from '../usage';

const { catalog: CATALOG, plan: PLAN, execute: EXECUTE } = APPLICATION.subcommands;

export async function runApplicationCatalogCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, CATALOG, argv);
  if (typeof parsed === 'number') return parsed;
  return applicationCatalog(parsed.values, io);
}

export async function runApplicationPlanCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, PLAN, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) return usageError(io, 'name exactly one manifest file', PLAN);
  return applicationPlan({ ...parsed.values, manifest: parsed.positionals[0]! }, io);
}

export async function runApplicationExecuteCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, EXECUTE, argv);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length !== 1) return usageError(io, 'name exactly one manifest file', EXECUTE);
  const result = await applicationExecute({ ...parsed.values, manifest: parsed.positionals[0]! }, io);
  return typeof result === 'number' ? result : usageError(io, result.usage, EXECUTE);
}
