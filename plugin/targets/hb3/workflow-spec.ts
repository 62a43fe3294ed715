/**
 * `hb3-workflow.json` (schema: plugin/schema/hb3-workflow.v1.schema.json) for a dag: one step per
 * node of the composition (nested dags flattened, each step naming the parent whose composition
 * holds it), dependencies from that parent's edges with their gates. The driver is the root's
 * job: it runs the composition with the portable runtime and decides the gates; a quarantined
 * step is its own job, the others run inside the process of the step (or driver) that holds them.
 */
import type { PlanEdge, CompilePlan } from '../../compiler/plan';
import type { NodeHostSpec } from '../../host-contract/node-host-spec';
import { HB3_API_VERSION } from '../../host-contract/hb3-job';
import { JOB_FILE } from '../../host-contract/output-files';
import { childJobFile } from './job-spec';
import { resolveLimits } from '../../runtime/runtime-config';

export interface Hb3WorkflowStep {
  id: string;
  name: string;
  agent: string;
  parent: string;
  isolation: 'job' | 'in-process';
  /** For `job` steps: the job file, relative to the output folder. */
  job?: string;
  /** For `in-process` steps: the node whose process runs it. */
  runsIn?: string;
  dependsOn: {
    step: string;
    gate: 'deterministic' | 'conditional' | 'llm-decides';
    condition?: { pointer: string; equals: string | number | boolean | null };
  }[];
}

export interface Hb3Workflow {
  apiVersion: typeof HB3_API_VERSION;
  kind: 'Workflow';
  metadata: { name: string; agent: string; planDigest: string };
  driver: { node: string; job: string };
  wallClockMs: number;
  steps: Hb3WorkflowStep[];
}

export function buildWorkflowSpec(plan: CompilePlan, host: NodeHostSpec, name: string): Hb3Workflow {
  const processOf = (nodeId: string): string => {
    const node = plan.nodes.find((n) => n.id === nodeId);
    if (!node?.parent || node.quarantine) return nodeId;
    return processOf(node.parent);
  };
  const flows = plan.edges.filter((e): e is Extract<PlanEdge, { kind: 'flow' }> => e.kind === 'flow');
  const steps: Hb3WorkflowStep[] = plan.nodes
    .filter((n) => n.parent !== undefined)
    .map((n) => {
      const step: Hb3WorkflowStep = {
        id: n.id,
        name: n.slug,
        agent: `${n.slug}@${n.version}`,
        parent: n.parent!,
        isolation: n.quarantine ? 'job' : 'in-process',
        dependsOn: flows
          .filter((e) => e.to === n.id)
          .map((e) => ({
            step: e.from,
            gate: e.gate ?? 'deterministic',
            ...(e.condition ? { condition: { ...e.condition } } : {}),
          })),
      };
      if (n.quarantine) step.job = childJobFile(plan.nodes[0]!.id, n.id);
      else step.runsIn = processOf(n.parent!);
      return step;
    });
  const root = host.nodes[host.rootId]!;
  return {
    apiVersion: HB3_API_VERSION,
    kind: 'Workflow',
    metadata: { name, agent: `${plan.root.slug}@${plan.root.version}`, planDigest: plan.digest },
    driver: { node: host.rootId, job: JOB_FILE },
    wallClockMs: resolveLimits(root.config.limits).wallClockMs,
    steps,
  };
}
