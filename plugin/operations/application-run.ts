/**
 * The application operations catalog, plan and execute, behind `agentdef application catalog |
 * plan | execute` and the `agentdef:application-plan` / `-execute` executors: thin shells over the
 * application service (plugin/application/application-host.ts), set up from the options by
 * open-application-host.ts.
 *
 * - `catalog`: the active catalog's digests and components (what a manifest is authored against).
 * - `plan <file>`: the plan and its digest, or located diagnostics (exit 1).
 * - `execute <file>`: plans (or takes `--expect <digest>`, the plan the caller accepted), then
 *   executes with the entrypoint values of `--input node.port=<json>` (repeatable) or
 *   `--inputs <file>` (a JSON list of { node, port, value }, or an object keyed `node.port`),
 *   else of the `inputs.json` beside the manifest (application-inputs.ts, shared with `check`).
 *   Exit 0 when the run succeeded (or replayed a success), 1 when it stopped or was refused.
 *   Without `--key`, every call is a new run (a fresh key).
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ulid } from 'ulid';
import type { ApplicationService, ExecuteResponse, ManifestInput } from '../application/application-service';
import type { Diagnostic } from '../definition/diagnostic';
import { formatDiagnostics } from '../definition/format-diagnostics';
import { findWorkspaceRoot } from '../definition/workspace-definitions';
import type { ApplicationPlan } from '../schema/generated/application-plan.types';
import { stableJson } from '../compiler/canonical-json';
import { readEntrypointInputs } from './application-inputs';
import { failureExitCode } from './exit-code';
import { EXIT, type ExitCode, type OperationIo, type OperationResult } from './io';
import { openApplicationHost } from './open-application-host';

/** How the application host is set up (open-application-host.ts), and how results print. */
export interface ApplicationHostOptions {
  format: 'text' | 'json';
  /** The approved-artifacts folder, workspace-relative. */
  artifacts?: string | undefined;
  /** The SQLite execution ledger file, relative to the working folder. */
  ledger?: string | undefined;
  /** An embedding host module, relative to the working folder. */
  host?: string | undefined;
}

export interface ApplicationPlanOptions extends ApplicationHostOptions {
  /** The manifest file, relative to the working folder. */
  manifest: string;
  mode: 'dry-run' | 'live';
}

export interface ApplicationExecuteOptions extends ApplicationPlanOptions {
  /** Entrypoint values, each `node.port=<json>`. */
  input?: readonly string[] | undefined;
  /** A JSON file of entrypoint values, relative to the working folder. */
  inputs?: string | undefined;
  /** The idempotency key (default a fresh one: a new run). */
  key?: string | undefined;
  /** The plan digest the caller accepted (default the digest of the plan made now). */
  expect?: string | undefined;
}

interface Opened {
  service: ApplicationService;
  workspaceRoot: string;
  format: 'text' | 'json';
}

/** Finds the workspace and opens the host; a number is the exit code of a failure. */
async function open(io: OperationIo, values: ApplicationHostOptions, anchor: string): Promise<Opened | ExitCode> {
  const { format } = values;
  const workspaceRoot = findWorkspaceRoot(anchor) ?? findWorkspaceRoot(io.cwd) ?? io.cwd;
  const host = await openApplicationHost({
    workspaceRoot,
    cwd: io.cwd,
    artifacts: values.artifacts,
    ledger: values.ledger,
    host: values.host,
  });
  if (!host.ok) {
    io.stderr(`error: ${host.message}\n`);
    return EXIT.usage;
  }
  return { service: host.service, workspaceRoot, format };
}

/** The manifest file as the host reads it: workspace-relative. */
function manifestInput(io: OperationIo, workspaceRoot: string, file: string): ManifestInput {
  return { path: relative(workspaceRoot, resolve(io.cwd, file)).split('\\').join('/') };
}

function printDiagnostics(
  io: OperationIo,
  diagnostics: readonly Diagnostic[],
  format: 'text' | 'json',
  workspaceRoot: string,
): void {
  if (diagnostics.length === 0) return;
  const sources = new Map<string, string>();
  for (const d of diagnostics) {
    if (sources.has(d.file) || d.file.startsWith('<')) continue;
    try {
      sources.set(d.file, readFileSync(resolve(workspaceRoot, d.file), 'utf8'));
    } catch {
      // no source line then
    }
  }
  const text = formatDiagnostics([...diagnostics], { format, sources });
  if (format === 'json') io.stdout(text);
  else io.stderr(text);
}

export function formatApplicationPlanText(plan: ApplicationPlan): string {
  const lines = [
    `${plan.application.id}@${plan.application.revision}: plan (${plan.mode})`,
    `  plan digest      ${plan.digest}`,
    `  catalog          ${plan.catalogDigest}`,
    `  adapter policy   ${plan.adapterPolicyDigest}`,
    '  steps',
  ];
  const width = Math.max(...plan.steps.map((s) => s.node.length));
  plan.steps.forEach((step, i) => {
    const after = step.after.length > 0 ? `  after ${step.after.join(', ')}` : '';
    lines.push(
      `    ${String(i + 1).padStart(2)}. ${step.node.padEnd(width)}  ${step.component.id}@${step.component.revision}  ${step.sideEffect === 'external' ? 'external, ' : ''}${step.owner.name}${after}`,
    );
  });
  lines.push(`  entrypoints      ${plan.entrypoints.map((e) => `${e.node}.${e.port} (${e.kind})`).join(', ')}`);
  lines.push(`  outputs          ${plan.outputs.map((o) => `${o.name} <- ${o.node}.${o.port}`).join(', ')}`);
  lines.push(
    `  bounds           ${plan.bounds.maxSteps} steps, ${plan.bounds.maxRuntimeMs} ms, ${plan.bounds.maxOutputBytes} output bytes`,
  );
  return `${lines.join('\n')}\n`;
}

/** Prints the active catalog: its digests and components. */
export async function applicationCatalog(options: ApplicationHostOptions, io: OperationIo): Promise<ExitCode> {
  const opened = await open(io, options, io.cwd);
  if (typeof opened === 'number') return opened;
  const catalog = (await opened.service.catalog()) as {
    catalogDigest: string;
    adapterPolicyDigest: string;
    components: { id: string; revision: string; title: string; evidence: { modes: string[]; sideEffect: string } }[];
  };
  await opened.service.close();
  if (opened.format === 'json') {
    io.stdout(stableJson(catalog));
    return EXIT.ok;
  }
  const lines = [
    `catalog digest          ${catalog.catalogDigest}`,
    `adapter-policy digest   ${catalog.adapterPolicyDigest}`,
    'components',
  ];
  for (const c of catalog.components)
    lines.push(
      `  ${c.id}@${c.revision}  ${c.title} (${c.evidence.modes.join(', ')}; side effect ${c.evidence.sideEffect})`,
    );
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** Prints the manifest's plan and its digest, or located diagnostics (exit 1). */
export async function applicationPlan(options: ApplicationPlanOptions, io: OperationIo): Promise<ExitCode> {
  const { mode, manifest: file } = options;
  const opened = await open(io, options, dirname(resolve(io.cwd, file)));
  if (typeof opened === 'number') return opened;
  const result = await opened.service.plan({ manifest: manifestInput(io, opened.workspaceRoot, file), mode });
  await opened.service.close();
  if (!result.ok) {
    printDiagnostics(io, result.diagnostics, opened.format, opened.workspaceRoot);
    return failureExitCode(result.diagnostics);
  }
  printDiagnostics(io, result.diagnostics, 'text', opened.workspaceRoot);
  io.stdout(opened.format === 'json' ? stableJson(result.plan) : formatApplicationPlanText(result.plan));
  return EXIT.ok;
}

function formatRunText(response: Extract<ExecuteResponse, { ok: true }>, key: string): string {
  const { run } = response;
  const lines = [
    `${run.application.id}@${run.application.revision}: ${run.status}${response.replayed ? ' (replayed from the ledger)' : ''} (${run.mode})`,
    `  plan digest      ${run.planDigest}`,
    `  idempotency key  ${key}`,
  ];
  if (run.stop)
    lines.push(
      `  stopped          ${run.stop.reason} at ${run.stop.node ?? 'the outputs'}: ${run.stop.message} [${run.stop.code}]`,
    );
  if (run.reconciliationRequired)
    lines.push('  reconciliation   required: an owner dispatched before the run stopped; reconcile before any retry');
  lines.push('  steps');
  for (const step of run.steps) lines.push(`    ${step.node}: ${step.status}${step.dispatched ? ' (dispatched)' : ''}`);
  if (run.outputs) {
    lines.push('  outputs');
    for (const [name, value] of Object.entries(run.outputs)) lines.push(`    ${name}: ${JSON.stringify(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Plans (or takes `expect`), then executes step by step; exit 0 when the run succeeded, 1 when it stopped or was refused. */
export async function applicationExecute(
  options: ApplicationExecuteOptions,
  io: OperationIo,
): Promise<OperationResult> {
  const { mode, manifest: file } = options;
  const entrypoint = readEntrypointInputs(io.cwd, options, file);
  if (typeof entrypoint === 'string') return { usage: entrypoint };
  const inputs = entrypoint.values;
  if (entrypoint.defaultFile !== undefined)
    io.stderr(
      `note: entrypoint values from ${entrypoint.defaultFile}, beside the manifest (--input or --inputs give others)\n`,
    );
  const opened = await open(io, options, dirname(resolve(io.cwd, file)));
  if (typeof opened === 'number') return opened;
  const manifest = manifestInput(io, opened.workspaceRoot, file);
  try {
    let expected = options.expect;
    if (expected === undefined) {
      const planned = await opened.service.plan({ manifest, mode });
      if (!planned.ok) {
        printDiagnostics(io, planned.diagnostics, opened.format, opened.workspaceRoot);
        return failureExitCode(planned.diagnostics);
      }
      expected = planned.plan.digest;
    }
    const key = options.key ?? `cli-${ulid()}`;
    const response = await opened.service.execute({
      manifest,
      mode,
      expectedPlanDigest: expected,
      idempotencyKey: key,
      inputs,
    });
    if (opened.format === 'json') io.stdout(stableJson(response));
    if (!response.ok) {
      if (opened.format === 'text') {
        io.stderr(`error: ${response.refusal}: ${response.message}\n`);
        printDiagnostics(io, response.diagnostics, 'text', opened.workspaceRoot);
      }
      return failureExitCode(response.diagnostics);
    }
    if (opened.format === 'text') {
      printDiagnostics(io, response.diagnostics, 'text', opened.workspaceRoot);
      io.stdout(formatRunText(response, key));
    }
    return response.run.status === 'succeeded' ? EXIT.ok : EXIT.invalid;
  } finally {
    await opened.service.close();
  }
}
