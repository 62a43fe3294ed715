/**
 * The Nx project inferred for one application manifest (`application.json` / `.yaml` / `.yml`):
 * named by the manifest's `id` (its folder's name when the id is unreadable, so the project and
 * its failing `check` still show up), with three targets running the application executors:
 *
 * - `plan` (dry-run unless `--mode=live`) and `check`: deterministic, so cached. Their inputs are
 *   the manifest, `^agentdefDefinition` (the definitions of the agents it composes, along the
 *   edges `createDependencies` adds), every definition file those agents' trees reach (listed
 *   explicitly, as the agents' own `plan` inputs are), the approved-artifacts folder of the
 *   reference gateway owner (plugin option `approvedArtifacts`; its approvals are owner evidence a
 *   plan binds), less the outbox that live runs write, and `component-host.mjs` beside the
 *   manifest when there is one (passed as `--host`). `check` also reads `inputs.json` beside the manifest (the
 *   entrypoint values of its offline dry-run).
 * - `execute` (dry-run unless `--mode=live`): never cached; a run is an event, recorded by the
 *   execution ledger, not a build output.
 *
 * The metadata carries what `createDependencies` needs: the composed agents' `{ slug, version }`.
 */
import type { TargetConfiguration } from '@nx/devkit';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  APPLICATION_EXECUTORS,
  type ApplicationTargetKind,
  DEFAULT_APPROVED_ARTIFACTS,
  type NormalizedPluginOptions,
  PLUGIN_VERSION,
} from './options';
import type { ApplicationSummary } from './read-application-summary';
import { folderProjectName } from './project-names';

/** The names an application manifest may have: definition/workspace-definitions.ts, where the definitions' are. */
export { APPLICATION_FILE_NAMES, isApplicationFileName } from '../definition/workspace-definitions';

/** The reference gateway owner's folder as inputs: its approvals and artifacts, not its outbox. */
export function approvedArtifactsInputs(folder: string): string[] {
  return [`{workspaceRoot}/${folder}/**/*`, `!{workspaceRoot}/${folder}/outbox/**/*`];
}

/**
 * An embedding host module beside the manifest: when present, the targets pass it as `--host`
 * (the packs it admits, with their private adapters) and it is an input of `plan` and `check`.
 */
export const COMPONENT_HOST_FILE = 'component-host.mjs';

/** The entrypoint values `check` runs its dry-run with, beside the manifest. */
export const CHECK_INPUTS_FILE = 'inputs.json';

/** The project-level named input holding an application project's own manifest. */
export const MANIFEST_INPUT = 'agentdefManifest';

/** Metadata every inferred application project carries, under `metadata.agentdefApplication`. */
export interface ApplicationProjectMetadata {
  /** Workspace-relative path of the manifest. */
  manifest: string;
  id?: string;
  revision?: string;
  /** The registered agents it composes, each with the line of its node. */
  agents: ApplicationSummary['agents'];
  pluginVersion: string;
  optionsHash: string;
}

export interface InferredApplication {
  /** Workspace-relative, posix. */
  file: string;
  root: string;
  summary: ApplicationSummary;
}

/**
 * One application project. `composition` is every definition file the composed agents' trees
 * reach (`{workspaceRoot}/…` inputs); `agentInput` is the agents' project-level named input.
 */
export function buildApplicationProject(
  application: InferredApplication,
  composition: readonly string[],
  options: NormalizedPluginOptions,
  workspaceRoot: string,
  agentInput: string,
) {
  const { summary } = application;
  const name = summary.id ?? folderProjectName(application.root, workspaceRoot);
  const manifest = `{projectRoot}/${basename(application.file)}`;
  const hasHost = existsSync(join(workspaceRoot, application.root, COMPONENT_HOST_FILE));
  const hostInputs = hasHost ? [`{projectRoot}/${COMPONENT_HOST_FILE}`] : [];
  const inputs = [
    MANIFEST_INPUT,
    `^${agentInput}`,
    ...composition,
    ...approvedArtifactsInputs(options.approvedArtifacts),
    ...hostInputs,
  ];
  const names = options.applicationTargetNames;
  // The CLI's own default folder needs no flag (it injects the gateway when approvals.json is there).
  const hostOptions = {
    ...(options.approvedArtifacts !== DEFAULT_APPROVED_ARTIFACTS ? { artifacts: options.approvedArtifacts } : {}),
    ...(hasHost ? { host: `{projectRoot}/${COMPONENT_HOST_FILE}` } : {}),
  };

  const target = (
    kind: ApplicationTargetKind,
    description: string,
    targetOptions: Record<string, unknown>,
    cachedInputs?: string[],
  ): TargetConfiguration => ({
    executor: APPLICATION_EXECUTORS[kind],
    options: { manifest, ...hostOptions, ...targetOptions },
    cache: cachedInputs !== undefined,
    ...(cachedInputs !== undefined ? { inputs: cachedInputs, outputs: [] } : {}),
    metadata: { description, technologies: ['agentdef'] },
  });

  const metadata: ApplicationProjectMetadata = {
    manifest: application.file,
    ...(summary.id !== undefined ? { id: summary.id } : {}),
    ...(summary.revision !== undefined ? { revision: summary.revision } : {}),
    agents: summary.agents,
    pluginVersion: PLUGIN_VERSION,
    optionsHash: options.hash,
  };

  return {
    name,
    tags: ['agentdef', 'agentdef:application'],
    namedInputs: { [MANIFEST_INPUT]: [manifest] },
    targets: {
      [names.plan]: target(
        'plan',
        'Verifies the manifest and prints its application plan (--mode=dry-run|live)',
        { mode: 'dry-run' },
        inputs,
      ),
      [names.check]: target(
        'check',
        'Runs the local verification of the application offline (digests, graph rules, privacy, a dry-run, idempotency…)',
        {},
        [...inputs, `{projectRoot}/${CHECK_INPUTS_FILE}`],
      ),
      [names.execute]: target(
        'execute',
        'Plans, then executes the application step by step (dry-run unless --mode=live); never cached',
        { mode: 'dry-run' },
      ),
    },
    metadata: {
      description:
        summary.id !== undefined
          ? `Application ${summary.id}@${summary.revision ?? '?'}`
          : `Application ${application.file} (its id is unreadable)`,
      technologies: ['agentdef'],
      targetGroups: { agentdef: [names.plan, names.check, names.execute] },
      agentdefApplication: metadata,
    },
  };
}
