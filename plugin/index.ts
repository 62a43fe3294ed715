/**
 * The agentdef Nx plugin: register it in `nx.json` `plugins` (`nx g agentdef:init` does) and
 * every `agent.json` / `agent.yaml` becomes a project with `validate`, `plan` and `compile`
 * targets, its pins mirrored as project-graph edges. Kept tiny: Nx loads it on every command.
 */
export const name = 'agentdef';
export { createNodes, createNodesV2 } from './graph/create-nodes';
export { createDependencies } from './graph/create-dependencies';
export { preTasksExecution } from './graph/compile-target-flag';
export type { AgentdefPluginOptions } from './graph/options';
