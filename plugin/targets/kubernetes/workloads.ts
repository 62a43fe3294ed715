/**
 * The workloads of a Kubernetes output, mapped from the HB3 job specs:
 * - the root job serves A2A: a `Service`-kind job (a long-lived agent) becomes a Deployment
 *   (`DEFAULT_REPLICAS` pods sharing one task store, `AGENTDEF_TASK_STORE` from its Secret), a
 *   `Job`-kind one (it serves one task and exits) a Job; either way a Service named like the job
 *   (the origin its card advertises, `http://<name>:8080`; a name that starts with a digit gets an
 *   `a-` in front, and the pod's AGENTDEF_PUBLIC_ORIGIN follows) reaches it;
 * - a dag's quarantined steps (their own job specs) become one Job each, numbered in workflow
 *   order, applied suspended: the driver runs each one as its own process in the driver's pod
 *   unless a launcher (AGENTDEF_CHILD_LAUNCHER) resumes the step's Job and hands it its task on
 *   stdin (agentdef-child/v1, docs/hb3.md).
 */
import type { Hb3Job } from '../../host-contract/hb3-job';
import type { ContainerContract } from './container-contract';
import { DEFAULT_REPLICAS, dnsLabel, labelValue, serviceName } from './names';
import { podTemplate } from './pod-template';
import { orderedSteps, stepNumber, type WorkflowStep } from './workflow-order';

export const COMPONENT_LABEL = 'app.kubernetes.io/component';
export const PART_OF_LABEL = 'app.kubernetes.io/part-of';
export const STEP_ORDER_LABEL = 'agentdef.dev/step-order';
export const DEPENDS_ON_ANNOTATION = 'agentdef.dev/depends-on';

/** One object of the output: its file below `kubernetes/` and its content. */
export interface Manifest {
  file: string;
  object: Record<string, unknown>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function jobAnnotations(job: Hb3Job): Record<string, string> {
  return {
    'agentdef.dev/agent': job.metadata.agent,
    'agentdef.dev/node': job.metadata.node,
    'agentdef.dev/plan-digest': job.metadata.planDigest,
  };
}

/** The labels that select the pods serving the agent (stable across versions: a Deployment's selector never changes). */
export function servingSelector(labels: Record<string, string>): Record<string, string> {
  return { 'app.kubernetes.io/name': labels['app.kubernetes.io/name']!, [COMPONENT_LABEL]: 'agent' };
}

function rootWorkload(contract: ContainerContract, labels: Record<string, string>): Manifest[] {
  const { root } = contract;
  const name = root.metadata.name;
  const service = serviceName(name);
  const port = root.interface.kind === 'a2a-http' ? root.interface.port : 0;
  const selector = servingSelector(labels);
  const podLabels = { ...labels, [COMPONENT_LABEL]: 'agent' };
  const served = root.kind === 'Service';
  const template = podTemplate({
    job: root,
    agentName: name,
    labels: podLabels,
    annotations: jobAnnotations(root),
    taskStore: served,
    stdin: false,
    ...(service !== name ? { publicOrigin: `http://${service}:${port}` } : {}),
  });
  const metadata = { name, labels: podLabels, annotations: jobAnnotations(root) };
  const workload: Manifest = served
    ? {
        file: 'deployment.yaml',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata,
          spec: { replicas: DEFAULT_REPLICAS, selector: { matchLabels: selector }, template },
        },
      }
    : {
        file: 'job.yaml',
        object: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata,
          spec: {
            backoffLimit: 0,
            activeDeadlineSeconds: seconds(root.timeouts.activeDeadlineMs ?? root.timeouts.killAfterMs),
            template,
          },
        },
      };
  const serviceManifest: Manifest = {
    file: 'service.yaml',
    object: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: service, labels: podLabels, annotations: jobAnnotations(root) },
      spec: {
        type: 'ClusterIP',
        selector,
        ports: [{ name: 'http', port, targetPort: 'http', protocol: 'TCP' }],
      },
    },
  };
  return [workload, serviceManifest];
}

/** `<root>-<NN>-<rest of the child's job name>`, a DNS label. */
function stepJobName(rootName: string, number: string, child: Hb3Job): string {
  const own = child.metadata.name.startsWith(`${rootName}-`)
    ? child.metadata.name.slice(rootName.length + 1)
    : child.metadata.name;
  return dnsLabel(`${rootName}-${number}-${own}`);
}

function stepJobs(contract: ContainerContract, labels: Record<string, string>): Manifest[] {
  const rootName = contract.root.metadata.name;
  const jobSteps = orderedSteps(contract.steps).filter(
    (s): s is WorkflowStep & { job: string } =>
      s.isolation === 'job' && s.job !== undefined && contract.children.has(s.job),
  );
  const names = new Map<string, string>();
  jobSteps.forEach((step, i) =>
    names.set(step.id, stepJobName(rootName, stepNumber(i, jobSteps.length), contract.children.get(step.job)!)),
  );
  return jobSteps.map((step, i) => {
    const child = contract.children.get(step.job)!;
    const number = stepNumber(i, jobSteps.length);
    const name = names.get(step.id)!;
    const podLabels = {
      ...labels,
      [COMPONENT_LABEL]: 'step',
      [PART_OF_LABEL]: labelValue(rootName),
      [STEP_ORDER_LABEL]: number,
    };
    const annotations = {
      ...jobAnnotations(child),
      [DEPENDS_ON_ANNOTATION]: JSON.stringify(
        step.dependsOn.map((d) => ({
          node: d.step,
          ...(names.has(d.step) ? { job: names.get(d.step) } : {}),
          gate: d.gate,
          ...(d.condition ? { condition: d.condition } : {}),
        })),
      ),
    };
    return {
      file: `steps/${name}.yaml`,
      object: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, labels: podLabels, annotations },
        spec: {
          suspend: true,
          backoffLimit: 0,
          activeDeadlineSeconds: seconds(child.timeouts.activeDeadlineMs ?? child.timeouts.killAfterMs),
          template: podTemplate({
            job: child,
            agentName: rootName,
            labels: podLabels,
            annotations: jobAnnotations(child),
            taskStore: false,
            stdin: true,
          }),
        },
      },
    };
  });
}

/** The root's workload and Service, then each quarantined step's Job in workflow order. */
export function workloads(contract: ContainerContract, labels: Record<string, string>): Manifest[] {
  return [...rootWorkload(contract, labels), ...stepJobs(contract, labels)];
}
