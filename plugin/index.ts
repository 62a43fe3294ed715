/**
 * The agentdef Nx plugin: register it in `nx.json` `plugins` (`nx g agentdef:init` does) and
 * every `agent.json` / `agent.yaml` becomes a project with `validate`, `plan` and `compile`
 * targets, its pins mirrored as project-graph edges. Kept tiny: Nx loads it on every command.
 *
 * Also the package's programmatic API (see "Using agentdef from a script" in the README):
 * validate, plan, emit in memory and compile, each loaded on its first call, so that importing
 * this module (as Nx does on every command) loads graph inference and nothing more.
 */
export const name = 'agentdef';
export { createNodes, createNodesV2 } from './graph/create-nodes';
export { createDependencies } from './graph/create-dependencies';
export { preTasksExecution } from './graph/compile-target-flag';
export type { AgentdefPluginOptions } from './graph/options';

// The programmatic API. Nx loads this module on every command and needs only the plugin above,
// so each API function loads its layer on first call (`import()`: vitest and the CommonJS build
// both resolve the `.js` name); only formatDiagnostics, a few lines, is loaded up front.
import type * as Compile from './compiler/compile';
import type * as ValidateDefinition from './definition/validate-definition-file';
import type * as ValidateFiles from './definition/validate-files';
import type * as WorkspaceConfigModule from './compiler/workspace-config';
import type * as ApplicationHost from './application/application-host';
import type * as PackRegistry from './application/component-pack-registry';
import type * as LocalGateway from './application/local-gateway-owner';
import type * as Ledgers from './application/execution-ledger';
import type * as SqliteLedger from './application/sqlite-ledger';
import type * as PostgresLedger from './application/postgres-ledger';

export { formatDiagnostics } from './definition/format-diagnostics';

/** Validates the definition in `file` (or `options.text`, named `file`); see validate-definition-file.ts. */
export async function validateDefinition(
  file: string,
  options?: ValidateDefinition.ValidateDefinitionOptions,
): Promise<ValidateDefinition.ValidateDefinitionResult> {
  return (await import('./definition/validate-definition-file.js')).validateDefinition(file, options);
}

/** Validates a list of definition files, as `agentdef validate` does. */
export async function validateDefinitionFiles(
  files: readonly ValidateFiles.DefinitionFile[],
  options?: RuleOptions,
): Promise<ValidateFiles.ValidateFilesResult> {
  return (await import('./definition/validate-files.js')).validateFiles(files, options);
}

/** read → validate → resolve → plan. */
export async function planAgent(options: Compile.PlanAgentOptions): Promise<Compile.PlanAgentResult> {
  return (await import('./compiler/compile.js')).planAgent(options);
}

/** plan → files in memory (nothing is written). */
export async function emitAgent(
  planned: Parameters<typeof Compile.emitAgent>[0],
  inputs: Compile.EmitInputs,
): Promise<Compile.EmitAgentResult> {
  return (await import('./compiler/compile.js')).emitAgent(planned, inputs);
}

/** plan, emit, then one guarded atomic write. */
export async function compileAgent(options: Compile.CompileAgentOptions): Promise<Compile.CompileAgentResult> {
  return (await import('./compiler/compile.js')).compileAgent(options);
}

/** The workspace's tools.json and mcp.json, loaded and checked: what `emitAgent` needs. */
export async function loadWorkspaceConfig(workspaceRoot: string): Promise<WorkspaceConfigModule.LoadedWorkspaceConfig> {
  return (await import('./compiler/workspace-config.js')).loadWorkspaceConfig(workspaceRoot);
}

// Application composition (docs/composing-an-application.md): the host API. Each loads the
// application layer on first call, like the functions above, so these are async here.

/** Serves `catalog`, `plan` and `execute` over the built-ins plus the admitted packs. */
export async function createApplicationHost(
  options: ApplicationHost.ApplicationHostOptions,
): Promise<ApplicationHost.ApplicationHostOpening> {
  return (await import('./application/application-host.js')).createApplicationHost(options);
}

/** Admits component packs with their private adapters and owner resolvers, all or nothing. */
export async function createApplicationComponentPackRegistry(
  options: PackRegistry.ComponentPackRegistryOptions,
): Promise<PackRegistry.ComponentPackRegistryResult> {
  return (await import('./application/component-pack-registry.js')).createApplicationComponentPackRegistry(options);
}

/** The reference gateway owner: approved artifacts, by digest, from one workspace folder. */
export async function createLocalGatewayOwner(
  options: LocalGateway.LocalGatewayOptions,
): Promise<LocalGateway.LocalGatewayOpening> {
  return (await import('./application/local-gateway-owner.js')).createLocalGatewayOwner(options);
}

/** A process-local execution ledger. */
export async function createMemoryExecutionLedger(
  options?: Ledgers.ExecutionLedgerOptions,
): Promise<Ledgers.LedgerOpening> {
  return (await import('./application/execution-ledger.js')).createMemoryExecutionLedger(options);
}

/** A durable execution ledger in SQLite (`node:sqlite` where Node has it, else the optional peer `libsql`). */
export async function openSqliteExecutionLedger(
  options: SqliteLedger.SqliteExecutionLedgerOptions,
): Promise<Ledgers.LedgerOpening> {
  return (await import('./application/sqlite-ledger.js')).openSqliteExecutionLedger(options);
}

/**
 * An execution ledger in PostgreSQL, shared by every host given the same database (the optional
 * peer `pg`). `options.url` is a secret: no answer ever quotes it.
 */
export async function openPostgresExecutionLedger(
  options: PostgresLedger.PostgresExecutionLedgerOptions,
): Promise<Ledgers.LedgerOpening> {
  return (await import('./application/postgres-ledger.js')).openPostgresExecutionLedger(options);
}

export type { ApplicationHostOptions, ApplicationHostOpening } from './application/application-host';
export type {
  ApplicationService,
  ApplicationRun,
  ExecuteRequest,
  ExecuteResponse,
  PlanRequest,
  PlanResponse,
  EntrypointValue,
  ManifestInput,
} from './application/application-service';
export type { ComponentAdapter, OwnerResolver, AdapterCall, AdapterOutcome } from './application/component-adapter';
export type {
  ComponentPackRegistry,
  ComponentPackRegistryOptions,
  ComponentPackRegistryResult,
} from './application/component-pack-registry';
export type { GatewayOwner, GatewayInvocation } from './application/gateway-owner';
export type { ExecutionLedger } from './application/execution-ledger';
export type { ApplicationManifest } from './schema/generated/application-manifest.types';
export type { ApplicationPlan } from './schema/generated/application-plan.types';
export type { ValidateDefinitionOptions, ValidateDefinitionResult } from './definition/validate-definition-file';
export type { DefinitionFile, FileValidation, ValidateFilesResult } from './definition/validate-files';
export type { FormatOptions as FormatDiagnosticsOptions } from './definition/format-diagnostics';
export type { Diagnostic, DiagnosticCode, Severity } from './definition/diagnostic';
import type { RuleOptions } from './definition/rules/rule';
export type { RuleOptions };
export type { AgentDefinition } from './schema/generated/agent-definition.types';
export type {
  PlanAgentOptions,
  PlanAgentResult,
  EmitInputs,
  EmitAgentResult,
  CompileAgentOptions,
  CompileAgentResult,
} from './compiler/compile';
export type { WorkspaceConfig, LoadedWorkspaceConfig } from './compiler/workspace-config';
export type { CompilePlan } from './compiler/plan';
export type { EmittedFile, AdapterOptions } from './targets/target';
export type { CompileTarget, TargetOption } from './targets/targets';
