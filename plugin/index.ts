/**
 * The agentdef Nx plugin: register it in `nx.json` `plugins` (`nx g agentdef:init` does) and
 * every `agent.json` / `agent.yaml` becomes a project with `validate`, `plan` and `compile`
 * targets, its pins mirrored as project-graph edges. Kept tiny: Nx loads it on every command.
 *
 * Also the package's programmatic API (see "Using agentdef from a script" in the README):
 * validate, plan, emit in memory and compile. The compiler loads ts-morph and esbuild only when
 * an adapter needs them, so importing this module never loads either.
 */
export const name = 'agentdef';
export { createNodes, createNodesV2 } from './graph/create-nodes';
export { createDependencies } from './graph/create-dependencies';
export { preTasksExecution } from './graph/compile-target-flag';
export type { AgentdefPluginOptions } from './graph/options';

// Definitions: validate one file (or text), or many; print diagnostics like the CLI does.
export { validateDefinition } from './definition/validate-definition-file';
export type { ValidateDefinitionOptions, ValidateDefinitionResult } from './definition/validate-definition-file';
export { validateFiles as validateDefinitionFiles } from './definition/validate-files';
export type { DefinitionFile, FileValidation, ValidateFilesResult } from './definition/validate-files';
export { formatDiagnostics } from './definition/format-diagnostics';
export type { FormatOptions as FormatDiagnosticsOptions } from './definition/format-diagnostics';
export type { Diagnostic, DiagnosticCode, Severity } from './definition/diagnostic';
export type { RuleOptions } from './definition/rules/rule';
export type { AgentDefinition } from './schema/generated/agent-definition.types';

// The compiler: plan → emit (in memory) → write, or all three at once.
export { planAgent, emitAgent, compileAgent } from './compiler/compile';
export type { PlanAgentOptions, PlanAgentResult, EmitInputs, EmitAgentResult, CompileAgentOptions, CompileAgentResult } from './compiler/compile';
export { loadWorkspaceConfig } from './compiler/workspace-config';
export type { WorkspaceConfig, LoadedWorkspaceConfig } from './compiler/workspace-config';
export type { CompilePlan } from './compiler/plan';
export type { CompileTarget, EmittedFile, TargetOption, AdapterOptions } from './compiler/targets';
