/**
 * `nx g agentdef:init`: registers the plugin in `nx.json`, so every `agent.json` / `agent.yaml`
 * (and `agent.yml`) and every `application.json` / `application.yaml` of the workspace becomes a
 * project, with the plugin option `operationalTargets` (each agent's `run`, `serve`, `promote`,
 * `publish` and `deploy` targets; `--operationalTargets=false` leaves it out). Idempotent: an existing `agentdef`
 * registration, whatever its options, is left exactly as it is, and init says so.
 *
 * Nx 23 resolves a bare `nx g agent` without any default collection (that setting is gone since
 * Nx 17): it offers every installed or local plugin that has an `agent` generator, and runs it
 * directly when there is only one. So init has nothing more to set for that.
 */
import { logger, readNxJson, updateNxJson, type GeneratorCallback, type Tree } from '@nx/devkit';
import type { InitGeneratorSchema } from './schema';

export const PLUGIN_NAME = 'agentdef';
/** Agent definitions and application manifests. */
export const DEFAULT_INCLUDE = [
  '**/agent.json',
  '**/agent.yaml',
  '**/agent.yml',
  '**/application.json',
  '**/application.yaml',
  '**/application.yml',
];

export function isAgentdefPlugin(entry: string | { plugin: string }): boolean {
  const specifier = typeof entry === 'string' ? entry : entry.plugin;
  return specifier === PLUGIN_NAME || specifier.startsWith(`${PLUGIN_NAME}/`);
}

export function isPluginRegistered(tree: Tree): boolean {
  return (readNxJson(tree)?.plugins ?? []).some(isAgentdefPlugin);
}

/** What init tells the user when nx.json already registers the plugin (at `plugins[index]`). */
export function alreadyRegisteredMessage(index: number): string {
  return `agentdef:init: the agentdef plugin is already registered in nx.json (plugins[${index}]); nothing changed`;
}

export async function initGenerator(tree: Tree, options: InitGeneratorSchema = {}): Promise<GeneratorCallback> {
  const nxJson = readNxJson(tree) ?? {};
  const plugins = nxJson.plugins ?? [];
  const registered = plugins.findIndex(isAgentdefPlugin);
  if (registered >= 0) {
    logger.info(alreadyRegisteredMessage(registered));
    return () => {};
  }
  // The operational targets are the plugin's opt-in (docs/decisions/0013-operational-targets-opt-in.md):
  // a workspace set up here opts in, so `nx run <agent>:serve` and the rest work as the guides show.
  const pluginOptions = options.operationalTargets === false ? {} : { options: { operationalTargets: true } };
  nxJson.plugins = [...plugins, { plugin: PLUGIN_NAME, include: [...DEFAULT_INCLUDE], ...pluginOptions }];
  updateNxJson(tree, nxJson);
  return () => {};
}

export default initGenerator;
