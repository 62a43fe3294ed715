import { dirname, resolve } from 'node:path';
import { formatDiagnostics } from '../../definition/format-diagnostics';
import { hasErrors } from '../../definition/diagnostic';
import { stableJson } from '../../compiler/canonical-json';
import { planAgent } from '../../compiler/compile';
import { formatPlanText } from '../../compiler/plan-text';
import { findWorkspaceRoot } from '../../definition/workspace-definitions';
import { EXIT, type CliIo } from '../io';
import { KYM_PREFIX, resolveKymTarget } from '../kym-target';
import { PLAN } from '../specs/plan';
import { parseCommand, usageError } from '../usage';

export interface ResolutionArgs {
  file: string;
  workspaceRoot: string;
  format: 'text' | 'json';
  registryRoot?: string;
  maxDepth?: number;
  maxNodes?: number;
}

/** Turns parsed flags into options, or a usage message. */
export function resolutionArgs(
  io: CliIo,
  positionals: readonly string[],
  values: {
    format: 'text' | 'json';
    registry?: string | undefined;
    'max-depth'?: string | undefined;
    'max-nodes'?: string | undefined;
  },
): ResolutionArgs | string {
  const { format } = values;
  if (positionals.length !== 1)
    return positionals.length === 0
      ? 'name the definition file'
      : `name one definition file, not ${positionals.length}`;
  const file = resolve(io.cwd, positionals[0]!);
  const bound = (flag: string, text: string | undefined): number | string | undefined => {
    if (text === undefined) return undefined;
    return /^[1-9]\d*$/.test(text) ? Number(text) : `--${flag} must be a whole number of at least 1, not "${text}"`;
  };
  const maxDepth = bound('max-depth', values['max-depth']);
  if (typeof maxDepth === 'string') return maxDepth;
  const maxNodes = bound('max-nodes', values['max-nodes']);
  if (typeof maxNodes === 'string') return maxNodes;
  const args: ResolutionArgs = {
    file,
    workspaceRoot: findWorkspaceRoot(dirname(file)) ?? findWorkspaceRoot(io.cwd) ?? io.cwd,
    format,
  };
  if (values.registry !== undefined) args.registryRoot = resolve(io.cwd, values.registry);
  if (maxDepth !== undefined) args.maxDepth = maxDepth;
  if (maxNodes !== undefined) args.maxNodes = maxNodes;
  return args;
}

export async function runPlanCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, PLAN, argv);
  if (typeof parsed === 'number') return parsed;
  const args = resolutionArgs(io, parsed.positionals, parsed.values);
  if (typeof args === 'string') return usageError(io, args, PLAN);
  const named = parsed.positionals[0]!;
  if (named.startsWith(KYM_PREFIX)) {
    const target = await resolveKymTarget(named, io.cwd, parsed.values.registry);
    if (!target.ok) {
      io.stderr(`error: ${target.message}\n`);
      return target.code === 1 ? EXIT.invalid : EXIT.usage;
    }
    args.file = target.file;
    args.workspaceRoot = target.workspaceRoot;
  }

  const result = await planAgent(args);
  if (result.ioError !== undefined) {
    io.stderr(`error: ${result.ioError}\n`);
    return EXIT.usage;
  }
  const failed = hasErrors(result.diagnostics) || !result.plan;
  if (failed) {
    const printed = formatDiagnostics(result.diagnostics, { format: args.format, sources: result.sources });
    if (args.format === 'json') io.stdout(printed);
    else io.stderr(printed);
    return EXIT.invalid;
  }
  if (result.diagnostics.length > 0)
    io.stderr(formatDiagnostics(result.diagnostics, { format: args.format, sources: result.sources }));
  io.stdout(args.format === 'json' ? stableJson(result.plan) : formatPlanText(result.plan!));
  return EXIT.ok;
}
