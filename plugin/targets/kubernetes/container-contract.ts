/**
 * The HB3 image contract a Kubernetes output is built on, reused rather than copied: the HB3
 * target's own adapter emits the image (Dockerfile, entrypoint) and the job specs, reached through
 * the target table (a target's folder never imports a sibling's), and this reads back what the
 * manifests map: the root's job, each quarantined child's job, a dag's workflow and every node's
 * runtime config.
 */
import type { Hb3Job } from '../../host-contract/hb3-job';
import { JOB_FILE, RUNTIME_CONFIGS_FILE, WORKFLOW_FILE } from '../../host-contract/output-files';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import type { EmittedFile, TargetDescriptor } from '../target';
import { targetFor } from '../targets';
import type { WorkflowStep } from './workflow-order';

/** The target whose image contract (image, entrypoint, job specs) a Kubernetes output carries. */
export function containerContractTarget(): TargetDescriptor {
  return targetFor('hb3');
}

export interface ContainerContract {
  root: Hb3Job;
  /** Each quarantined child's job, by its file (`jobs/<node>.hb3-job.json`). */
  children: Map<string, Hb3Job>;
  /** A dag's steps (hb3-workflow.json), in plan order. */
  steps: WorkflowStep[];
  /** Every node's runtime config, by node id. */
  configs: Record<string, RuntimeConfig>;
}

/** Reads the contract back from the files the HB3 adapter emitted (in memory). */
export function readContainerContract(files: readonly EmittedFile[]): ContainerContract {
  const json = (path: string) => {
    const file = files.find((f) => f.path === path);
    return file === undefined ? undefined : JSON.parse(file.contents);
  };
  const children = new Map<string, Hb3Job>();
  for (const file of files)
    if (file.path.startsWith('jobs/') && file.path.endsWith(`.${JOB_FILE}`))
      children.set(file.path, JSON.parse(file.contents) as Hb3Job);
  return {
    root: json(JOB_FILE) as Hb3Job,
    children,
    steps: ((json(WORKFLOW_FILE) as { steps?: WorkflowStep[] } | undefined)?.steps ?? []).slice(),
    configs: (json(RUNTIME_CONFIGS_FILE) ?? {}) as Record<string, RuntimeConfig>,
  };
}
